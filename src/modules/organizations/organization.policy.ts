import type { Member } from '../../generated/prisma/client.ts';
import { atLeast } from './roles.ts';

/**
 * Who may do what in an organization. Pure functions of the caller's membership (null = not a member):
 * the same functions enforce access in services and compute the `permissions` objects in responses.
 */
export type Membership = Pick<Member, 'role' | 'disabled'> | null;

export function isMember(m: Membership): m is NonNullable<Membership> {
  return m !== null && !m.disabled;
}

/** Any member (guests included) can read the organization, its members and teams. */
export function canReadOrganization(m: Membership): boolean {
  return isMember(m);
}

/** Admins change the organization settings, members' roles and teams. */
export function canAdministerOrganization(m: Membership): boolean {
  return isMember(m) && atLeast(m.role, 'admin');
}

export function canCreateContent(m: Membership): boolean {
  return isMember(m) && atLeast(m.role, 'create');
}

/** Billing details are only shown to members. */
export function canSeeBilling(m: Membership): boolean {
  return isMember(m);
}

/**
 * When an organization enforces SSO, members who did not sign in through it cannot use it — except
 * admins, so that nobody locks themselves out.
 */
export function blockedBySso(organization: { sso: boolean }, m: Pick<Member, 'role' | 'sso'> | null): boolean {
  return organization.sso && m !== null && !m.sso && m.role !== 'admin';
}

export function organizationPermissions(m: Membership) {
  return { admin: canAdministerOrganization(m), createContent: canCreateContent(m) };
}
