import type { Member, Prisma, Role, Space } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { viewerOf } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import { paginate, withRelations, type ItemQuery, type ListArgs } from '../../core/pagination.ts';
import { organizationForMember } from '../organizations/index.ts';
import { memberPolicy } from '../members/index.ts';
import { effectiveLevel } from '../content-access/index.ts';
import { ancestorGrants, ancestorLevels, collectionTreeDepth, reachableSpacesWhere } from '../content-access/index.ts';

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
  const viewer = viewerOf(ctx);
  const { actor } = await organizationForMember(ctx, organizationId);
  // The collection tree came with the access check: its depth bounds the climb to granted collections.
  const collections = await ctx.loaders.organizationCollections.load(organizationId);
  const where: Prisma.SpaceWhereInput = { organizationId, ...reachableSpacesWhere(userId, collectionTreeDepth(collections)) };
  const direction = args.order ?? 'desc';
  let member: Member | undefined;
  const memberCollectionGrants = new Map<string, Role[]>();
  // The grants of the member (for `permission`) and of the viewer (for `space.permissions`) on each space.
  const users = [...new Set([userId, viewer.user.id])];
  // Three statements after the access check's: the page (with the member's grants on each space, direct
  // and through teams), and the member with the count; the collection tree came with the access check.
  const page = await paginate({
    args,
    keys: [
      { field: 'createdAt', direction, type: 'date' },
      { field: 'id', direction },
    ],
    where,
    findMany: (q) => ctx.db.space.findMany({ relationLoadStrategy: 'join', ...withRelations(query, grantsOf(users)), ...q } as object),
    count: async () => {
      const organization = await ctx.db.organization.findUnique({
        relationLoadStrategy: 'join',
        where: { id: organizationId },
        select: {
          // The member's grants on collections (directly and through teams) reach the spaces inside them.
          members: {
            where: { userId },
            include: {
              collectionGrants: { select: { collectionId: true, role: true } },
              teams: { select: { team: { select: { collectionGrants: { select: { collectionId: true, role: true } } } } } },
            },
          },
          _count: { select: { spaces: { where } } },
        },
      });
      const found = organization?.members[0];
      if (!found) throw new NotFoundError(`Member "${userId}" not found in this organization`);
      const { collectionGrants, teams, ...row } = found;
      member = row;
      for (const g of [...collectionGrants, ...teams.flatMap((t) => t.team.collectionGrants)]) {
        memberCollectionGrants.set(g.collectionId, [...(memberCollectionGrants.get(g.collectionId) ?? []), g.role]);
      }
      authorize(memberPolicy, actor, 'listSpaces', member);
      return organization!._count.spaces;
    },
  });
  return {
    ...page,
    items: (page.items as (Space & GrantRows)[]).map(({ userGrants, teamGrants, ...space }) => {
      const rolesOf = (user: string) => [
        ...userGrants.filter((g) => g.userId === user).map((g) => g.role),
        ...teamGrants.filter((g) => g.team.members.some((m) => m.userId === user)).map((g) => g.role),
      ];
      ctx.loaders.viewerSpaceGrants.prime(space.id, rolesOf(viewer.user.id));
      return {
        space,
        permission: effectiveLevel({
          membership: member!,
          ownLevel: space.defaultLevel,
          inheritedLevels: ancestorLevels(collections, space.collectionId),
          grants: [...rolesOf(userId), ...ancestorGrants(collections, space.collectionId, (c) => memberCollectionGrants.get(c.id) ?? [])],
        }) as Role,
      };
    }),
  };
}

type GrantRows = {
  userGrants: { role: Role; userId: string }[];
  teamGrants: { role: Role; team: { members: { userId: string }[] } }[];
};

/** Grants to any of `users` on a space, directly or through their teams, with whom each is for. */
function grantsOf(users: string[]) {
  const members = { where: { userId: { in: users } }, select: { userId: true } };
  return {
    userGrants: { where: { userId: { in: users } }, select: { role: true, userId: true } },
    teamGrants: { where: { team: { members: { some: { userId: { in: users } } } } }, select: { role: true, team: { select: { members } } } },
  };
}
