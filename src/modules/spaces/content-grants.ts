import { Prisma, type Role, type Team, type User } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import { paginate, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { rejectNull } from '../../core/validate.ts';
import { viewerOf } from '../../core/context.ts';
import { inviteEmailsToContent } from '../invites/index.ts';

/**
 * The access lists of spaces, collections and sites (docs/api/spaces.md, "Permissions"; docs/api/sites.md,
 * "Permissions"): the same grants, in three pairs of tables. What may be done with them is each one's
 * policy; how they are written and read is here, once.
 */
export type GrantedKind = 'space' | 'collection' | 'site';

/** A space, collection or site whose access list is changed or read. */
export interface GrantTarget {
  kind: GrantedKind;
  id: string;
  organizationId: string;
}

export type Grantee = { userId: string } | { teamId: string };

/** Users or teams named in one invite. */
export const MAX_INVITEES_PER_CALL = 100;

// Table and column names are constants (never input): safe to splice into raw SQL.
const TABLES = {
  space: { users: Prisma.raw('"SpaceUserGrant"'), teams: Prisma.raw('"SpaceTeamGrant"'), column: Prisma.raw('"spaceId"') },
  collection: { users: Prisma.raw('"CollectionUserGrant"'), teams: Prisma.raw('"CollectionTeamGrant"'), column: Prisma.raw('"collectionId"') },
  site: { users: Prisma.raw('"SiteUserGrant"'), teams: Prisma.raw('"SiteTeamGrant"'), column: Prisma.raw('"siteId"') },
} as const;

const GRANT_ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'userId', direction: 'asc' },
];
const TEAM_GRANT_ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'teamId', direction: 'asc' },
];

/** The Prisma delegates of a kind's grant tables, with the fields they share (the key column differs). */
interface GrantDelegate {
  findUnique(args: object): Promise<{ role: Role } | null>;
  findMany(args: object): Promise<any[]>;
  count(args: object): Promise<number>;
  updateMany(args: object): Promise<{ count: number }>;
  deleteMany(args: object): Promise<{ count: number }>;
}

function tables(ctx: Context, kind: GrantedKind) {
  if (kind === 'space') return { users: ctx.db.spaceUserGrant as unknown as GrantDelegate, teams: ctx.db.spaceTeamGrant as unknown as GrantDelegate, key: 'spaceId' };
  if (kind === 'site') return { users: ctx.db.siteUserGrant as unknown as GrantDelegate, teams: ctx.db.siteTeamGrant as unknown as GrantDelegate, key: 'siteId' };
  return { users: ctx.db.collectionUserGrant as unknown as GrantDelegate, teams: ctx.db.collectionTeamGrant as unknown as GrantDelegate, key: 'collectionId' };
}

export interface InviteInput {
  role: Role;
  users?: string[] | null;
  teams?: string[] | null;
  emails?: string[] | null;
}

export interface Invitees {
  users: string[];
  teams: string[];
  /** Addresses as given (checked and normalized when written: content-invites.ts). */
  emails: string[];
}

/**
 * Checks an invite's body before anything is read: the role is required and at least one user, team or
 * e-mail address is named. Returns them, deduplicated.
 */
export function inviteesOf(input: InviteInput): Invitees {
  rejectNull('role', input.role);
  const users = [...new Set(input.users ?? [])];
  const teams = [...new Set(input.teams ?? [])];
  const emails = input.emails ?? [];
  if (users.length === 0 && teams.length === 0 && emails.length === 0) {
    throw new BadRequestError('Invalid "users": give at least one user, team or e-mail address ("users", "teams" or "emails")');
  }
  return { users, teams, emails };
}

/**
 * Grants `role` on the target to organization members and teams, in one transaction: a user or team that
 * already has a grant gets the new level. Every user must be a member of the organization (guests
 * included) and every team one of its teams, else 404 naming it and nothing is written. E-mail
 * addresses share it with people who may not be members yet: members get the grant, anyone else an
 * invitation to the organization as a guest that carries it (invites module, content-invites.ts).
 */
