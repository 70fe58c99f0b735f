import type { EditMode, Prisma, Role, Space, SpaceVisibility } from '../../generated/prisma/client.ts';
import { parseMergeRules } from './merge-rules.ts';
import type { Context } from '../../core/context.ts';
import { viewerSpacePage } from './space-pages.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError } from '../../core/errors.ts';
import { newId } from '../../lib/ids.ts';
import { type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength, rejectNull } from '../../core/validate.ts';
import { organizationFor, organizationForMember } from '../organizations/index.ts';
import { collectionFor, spaceFor, visibleSpacesWhere } from '../content-access/index.ts';
import { spacePolicy } from '../content-access/index.ts';
import { lockOrganization, positionKey, type ContentPosition } from './hierarchy.ts';
import { publishDomainEvent } from '../../core/domain-events.ts';

type Tx = Prisma.TransactionClient;

export const SPACE_LIST_ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'id', direction: 'asc' },
];

const DEFAULT_TITLE = 'Untitled space';
// An emoji character sequence (with joiners and variation selectors), or its code points in hex ("1f389").
const EMOJI = /^(?:[\p{Extended_Pictographic}\p{Emoji_Component}\u200d\ufe0f\u20e3]+|[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*)$/iu;

function checkTitle(title: string | null | undefined) {
  rejectNull('title', title);
  checkLength('title', title, 0, 50);
}

function checkEmoji(emoji: string | null | undefined) {
  if (emoji === undefined || emoji === null || emoji === '') return;
  checkLength('emoji', emoji, 1, 50);
  if (!EMOJI.test(emoji)) throw new BadRequestError('Invalid "emoji": must be an emoji character or its code points (e.g. "1f389")');
}

/**
 * Where a new space or collection may go: a collection the caller can `create` in, or the top level of
 * an organization where they may `createContent` (`transferIn`, when the content comes from elsewhere).
 */
export async function checkCreationTarget(
  ctx: Context,
  organizationId: string,
  parentId: string | null | undefined,
  field = 'parent',
  topLevelAction: 'createContent' | 'transferIn' = 'createContent',
) {
  // Any given ID, "" included, must name a collection: only null/absent means the top level.
  if (parentId !== null && parentId !== undefined) {
    const parent = await ctx.loaders.collection.load(parentId);
    if (!parent || parent.deletedAt || parent.organizationId !== organizationId) {
      throw new BadRequestError(`Invalid "${field}": no collection "${parentId}" in this organization`);
    }
    await collectionFor(ctx, parentId, 'create');
    return;
  }
  await organizationFor(ctx, organizationId, topLevelAction);
}

/** A space is born with an empty first revision, its active content (whose search index is empty too). */
async function insertSpace(tx: Tx, data: Prisma.SpaceUncheckedCreateInput): Promise<Space> {
  const space = await tx.space.create({ data });
  const revision = await tx.revision.create({ data: { id: newId(), spaceId: space.id, createdAt: space.createdAt } });
  // Pass updatedAt explicitly: Prisma's @updatedAt would stamp the wall clock, not the injected one.
  return tx.space.update({ where: { id: space.id }, data: { revisionId: revision.id, searchRevisionId: revision.id, updatedAt: space.updatedAt } });
}

export interface CreateSpaceInput {
  title?: string | null;
  emoji?: string | null;
  parent?: string | null;
  editMode?: EditMode | null;
}

export async function createSpace(ctx: Context, organizationId: string, input: CreateSpaceInput): Promise<Space> {
  await organizationForMember(ctx, organizationId);
  checkTitle(input.title);
  checkEmoji(input.emoji);
  await checkCreationTarget(ctx, organizationId, input.parent);
  const now = ctx.clock.now();
  return ctx.db.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const collectionId = input.parent ?? null;
    return insertSpace(tx, {
      id: newId(),
      organizationId,
      collectionId,
      title: input.title || DEFAULT_TITLE,
      emoji: input.emoji ?? '',
      editMode: input.editMode ?? 'live',
      position: await positionKey(tx, organizationId, collectionId),
      createdAt: now,
      updatedAt: now,
    });
  });
}

