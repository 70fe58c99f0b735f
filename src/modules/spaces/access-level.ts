import type { Role } from '../../generated/prisma/client.ts';
import { isMember, type Membership } from '../organizations/organization.policy.ts';
import { atLeast, roleRank } from '../organizations/roles.ts';

/**
 * The caller's effective level on a piece of content, and what it allows. Pure functions: services
 * use them to enforce access, schemas use them to compute the `permissions` objects.
 *
 * A member's level is the strongest of: their organization role, the content's own `defaultLevel`,
 * the `defaultLevel` of every enclosing collection, and explicit grants (to them or their teams).
 * Guests (role null) have no organization-wide level: they reach only content granted to them.
 */
export interface LevelSources {
  membership: Membership;
  /** defaultLevel of the item itself (space or collection). */
  ownLevel: Role;
  /** defaultLevel of each enclosing collection, innermost first. */
  inheritedLevels: Role[];
  /** Explicit grants to the user or their teams. */
  grants: Role[];
}

export function strongestOf(levels: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const level of levels) if (roleRank(level) > roleRank(best)) best = level ?? null;
  return best;
}

export function effectiveLevel(sources: LevelSources): Role | null {
  const { membership } = sources;
  if (!isMember(membership)) return null;
  if (membership.role === null) return strongestOf(sources.grants);
  return strongestOf([membership.role, sources.ownLevel, ...sources.inheritedLevels, ...sources.grants]);
}

export const canRead = (level: Role | null) => atLeast(level, 'read');
export const canComment = (level: Role | null) => atLeast(level, 'comment');
export const canEdit = (level: Role | null) => atLeast(level, 'edit');
export const canReview = (level: Role | null) => atLeast(level, 'review');
export const canCreateIn = (level: Role | null) => atLeast(level, 'create');
export const canAdminister = (level: Role | null) => atLeast(level, 'admin');

export function spacePermissions(level: Role | null) {
  return {
    access: canRead(level),
    admin: canAdminister(level),
    edit: canEdit(level),
    comment: canComment(level),
    merge: canReview(level),
    review: canReview(level),
  };
}

export function collectionPermissions(level: Role | null) {
  return { admin: canAdminister(level), create: canCreateIn(level) };
}