export async function writeGrants(ctx: Context, target: GrantTarget, role: Role, invitees: Invitees) {
  const { users, teams, emails } = invitees;
  const table = TABLES[target.kind];
  const now = ctx.clock.now();
  const organization = emails.length ? await ctx.loaders.organization.load(target.organizationId) : null;
  await ctx.db.$transaction(async (tx) => {
    // The members and teams named are locked FOR KEY SHARE (what the foreign keys' checks take): a
    // concurrent removal from the organization waits for this transaction instead of failing it.
    if (users.length) {
      const found = await tx.$queryRaw<{ userId: string }[]>`
        SELECT "userId" FROM "Member" WHERE "organizationId" = ${target.organizationId} AND "userId" IN (${Prisma.join(users)})
        ORDER BY "userId" FOR KEY SHARE`;
      const known = new Set(found.map((m) => m.userId));
      const missing = users.find((u) => !known.has(u));
      if (missing) throw new NotFoundError(`User "${missing}" is not a member of this organization`);
      await tx.$executeRaw`
        INSERT INTO ${table.users} (${table.column}, "organizationId", "userId", "role", "createdAt")
        VALUES ${Prisma.join(users.map((userId) => Prisma.sql`(${target.id}, ${target.organizationId}, ${userId}, ${role}::"Role", ${now})`))}
        ON CONFLICT (${table.column}, "userId") DO UPDATE SET "role" = EXCLUDED."role"`;
    }
    if (teams.length) {
      const found = await tx.$queryRaw<{ id: string }[]>`
        SELECT "id" FROM "Team" WHERE "organizationId" = ${target.organizationId} AND "id" IN (${Prisma.join(teams)})
        ORDER BY "id" FOR KEY SHARE`;
      const known = new Set(found.map((t) => t.id));
      const missing = teams.find((t) => !known.has(t));
      if (missing) throw new NotFoundError(`Team "${missing}" not found in this organization`);
      await tx.$executeRaw`
        INSERT INTO ${table.teams} (${table.column}, "teamId", "role", "createdAt")
        VALUES ${Prisma.join(teams.map((teamId) => Prisma.sql`(${target.id}, ${teamId}, ${role}::"Role", ${now})`))}
        ON CONFLICT (${table.column}, "teamId") DO UPDATE SET "role" = EXCLUDED."role"`;
    }
    if (emails.length && organization) {
      const key = target.kind === 'space' ? { spaceId: target.id } : target.kind === 'collection' ? { collectionId: target.id } : { siteId: target.id };
      await inviteEmailsToContent(tx, { organization, target: key, role, emails, invitedById: viewerOf(ctx).user.id, now });
    }
  });
}

const granteeWhere = (key: string, id: string, grantee: Grantee) => ({ [key]: id, ...grantee });

/** The grant of a user or team on a space or collection (null: none). */
export function findGrant(ctx: Context, kind: GrantedKind, id: string, grantee: Grantee): Promise<{ role: Role } | null> {
  const t = tables(ctx, kind);
  const [table, unique] = 'userId' in grantee ? [t.users, `${t.key}_userId`] : [t.teams, `${t.key}_teamId`];
  return table.findUnique({ where: { [unique]: granteeWhere(t.key, id, grantee) }, select: { role: true } });
}

export const grantNotFound = (kind: GrantedKind, grantee: Grantee) =>
  new NotFoundError('userId' in grantee ? `User "${grantee.userId}" has no permission on this ${kind}` : `Team "${grantee.teamId}" has no permission on this ${kind}`);

/** Sets the level of an existing grant; 404 when it was removed meanwhile (as if it had not been there). */
export async function changeGrant(ctx: Context, kind: GrantedKind, id: string, grantee: Grantee, role: Role) {
  const t = tables(ctx, kind);
  const { count } = await ('userId' in grantee ? t.users : t.teams).updateMany({ where: granteeWhere(t.key, id, grantee), data: { role } });
  if (count === 0) throw grantNotFound(kind, grantee);
}

/** Deletes a grant: whether there was one. */
export async function deleteGrant(ctx: Context, kind: GrantedKind, id: string, grantee: Grantee): Promise<boolean> {
  const t = tables(ctx, kind);
  const { count } = await ('userId' in grantee ? t.users : t.teams).deleteMany({ where: granteeWhere(t.key, id, grantee) });
  return count > 0;
}

export interface UserPermission {
  permission: Role;
  user: User;
}

/** The users given a level on the target itself, oldest grant first. */
export async function listUserGrants(ctx: Context, kind: GrantedKind, id: string, args: ListArgs) {
  const t = tables(ctx, kind);
  const page = await paginate({
    args,
    keys: GRANT_ORDER,
    where: { [t.key]: id },
    findMany: (q) => t.users.findMany({ relationLoadStrategy: 'join', ...q, include: { member: { select: { user: true } } } }),
    count: (q) => t.users.count(q),
  });
  return { ...page, items: page.items.map((g: { role: Role; member: { user: User } }): UserPermission => ({ permission: g.role, user: g.member.user })) };
}

/** The teams given a level on the target, oldest grant first. */
export async function listTeamGrants(ctx: Context, kind: GrantedKind, id: string, args: ListArgs, teamQuery?: ItemQuery) {
  const t = tables(ctx, kind);
  const page = await paginate({
    args,
    keys: TEAM_GRANT_ORDER,
    where: { [t.key]: id },
    findMany: (q) =>
      t.teams.findMany({ relationLoadStrategy: 'join', ...q, include: { team: (teamQuery?.select || teamQuery?.include ? teamQuery : true) as true } }),
    count: (q) => t.teams.count(q),
  });
  return { ...page, items: page.items.map((g: { role: Role; team: Team }) => ({ permission: g.role, team: g.team })) };
}
