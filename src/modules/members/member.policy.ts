import type { Member } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { hasRole, isAdmin, isMember, type OrganizationActor } from '../organizations/organization.policy.ts';

/** A member of the organization, named by user ID (it may not exist: the rules never need its row). */
export type MemberTarget = Pick<Member, 'userId'>;

const isSelf = (actor: OrganizationActor, target: MemberTarget) => actor.userId === target.userId;

/**
 * Who may do what with a member (docs/api/organizations.md, "Rules"). The member directory (names, e-mail addresses,
 * roles) is for members with a role; guests see their own membership only — about anyone else, known
 * or not, they get the same 403, so nothing is revealed. Admins change roles, set SSO members and
 * remove members; any member may leave. (That an organization keeps an admin is an invariant the
 * service keeps, not a permission.) Listing the directory is the organization's `listMembers`.
 */
export const memberPolicy = definePolicy<OrganizationActor, MemberTarget>()({
  visible: ({ membership }) => isMember(membership),
  notFound: (m) => `Member "${m.userId}" not found in this organization`,
  rules: {
    read: (actor, target) => hasRole(actor.membership) || isSelf(actor, target),
    updateRole: ({ membership }) => isAdmin(membership),
    setSso: ({ membership }) => isAdmin(membership),
    remove: (actor, target) => isAdmin(actor.membership) || isSelf(actor, target),
    listSpaces: (actor, target) => isAdmin(actor.membership) || isSelf(actor, target),
  },
  refusals: {
    read: 'Guests can only see their own membership, not the other members or teams',
    updateRole: 'Only organization admins can change roles',
    setSso: 'Only organization admins can set SSO members',
    remove: 'Only organization admins can remove other members',
    listSpaces: "Only organization admins can list another member's spaces",
  },
});
