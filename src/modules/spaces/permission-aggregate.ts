import type { Member, Prisma, Role } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import type { CollectionNode } from '../../core/loaders.ts';
import { paginate, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { strongestOf } from '../content-access/index.ts';
import type { UserPermission } from './content-grants.ts';
import { isStronger, levelsAbove } from './space-permissions.policy.ts';

const MEMBER_ORDER: SortKey[] = [
  { field: 'joinedAt', direction: 'asc', type: 'date' },
  { field: 'userId', direction: 'asc' },
];

export const PERMISSION_SOURCE_KINDS = [
  'organization-role',
  'space-default',
  'collection-default',
  'user-grant',
  'team-grant',
  'collection-user-grant',
  'collection-team-grant',
] as const;

/** Where a level comes from, in `listPermissionsAggregateIn{Space,Collection}` (an addition to GitBook's shape). */
export interface PermissionSource {
  kind: (typeof PERMISSION_SOURCE_KINDS)[number];
  level: Role;
  /** The collection (collection-default, collection-user-grant, collection-team-grant) or team (team-grant) it comes from. */
  id?: string;
  /** The team a collection-team-grant is to. */
  teamId?: string;
}

export interface AggregatePermission extends UserPermission {
  sources: PermissionSource[];
}

/** Each live enclosing collection's ID and default level, from `collectionId` up, innermost first (as `ancestorLevels`). */
export function collectionDefaults(collections: Map<string, CollectionNode>, collectionId: string | null) {
  const found: { id: string; level: Role }[] = [];
  const seen = new Set<string>();
  for (let id = collectionId; id && !seen.has(id); id = collections.get(id)?.parentId ?? null) {
    seen.add(id);
    const node = collections.get(id);
    if (node && !node.deletedAt) found.push({ id, level: node.defaultLevel });
  }
  return found;
}

/** What an aggregate is of: a space, or a collection. */
export interface AggregateTarget {
  organizationId: string;
  /** The space, whose own grants count (none for a collection). */
  spaceId?: string;
  /** The item's own default level (space-default or collection-default) and the enclosing collections' ones. */
  defaults: PermissionSource[];
  /** The live collections whose grants reach the item: the collection itself (for a collection) and every enclosing one. */
  collectionIds: string[];
}

type GrantRow = { role: Role; collectionId?: string };
type MemberRow = Member & {
  user: UserPermission['user'];
  spaceGrants?: GrantRow[];
  collectionGrants: GrantRow[];
  teams: { team: { id: string; spaceGrants?: GrantRow[]; collectionGrants: GrantRow[] } }[];
};

/**
 * Where a member's level comes from: their role and the defaults (members with a role only) and the
 * grants to them and their teams, on the item and on the collections around it. The level is the
 * strongest of them (access-level.ts), as every route computes it.
 */
export function permissionSources(member: MemberRow, defaults: PermissionSource[]): PermissionSource[] {
  const sources: PermissionSource[] = [];
  if (member.role) sources.push({ kind: 'organization-role', level: member.role }, ...defaults);
  for (const g of member.spaceGrants ?? []) sources.push({ kind: 'user-grant', level: g.role });
  for (const g of member.collectionGrants) sources.push({ kind: 'collection-user-grant', level: g.role, id: g.collectionId });
  for (const { team } of member.teams) {
    for (const g of team.spaceGrants ?? []) sources.push({ kind: 'team-grant', level: g.role, id: team.id });
    for (const g of team.collectionGrants) sources.push({ kind: 'collection-team-grant', level: g.role, id: g.collectionId, teamId: team.id });
  }
  return sources;
}

/**
 * Everyone who can access a space or collection — enabled members with a role, and guests with a grant
 * to them or one of their teams, on it or on an enclosing collection — with their effective level and
 * its sources; `role` keeps those whose effective level is exactly it. Two statements: the page
 * (members with their user, their grants and their teams' grants) and the count; the level filter is
 * spelled in SQL from the same rule.
 */
export async function listPermissionsAggregate(ctx: Context, target: AggregateTarget, args: ListArgs & { role?: Role | null }) {
  const { spaceId, collectionIds } = target;
  const defaultLevel = strongestOf(target.defaults.map((d) => d.level))!;
  // The grants that reach the item, with a condition on their level.
  const userGranted = (role: Prisma.EnumRoleFilter | Role | undefined, none = false): Prisma.MemberWhereInput[] => {
    const op = none ? 'none' : 'some';
    return [
      ...(spaceId ? [{ spaceGrants: { [op]: { spaceId, role } } }] : []),
      ...(collectionIds.length ? [{ collectionGrants: { [op]: { collectionId: { in: collectionIds }, role } } }] : []),
    ];
  };
  const teamGranted = (role: Prisma.EnumRoleFilter | Role | undefined): Prisma.TeamMemberWhereInput => ({
    team: {
      OR: [
        ...(spaceId ? [{ spaceGrants: { some: { spaceId, role } } }] : []),
        ...(collectionIds.length ? [{ collectionGrants: { some: { collectionId: { in: collectionIds }, role } } }] : []),
      ],
    },
  });
  const where: Prisma.MemberWhereInput = {
    organizationId: target.organizationId,
    disabled: false,
    OR: [{ role: { not: null } }, ...userGranted(undefined), { teams: { some: teamGranted(undefined) } }],
  };
  if (args.role) {
    const above = { in: levelsAbove(args.role) };
    const exactly: Prisma.MemberWhereInput[] = [{ role: args.role }, ...userGranted(args.role), { teams: { some: teamGranted(args.role) } }];
    if (defaultLevel === args.role) exactly.push({ role: { not: null } });
    where.AND = [
      // Nothing stronger: no stronger role (nor defaults, for members with a role), grant or team grant …
      isStronger(defaultLevel, args.role) ? { role: null } : { OR: [{ role: null }, { role: { notIn: above.in } }] },
      ...userGranted(above, true),
      { teams: { none: teamGranted(above) } },
      // … and something exactly as strong.
      { OR: exactly },
    ];
  }
  const collectionGrants = { where: { collectionId: { in: collectionIds } }, select: { role: true, collectionId: true } };
  const spaceGrants = spaceId ? { spaceGrants: { where: { spaceId }, select: { role: true } } } : {};
  const page = await paginate({
    args,
    keys: MEMBER_ORDER,
    where: where as Record<string, unknown>,
    findMany: (q) =>
      ctx.db.member.findMany({
        relationLoadStrategy: 'join',
        ...(q as object),
        include: {
          user: true,
          ...spaceGrants,
          collectionGrants,
          teams: { where: teamGranted(undefined), select: { team: { select: { id: true, ...spaceGrants, collectionGrants } } } },
        },
      }),
    count: (q) => ctx.db.member.count(q as Prisma.MemberCountArgs),
  });
  return {
    ...page,
    items: (page.items as unknown as MemberRow[]).map((member): AggregatePermission => {
      const sources = permissionSources(member, target.defaults);
      return { permission: strongestOf(sources.map((s) => s.level))!, user: member.user, sources };
    }),
  };
}
