import { SignJWT } from 'jose';
import type { Member, Prisma, Role } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { viewerOf } from '../../core/context.ts';
import { authorize, can } from '../../core/authorization.ts';
import { ConflictError, NotFoundError } from '../../core/errors.ts';
import { instanceSecret } from '../../db/instance-secrets.ts';
import { paginate, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength } from '../../core/validate.ts';
import { organizationActor, organizationFor, organizationForMember, organizationPolicy } from '../organizations/index.ts';
import { ADMIN_ROLES, isAdmin, keepsAnAdmin, LAST_ADMIN } from '../organizations/index.ts';
import { memberPolicy } from './member.policy.ts';

export type MemberSort = 'joinedAt' | 'lastSeenAt';

export interface MemberListFilter extends ListArgs {
  order?: 'asc' | 'desc' | null;
  role?: Role | 'guest' | null;
  search?: string | null;
  sort?: MemberSort | null;
}

/** Sort keys for the members list; `userId` breaks ties so the keyset is unique. */
export function memberSortKeys(filter: MemberListFilter): SortKey[] {
  const direction = filter.order ?? 'desc';
  return [
    { field: filter.sort ?? 'joinedAt', direction, type: 'date' },
    { field: 'userId', direction },
  ];
}

/** Prisma filter for the members list of one organization (also used by the graph field). */
export function memberListWhere(organizationId: string, filter: MemberListFilter): Prisma.MemberWhereInput {
  checkLength('search', filter.search, 0, 512);
  const where: Prisma.MemberWhereInput = { organizationId };
  if (filter.role) where.role = filter.role === 'guest' ? null : filter.role;
  // Sorting by last-seen lists only members who have been seen at least once.
  if (filter.sort === 'lastSeenAt') where.lastSeenAt = { not: null };
  const search = filter.search?.trim();
  if (search) {
    where.user = {
      OR: [
        { displayName: { contains: search, mode: 'insensitive' } },
        { email: { contains: search, mode: 'insensitive' } },
      ],
    };
  }
  return where;
}

export async function listMembers(ctx: Context, organizationId: string, filter: MemberListFilter, query?: ItemQuery) {
  await organizationFor(ctx, organizationId, 'listMembers');
  return paginate({
    args: filter,
    keys: memberSortKeys(filter),
    where: memberListWhere(organizationId, filter),
    model: ctx.db.member,
    query,
  });
}

/**
 * A member of an organization the caller belongs to (404 for unknown users and non-members alike).
 * A guest may only ask about themselves: 403 for anyone else, known or not, so nothing is revealed.
 */
export async function getMember(ctx: Context, organizationId: string, userId: string, query?: ItemQuery): Promise<Member> {
  const { actor } = await organizationForMember(ctx, organizationId);
  authorize(memberPolicy, actor, 'read', { userId });
  // `query`: what the response shape needs (user, counts), read with the member in one statement.
  const member = await ctx.db.member.findUnique({
    relationLoadStrategy: 'join',
    ...(query as object),
    where: { organizationId_userId: { organizationId, userId } },
  });
  if (!member) throw new NotFoundError(`Member "${userId}" not found in this organization`);
  return member;
}

/**
 * The member as it is now, read under the organization lock, for a change that must keep the invariant
 * "an organization always has an admin". Two admins demoting each other at the same moment would
 * otherwise both see the other as still an admin (READ COMMITTED) and leave none; and a role read before
 * the transaction may be stale (the member was promoted or removed meanwhile). 404 when they are gone.
 */
async function memberUnderLock(tx: Prisma.TransactionClient, organizationId: string, userId: string): Promise<Member> {
  await tx.$executeRaw`SELECT 1 FROM "Organization" WHERE "id" = ${organizationId} FOR UPDATE`;
  const member = await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
  if (!member) throw new NotFoundError(`Member "${userId}" not found in this organization`);
  return member;
}

/** The organization keeps an admin after `current` becomes `role` (null: leaves): organization.policy's rule; the caller holds the lock. */
async function assertKeepsAnAdmin(tx: Prisma.TransactionClient, current: Member, role: Role | null | 'leaves') {
  const wasAdmin = isAdmin(current);
  const staysAdmin = role !== 'leaves' && isAdmin({ role, disabled: current.disabled });
  if (!wasAdmin || staysAdmin) return;
  const otherAdmins = await tx.member.count({
    where: { organizationId: current.organizationId, role: { in: [...ADMIN_ROLES] }, disabled: false, userId: { not: current.userId } },
  });
  if (!keepsAnAdmin({ wasAdmin, staysAdmin, otherAdmins })) throw new ConflictError(LAST_ADMIN);
}

