import { Prisma, type Member, type Role, type Space, type Team, type User } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import type { CollectionNode } from '../../core/loaders.ts';
import { paginate, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { rejectNull } from '../../core/validate.ts';
import { strongestOf } from './access-level.ts';
import { spaceActor } from './content-access.ts';
import { isStronger, levelsAbove, spaceGrantPolicy, type SpaceGrantAction } from './space-permissions.policy.ts';
import { spacePolicy } from './space.policy.ts';

/** Users or teams named in one `inviteToSpace`. */
export const MAX_INVITEES_PER_CALL = 100;

const GRANT_ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'userId', direction: 'asc' },
];
const TEAM_GRANT_ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'teamId', direction: 'asc' },
];
const MEMBER_ORDER: SortKey[] = [
  { field: 'joinedAt', direction: 'asc', type: 'date' },
  { field: 'userId', direction: 'asc' },
];

/** The space, once the caller may `action` on its access list (space-permissions.policy.ts). */
async function spaceForGrants(ctx: Context, spaceId: string, action: SpaceGrantAction, level?: Role | null): Promise<Space> {
  const space = await ctx.loaders.space.load(spaceId);
  if (!space) throw new NotFoundError(spacePolicy.notFound({ id: spaceId, deletedAt: null }));
  authorize(spaceGrantPolicy, await spaceActor(ctx, space), action, { ...space, level });
  return space;
}

const stronger = (a: Role | null | undefined, b: Role | null | undefined) => strongestOf([a, b]);

// ---- Writes ----

export interface InviteToSpaceInput {
  role: Role;
  users?: string[] | null;
  teams?: string[] | null;
  emails?: string[] | null;
}

/**
 * Grants `role` on the space to organization members and teams (`inviteToSpace`), in one transaction: a
 * user or team that already has a grant gets the new level. Every user must be a member of the space's
 * organization (guests included) and every team one of its teams, else 404 naming it and nothing is
 * written. E-mail addresses are refused (400): GitBook's InviteUsersAndTeams has none, and a person who is
 * not a member yet has no membership a grant could hang on — invite them to the organization first.
 */
export async function inviteToSpace(ctx: Context, spaceId: string, input: InviteToSpaceInput): Promise<boolean> {
  if (input.emails !== undefined && input.emails !== null) {
    throw new BadRequestError(
      'Invalid "emails": a space is shared with members and teams of its organization; invite new people to the organization first (POST /orgs/{organizationId}/invites), then to the space by user ID',
    );
  }
  rejectNull('role', input.role);
  const users = [...new Set(input.users ?? [])];
  const teams = [...new Set(input.teams ?? [])];
  if (users.length === 0 && teams.length === 0) throw new BadRequestError('Invalid "users": give at least one user or team ("users" or "teams")');
  const space = await spaceForGrants(ctx, spaceId, 'grant', input.role);
  const now = ctx.clock.now();
  await ctx.db.$transaction(async (tx) => {
    // The members and teams named are locked FOR KEY SHARE (what the foreign keys' checks take): a
    // concurrent removal from the organization waits for this transaction instead of failing it.
    if (users.length) {
      const found = await tx.$queryRaw<{ userId: string }[]>`
        SELECT "userId" FROM "Member" WHERE "organizationId" = ${space.organizationId} AND "userId" IN (${Prisma.join(users)})
        ORDER BY "userId" FOR KEY SHARE`;
      const known = new Set(found.map((m) => m.userId));
      const missing = users.find((u) => !known.has(u));
      if (missing) throw new NotFoundError(`User "${missing}" is not a member of this organization`);
      await tx.$executeRaw`
        INSERT INTO "SpaceUserGrant" ("spaceId", "organizationId", "userId", "role", "createdAt")
        VALUES ${Prisma.join(users.map((userId) => Prisma.sql`(${space.id}, ${space.organizationId}, ${userId}, ${input.role}::"Role", ${now})`))}
        ON CONFLICT ("spaceId", "userId") DO UPDATE SET "role" = EXCLUDED."role"`;
    }
    if (teams.length) {
      const found = await tx.$queryRaw<{ id: string }[]>`
        SELECT "id" FROM "Team" WHERE "organizationId" = ${space.organizationId} AND "id" IN (${Prisma.join(teams)})
        ORDER BY "id" FOR KEY SHARE`;
      const known = new Set(found.map((t) => t.id));
      const missing = teams.find((t) => !known.has(t));
      if (missing) throw new NotFoundError(`Team "${missing}" not found in this organization`);
      await tx.$executeRaw`
        INSERT INTO "SpaceTeamGrant" ("spaceId", "teamId", "role", "createdAt")
        VALUES ${Prisma.join(teams.map((teamId) => Prisma.sql`(${space.id}, ${teamId}, ${input.role}::"Role", ${now})`))}
        ON CONFLICT ("spaceId", "teamId") DO UPDATE SET "role" = EXCLUDED."role"`;
    }
  });
  return true;
}

