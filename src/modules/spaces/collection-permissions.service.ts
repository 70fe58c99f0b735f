import type { Collection, Role } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { ItemQuery, ListArgs } from '../../core/pagination.ts';
import { rejectNull } from '../../core/validate.ts';
import { strongestOf } from './access-level.ts';
import { collectionActor } from './content-access.ts';
import {
  changeGrant,
  deleteGrant,
  findGrant,
  grantNotFound,
  inviteesOf,
  listTeamGrants,
  listUserGrants,
  writeGrants,
  type Grantee,
  type InviteInput,
} from './content-grants.ts';
import { collectionGrantPolicy, type CollectionGrantAction } from './collection-permissions.policy.ts';
import { collectionPolicy } from './collection.policy.ts';
import { collectionDefaults, listPermissionsAggregate } from './permission-aggregate.ts';

/**
 * Who can access a collection (GitBook's collection-permissions operations). A grant on a collection
 * reaches every space and collection inside it, at any depth, through every route (access-level.ts).
 */

/** The collection, once the caller may `action` on its access list (collection-permissions.policy.ts). */
async function collectionForGrants(ctx: Context, collectionId: string, action: CollectionGrantAction, level?: Role | null): Promise<Collection> {
  const collection = await ctx.loaders.collection.load(collectionId);
  if (!collection) throw new NotFoundError(collectionPolicy.notFound({ id: collectionId, deletedAt: null }));
  authorize(collectionGrantPolicy, await collectionActor(ctx, collection), action, { ...collection, level });
  return collection;
}

/** `inviteToCollection`: as `inviteToSpace`, on a collection. */
export async function inviteToCollection(ctx: Context, collectionId: string, input: InviteInput): Promise<boolean> {
  const invitees = inviteesOf(input);
  const collection = await collectionForGrants(ctx, collectionId, 'grant', input.role);
  await writeGrants(ctx, { kind: 'collection', id: collection.id, organizationId: collection.organizationId }, input.role, invitees);
  return true;
}

/** Changes the level of an existing grant (404 when there is none); the caller must be able to grant the old and the new level. */
export async function updateCollectionGrant(ctx: Context, collectionId: string, grantee: Grantee, role: Role | null | undefined) {
  rejectNull('role', role);
  const existing = await findGrant(ctx, 'collection', collectionId, grantee);
  const collection = await collectionForGrants(ctx, collectionId, 'grant', strongestOf([existing?.role, role]));
  if (!existing) throw grantNotFound('collection', grantee);
  if (!role || role === existing.role) return true;
  await changeGrant(ctx, 'collection', collection.id, grantee, role);
  return true;
}

/** Removes a grant: true when there was one (REST 205), false when there was none (204). */
export async function removeCollectionGrant(ctx: Context, collectionId: string, grantee: Grantee): Promise<boolean> {
  const existing = await findGrant(ctx, 'collection', collectionId, grantee);
  const collection = await collectionForGrants(ctx, collectionId, 'grant', existing?.role);
  if (!existing) return false;
  return deleteGrant(ctx, 'collection', collection.id, grantee);
}

/** `listUserPermissionsInCollection`: the users given a level on the collection itself, oldest grant first. */
export async function listCollectionUserPermissions(ctx: Context, collectionId: string, args: ListArgs) {
  const collection = await collectionForGrants(ctx, collectionId, 'list');
  return listUserGrants(ctx, 'collection', collection.id, args);
}

/** `listTeamPermissionsInCollection`: the teams given a level on the collection itself, oldest grant first. */
export async function listCollectionTeamPermissions(ctx: Context, collectionId: string, args: ListArgs, teamQuery?: ItemQuery) {
  const collection = await collectionForGrants(ctx, collectionId, 'list');
  return listTeamGrants(ctx, 'collection', collection.id, args, teamQuery);
}

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
