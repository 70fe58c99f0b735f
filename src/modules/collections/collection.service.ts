import type { Collection, Prisma, Role } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { viewerSpacePage } from '../spaces/index.ts';
import { can } from '../../core/authorization.ts';
import { BadRequestError } from '../../core/errors.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength, rejectNull } from '../../core/validate.ts';
import { organizationFor, organizationForMember } from '../organizations/index.ts';
import { organizationPolicy } from '../organizations/index.ts';
import { collectionFor, grantedCollectionIds, visibleSpacesWhere } from '../content-access/index.ts';
import { lockOrganization, positionKey, subtreeCollectionIds, type ContentPosition } from '../spaces/index.ts';
import { detachFromOrganization } from '../spaces/index.ts';
import { publishDomainEvent } from '../../core/domain-events.ts';

export const SIBLING_ORDER: SortKey[] = [
  { field: 'position', direction: 'asc' },
  { field: 'id', direction: 'asc' },
];

const DEFAULT_TITLE = 'Untitled collection';

function checkTitle(title: string | null | undefined) {
  rejectNull('title', title);
  checkLength('title', title, 0, 50);
}

/**
 * Collections are organization-wide structure: members with a role see them all; guests those granted
 * to them or their teams, and what those contain (the tree and the viewer's grants came with the access check).
 */
export async function listCollections(ctx: Context, organizationId: string, args: ListArgs & { nested?: boolean | null }) {
  const { organization, actor } = await organizationForMember(ctx, organizationId);
  const where: Prisma.CollectionWhereInput = { organizationId, deletedAt: null };
  if (args.nested === false) where.parentId = null;
  if (!can(organizationPolicy, actor, 'listCollections', organization)) {
    where.id = { in: grantedCollectionIds(await ctx.loaders.organizationCollections.load(organizationId)) };
  }
  return paginate({
    args,
    keys: SIBLING_ORDER,
    where,
    model: ctx.db.collection,
  });
}

export async function getCollection(ctx: Context, collectionId: string): Promise<Collection> {
  return (await collectionFor(ctx, collectionId, 'read')).collection;
}

/** A parent collection in `organizationId` where the caller may create content (404 / 403 otherwise). */
async function parentForCreation(ctx: Context, organizationId: string, parentId: string, field = 'parent') {
  const parent = await ctx.loaders.collection.load(parentId);
  if (!parent || parent.deletedAt || parent.organizationId !== organizationId) {
    throw new BadRequestError(`Invalid "${field}": no collection "${parentId}" in this organization`);
  }
  await collectionFor(ctx, parentId, 'create');
  return parent;
}

export async function createCollection(ctx: Context, organizationId: string, input: { title?: string | null; parent?: string | null }) {
  await organizationForMember(ctx, organizationId);
  checkTitle(input.title);
  // Any given ID, "" included, must name a collection: only null/absent means the top level.
  if (input.parent !== null && input.parent !== undefined) await parentForCreation(ctx, organizationId, input.parent);
  else await organizationFor(ctx, organizationId, 'createContent');
  const now = ctx.clock.now();
  return ctx.db.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const parentId = input.parent ?? null;
    return tx.collection.create({
      data: {
        id: newId(),
        organizationId,
        parentId,
        title: input.title || DEFAULT_TITLE,
        position: await positionKey(tx, organizationId, parentId),
        createdAt: now,
      },
    });
  });
}

export async function updateCollection(
  ctx: Context,
  collectionId: string,
  input: { title?: string | null; description?: string | null; defaultLevel?: Role | null },
) {
  checkTitle(input.title);
  checkLength('description', input.description, 0, 100);
  rejectNull('defaultLevel', input.defaultLevel);
  await collectionFor(ctx, collectionId, 'update');
  return ctx.db.collection.update({
    where: { id: collectionId },
    data: { title: input.title ?? undefined, description: input.description, defaultLevel: input.defaultLevel ?? undefined },
  });
}

/**
 * Deletes a collection with everything inside: nested collections and spaces get `deletedAt` like a
 * deleted space (restorable for 7 days, then purged).
 */
