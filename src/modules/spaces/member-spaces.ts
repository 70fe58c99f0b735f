import type { Prisma, Role } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import { paginate, type ItemQuery, type ListArgs } from '../../core/pagination.ts';
import { organizationForMember } from '../organizations/organization.access.ts';
import { memberPolicy } from '../members/member.policy.ts';
import { effectiveLevel } from './access-level.ts';
import { ancestorLevels, reachableSpacesWhere } from './content-access.ts';

/**
 * `GET /orgs/{o}/members/{u}/spaces`: every space the member can reach, with their effective level.
 * Members with a role reach every live space (their role is a floor); guests only granted ones.
 * Visible to organization admins and to the member themselves.
 */
export async function listMemberSpaces(
  ctx: Context,
  organizationId: string,
  userId: string,
  args: ListArgs & { order?: 'asc' | 'desc' | null },
  query?: ItemQuery,
) {
  const { actor } = await organizationForMember(ctx, organizationId);
  const member = await ctx.db.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
  if (!member) throw new NotFoundError(`Member "${userId}" not found in this organization`);
  authorize(memberPolicy, actor, 'listSpaces', member);
  const where: Prisma.SpaceWhereInput = { organizationId, ...reachableSpacesWhere(userId) };
  const direction = args.order ?? 'desc';
  const page = await paginate({
    args,
    keys: [
      { field: 'createdAt', direction, type: 'date' },
      { field: 'id', direction },
    ],
    where,
    model: ctx.db.space,
    query,
  });
  const spaceIds = page.items.map((s) => s.id);
  const [collections, direct, viaTeams] = await Promise.all([
    ctx.loaders.organizationCollections.load(organizationId),
    ctx.db.spaceUserGrant.findMany({ where: { userId, spaceId: { in: spaceIds } }, select: { spaceId: true, role: true } }),
    ctx.db.spaceTeamGrant.findMany({
      where: { spaceId: { in: spaceIds }, team: { members: { some: { userId } } } },
      select: { spaceId: true, role: true },
    }),
  ]);
  const grants = [...direct, ...viaTeams];
  return {
    ...page,
    items: page.items.map((space) => ({
      space,
      permission: effectiveLevel({
        membership: member,
        ownLevel: space.defaultLevel,
        inheritedLevels: ancestorLevels(collections, space.collectionId),
        grants: grants.filter((g) => g.spaceId === space.id).map((g) => g.role),
      }) as Role,
    })),
  };
}