export async function updateMemberRole(ctx: Context, organizationId: string, userId: string, role: Role | null | undefined) {
  const { actor } = await organizationForMember(ctx, organizationId);
  const target = await getMember(ctx, organizationId, userId);
  authorize(memberPolicy, actor, 'updateRole', target);
  if (role === undefined) return target; // nothing to change
  return ctx.db.$transaction(async (tx) => {
    const current = await memberUnderLock(tx, organizationId, userId);
    await assertKeepsAnAdmin(tx, current, role);
    return tx.member.update({ where: { organizationId_userId: { organizationId, userId } }, data: { role } });
  });
}

export async function removeMember(ctx: Context, organizationId: string, userId: string): Promise<boolean> {
  const { actor } = await organizationForMember(ctx, organizationId);
  const target = await getMember(ctx, organizationId, userId);
  authorize(memberPolicy, actor, 'remove', target);
  await ctx.db.$transaction(async (tx) => {
    const current = await memberUnderLock(tx, organizationId, userId);
    await assertKeepsAnAdmin(tx, current, 'leaves');
    // Team memberships and space grants go with the membership (ON DELETE CASCADE).
    await tx.member.delete({ where: { organizationId_userId: { organizationId, userId } } });
  });
  return true;
}

export async function setMemberSso(ctx: Context, organizationId: string, userId: string): Promise<Member> {
  const { actor } = await organizationForMember(ctx, organizationId);
  const target = await getMember(ctx, organizationId, userId);
  authorize(memberPolicy, actor, 'setSso', target);
  return ctx.db.member.update({ where: { organizationId_userId: { organizationId, userId } }, data: { sso: true } });
}

const CLAIMS_TTL_SECONDS = 60 * 60;

/**
 * Records that the caller is active in the organization and returns `serviceVisitorClaims`: a signed
 * JWT (HS256, instance key, 1 hour) stating who the member is, for services that trust this server.
 */
export async function pingOrganization(ctx: Context, organizationId: string): Promise<{ serviceVisitorClaims: string }> {
  const viewer = viewerOf(ctx);
  const { membership } = await organizationForMember(ctx, organizationId);
  const now = ctx.clock.now();
  await ctx.db.member.update({
    where: { organizationId_userId: { organizationId, userId: viewer.user.id } },
    data: { lastSeenAt: now },
  });
  const key = await instanceSecret(ctx.db, 'service-visitor-claims');
  const issuedAt = Math.floor(now.getTime() / 1000);
  const serviceVisitorClaims = await new SignJWT({
    organization: organizationId,
    role: membership.role,
    email: viewer.user.email,
    name: viewer.user.displayName,
    sso: membership.sso,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(viewer.user.id)
    .setIssuer(ctx.config.publicUrl)
    .setAudience(organizationId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + CLAIMS_TTL_SECONDS)
    .sign(key);
  return { serviceVisitorClaims };
}

/** How many organizations shared with a user are checked for one that shows its members to the caller. */
const MAX_SHARED_ORGANIZATIONS = 20;

/**
 * `GET /users/{userId}` (GitBook's getUserById, where every `User.urls.location` points): the caller
 * themselves, or a user of an organization whose members list the caller may read — what that list
 * shows already (a guest lists no members, a token scoped to another organization reaches none there).
 * Anyone else is a 404, as an unknown ID: nobody learns about users outside their organizations.
 */
export async function getUserById(ctx: Context, userId: string) {
  const viewer = viewerOf(ctx).user;
  checkLength('userId', userId, 1, 64);
  if (userId === viewer.id) return viewer;
  const shared = await ctx.db.member.findMany({
    where: { userId, organization: { members: { some: { userId: viewer.id } } } },
    include: { user: true },
    orderBy: { organizationId: 'asc' },
    take: MAX_SHARED_ORGANIZATIONS,
  });
  // The organizations and the caller's memberships come in one batch each (loaders), not one per organization.
  const visible = await Promise.all(
    shared.map(async ({ organizationId }) => {
      const [organization, actor] = await Promise.all([ctx.loaders.organization.load(organizationId), organizationActor(ctx, organizationId)]);
      return organization !== null && can(organizationPolicy, actor, 'listMembers', organization);
    }),
  );
  const found = shared.find((_, i) => visible[i]);
  if (!found) throw new NotFoundError(`User "${userId}" not found`);
  return found.user;
}
