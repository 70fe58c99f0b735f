import type { Collection, Prisma, Role, Space } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { ForbiddenError, NotFoundError } from '../../core/errors.ts';
import type { CollectionNode } from '../../core/loaders.ts';
import { assertNotBlockedBySso } from '../organizations/organization.access.ts';
import { atLeast } from '../organizations/roles.ts';
import { effectiveLevel } from './access-level.ts';

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

export interface SpaceAccess {
  space: Space;
  level: Role;
}

/**
 * Loads a space and checks the viewer's level. Unknown spaces, spaces the viewer cannot read, and
 * deleted spaces (except for their admins, when `allowDeleted`) are all the same 404; a readable
 * space without the `needed` level is a 403.
 */
export async function spaceForViewer(
  ctx: Context,
  spaceId: string,
  needed: Role,
  options: { allowDeleted?: boolean } = {},
): Promise<SpaceAccess> {
  const space = await ctx.loaders.space.load(spaceId);
  const notFound = new NotFoundError(`Space "${spaceId}" not found`);
  if (!space) throw notFound;
  const level = await viewerSpaceLevel(ctx, space);
  if (!level) throw notFound;
  if (space.deletedAt && !(options.allowDeleted && atLeast(level, 'admin'))) throw notFound;
  await assertNotBlockedBySso(ctx, space.organizationId);
  if (!atLeast(level, needed)) throw new ForbiddenError(`This needs the "${needed}" level on the space`);
  return { space, level };
}

export interface CollectionAccess {
  collection: Collection;
  level: Role;
}

/** Like `spaceForViewer`, for collections (deleted collections are gone for everyone). */
export async function collectionForViewer(ctx: Context, collectionId: string, needed: Role): Promise<CollectionAccess> {
  const collection = await ctx.loaders.collection.load(collectionId);
  const notFound = new NotFoundError(`Collection "${collectionId}" not found`);
  if (!collection || collection.deletedAt) throw notFound;
  const level = await viewerCollectionLevel(ctx, collection);
  if (!level) throw notFound;
  await assertNotBlockedBySso(ctx, collection.organizationId);
  if (!atLeast(level, needed)) throw new ForbiddenError(`This needs the "${needed}" level on the collection`);
  return { collection, level };
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
