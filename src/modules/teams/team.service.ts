import { Prisma, type Team, type TeamRole } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength, isEmail, rejectNull } from '../../core/validate.ts';
import { organizationForMember, type OrganizationAccess } from '../organizations/index.ts';
import { ADMIN_ROLES } from '../organizations/index.ts';
import { teamPolicy } from './team.policy.ts';

export const TEAM_SORT: SortKey[] = [
  { field: 'title', direction: 'asc' },
  { field: 'id', direction: 'asc' },
];
export const TEAM_MEMBER_SORT: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'userId', direction: 'asc' },
];
export const MAX_MEMBERS_PER_CALL = 1000;

function checkTitle(title: string | null | undefined) {
  rejectNull('title', title);
  checkLength('title', title?.trim(), 1, 64);
}

/** The organization, once the caller may do `action` on its teams (not one team in particular). */
async function organizationForTeams(ctx: Context, organizationId: string, action: 'read' | 'create' | 'rename' | 'delete'): Promise<OrganizationAccess> {
  const access = await organizationForMember(ctx, organizationId);
  authorize(teamPolicy, { ...access.actor, teamRole: null }, action, { organizationId });
  return access;
}

async function findTeam(ctx: Context, organizationId: string, teamId: string, query?: ItemQuery): Promise<Team> {
  const team = await ctx.db.team.findFirst({ relationLoadStrategy: 'join', ...(query as object), where: { id: teamId, organizationId } });
  if (!team) throw new NotFoundError(`Team "${teamId}" not found in this organization`);
  return team;
}

/**
 * Resolves user IDs or e-mail addresses to IDs of members of the organization; unknown ones → 400. The
 * members found are locked FOR KEY SHARE until the caller's transaction ends (what a foreign key check
 * takes): a concurrent removal from the organization waits, instead of failing our insert afterwards.
 */
async function resolveMemberIds(
  tx: Prisma.TransactionClient,
  organizationId: string,
  field: string,
  identifiers: string[],
): Promise<Map<string, string>> {
  if (identifiers.length > MAX_MEMBERS_PER_CALL) {
    throw new BadRequestError(`Invalid "${field}": at most ${MAX_MEMBERS_PER_CALL} entries`);
  }
  const resolved = new Map<string, string>();
  if (!identifiers.length) return resolved;
  const emails = identifiers.filter((i) => i.includes('@')).map((e) => e.trim().toLowerCase());
  const ids = identifiers.filter((i) => !i.includes('@'));
  for (const email of emails) if (!isEmail(email)) throw new BadRequestError(`Invalid "${field}": "${email}" is not an e-mail address`);
  const matches = [
    ...(ids.length ? [Prisma.sql`m."userId" IN (${Prisma.join(ids)})`] : []),
    ...(emails.length ? [Prisma.sql`u."email" IN (${Prisma.join(emails)})`] : []),
  ];
  const members = await tx.$queryRaw<{ userId: string; email: string }[]>`
    SELECT m."userId", u."email" FROM "Member" m JOIN "User" u ON u."id" = m."userId"
    WHERE m."organizationId" = ${organizationId} AND (${Prisma.join(matches, ' OR ')})
    ORDER BY m."userId"
    FOR KEY SHARE OF m`;
  const byKey = new Map<string, string>();
  for (const m of members) {
    byKey.set(m.userId, m.userId);
    byKey.set(m.email, m.userId);
  }
  for (const identifier of identifiers) {
    const key = identifier.includes('@') ? identifier.trim().toLowerCase() : identifier;
    const userId = byKey.get(key);
    if (!userId) throw new BadRequestError(`Invalid "${field}": "${identifier}" is not a member of this organization`);
    resolved.set(identifier, userId);
  }
  return resolved;
}

export interface TeamListFilter extends ListArgs {
  owner?: string | null;
  title?: string | null;
}

/**
 * Filter of the teams list. `owner` keeps the teams that member can manage: all of them when the member
 * is an organization admin, the teams they own otherwise — expressed as one filter so that the root
 * list and the batched `Organization.teams` graph field share it.
 */
export function teamListWhere(organizationId: string, filter: { title?: string | null; owner?: string | null }): Prisma.TeamWhereInput {
  checkLength('title', filter.title, 0, 64);
  const where: Prisma.TeamWhereInput = { organizationId };
  if (filter.title) where.title = { contains: filter.title, mode: 'insensitive' };
  if (filter.owner) {
    where.OR = [
      { members: { some: { userId: filter.owner, role: 'owner' } } },
      { organization: { members: { some: { userId: filter.owner, role: { in: [...ADMIN_ROLES] }, disabled: false } } } },
    ];
  }
  return where;
}

/** The organization, when the caller may see its teams (guests may not: 403). */
const organizationForTeamReader = (ctx: Context, organizationId: string) => organizationForTeams(ctx, organizationId, 'read');

