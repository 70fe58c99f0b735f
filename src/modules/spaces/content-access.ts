import type { Collection, Prisma, Role, Space } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize, permissionsOf } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { CollectionNode } from '../../core/loaders.ts';
import { COLLECTION_PERMISSIONS, collectionPolicy, type CollectionAction } from '../collections/collection.policy.ts';
import { organizationActor } from '../organizations/organization.access.ts';
import { effectiveLevel, type ContentActor } from './access-level.ts';
import { SPACE_PERMISSIONS, spacePolicy, type SpaceAction } from './space.policy.ts';

/** defaultLevel of each collection from `collectionId` up to the top level, innermost first. */
export function ancestorLevels(collections: Map<string, CollectionNode>, collectionId: string | null): Role[] {
  const levels: Role[] = [];
  const seen = new Set<string>();
  for (let id = collectionId; id && !seen.has(id); id = collections.get(id)?.parentId ?? null) {
    seen.add(id);
    const node = collections.get(id);
    if (node && !node.deletedAt) levels.push(node.defaultLevel);
  }
  return levels;
}

/** The viewer's effective level on a space (null: no access at all). Batched through the loaders. */
export async function viewerSpaceLevel(ctx: Context, space: Space): Promise<Role | null> {
  const [membership, collections, grants] = await Promise.all([
    ctx.loaders.viewerMembership.load(space.organizationId),
    ctx.loaders.organizationCollections.load(space.organizationId),
    ctx.loaders.viewerSpaceGrants.load(space.id),
  ]);
  return effectiveLevel({
    membership,
    ownLevel: space.defaultLevel,
    inheritedLevels: ancestorLevels(collections, space.collectionId),
    grants,
  });
}

export async function viewerCollectionLevel(ctx: Context, collection: Collection): Promise<Role | null> {
  const [membership, collections] = await Promise.all([
    ctx.loaders.viewerMembership.load(collection.organizationId),
    ctx.loaders.organizationCollections.load(collection.organizationId),
  ]);
  return effectiveLevel({
    membership,
    ownLevel: collection.defaultLevel,
    inheritedLevels: ancestorLevels(collections, collection.parentId),
    grants: [],
  });
}

/** The caller relative to a space: membership, effective level, and whether the organization enforces SSO. */
export async function spaceActor(ctx: Context, space: Space): Promise<ContentActor> {
  const [base, level, organization] = await Promise.all([
    organizationActor(ctx, space.organizationId),
    viewerSpaceLevel(ctx, space),
    ctx.loaders.organization.load(space.organizationId),
  ]);
  return { ...base, level, organizationSso: organization?.sso ?? false };
}

export async function collectionActor(ctx: Context, collection: Collection): Promise<ContentActor> {
  const [base, level, organization] = await Promise.all([
    organizationActor(ctx, collection.organizationId),
    viewerCollectionLevel(ctx, collection),
    ctx.loaders.organization.load(collection.organizationId),
  ]);
  return { ...base, level, organizationSso: organization?.sso ?? false };
}

export interface SpaceAccess {
  space: Space;
  level: Role;
  actor: ContentActor;
}

/**
 * Loads a space and authorizes `action` on it (space.policy.ts): unknown spaces, spaces the viewer
 * cannot read and deleted spaces (except for their admins' `view` and `restore`) are all the same 404;
 * a readable space the action is refused on is a 403.
 */
export async function spaceFor(ctx: Context, spaceId: string, action: SpaceAction): Promise<SpaceAccess> {
  const space = await ctx.loaders.space.load(spaceId);
  if (!space) throw new NotFoundError(spacePolicy.notFound({ id: spaceId, deletedAt: null }));
  const actor = await spaceActor(ctx, space);
  authorize(spacePolicy, actor, action, space);
  return { space, level: actor.level!, actor };
}

