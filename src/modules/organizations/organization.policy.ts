import type { Member, Organization, Role } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { atLeast, rolesAtLeast } from './roles.ts';

/** What organization rules know of the caller's membership (null = not a member). */
export type Membership = Pick<Member, 'role' | 'disabled'> | null;

/** The caller as the rules of an organization (and of what belongs to it) see them. */
export interface OrganizationActor {
  userId: string;
  membership: (Pick<Member, 'role' | 'disabled'> & Partial<Pick<Member, 'sso'>>) | null;
}

export function isMember(m: Membership): m is NonNullable<Membership> {
  return m !== null && !m.disabled;
}

/** A member who holds a role: guests (role null) were only given some spaces. */
export const hasRole = (m: Membership) => isMember(m) && m.role !== null;
/** The roles that administer an organization, for queries that must agree with `isAdmin`. */
export const ADMIN_ROLES: readonly Role[] = rolesAtLeast('admin');
export const isAdmin = (m: Membership) => isMember(m) && atLeast(m.role, 'admin');

/**
 * An organization always keeps an admin: a member who administers it may lose that role, or leave, only
 * while another enabled admin remains (otherwise a 409, LAST_ADMIN). `otherAdmins` is counted under the
 * organization's lock by the caller.
 */
export function keepsAnAdmin(change: { wasAdmin: boolean; staysAdmin: boolean; otherAdmins: number }): boolean {
  return !change.wasAdmin || change.staysAdmin || change.otherAdmins > 0;
}
export const LAST_ADMIN = 'The organization must keep at least one admin';
export const mayCreateContent = (m: Membership) => isMember(m) && atLeast(m.role, 'create');

/**
 * When an organization enforces SSO, members who did not sign in through it cannot use it — except
 * admins, so that nobody locks themselves out.
 */
export function blockedBySso(organization: { sso: boolean }, m: OrganizationActor['membership']): boolean {
  return organization.sso && m !== null && !m.sso && m.role !== 'admin';
}

/**
 * Who may do what with an organization (docs/api/organizations.md, "Rules"):
 * - any member (guests included) reads it and sees its billing; outsiders get 404, as for an unknown ID;
 * - members with a role read its member directory and teams, and see its collections;
 * - `admin` changes it; `create` (or above) creates content at its top level and transfers content out
 *   of and into it;
 * - when it enforces SSO, members who are not SSO members get 403 (admins excepted).
 */
export const organizationPolicy = definePolicy<OrganizationActor, Pick<Organization, 'id' | 'sso'>>()({
  visible: ({ membership }) => isMember(membership),
  notFound: (o) => `Organization "${o.id}" not found`,
  gates: [{ allows: ({ membership }, o) => !blockedBySso(o, membership), refusal: 'This organization requires signing in with SSO', except: ['seeBilling'] }],
  rules: {
    read: ({ membership }) => isMember(membership),
    seeBilling: ({ membership }) => isMember(membership),
    update: ({ membership }) => isAdmin(membership),
    listMembers: ({ membership }) => hasRole(membership),
    listTeams: ({ membership }) => hasRole(membership),
    listCollections: ({ membership }) => hasRole(membership),
    createContent: ({ membership }) => mayCreateContent(membership),
    transferOut: ({ membership }) => mayCreateContent(membership),
    transferIn: ({ membership }) => mayCreateContent(membership),
  },
  refusals: {
    read: 'This organization requires signing in with SSO',
    seeBilling: 'Only members see billing',
    update: 'This needs the "admin" role in the organization',
    listMembers: 'Guests can only see their own membership, not the other members or teams',
    listTeams: 'Guests cannot see the teams of the organization',
    listCollections: 'Guests cannot see the collections of the organization',
    createContent: 'Creating content needs the "create" role in the organization',
    transferOut: 'Transferring needs the "create" role in this organization',
    transferIn: 'Transferring needs the "create" role in the target organization',
  },
});

/** `Organization.permissions`: each key is the action it stands for. */
export const ORGANIZATION_PERMISSIONS = { admin: 'update', createContent: 'createContent' } as const;

/** The caller as instance-level rules see them: which kind of token they hold. */
export interface TokenActor {
  /** The ADMIN_TOKEN bearer: instance administration, nothing else. */
  instanceAdmin: boolean;
  /** The organization a token from SAML sign-in is scoped to; null for a personal token. */
  scopeOrganizationId: string | null;
}

/**
 * Creating an organization (the caller becomes its admin) needs a personal token: a token from an
 * organization's SAML sign-in is worth nothing outside that organization (docs/api/sso.md, "SAML single sign-on").
 */
export const organizationCreationPolicy = definePolicy<TokenActor, null>()({
  visible: () => true,
  notFound: () => 'Not found',
  rules: {
    create: (actor) => !actor.instanceAdmin && actor.scopeOrganizationId === null,
  },
  refusals: {
    create: 'A token from SSO sign-in can only be used in its own organization; creating organizations needs a personal token',
  },
});
