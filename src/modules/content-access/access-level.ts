import type { Role } from '../../generated/prisma/client.ts';
import { isMember, type Membership, type OrganizationActor } from '../organizations/organization.policy.ts';
import { roleRank } from '../organizations/roles.ts';

/**
 * The caller's effective level on a piece of content (what it allows is in space.policy.ts and
 * collection.policy.ts).
 *
 * A member's level is the strongest of: their organization role, the content's own `defaultLevel`,
 * the `defaultLevel` of every enclosing collection, and explicit grants (to them or their teams) on the
 * item or on any enclosing collection — a grant on a collection reaches everything inside it, at any
 * depth. Guests (role null) have no organization-wide level: they reach only content granted to them,
 * there or on an enclosing collection.
 */
export interface LevelSources {
  membership: Membership;
  /** defaultLevel of the item itself (space or collection). */
  ownLevel: Role;
  /** defaultLevel of each enclosing collection, innermost first. */
  inheritedLevels: Role[];
  /** Explicit grants to the user or their teams, on the item and on every enclosing collection. */
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

/**
 * The caller relative to a space or collection: their organization membership, their effective level
 * on the item (null: none), and whether its organization enforces SSO.
 */
export interface ContentActor extends OrganizationActor {
  level: Role | null;
  organizationSso: boolean;
}
