import type { Prisma, RevisionType } from '../../../generated/prisma/client.ts';
import { rebuildTree, type NodeRow, type Piece } from './content-tree.ts';
import { putDocuments } from './document-store.ts';
import { databaseFileStore, type FileStore } from './file-store.ts';
import { compareFiles, contentCacheOf, fileCodec, pageCodec, revisionContent, RevisionContent, type FileEntry, type PageEntry } from './revision-content.ts';
import { RevisionDraft, type DraftPage } from './revision-draft.ts';

type Db = Prisma.TransactionClient;

export interface NewRevision {
  id: string;
  spaceId: string;
  parents: string[];
  type: RevisionType;
  createdById: string | null;
  createdAt: Date;
  draft: RevisionDraft;
  /** Bytes of files the draft added, stored before the rows that point at them. */
  blobs?: readonly Uint8Array<ArrayBuffer>[];
}

/**
 * Writes a draft as a new, immutable revision, inside the caller's transaction, and answers its
 * content (for the caller to keep once the transaction commits: `rememberContent`). Bodies and bytes
 * are content-addressed (a markdown or a file no revision holds yet adds a Document or FileBlob row),
 * and so are the nodes of the page and file trees: the new trees share every node of the base's that
 * holds nothing the draft changed, so a one-page change writes one document, a leaf and the nodes
 * above it (src/modules/content/store/content-tree.ts), in one statement, whatever the size of the space.
 */
export async function writeRevision(db: Db, revision: NewRevision, store: FileStore = databaseFileStore): Promise<RevisionContent> {
  const { draft } = revision;
  for (const bytes of revision.blobs ?? []) await store.put(db, bytes);

  const withNewBody = draft.withNewBodies();
  const hashes = await putDocuments(db, withNewBody.map((page) => page.markdown!));
  withNewBody.forEach((page, i) => {
    page.documentHash = hashes[i];
    delete page.markdown;
  });

  const pages = rebuildTree(draft.base.pages, pagePieces(draft), pageCodec);
  const files = rebuildTree(draft.base.files, filePieces(draft), fileCodec);
  await storeNodes(db, [...pages.rows, ...files.rows]);
  const row = await db.revision.create({
    data: {
      id: revision.id,
      spaceId: revision.spaceId,
      parents: revision.parents,
      type: revision.type,
      createdById: revision.createdById,
      createdAt: revision.createdAt,
      pageTree: pages.sequence.root,
      fileTree: files.sequence.root,
    },
  });
  return new RevisionContent(row, pages.sequence, files.sequence);
}

/** Stores tree nodes (those already stored are skipped): one statement. */
export async function storeNodes(db: Db, rows: readonly NodeRow[]) {
  if (!rows.length) return;
  await db.contentNode.createMany({
    data: rows.map((row) => ({ ...row, items: row.items as Prisma.InputJsonValue })),
    skipDuplicates: true,
  });
}

/** Keeps a revision just written (after its transaction committed), so the next read needs no SQL. */
export function rememberContent(cacheOwner: object, content: RevisionContent) {
  contentCacheOf(cacheOwner).remember(content);
}

/** The draft of a stored revision, to change and write as a new one (read whole, or from the cache). */
export async function draftOf(db: Db, revisionId: string, cacheOwner: object = db): Promise<RevisionDraft> {
  return new RevisionDraft(await revisionContent(db, cacheOwner, revisionId));
}

/**
 * Locks a space's row for a writer that will move its active revision (FOR UPDATE: `revisionId` is a
 * unique column), as the first statement of its transaction, and answers the revision it holds. With
 * `expected`, a space that moved on meanwhile (or is gone) fails with `conflict()` before anything is
 * written.
 */