export async function listTeams(ctx: Context, organizationId: string, filter: TeamListFilter, query?: ItemQuery) {
  await organizationForTeamReader(ctx, organizationId);
  return paginate({
    args: filter,
    keys: TEAM_SORT,
    where: teamListWhere(organizationId, filter),
    model: ctx.db.team,
    query,
  });
}

export async function getTeam(ctx: Context, organizationId: string, teamId: string, query?: ItemQuery): Promise<Team> {
  await organizationForTeamReader(ctx, organizationId);
  return findTeam(ctx, organizationId, teamId, query);
}

export async function createTeam(ctx: Context, organizationId: string, input: { title: string; members?: string[] | null }) {
  await organizationForTeams(ctx, organizationId, 'create');
  checkTitle(input.title);
  const id = newId();
  const now = ctx.clock.now();
  return ctx.db.$transaction(async (tx) => {
    const memberIds = input.members ? [...new Set((await resolveMemberIds(tx, organizationId, 'members', input.members)).values())].sort() : [];
    const team = await tx.team.create({ data: { id, organizationId, title: input.title.trim(), createdAt: now } });
    if (memberIds.length) {
      await tx.teamMember.createMany({ data: memberIds.map((userId) => ({ teamId: id, organizationId, userId, createdAt: now })) });
    }
    return team;
  });
}

export async function renameTeam(ctx: Context, organizationId: string, teamId: string, title: string) {
  await organizationForTeams(ctx, organizationId, 'rename');
  checkTitle(title);
  await findTeam(ctx, organizationId, teamId);
  return ctx.db.team.update({ where: { id: teamId }, data: { title: title.trim() } });
}

export async function deleteTeam(ctx: Context, organizationId: string, teamId: string): Promise<boolean> {
  await organizationForTeams(ctx, organizationId, 'delete');
  // deleteMany: of two concurrent deletes, the second finds nothing (404) instead of failing.
  const { count } = await ctx.db.team.deleteMany({ where: { id: teamId, organizationId } });
  if (count === 0) throw new NotFoundError(`Team "${teamId}" not found in this organization`);
  return true;
}

export async function listTeamMembers(ctx: Context, organizationId: string, teamId: string, args: ListArgs, query?: ItemQuery) {
  await organizationForTeamReader(ctx, organizationId);
  return paginate({
    args,
    keys: TEAM_MEMBER_SORT,
    where: { teamId },
    findMany: (q) => ctx.db.teamMember.findMany({ relationLoadStrategy: 'join', ...(query as object), ...q }),
    // The team's existence and the count in one statement (a missing team: 404, whatever the page).
    count: async ({ where }) => {
      const team = await ctx.db.team.findFirst({
        where: { id: teamId, organizationId },
        select: { _count: { select: { members: { where } } } },
      });
      if (!team) throw new NotFoundError(`Team "${teamId}" not found in this organization`);
      return team._count.members;
    },
  });
}

/** Loads the team and checks that the caller may manage its members (admin or team owner). */
async function teamForMemberManagement(ctx: Context, organizationId: string, teamId: string): Promise<Team> {
  const { actor } = await organizationForMember(ctx, organizationId);
  const team = await findTeam(ctx, organizationId, teamId);
  const own = await ctx.db.teamMember.findUnique({ where: { teamId_userId: { teamId, userId: actor.userId } } });
  authorize(teamPolicy, { ...actor, teamRole: own?.role ?? null }, 'manageMembers', team);
  return team;
}

const TEAM_ROLES: readonly TeamRole[] = ['owner', 'member'];

export interface TeamMembersChange {
  add?: string[] | null;
  remove?: string[] | null;
  memberships?: unknown;
}

function parseMemberships(value: unknown): Map<string, TeamRole> {
  const roles = new Map<string, TeamRole>();
  if (value === undefined || value === null) return roles;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new BadRequestError('Invalid "memberships": must be an object mapping a user ID or e-mail to { role }');
  }
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    const role = (entry as { role?: unknown } | null)?.role;
    if (typeof entry !== 'object' || entry === null || !TEAM_ROLES.includes(role as TeamRole)) {
      throw new BadRequestError(`Invalid "memberships.${key}.role": must be "owner" or "member"`);
    }
    roles.set(key, role as TeamRole);
  }
  return roles;
}

/**
 * Adds and removes team members in one transaction. A user both added and removed ends up removed;
 * `memberships` sets the team role of added or existing members.
 */
