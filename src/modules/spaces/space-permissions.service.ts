import type { Role, Space } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { ListArgs } from '../../core/pagination.ts';
import { spaceActor } from '../content-access/index.ts';
import { grantScreens } from './grant-screens.ts';
import { collectionDefaults, listPermissionsAggregate } from './permission-aggregate.ts';
import { spaceGrantPolicy, type SpaceGrantAction } from './space-permissions.policy.ts';
import { spacePolicy } from '../content-access/index.ts';

export { MAX_INVITEES_PER_CALL, type UserPermission } from './content-grants.ts';
export type { AggregatePermission, PermissionSource } from './permission-aggregate.ts';

/** The space, once the caller may `action` on its access list (space-permissions.policy.ts). */
async function spaceForGrants(ctx: Context, spaceId: string, action: SpaceGrantAction, level?: Role | null): Promise<Space> {
  const space = await ctx.loaders.space.load(spaceId);
  if (!space) throw new NotFoundError(spacePolicy.notFound({ id: spaceId, deletedAt: null }));
  authorize(spaceGrantPolicy, await spaceActor(ctx, space), action, { ...space, level });
  return space;
}

/** The access list of a space: its operations, as for every kind (grant-screens.ts). */
export const spaceGrants = grantScreens<string>({
  kind: 'space',
  idOf: (spaceId) => spaceId,
  forGrants: (ctx, spaceId, action, level) => spaceForGrants(ctx, spaceId, action, level),
});

/**
 * `listPermissionsAggregateInSpace`: everyone who can access the space, with their effective level and
 * its sources (permission-aggregate.ts) — grants on the enclosing collections included.
 */
export async function listSpacePermissionsAggregate(ctx: Context, spaceId: string, args: ListArgs & { role?: Role | null }) {
  const space = await spaceForGrants(ctx, spaceId, 'list');
  const collections = collectionDefaults(await ctx.loaders.organizationCollections.load(space.organizationId), space.collectionId);
  return listPermissionsAggregate(
    ctx,
    {
      organizationId: space.organizationId,
      spaceId: space.id,
      defaults: [{ kind: 'space-default', level: space.defaultLevel }, ...collections.map((c) => ({ kind: 'collection-default' as const, level: c.level, id: c.id }))],
      collectionIds: collections.map((c) => c.id),
    },
    args,
  );
}
