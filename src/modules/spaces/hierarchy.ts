import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Prisma } from '../../generated/prisma/client.ts';
import { BadRequestError } from '../../graphql/errors.ts';

/**
 * Sibling order in the content tree. Collections and spaces under the same parent (a collection, or the
 * organization's top level) share one order, kept as fractional-index keys in `position` (compared
 * byte-wise: the columns use the "C" collation), ties broken by ID. Writers lock the organization row
 * first, so two moves in one organization never compute the same key.
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

/** Rewrites every sibling's key evenly (only needed if equal keys ever appear). */
async function renumber(tx: Tx, siblings: Sibling[]): Promise<void> {
  const keys = generateNKeysBetween(null, null, siblings.length);
  for (const [i, s] of siblings.entries()) {
    s.position = keys[i];
    if (s.type === 'space') await tx.space.update({ where: { id: s.id }, data: { position: keys[i] } });
    else await tx.collection.update({ where: { id: s.id }, data: { position: keys[i] } });
  }
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
    return compute();
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    await renumber(tx, siblings);
    return compute();
  }
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
