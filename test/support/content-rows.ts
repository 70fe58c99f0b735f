/**
 * Revisions written and read straight, as rows, for tests that set up content the API cannot make (a
 * page with a hand-picked ID, an orphan, a given order key) or look at what was stored. A revision's
 * pages and files live in content trees (src/modules/content/store/content-tree.ts); these helpers turn rows
 * into a tree exactly as the migration to trees does (pages depth first, siblings by their order key
 * then ID, a page whose parent is missing at the top level; files by name then ID) and back, and set
 * the revision's roots. Revisions are immutable for the application, which keeps them in a cache: a
 * helper that rewrites one tells the cache to forget it.
 */
import type { Db } from '../../src/db/client.ts';
import type { PageType, Prisma } from '../../src/generated/prisma/client.ts';
import {
  ContentSequence,
  contentCacheOf,
  fileCodec,
  pageCodec,
  rebuildTree,
  revisionContent,
  storeNodes,
  type FileEntry,
  type PageEntry,
} from '../../src/modules/content/index.ts';

/** A page as a row of the former `Page` table: its place is its parent and its order key among its siblings. */
export interface PageRow {
  id: string;
  parentId: string | null;
  /** Order among siblings (byte order, then ID). */
  position: string;
  type: PageType;
  title: string;
  emoji: string | null;
  slug: string;
  path: string;
  description: string | null;
  documentHash: string | null;
  hidden: boolean;
  layout: Prisma.JsonValue | null;
  computed: Prisma.JsonValue | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Order keys given by tests, by revision then page (the trees keep the order, not the keys). */
const givenPositions = new Map<string, Map<string, string>>();

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A revision's pages as rows, in tree order; order keys are those a test gave, else the sibling index. */
export async function pageRows(db: Db, revisionId: string): Promise<PageRow[]> {
  const content = await revisionContent(db, db, revisionId);
  if (!content) return [];
  const given = givenPositions.get(revisionId);
  return content.pages.entries().map((entry) => {
    const siblings = content.children(entry.parentId);
    const { prev: _prev, descendants: _descendants, ...row } = entry;
    return { ...row, position: given?.get(entry.id) ?? String(siblings.indexOf(entry.id)).padStart(6, '0') };
  });
}

/** How many pages a revision holds. */
export async function pageCount(db: Db, revisionId: string): Promise<number> {
  return (await revisionContent(db, db, revisionId))?.pages.length ?? 0;
}

/** A revision's files, by name then ID. */
export async function fileRows(db: Db, revisionId: string): Promise<FileEntry[]> {
  return [...((await revisionContent(db, db, revisionId))?.files.entries() ?? [])];
}

/** Sets a revision's pages to these rows (its files stay). */
export async function writePageRows(db: Db, revisionId: string, rows: readonly PageRow[]) {
  const known = new Set(rows.map((row) => row.id));
  const parentOf = (row: PageRow) => (row.parentId !== null && known.has(row.parentId) ? row.parentId : null);
  const children = new Map<string | null, PageRow[]>();
  for (const row of rows) children.set(parentOf(row), [...(children.get(parentOf(row)) ?? []), row]);
  for (const list of children.values()) list.sort((a, b) => byteOrder(a.position, b.position) || byteOrder(a.id, b.id));
  const entries: PageEntry[] = [];
  const visit = (parentId: string | null) => {
    (children.get(parentId) ?? []).forEach((row, i, list) => {
      const at = entries.length;
      entries.push({ icon: null, noIndex: false, noRobotsIndex: false, cover: null, ...row, parentId, prev: i ? list[i - 1].id : null, descendants: 0 });
      visit(row.id);
      entries[at] = Object.freeze({ ...entries[at], descendants: entries.length - at - 1 });
    });
  };
  visit(null);
  const { sequence, rows: nodes } = rebuildTree(ContentSequence.empty<PageEntry>('pages'), entries.map((entry) => ({ entry })), pageCodec);
  await storeNodes(db, nodes);
  await db.revision.update({ where: { id: revisionId }, data: { pageTree: sequence.root } });
  givenPositions.set(revisionId, new Map(rows.map((row) => [row.id, row.position])));
  contentCacheOf(db).forget(revisionId);
}

/** Sets a revision's files to these (its pages stay). */
export async function writeFileRows(db: Db, revisionId: string, files: readonly FileEntry[]) {
  const sorted = [...files].sort((a, b) => byteOrder(a.name, b.name) || byteOrder(a.id, b.id));
  const { sequence, rows: nodes } = rebuildTree(ContentSequence.empty<FileEntry>('files'), sorted.map((entry) => ({ entry: Object.freeze({ ...entry }) })), fileCodec);
  await storeNodes(db, nodes);
  await db.revision.update({ where: { id: revisionId }, data: { fileTree: sequence.root } });
  contentCacheOf(db).forget(revisionId);
}

/** Changes one page of a revision in place (as an `UPDATE` of its row did). */
export async function updatePageRow(db: Db, revisionId: string, id: string, data: Partial<PageRow>) {
  const rows = await pageRows(db, revisionId);
  await writePageRows(
    db,
    revisionId,
    rows.map((row) => (row.id === id ? { ...row, ...data } : row)),
  );
}

/** Changes every page of a revision in place. */
export async function updatePageRows(db: Db, revisionId: string, data: Partial<PageRow>) {
  await writePageRows(
    db,
    revisionId,
    (await pageRows(db, revisionId)).map((row) => ({ ...row, ...data })),
  );
}

/** A page row with the defaults the `Page` table had. */
export function pageRow(row: Pick<PageRow, 'id' | 'title' | 'path'> & Partial<PageRow>, now = new Date()): PageRow {
  return {
    parentId: null,
    position: '',
    type: 'document',
    emoji: null,
    slug: row.path.split('/').pop()!,
    description: null,
    documentHash: null,
    hidden: false,
    layout: null,
    computed: null,
    createdAt: now,
    updatedAt: now,
    ...row,
  };
}