export async function listOrganizationSpaces(ctx: Context, organizationId: string, args: ListArgs, query?: ItemQuery) {
  await organizationForMember(ctx, organizationId);
  return viewerSpacePage(ctx, { args, keys: SPACE_LIST_ORDER, where: await visibleSpacesWhere(ctx, organizationId), query });
}

/** A space by ID; its admins also get it while it is deleted (with `deletedAt`). */
export async function getSpace(ctx: Context, spaceId: string): Promise<Space> {
  return (await spaceFor(ctx, spaceId, 'view')).space;
}

export interface UpdateSpaceInput {
  title?: string | null;
  emoji?: string | null;
  editMode?: EditMode | null;
  defaultLevel?: Role | null;
  visibility?: SpaceVisibility | null;
  mergeRules?: unknown;
}

/**
 * Title, emoji and edit mode need `edit`; who can reach the space (defaultLevel, visibility) and its
 * merge rules need `admin`.
 */
export async function updateSpace(ctx: Context, spaceId: string, input: UpdateSpaceInput): Promise<Space> {
  checkTitle(input.title);
  checkEmoji(input.emoji);
  for (const field of ['editMode', 'defaultLevel', 'visibility'] as const) rejectNull(field, input[field]);
  const mergeRules = input.mergeRules === undefined ? undefined : parseMergeRules(input.mergeRules);
  const { space, actor } = await spaceFor(ctx, spaceId, 'edit');
  if (input.defaultLevel || input.visibility) authorize(spacePolicy, actor, 'manageAccess', space);
  if (mergeRules) authorize(spacePolicy, actor, 'administer', space);
  if (input.visibility === 'in_collection' && !space.collectionId) {
    throw new BadRequestError('Invalid "visibility": "in-collection" is only for spaces inside a collection');
  }
  return ctx.db.space.update({
    where: { id: spaceId },
    data: {
      title: input.title ?? undefined,
      emoji: input.emoji === null ? '' : input.emoji,
      editMode: input.editMode ?? undefined,
      defaultLevel: input.defaultLevel ?? undefined,
      visibility: input.visibility ?? undefined,
      mergeRules: mergeRules ?? undefined,
      updatedAt: ctx.clock.now(),
    },
  });
}

/** Moves a space into a collection (or the top level, `parent: null`), at a position (default: the end). */
export async function moveSpace(ctx: Context, spaceId: string, input: { parent?: string | null; position?: ContentPosition | null }) {
  const { space } = await spaceFor(ctx, spaceId, 'move');
  const parentId = input.parent === undefined ? space.collectionId : input.parent;
  if (parentId !== space.collectionId) await checkCreationTarget(ctx, space.organizationId, parentId);
  return ctx.db.$transaction(async (tx) => {
    await lockOrganization(tx, space.organizationId);
    const position = await positionKey(tx, space.organizationId, parentId, input.position, { type: 'space', id: space.id });
    return tx.space.update({
      where: { id: space.id },
      data: {
        collectionId: parentId,
        position,
        updatedAt: ctx.clock.now(),
        // "in-collection" means nothing at the top level.
        visibility: !parentId && space.visibility === 'in_collection' ? 'private' : undefined,
      },
    });
  });
}

/**
 * Drops what only made sense in the space's old organization: member/team grants, field values and its
 * place in that organization's sites.
 */
export async function detachFromOrganization(tx: Tx, spaceIds: string[]): Promise<void> {
  await tx.spaceUserGrant.deleteMany({ where: { spaceId: { in: spaceIds } } });
  await tx.spaceTeamGrant.deleteMany({ where: { spaceId: { in: spaceIds } } });
  await tx.customFieldValue.deleteMany({ where: { spaceId: { in: spaceIds } } });
  await publishDomainEvent(tx, 'spaces.removed', { spaceIds });
}