export async function lockSpaceAt(db: Db, spaceId: string, expected: string | null, conflict: () => Error): Promise<string> {
  const [row] = await db.$queryRaw<{ revisionId: string | null; deletedAt: Date | null }[]>`
    SELECT "revisionId", "deletedAt" FROM "Space" WHERE "id" = ${spaceId} FOR UPDATE`;
  if (!row?.revisionId || row.deletedAt || (expected !== null && row.revisionId !== expected)) throw conflict();
  return row.revisionId;
}

const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The base's entry when `next` holds the same, so unchanged pages keep their entry (and leaf). */
function entryOf(base: PageEntry | undefined, next: PageEntry): PageEntry {
  if (
    base &&
    base.parentId === next.parentId &&
    base.prev === next.prev &&
    base.type === next.type &&
    base.title === next.title &&
    base.emoji === next.emoji &&
    base.icon === next.icon &&
    base.noIndex === next.noIndex &&
    base.noRobotsIndex === next.noRobotsIndex &&
    sameJson(base.cover, next.cover) &&
    base.slug === next.slug &&
    base.path === next.path &&
    base.description === next.description &&
    base.documentHash === next.documentHash &&
    base.hidden === next.hidden &&
    base.descendants === next.descendants &&
    base.createdAt.getTime() === next.createdAt.getTime() &&
    base.updatedAt.getTime() === next.updatedAt.getTime() &&
    sameJson(base.layout, next.layout) &&
    sameJson(base.computed, next.computed)
  ) {
    return base;
  }
  return Object.freeze(next);
}

/**
 * The new page sequence as pieces of the base's: the draft's tree depth first, where every subtree the
 * draft left alone is one span of the base (it is stored there whole, in order) and only the pages that
 * changed — or whose path, previous sibling or number of descendants changed — are new entries. Costs
 * the pages the draft touched, the lists of children it changed and the top level, not the pages below.
 */