/** `Space.permissions`, from the same policy that `spaceFor` enforces. */
export async function spacePermissions(ctx: Context, space: Space) {
  return permissionsOf(spacePolicy, await spaceActor(ctx, space), space, SPACE_PERMISSIONS);
}

/** The space action that needs exactly this level (for `spaceForViewer`). */
const SPACE_ACTION_FOR_LEVEL: Record<Exclude<Role, 'create'>, SpaceAction> = {
  read: 'read',
  comment: 'comment',
  edit: 'edit',
  review: 'review',
  admin: 'administer',
};

/** `spaceFor` by level: `needed` names the action needing it; `allowDeleted` makes read `view`, admin `restore`. */
export async function spaceForViewer(
  ctx: Context,
  spaceId: string,
  needed: Role,
  options: { allowDeleted?: boolean } = {},
): Promise<SpaceAccess> {
  if (needed === 'create') throw new Error('No space action needs the "create" level: creating is done in a collection');
  let action = SPACE_ACTION_FOR_LEVEL[needed];
  if (options.allowDeleted && action === 'read') action = 'view';
  if (options.allowDeleted && action === 'administer') action = 'restore';
  return spaceFor(ctx, spaceId, action);
}

export interface CollectionAccess {
  collection: Collection;
  level: Role;
  actor: ContentActor;
}

/** Like `spaceFor`, for collections (deleted collections are gone for everyone). */
export async function collectionFor(ctx: Context, collectionId: string, action: CollectionAction): Promise<CollectionAccess> {
  const collection = await ctx.loaders.collection.load(collectionId);
  if (!collection) throw new NotFoundError(collectionPolicy.notFound({ id: collectionId, deletedAt: null }));
  const actor = await collectionActor(ctx, collection);
  authorize(collectionPolicy, actor, action, collection);
  return { collection, level: actor.level!, actor };
}

/** `Collection.permissions`, from the same policy that `collectionFor` enforces. */
export async function collectionPermissions(ctx: Context, collection: Collection) {
  return permissionsOf(collectionPolicy, await collectionActor(ctx, collection), collection, COLLECTION_PERMISSIONS);
}

/** `collectionFor` by level: `read`, `create` and `admin` name the actions needing them. */
export async function collectionForViewer(ctx: Context, collectionId: string, needed: Role): Promise<CollectionAccess> {
  const action: CollectionAction = needed === 'admin' ? 'update' : needed === 'create' ? 'create' : 'read';
  if (needed !== 'read' && needed !== 'create' && needed !== 'admin') throw new Error(`No collection action needs the "${needed}" level`);
  return collectionFor(ctx, collectionId, action);
}

/** The level the viewer creates top-level content with: their organization role (guests: none). */
export async function creationLevel(ctx: Context, organizationId: string): Promise<Role | null> {
  const membership = await ctx.loaders.viewerMembership.load(organizationId);
  return membership && !membership.disabled ? membership.role : null;
}

/** Members of the item's organization who hold a role (not guests, not disabled). */
export const heldRoleBy = (userId: string) => ({
  organization: { members: { some: { userId, role: { not: null }, disabled: false } } },
});

/**
 * The live spaces a user can reach, as one filter (usable for one organization or a batch of them):
 * every space of an organization where they hold a role — their role is at least `read` everywhere —
 * plus, as a guest, the spaces granted to them or their teams.
 */
export function reachableSpacesWhere(userId: string): Prisma.SpaceWhereInput {
  const enabledMember = { organization: { members: { some: { userId, disabled: false } } } };
  return {
    deletedAt: null,
    OR: [
      heldRoleBy(userId),
      { ...enabledMember, userGrants: { some: { userId } } },
      { ...enabledMember, teamGrants: { some: { team: { members: { some: { userId } } } } } },
    ],
  };
}

/** The spaces of an organization the viewer sees in lists. */
export function visibleSpacesWhere(ctx: Context, organizationId: string): Prisma.SpaceWhereInput {
  return { organizationId, ...reachableSpacesWhere(ctx.viewer?.user.id ?? '') };
}