/**
 * Changes the level of an existing grant (404 when the user or team has none on the space). The caller
 * must be allowed to grant both the old and the new level. A `role` left out changes nothing.
 */
export async function updateSpaceGrant(ctx: Context, spaceId: string, grantee: { userId: string } | { teamId: string }, role: Role | null | undefined) {
  rejectNull('role', role);
  const existing = await findGrant(ctx, spaceId, grantee);
  const space = await spaceForGrants(ctx, spaceId, 'grant', stronger(existing?.role, role));
  if (!existing) throw grantNotFound(grantee);
  if (!role || role === existing.role) return true;
  const { count } =
    'userId' in grantee
      ? await ctx.db.spaceUserGrant.updateMany({ where: { spaceId: space.id, userId: grantee.userId }, data: { role } })
      : await ctx.db.spaceTeamGrant.updateMany({ where: { spaceId: space.id, teamId: grantee.teamId }, data: { role } });
  // Removed meanwhile by another request: as if it had not been there.
  if (count === 0) throw grantNotFound(grantee);
  return true;
}

/**
 * Removes a user's or a team's grant: true when there was one (REST 205), false when there was none (204).
 * The caller must be allowed to grant the level removed.
 */
export async function removeSpaceGrant(ctx: Context, spaceId: string, grantee: { userId: string } | { teamId: string }): Promise<boolean> {
  const existing = await findGrant(ctx, spaceId, grantee);
  const space = await spaceForGrants(ctx, spaceId, 'grant', existing?.role);
  if (!existing) return false;
  const { count } =
    'userId' in grantee
      ? await ctx.db.spaceUserGrant.deleteMany({ where: { spaceId: space.id, userId: grantee.userId } })
      : await ctx.db.spaceTeamGrant.deleteMany({ where: { spaceId: space.id, teamId: grantee.teamId } });
  return count > 0;
}

function findGrant(ctx: Context, spaceId: string, grantee: { userId: string } | { teamId: string }): Promise<{ role: Role } | null> {
  return 'userId' in grantee
    ? ctx.db.spaceUserGrant.findUnique({ where: { spaceId_userId: { spaceId, userId: grantee.userId } }, select: { role: true } })
    : ctx.db.spaceTeamGrant.findUnique({ where: { spaceId_teamId: { spaceId, teamId: grantee.teamId } }, select: { role: true } });
}

const grantNotFound = (grantee: { userId: string } | { teamId: string }) =>
  new NotFoundError('userId' in grantee ? `User "${grantee.userId}" has no permission on this space` : `Team "${grantee.teamId}" has no permission on this space`);

// ---- Lists ----

export interface UserPermission {
  permission: Role;
  user: User;
}

/** `listUserPermissionsInSpace`: the users given a level on the space itself, oldest grant first. */
export async function listSpaceUserPermissions(ctx: Context, spaceId: string, args: ListArgs) {
  const space = await spaceForGrants(ctx, spaceId, 'list');
  const page = await paginate({
    args,
    keys: GRANT_ORDER,
    where: { spaceId: space.id },
    findMany: (q) => ctx.db.spaceUserGrant.findMany({ relationLoadStrategy: 'join', ...q, include: { member: { select: { user: true } } } }),
    count: (q) => ctx.db.spaceUserGrant.count(q),
  });
  return { ...page, items: page.items.map((g): UserPermission => ({ permission: g.role, user: g.member.user })) };
}

/** `listTeamPermissionsInSpace`: the teams given a level on the space, oldest grant first. */
export async function listSpaceTeamPermissions(ctx: Context, spaceId: string, args: ListArgs, teamQuery?: ItemQuery) {
  const space = await spaceForGrants(ctx, spaceId, 'list');
  const page = await paginate({
    args,
    keys: TEAM_GRANT_ORDER,
    where: { spaceId: space.id },
    findMany: (q) =>
      ctx.db.spaceTeamGrant.findMany({ relationLoadStrategy: 'join', ...q, include: { team: (teamQuery?.select || teamQuery?.include ? teamQuery : true) as true } }),
    count: (q) => ctx.db.spaceTeamGrant.count(q),
  });
  return { ...page, items: page.items.map((g) => ({ permission: g.role, team: g.team as Team })) };
}