function pagePieces(draft: RevisionDraft): Piece<PageEntry>[] {
  const base = draft.base;
  const parentOf = (id: string) => draft.peek(id)!.parentId;

  // Lists of children that changed: their pages' previous siblings, and the counts above them.
  const changedLists: (string | null)[] = [];
  for (const [key, list] of draft.lists) {
    const parentId = key === '' ? null : key;
    if (parentId !== null && !draft.peek(parentId)) continue;
    const before = base.children(parentId);
    if (list.length !== before.length || list.some((id, i) => id !== before[i]) || (parentId !== null && !base.page(parentId))) changedLists.push(parentId);
  }
  const prevOf = new Map<string, string | null>();
  for (const parentId of changedLists) draft.children(parentId).forEach((id, i, list) => prevOf.set(id, i ? list[i - 1] : null));
  // Pages whose number of descendants may have changed: those lists' parents and their ancestors.
  const recount = new Set<string>();
  for (const parentId of changedLists) {
    for (let at = parentId; at !== null && !recount.has(at); at = parentOf(at)) recount.add(at);
  }
  const counted = new Map<string, number>();
  const descendantsOf = (id: string): number => {
    const entry = base.page(id);
    if (entry && !recount.has(id) && !draft.removed.has(id)) return entry.descendants;
    let count = counted.get(id);
    if (count === undefined) {
      count = 0;
      for (const child of draft.children(id)) count += 1 + descendantsOf(child);
      counted.set(id, count);
    }
    return count;
  };

  // Pages whose path changes: a page given another slug or parent (or new), and every page below it.
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const page = draft.peek(id)!;
    return page.parentId === null ? page.slug : `${pathOf(page.parentId)}/${page.slug}`;
  };
  const repath = (id: string) => {
    if (paths.has(id)) return;
    paths.set(id, pathOf(id));
    for (const child of draft.children(id)) repath(child);
  };
  const stalePath = (page: DraftPage) => {
    const entry = base.page(page.id);
    return !entry || entry.slug !== page.slug || entry.parentId !== page.parentId;
  };
  // Top-down: a parent's path is settled before its children's.
  const moved = [...draft.copies.values()].filter(stalePath).map((page) => page.id);
  const depth = (id: string) => {
    let d = 0;
    for (let at = parentOf(id); at !== null; at = parentOf(at)) d++;
    return d;
  };
  moved.sort((a, b) => depth(a) - depth(b));
  for (const id of moved) repath(id);

  // The entries that may differ from the base's.
  const entries = new Map<string, PageEntry>();
  const changed = new Set<string>();
  const touched = new Set<string>([...draft.copies.keys(), ...prevOf.keys(), ...recount, ...paths.keys()]);
  for (const id of touched) {
    const page = draft.peek(id);
    if (!page) continue;
    const before = base.page(id);
    const entry = entryOf(before, {
      id,
      parentId: page.parentId,
      prev: prevOf.has(id) ? prevOf.get(id)! : (before?.prev ?? null),
      type: page.type,
      title: page.title,
      emoji: page.emoji,
      icon: page.icon ?? null,
      noIndex: page.noIndex ?? false,
      noRobotsIndex: page.noRobotsIndex ?? false,
      cover: page.cover ?? null,
      slug: page.slug,
      path: paths.get(id) ?? before?.path ?? pathOf(id),
      description: page.description,
      documentHash: page.documentHash,
      hidden: page.hidden,
      layout: page.layout ?? null,
      computed: page.computed ?? null,
      descendants: descendantsOf(id),
      createdAt: page.createdAt,
      updatedAt: page.updatedAt,
    });
    entries.set(id, entry);
    if (entry !== before) changed.add(id);
  }

  // Subtrees holding a change are walked; the others are spans of the base.
  const walked = new Set<string>();
  for (const start of [...changed, ...changedLists]) {
    for (let at = start; at !== null && !walked.has(at); at = parentOf(at)) walked.add(at);
  }
  const pieces: Piece<PageEntry>[] = [];
  const span = (start: number, end: number) => {
    const last = pieces[pieces.length - 1];
    if (last && 'span' in last && last.span[1] === start) pieces[pieces.length - 1] = { span: [last.span[0], end] };
    else pieces.push({ span: [start, end] });
  };
  const emit = (parentId: string | null) => {
    for (const id of draft.children(parentId)) {
      if (!walked.has(id)) {
        const at = base.pages.positionOf(id);
        span(at, at + 1 + base.pages.at(at).descendants);
        continue;
      }
      pieces.push({ entry: entries.get(id) ?? base.page(id)! });
      emit(id);
    }
  };
  emit(null);
  return pieces;
}

/** The new file sequence as pieces of the base's: files stay sorted; removed ones are left out. */
function filePieces(draft: RevisionDraft): Piece<FileEntry>[] {
  const base = draft.base.files;
  const { added, removed } = draft.files;
  if (!added.size && !removed.size) return base.length ? [{ span: [0, base.length] }] : [];
  // Insertions before a base position (found by binary search), removals at one.
  const events: { at: number; entry?: FileEntry }[] = [];
  for (const id of removed) {
    const at = base.positionOf(id);
    if (at !== -1) events.push({ at });
  }
  for (const file of added.values()) {
    let low = 0;
    let high = base.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (compareFiles(base.at(mid), file) < 0) low = mid + 1;
      else high = mid;
    }
    events.push({ at: low, entry: Object.freeze({ ...file }) });
  }
  // By position; at one position, insertions (in file order) before the removal of the base file there.
  events.sort((a, b) => a.at - b.at || (a.entry ? (b.entry ? compareFiles(a.entry, b.entry) : -1) : b.entry ? 1 : 0));
  const pieces: Piece<FileEntry>[] = [];
  let from = 0;
  for (const event of events) {
    if (event.at > from) pieces.push({ span: [from, event.at] });
    if (event.entry) {
      from = Math.max(from, event.at);
      pieces.push({ entry: event.entry });
    } else from = event.at + 1;
  }
  if (from < base.length) pieces.push({ span: [from, base.length] });
  return pieces;
}
