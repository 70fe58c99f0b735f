import type { Role } from '../../generated/prisma/client.ts';

/** Roles from weakest to strongest. A stronger role includes every ability of the weaker ones. */
export const ROLES: readonly Role[] = ['read', 'comment', 'edit', 'review', 'create', 'admin'];

export function roleRank(role: Role | null | undefined): number {
  return role ? ROLES.indexOf(role) + 1 : 0; // 0 = guest / no role
}

export function atLeast(role: Role | null | undefined, minimum: Role): boolean {
  return roleRank(role) >= roleRank(minimum);
}

/** Every role at least as strong as `minimum` (for filters that must agree with `atLeast`). */
export function rolesAtLeast(minimum: Role): Role[] {
  return ROLES.filter((role) => atLeast(role, minimum));
}

/** The levels stronger than `level`, for filters that must agree with the level rule. */
export const levelsAbove = (level: Role): Role[] => ROLES.filter((r) => roleRank(r) > roleRank(level));
/** Whether `a` is a stronger level than `b`. */
export const isStronger = (a: Role | null | undefined, b: Role | null | undefined): boolean => roleRank(a) > roleRank(b);

/** The stronger of two levels (used to combine organization, collection and space levels). */
export function strongest(a: Role | null | undefined, b: Role | null | undefined): Role | null {
  return roleRank(a) >= roleRank(b) ? (a ?? null) : (b ?? null);
}