/**
 * Moves a space to another organization (top level, or into `collection` of that organization), keeping
 * its ID and content. The caller must administer the space and be able to create content in both.
 */
export async function transferSpace(ctx: Context, spaceId: string, input: { organization: string; collection?: string | null }) {
  const { space } = await spaceFor(ctx, spaceId, 'transfer');
  await organizationFor(ctx, space.organizationId, 'transferOut');
  await organizationForMember(ctx, input.organization);
  await checkCreationTarget(ctx, input.organization, input.collection, 'collection', 'transferIn');
  if (input.organization === space.organizationId && (input.collection ?? null) === space.collectionId) return space;
  return ctx.db.$transaction(async (tx) => {
    for (const id of [space.organizationId, input.organization].sort()) await lockOrganization(tx, id);
    if (input.organization !== space.organizationId) await detachFromOrganization(tx, [space.id]);
    const collectionId = input.collection ?? null;
    const position = await positionKey(tx, input.organization, collectionId, null, { type: 'space', id: space.id });
    return tx.space.update({
      where: { id: space.id },
      data: {
        organizationId: input.organization,
        collectionId,
        position,
        updatedAt: ctx.clock.now(),
        visibility: !collectionId && space.visibility === 'in_collection' ? 'private' : undefined,
      },
    });
  });
}

/**
 * A new space with the same settings, custom field values and access grants, and a copy of the active
 * content (pages and files) in its own first revision, placed right after the original.
 */
export async function duplicateSpace(ctx: Context, spaceId: string): Promise<Space> {
  const { space } = await spaceFor(ctx, spaceId, 'read');
  await checkCreationTarget(ctx, space.organizationId, space.collectionId);
  const now = ctx.clock.now();
  return ctx.db.$transaction(async (tx) => {
    await lockOrganization(tx, space.organizationId);
    const id = newId();
    const copy = await insertSpace(tx, {
      id,
      organizationId: space.organizationId,
      collectionId: space.collectionId,
      title: `${space.title} (copy)`.slice(0, 50),
      emoji: space.emoji,
      visibility: space.visibility,
      editMode: space.editMode,
      defaultLevel: space.defaultLevel,
      position: await positionKey(tx, space.organizationId, space.collectionId, { after: { type: 'space', space: space.id } }),
      createdAt: now,
      updatedAt: now,
    });
    if (space.revisionId) {
      // The copy's first revision holds the same trees: their roots are all it needs (nodes are shared).
      const revisionId = copy.revisionId!;
      await tx.$executeRaw`
        UPDATE "Revision" c SET "pageTree" = s."pageTree", "fileTree" = s."fileTree"
        FROM "Revision" s WHERE s."id" = ${space.revisionId} AND c."id" = ${revisionId}`;
      await publishDomainEvent(tx, 'space.duplicated', { sourceSpaceId: space.id, copySpaceId: copy.id, revisionId, sourceRevisionId: space.revisionId });
    }
    const [values, userGrants, teamGrants] = await Promise.all([
      tx.customFieldValue.findMany({ where: { spaceId } }),
      tx.spaceUserGrant.findMany({ where: { spaceId } }),
      tx.spaceTeamGrant.findMany({ where: { spaceId } }),
    ]);
    if (values.length) {
      await tx.customFieldValue.createMany({
        data: values.map((v) => ({ spaceId: id, fieldId: v.fieldId, value: v.value as Prisma.InputJsonValue })),
      });
    }
    if (userGrants.length) await tx.spaceUserGrant.createMany({ data: userGrants.map((g) => ({ ...g, spaceId: id, createdAt: now })) });
    if (teamGrants.length) await tx.spaceTeamGrant.createMany({ data: teamGrants.map((g) => ({ ...g, spaceId: id, createdAt: now })) });
    return copy;
  });
}