export async function updateTeamMembers(ctx: Context, organizationId: string, teamId: string, change: TeamMembersChange) {
  await teamForMemberManagement(ctx, organizationId, teamId);
  const roles = parseMemberships(change.memberships);
  const now = ctx.clock.now();
  await ctx.db.$transaction(async (tx) => {
    const added = await resolveMemberIds(tx, organizationId, 'add', change.add ?? []);
    const removed = await resolveMemberIds(tx, organizationId, 'remove', change.remove ?? []);
    const withRole = await resolveMemberIds(tx, organizationId, 'memberships', [...roles.keys()]);
    const removedIds = new Set(removed.values());
    const roleOf = new Map([...withRole].map(([key, userId]) => [userId, roles.get(key)!]));
    // Sorted: concurrent bulk adds insert (and so lock) rows in the same order, not into a deadlock.
    const toAdd = [...new Set(added.values())].filter((userId) => !removedIds.has(userId)).sort();
    if (removedIds.size) await tx.teamMember.deleteMany({ where: { teamId, userId: { in: [...removedIds] } } });
    if (toAdd.length) {
      // INSERT … ON CONFLICT DO NOTHING: someone added concurrently stays as they are (roles follow below).
      await tx.teamMember.createMany({
        data: toAdd.map((userId) => ({ teamId, organizationId, userId, role: roleOf.get(userId) ?? 'member', createdAt: now })),
        skipDuplicates: true,
      });
    }
    for (const role of TEAM_ROLES) {
      const userIds = [...roleOf].filter(([userId, r]) => r === role && !removedIds.has(userId)).map(([userId]) => userId);
      if (userIds.length) await tx.teamMember.updateMany({ where: { teamId, userId: { in: userIds } }, data: { role } });
    }
  });
  return true;
}

/**
 * Adds one member to a team (or sets their team role), as one INSERT … ON CONFLICT: concurrent adds of
 * the same person all succeed. Prisma's `upsert` is a select-then-insert here, which lost that race.
 */
export async function addTeamMember(ctx: Context, organizationId: string, teamId: string, userId: string, role: TeamRole | null | undefined) {
  await teamForMemberManagement(ctx, organizationId, teamId);
  const now = ctx.clock.now();
  await ctx.db.$transaction(async (tx) => {
    // Locked like a foreign key check would, but first: a team deleted or a member removed concurrently
    // is a 404 naming what is gone, rather than a foreign key violation on the insert.
    const [team] = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "Team" WHERE "id" = ${teamId} AND "organizationId" = ${organizationId} FOR KEY SHARE`;
    if (!team) throw new NotFoundError(`Team "${teamId}" not found in this organization`);
    const [member] = await tx.$queryRaw<unknown[]>`
      SELECT 1 FROM "Member" WHERE "organizationId" = ${organizationId} AND "userId" = ${userId} FOR KEY SHARE`;
    if (!member) throw new NotFoundError(`Member "${userId}" not found in this organization`);
    await tx.$executeRaw`
      INSERT INTO "TeamMember" ("teamId", "organizationId", "userId", "role", "createdAt")
      VALUES (${teamId}, ${organizationId}, ${userId}, ${role ?? 'member'}::"TeamRole", ${now})
      ON CONFLICT ("teamId", "userId") DO UPDATE SET "role" = COALESCE(${role ?? null}::"TeamRole", "TeamMember"."role")`;
  });
  return true;
}

export async function removeTeamMember(ctx: Context, organizationId: string, teamId: string, userId: string) {
  await teamForMemberManagement(ctx, organizationId, teamId);
  const { count } = await ctx.db.teamMember.deleteMany({ where: { teamId, userId } });
  if (count === 0) throw new NotFoundError(`User "${userId}" is not a member of this team`);
  return true;
}

/** Teams a member belongs to, with their team role. */
export async function listMemberTeams(
  ctx: Context,
  organizationId: string,
  userId: string,
  filter: ListArgs & { title?: string | null },
  query?: ItemQuery,
) {
  await organizationForTeamReader(ctx, organizationId);
  checkLength('title', filter.title, 0, 64);
  const where: Prisma.TeamMemberWhereInput = { organizationId, userId };
  if (filter.title) where.team = { title: { contains: filter.title, mode: 'insensitive' } };
  return paginate({
    args: filter,
    keys: [
      { field: 'createdAt', direction: 'asc', type: 'date' },
      { field: 'teamId', direction: 'asc' },
    ],
    where,
    findMany: (q) => ctx.db.teamMember.findMany({ relationLoadStrategy: 'join', ...(query as object), ...q }),
    // The member's existence and the count in one statement (an unknown member: 404, whatever the page).
    count: async () => {
      const member = await ctx.db.member.findUnique({
        where: { organizationId_userId: { organizationId, userId } },
        select: { _count: { select: { teams: { where: filter.title ? { team: where.team } : {} } } } },
      });
      if (!member) throw new NotFoundError(`Member "${userId}" not found in this organization`);
      return member._count.teams;
    },
  });
}
