import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Prisma } from '../../generated/prisma/client.ts';
import { BadRequestError, ConflictError } from '../../core/errors.ts';

/**
 * Sibling order in the content tree. Collections and spaces under the same parent (a collection, or the
 * organization's top level) share one order, kept as fractional-index keys in `position` (compared
 * byte-wise: the columns use the "C" collation), ties broken by ID. Writers lock the organization row
 * first, so two moves in one organization never compute the same key; the database enforces that live
 * siblings' keys are unique (partial unique indexes per table, a trigger across the two tables: see
 * prisma/schema.prisma), so a writer that got this wrong fails with a 409 instead of corrupting the order.
 */
type Tx = Prisma.TransactionClient;

export interface ContentPointer {
  type: string;
  space?: string | null;
  collection?: string | null;
}

export interface ContentPosition {
  before?: ContentPointer | null;
  after?: ContentPointer | null;
}

export interface SiblingRef {
  type: 'space' | 'collection';
  id: string;
}

interface Sibling extends SiblingRef {
  position: string;
}

/** Serialises tree changes within one organization (held until the transaction ends). */
export async function lockOrganization(tx: Tx, organizationId: string): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM "Organization" WHERE "id" = ${organizationId} FOR UPDATE`;
}

async function siblingsOf(tx: Tx, organizationId: string, parentId: string | null): Promise<Sibling[]> {
  const [collections, spaces] = await Promise.all([
    tx.collection.findMany({ where: { organizationId, parentId, deletedAt: null }, select: { id: true, position: true } }),
    tx.space.findMany({ where: { organizationId, collectionId: parentId, deletedAt: null }, select: { id: true, position: true } }),
  ]);
  const all: Sibling[] = [
    ...collections.map((c) => ({ type: 'collection' as const, ...c })),
    ...spaces.map((s) => ({ type: 'space' as const, ...s })),
  ];
  return all.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function pointerId(field: string, pointer: ContentPointer): SiblingRef {
  if (pointer.type === 'space' && pointer.space) return { type: 'space', id: pointer.space };
  if (pointer.type === 'collection' && pointer.collection) return { type: 'collection', id: pointer.collection };
  throw new BadRequestError(`Invalid "${field}": expected { type: "space", space } or { type: "collection", collection }`);
}

/**
 * The longest order key handed out: moving items back and forth between the same two neighbours makes
 * each new key a character longer than the last; past this, the siblings are renumbered evenly.
 */
const MAX_KEY_LENGTH = 32;

/**
 * Rewrites every sibling's key evenly (when a key would grow past MAX_KEY_LENGTH, or a stored key is not
 * a valid fractional-index key, e.g. data written by hand). Two passes, as keys are unique among live siblings and checked row by
 * row: a new key may still be held by a sibling not rewritten yet, so everyone first gets a temporary
 * key of their own ("~" sorts after every key digit).
 */
async function renumber(tx: Tx, siblings: Sibling[]): Promise<void> {
  const keys = generateNKeysBetween(null, null, siblings.length);
  for (const pass of ['temporary', 'final'] as const) {
    for (const [i, s] of siblings.entries()) {
      s.position = pass === 'final' ? keys[i] : `~${s.type}~${s.id}`;
      if (s.type === 'space') await tx.space.update({ where: { id: s.id }, data: { position: s.position } });
      else await tx.collection.update({ where: { id: s.id }, data: { position: s.position } });
    }
  }
}

/**
 * A parent collection must still be live in the organization. Callers check it before their transaction;
 * this check runs again under the organization lock, as a concurrent delete or transfer may have taken it
 * away meanwhile.
 */
async function assertLiveParent(tx: Tx, organizationId: string, parentId: string | null): Promise<void> {
  if (!parentId) return;
  const parent = await tx.collection.findFirst({ where: { id: parentId, organizationId, deletedAt: null }, select: { id: true } });
  if (!parent) throw new ConflictError(`Collection "${parentId}" was deleted or moved meanwhile`);
}

/**
 * The key that places `moving` under `parentId`: at the end by default, or right before/after a
 * sibling named by `position`. The caller holds the organization lock.
 */
export async function positionKey(
  tx: Tx,
  organizationId: string,
  parentId: string | null,
  position?: ContentPosition | null,
  moving?: SiblingRef,
): Promise<string> {
  await assertLiveParent(tx, organizationId, parentId);
  const siblings = (await siblingsOf(tx, organizationId, parentId)).filter(
    (s) => !(moving && s.type === moving.type && s.id === moving.id),
  );
  if (position?.before && position?.after) throw new BadRequestError('Invalid "position": give either "before" or "after"');
  const anchor = position?.before ? pointerId('position.before', position.before) : position?.after ? pointerId('position.after', position.after) : null;
  const compute = (): string => {
    if (!anchor) return generateKeyBetween(siblings.at(-1)?.position ?? null, null);
    const index = siblings.findIndex((s) => s.type === anchor.type && s.id === anchor.id);
    if (index < 0) throw new BadRequestError(`Invalid "position": ${anchor.type} "${anchor.id}" is not in the target parent`);
    return position?.before
      ? generateKeyBetween(siblings[index - 1]?.position ?? null, siblings[index].position)
      : generateKeyBetween(siblings[index].position, siblings[index + 1]?.position ?? null);
  };
  try {
    const key = compute();
    if (key.length <= MAX_KEY_LENGTH) return key;
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
  }
  await renumber(tx, siblings);
  return compute();
}

/**
 * The key for an item restored under `parentId`: its old key when no live sibling holds it (it returns to
 * its place), else the end of the order — siblings created or moved meanwhile may have taken it.
 */
export async function restoredPositionKey(tx: Tx, organizationId: string, parentId: string | null, oldKey: string, moving: SiblingRef) {
  const siblings = await siblingsOf(tx, organizationId, parentId);
  const taken = siblings.some((s) => s.position === oldKey && !(s.type === moving.type && s.id === moving.id));
  return oldKey && !taken ? oldKey : positionKey(tx, organizationId, parentId, null, moving);
}

/** IDs of a collection and every collection below it. */
export function subtreeCollectionIds(all: { id: string; parentId: string | null }[], rootId: string): string[] {
  const children = new Map<string, string[]>();
  for (const c of all) if (c.parentId) children.set(c.parentId, [...(children.get(c.parentId) ?? []), c.id]);
  const ids: string[] = [];
  const stack = [rootId];
  while (stack.length) {
    const id = stack.pop()!;
    ids.push(id);
    stack.push(...(children.get(id) ?? []));
  }
  return ids;
}
