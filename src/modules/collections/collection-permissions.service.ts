import type { Collection, Role } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { ListArgs } from '../../core/pagination.ts';
import { collectionDefaults, grantScreens, listPermissionsAggregate } from '../spaces/index.ts';
import { collectionActor, collectionPolicy } from '../content-access/index.ts';
import { collectionGrantPolicy, type CollectionGrantAction } from './collection-permissions.policy.ts';

/**
 * Who can access a collection (GitBook's collection-permissions operations). A grant on a collection
 * reaches every space and collection inside it, at any depth, through every route (spaces' access-level.ts).
 */

/** The collection, once the caller may `action` on its access list (collection-permissions.policy.ts). */
async function collectionForGrants(ctx: Context, collectionId: string, action: CollectionGrantAction, level?: Role | null): Promise<Collection> {
  const collection = await ctx.loaders.collection.load(collectionId);
  if (!collection) throw new NotFoundError(collectionPolicy.notFound({ id: collectionId, deletedAt: null }));
  authorize(collectionGrantPolicy, await collectionActor(ctx, collection), action, { ...collection, level });
  return collection;
}

/** The access list of a collection: its operations, as for every kind (spaces' grant-screens.ts). */
export const collectionGrants = grantScreens<string>({
  kind: 'collection',
  idOf: (collectionId) => collectionId,
  forGrants: (ctx, collectionId, action, level) => collectionForGrants(ctx, collectionId, action, level),
});

/**
 * `listPermissionsAggregateInCollection`: everyone who can access the collection — members with a role,
 * guests with a grant on it or an enclosing collection — with their effective level and its sources.
 */
export async function listCollectionPermissionsAggregate(ctx: Context, collectionId: string, args: ListArgs & { role?: Role | null }) {
  const collection = await collectionForGrants(ctx, collectionId, 'list');
  const collections = collectionDefaults(await ctx.loaders.organizationCollections.load(collection.organizationId), collection.id);
  return listPermissionsAggregate(
    ctx,
    {
      organizationId: collection.organizationId,
      defaults: collections.map((c) => ({ kind: 'collection-default' as const, level: c.level, id: c.id })),
      collectionIds: collections.map((c) => c.id),
    },
    args,
  );
}