export async function deleteCollection(ctx: Context, collectionId: string): Promise<boolean> {
  const { collection } = await collectionFor(ctx, collectionId, 'delete');
  const now = ctx.clock.now();
  await ctx.db.$transaction(async (tx) => {
    await lockOrganization(tx, collection.organizationId);
    const all = await tx.collection.findMany({
      where: { organizationId: collection.organizationId, deletedAt: null },
      select: { id: true, parentId: true },
    });
    const ids = subtreeCollectionIds(all, collection.id);
    await tx.collection.updateMany({ where: { id: { in: ids } }, data: { deletedAt: now, updatedAt: now } });
    const spaces = await tx.space.findMany({ where: { collectionId: { in: ids }, deletedAt: null }, select: { id: true } });
    await tx.space.updateMany({ where: { id: { in: spaces.map((s) => s.id) } }, data: { deletedAt: now, updatedAt: now } });
    await publishDomainEvent(tx, 'spaces.removed', { spaceIds: spaces.map((s) => s.id) });
  });
  return true;
}

/** Spaces directly inside a collection, in sibling order. */
export async function listCollectionSpaces(ctx: Context, collectionId: string, args: ListArgs, query?: ItemQuery) {
  const { collection } = await collectionFor(ctx, collectionId, 'read');
  const where = { ...(await visibleSpacesWhere(ctx, collection.organizationId)), collectionId };
  return viewerSpacePage(ctx, { args, keys: SIBLING_ORDER, where, query });
}

/** Moves a collection under another parent (or the top level, `parent: null`), at a position. */
export async function moveCollection(
  ctx: Context,
  collectionId: string,
  input: { parent?: string | null; position?: ContentPosition | null },
) {
  const { collection } = await collectionFor(ctx, collectionId, 'move');
  const organizationId = collection.organizationId;
  const parentId = input.parent === undefined ? collection.parentId : input.parent;
  if (parentId !== null) await parentForCreation(ctx, organizationId, parentId);
  return ctx.db.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    if (parentId !== null) {
      const all = await tx.collection.findMany({ where: { organizationId, deletedAt: null }, select: { id: true, parentId: true } });
      if (subtreeCollectionIds(all, collection.id).includes(parentId)) {
        throw new BadRequestError('Invalid "parent": a collection cannot move into itself or one of its descendants');
      }
    }
    const position = await positionKey(tx, organizationId, parentId, input.position, { type: 'collection', id: collection.id });
    return tx.collection.update({ where: { id: collection.id }, data: { parentId, position } });
  });
}

/**
 * Moves a collection, with all it contains, to another organization (top level, at the end). IDs are
 * kept; what only made sense in the old organization (member and team grants, custom field values)
 * is dropped. The caller must be able to create content in both organizations.
 */
export async function transferCollection(ctx: Context, collectionId: string, organization: string) {
  const { collection } = await collectionFor(ctx, collectionId, 'transfer');
  const source = collection.organizationId;
  await organizationFor(ctx, source, 'transferOut');
  await organizationFor(ctx, organization, 'transferIn');
  if (organization === source) return collection;
  return ctx.db.$transaction(async (tx) => {
    // Lock both organizations in a fixed order so two opposite transfers cannot deadlock.
    for (const id of [source, organization].sort()) await lockOrganization(tx, id);
    const all = await tx.collection.findMany({ where: { organizationId: source }, select: { id: true, parentId: true } });
    const ids = subtreeCollectionIds(all, collection.id);
    const spaceIds = (await tx.space.findMany({ where: { collectionId: { in: ids } }, select: { id: true } })).map((s) => s.id);
    await detachFromOrganization(tx, spaceIds);
    // Grants on the collections are to members and teams of the old organization: they do not follow.
    await tx.collectionUserGrant.deleteMany({ where: { collectionId: { in: ids } } });
    await tx.collectionTeamGrant.deleteMany({ where: { collectionId: { in: ids } } });
    // The collection itself first, with its new key: moved along with the rest, its old key would meet
    // the target's top-level keys, which live siblings must not share.
    const position = await positionKey(tx, organization, null, null, { type: 'collection', id: collection.id });
    const moved = await tx.collection.update({ where: { id: collection.id }, data: { organizationId: organization, parentId: null, position } });
    await tx.space.updateMany({ where: { id: { in: spaceIds } }, data: { organizationId: organization } });
    await tx.collection.updateMany({ where: { id: { in: ids.filter((id) => id !== collection.id) } }, data: { organizationId: organization } });
    return moved;
  });
}