/** Where a level comes from, in `listPermissionsAggregateInSpace` (an addition to GitBook's shape). */
export interface PermissionSource {
  kind: 'organization-role' | 'space-default' | 'collection-default' | 'user-grant' | 'team-grant';
  level: Role;
  /** The collection (collection-default) or team (team-grant) it comes from. */
  id?: string;
}

export interface AggregatePermission extends UserPermission {
  sources: PermissionSource[];
}

/** Each enclosing collection's ID and default level, innermost first (as `ancestorLevels`). */
function collectionDefaults(collections: Map<string, CollectionNode>, collectionId: string | null) {
  const found: { id: string; level: Role }[] = [];
  const seen = new Set<string>();
  for (let id = collectionId; id && !seen.has(id); id = collections.get(id)?.parentId ?? null) {
    seen.add(id);
    const node = collections.get(id);
    if (node && !node.deletedAt) found.push({ id, level: node.defaultLevel });
  }
  return found;
}

/**
 * Where a member's level on a space comes from: their role and the defaults (members with a role only)
 * and the grants to them and their teams. The level is the strongest of them (access-level.ts), as every
 * route computes it.
 */
export function permissionSources(
  member: Pick<Member, 'role'>,
  defaults: { space: Role; collections: { id: string; level: Role }[] },
  grants: { user: Role | null; teams: { id: string; level: Role }[] },
): PermissionSource[] {
  const sources: PermissionSource[] = [];
  if (member.role) {
    sources.push({ kind: 'organization-role', level: member.role });
    sources.push({ kind: 'space-default', level: defaults.space });
    for (const c of defaults.collections) sources.push({ kind: 'collection-default', level: c.level, id: c.id });
  }
  if (grants.user) sources.push({ kind: 'user-grant', level: grants.user });
  for (const t of grants.teams) sources.push({ kind: 'team-grant', level: t.level, id: t.id });
  return sources;
}

/**
 * `listPermissionsAggregateInSpace`: everyone who can access the space — enabled members with a role,
 * and guests with a grant to them or one of their teams — with their effective level and its sources;
 * `role` keeps those whose effective level is exactly it. Two statements after the access check: the
 * page (members with their user, their grant and their teams' grants on the space) and the count; the
 * level filter is spelled in SQL from the same rule.
 */
export async function listSpacePermissionsAggregate(ctx: Context, spaceId: string, args: ListArgs & { role?: Role | null }) {
  const space = await spaceForGrants(ctx, spaceId, 'list');
  const collections = collectionDefaults(await ctx.loaders.organizationCollections.load(space.organizationId), space.collectionId);
  const defaultLevel = strongestOf([space.defaultLevel, ...collections.map((c) => c.level)])!;
  const granted = { spaceId: space.id };
  const teamGranted = (grant: Prisma.SpaceTeamGrantWhereInput) => ({ team: { spaceGrants: { some: { spaceId: space.id, ...grant } } } });
  const where: Prisma.MemberWhereInput = {
    organizationId: space.organizationId,
    disabled: false,
    OR: [{ role: { not: null } }, { spaceGrants: { some: granted } }, { teams: { some: teamGranted({}) } }],
  };
  if (args.role) {
    const above = levelsAbove(args.role);
    const exactly: Prisma.MemberWhereInput[] = [
      { role: args.role },
      { spaceGrants: { some: { ...granted, role: args.role } } },
      { teams: { some: teamGranted({ role: args.role }) } },
    ];
    if (defaultLevel === args.role) exactly.push({ role: { not: null } });
    where.AND = [
      // Nothing stronger: no stronger role (nor defaults, for members with a role), grant or team grant …
      isStronger(defaultLevel, args.role) ? { role: null } : { OR: [{ role: null }, { role: { notIn: above } }] },
      { spaceGrants: { none: { ...granted, role: { in: above } } } },
      { teams: { none: teamGranted({ role: { in: above } }) } },
      // … and something exactly as strong.
      { OR: exactly },
    ];
  }
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
          spaceGrants: { where: granted, select: { role: true } },
          teams: { where: teamGranted({}), select: { team: { select: { id: true, spaceGrants: { where: granted, select: { role: true } } } } } },
        },
      }),
    count: (q) => ctx.db.member.count(q as Prisma.MemberCountArgs),
  });
  return {
    ...page,
    items: page.items.map(({ user, spaceGrants, teams, ...member }): AggregatePermission => {
      const sources = permissionSources(
        member,
        { space: space.defaultLevel, collections },
        {
          user: spaceGrants[0]?.role ?? null,
          teams: teams.flatMap((t) => t.team.spaceGrants.map((g) => ({ id: t.team.id, level: g.role }))),
        },
      );
      return { permission: strongestOf(sources.map((s) => s.level))!, user, sources };
    }),
  };
}
