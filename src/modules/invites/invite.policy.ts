import type { Invite, LinkInvite, Organization } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { isAdmin, isMember, type OrganizationActor } from '../organizations/organization.policy.ts';

/**
 * Who may invite people into an organization (docs/api/organizations.md, "Invitations"): admins send e-mail invitations
 * and manage invite links. The record is the organization invited to.
 */
export const invitationPolicy = definePolicy<OrganizationActor, Pick<Organization, 'id'>>()({
  visible: ({ membership }) => isMember(membership),
  notFound: (o) => `Organization "${o.id}" not found`,
  rules: {
    send: ({ membership }) => isAdmin(membership),
    manageLinks: ({ membership }) => isAdmin(membership),
  },
  refusals: {
    send: 'This needs the "admin" role in the organization',
    manageLinks: 'This needs the "admin" role in the organization',
  },
});

/** The caller joining: who they are, and whether their token may act in the organization at all. */
export interface JoinActor {
  userId: string;
  /** False for a token scoped to another organization (SAML sign-in): it is an outsider here. */
  mayActIn: boolean;
}

/** An invitation ID presented to join an organization, with what it turned out to name. */
export interface JoinRecord {
  inviteId: string;
  organization: Pick<Organization, 'inviteLinks'> | null;
  /** The e-mail invitation with that ID, if it is one. */
  invite: Pick<Invite, 'userId'> | null;
  /** The invite link with that ID, if it is one. */
  link: Pick<LinkInvite, 'id'> | null;
}

/**
 * Joining with an invitation ID: an e-mail invitation joins only the person it is addressed to
 * (everyone else gets 404, as for an unknown ID); an invite link joins whoever holds it while the
 * organization has invite links enabled (403 otherwise). A token scoped to another organization
 * joins nothing (404).
 */
export const joinPolicy = definePolicy<JoinActor, JoinRecord>()({
  visible: (actor, r) =>
    r.organization !== null && actor.mayActIn && (r.invite ? r.invite.userId === actor.userId : r.link !== null),
  notFound: (r) => `Invite "${r.inviteId}" not found`,
  rules: {
    join: (_actor, r) => r.invite !== null || r.organization?.inviteLinks === true,
  },
  refusals: {
    join: 'Invite links are disabled for this organization',
  },
});
