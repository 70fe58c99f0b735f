import type { PageType, Prisma, Revision, RevisionType } from '../../../generated/prisma/client.ts';
import { ContentSequence, sequenceFromNodes, type EntryCodec, type LeafSource, type StoredNode, type TreeLeaf } from './content-tree.ts';
import type { FileEntry, PageEntry } from './entries.ts';
import { buildPageTree, type PageNode } from './page-tree.ts';

export type { FileEntry, PageEntry } from './entries.ts';

type Db = Prisma.TransactionClient;
type JsonValue = Prisma.JsonValue;

/** JSON of a stored page entry: null and false fields are left out; dates are milliseconds. */
export const pageCodec: EntryCodec<PageEntry> = {
  kind: 'pages',
  encode(page) {
    const json: Record<string, unknown> = { id: page.id };
    if (page.parentId !== null) json.parentId = page.parentId;
    if (page.prev !== null) json.prev = page.prev;
    json.type = page.type;
    json.title = page.title;
    if (page.emoji !== null) json.emoji = page.emoji;
    if (page.icon !== null) json.icon = page.icon;
    json.slug = page.slug;
    json.path = page.path;
    if (page.description !== null) json.description = page.description;
    if (page.documentHash !== null) json.documentHash = page.documentHash;
    if (page.hidden) json.hidden = true;
    if (page.noIndex) json.noIndex = true;
    if (page.noRobotsIndex) json.noRobotsIndex = true;
    if (page.cover !== null) json.cover = page.cover;
    if (page.layout !== null) json.layout = page.layout;
    if (page.computed !== null) json.computed = page.computed;
    json.descendants = page.descendants;
    json.createdAt = page.createdAt.getTime();
    json.updatedAt = page.updatedAt.getTime();
    return json;
  },
  decode(json) {
    return Object.freeze({
      id: json.id as string,
      parentId: (json.parentId as string | undefined) ?? null,
      prev: (json.prev as string | undefined) ?? null,
      type: json.type as PageType,
      title: json.title as string,
      emoji: (json.emoji as string | undefined) ?? null,
      icon: (json.icon as string | undefined) ?? null,
      slug: json.slug as string,
      path: json.path as string,
      description: (json.description as string | undefined) ?? null,
      documentHash: (json.documentHash as string | undefined) ?? null,
      hidden: json.hidden === true,
      noIndex: json.noIndex === true,
      noRobotsIndex: json.noRobotsIndex === true,
      cover: (json.cover as JsonValue | undefined) ?? null,
      layout: (json.layout as JsonValue | undefined) ?? null,
      computed: (json.computed as JsonValue | undefined) ?? null,
      descendants: json.descendants as number,
      createdAt: new Date(json.createdAt as number),
      updatedAt: new Date(json.updatedAt as number),
    });
  },
  documents: (page) => page.documentHash,
};

export const fileCodec: EntryCodec<FileEntry> = {
  kind: 'files',
  encode(file) {
    const json: Record<string, unknown> = { id: file.id, name: file.name, contentType: file.contentType, size: file.size };
    if (file.width !== null) json.width = file.width;
    if (file.height !== null) json.height = file.height;
    json.blobHash = file.blobHash;
    json.createdAt = file.createdAt.getTime();
    return json;
  },
  decode(json) {
    return Object.freeze({
      id: json.id as string,
      name: json.name as string,
      contentType: json.contentType as string,
      size: json.size as number,
      width: (json.width as number | undefined) ?? null,
      height: (json.height as number | undefined) ?? null,
      blobHash: json.blobHash as string,
      createdAt: new Date(json.createdAt as number),
    });
  },
};

/** Files are ordered by name, then ID, comparing code points (PostgreSQL's "C" collation on UTF-8). */
export function compareFiles(a: Pick<FileEntry, 'name' | 'id'>, b: Pick<FileEntry, 'name' | 'id'>): number {
  return compareCodePoints(a.name, b.name) || compareCodePoints(a.id, b.id);
}

function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (an astral code point) sorts after every other UTF-16 unit, as its UTF-8 bytes do.
    const surrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;
    if (surrogate(x) !== surrogate(y)) return surrogate(x) ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

export type RevisionRow = Revision;

/**
 * A revision read whole: its row, its pages (depth first) and its files. Immutable, like the revision:
 * once read it may be kept (`ContentCache`) and served again without SQL, and a draft made from it
 * (src/modules/content/store/revision-draft.ts) only records what changes.
 */
export class RevisionContent {
  private childLists = new Map<string, readonly string[]>();
  private nodes: { pages: PageNode[]; byId: Map<string, PageNode> } | null = null;
  private byPath: Map<string, PageEntry> | null = null;

  constructor(
    readonly revision: RevisionRow,
    readonly pages: ContentSequence<PageEntry>,
    readonly files: ContentSequence<FileEntry>,
  ) {}

  get id(): string {
    return this.revision.id;
  }

  /** Pages and files: what the cache counts. */
  get size(): number {
    return this.pages.length + this.files.length;
  }

  page(id: string): PageEntry | undefined {
    return this.pages.get(id);
  }

  /** The page at a path (the first in tree order, should two share one), indexed on first use. */
  pageAtPath(path: string): PageEntry | undefined {
    if (!this.byPath) {
      this.byPath = new Map();
      for (const entry of this.pages.entries()) if (!this.byPath.has(entry.path)) this.byPath.set(entry.path, entry);
    }
    return this.byPath.get(path);
  }

  /**
   * The IDs of a page's children (the top level for null), in order: found by stepping from child to
   * child over each one's descendants, so it costs the number of children, not of pages below.
   */
  children(parentId: string | null): readonly string[] {
    const key = parentId ?? '';
    let list = this.childLists.get(key);
    if (list) return list;
    const ids: string[] = [];
    let at: number;
    let end: number;
    if (parentId === null) {
      at = 0;
      end = this.pages.length;
    } else {
      const position = this.pages.positionOf(parentId);
      if (position === -1) return [];
      at = position + 1;
      end = at + this.pages.at(position).descendants;
    }
    while (at < end) {
      const child = this.pages.at(at);
      ids.push(child.id);
      at += 1 + child.descendants;
    }
    list = ids;
    this.childLists.set(key, list);
    return list;
  }

  /** The page tree (made once): top-level pages, each with its children under `pages`, and every node by ID. */
  tree(): { pages: PageNode[]; byId: Map<string, PageNode> } {
    if (!this.nodes) {
      const pages = buildPageTree(this.revision.spaceId, this.pages.entries());
      const byId = new Map<string, PageNode>();
      const stack = [...pages];
      for (let node = stack.pop(); node; node = stack.pop()) {
        byId.set(node.page.id, node);
        stack.push(...node.pages);
      }
      this.nodes = { pages, byId };
    }
    return this.nodes;
  }

  /** A page and every page below it, depth first (a slice of the sequence). */
  subtree(id: string): PageEntry[] {
    const at = this.pages.positionOf(id);
    if (at === -1) return [];
    return this.pages.slice(at, at + 1 + this.pages.at(at).descendants);
  }
}

const revisionFromJson = (json: Record<string, unknown>): RevisionRow => ({
  id: json.id as string,
  spaceId: json.spaceId as string,
  parents: json.parents as string[],
  type: json.type as RevisionType,
  createdById: (json.createdById as string | null) ?? null,
  gitOid: (json.gitOid as string | null) ?? null,
  gitMessage: (json.gitMessage as string | null) ?? null,
  pageTree: (json.pageTree as string | null) ?? null,
  fileTree: (json.fileTree as string | null) ?? null,
  createdAt: new Date(`${json.createdAt as string}Z`),
});

/**
 * Reads revisions whole, in one statement: their rows, and every node of their page and file trees
 * (each node once, however many of the revisions share it). A leaf `leaves` holds already (leaves never
 * change, and revisions of a space share most of theirs) is neither parsed nor decoded again: a revision
 * made by a one-page edit decodes one leaf. Revisions that do not exist are absent from the answer.
 */
export async function readRevisionContents(db: Db, ids: readonly string[], leaves: LeafStore = new LeafStore()): Promise<Map<string, RevisionContent>> {
  const found = new Map<string, RevisionContent>();
  if (!ids.length) return found;
  // One row per node, its items as the text stored (`json`: no conversion), and one row (no hash) for
  // the revisions: a whole 5,000-page tree comes back in a few milliseconds.
  const rows = await db.$queryRaw<{ hash: string | null; level: number | null; items: string | null }[]>`
    WITH RECURSIVE revisions AS (
      SELECT * FROM "Revision" WHERE "id" = ANY(${[...new Set(ids)]}::text[])
    ),
    walk("hash") AS (
      SELECT "pageTree" FROM revisions WHERE "pageTree" IS NOT NULL
      UNION SELECT "fileTree" FROM revisions WHERE "fileTree" IS NOT NULL
      UNION
      SELECT c.item->>0 FROM walk w JOIN "ContentNode" n ON n."hash" = w."hash" AND n."level" > 0
      CROSS JOIN LATERAL json_array_elements(n."items") AS c(item)
    )
    SELECT NULL::text AS "hash", NULL::int AS "level", (SELECT json_agg(r) FROM revisions r)::text AS "items"
    UNION ALL
    SELECT n."hash", n."level", n."items"::text FROM walk w JOIN "ContentNode" n ON n."hash" = w."hash"`;
  let revisions: RevisionRow[] = [];
  const nodes = new Map<string, StoredNode>();
  // The held leaves this read uses, kept here: decoding the others may push them out of the store.
  const held = new Map<string, TreeLeaf<PageEntry | FileEntry>>();
  for (const row of rows) {
    if (row.hash === null) revisions = row.items ? (JSON.parse(row.items) as Record<string, unknown>[]).map(revisionFromJson) : [];
    else {
      const leaf = row.level === 0 ? leaves.get(row.hash) : undefined;
      if (leaf) held.set(row.hash, leaf);
      nodes.set(row.hash, { hash: row.hash, level: row.level!, items: leaf ? null : (JSON.parse(row.items!) as unknown[]) });
    }
  }
  const source: LeafSource<PageEntry | FileEntry> = { get: (hash) => held.get(hash) ?? leaves.get(hash), set: (leaf) => leaves.set(leaf) };
  for (const revision of revisions) {
    const pages = sequenceFromNodes(revision.pageTree, nodes, pageCodec, source as LeafSource<PageEntry>);
    const files = sequenceFromNodes(revision.fileTree, nodes, fileCodec, source as LeafSource<FileEntry>);
    found.set(revision.id, new RevisionContent(revision, pages, files));
  }
  return found;
}

/**
 * Leaves decoded once, by hash (a leaf never changes), kept for the revisions read after: a new revision
 * shares all but its changed leaves with the one it was made from. Least recently used first out,
 * bounded by the entries they hold (as the content cache is).
 */
export class LeafStore {
  private readonly leaves = new Map<string, TreeLeaf<PageEntry | FileEntry>>();
  private held = 0;

  constructor(readonly maxEntries = DEFAULT_CONTENT_CACHE_ENTRIES) {}

  has(hash: string): boolean {
    return this.leaves.has(hash);
  }

  get(hash: string): TreeLeaf<PageEntry | FileEntry> | undefined {
    const leaf = this.leaves.get(hash);
    if (leaf) {
      // Most recently used last.
      this.leaves.delete(hash);
      this.leaves.set(hash, leaf);
    }
    return leaf;
  }

  set(leaf: TreeLeaf<PageEntry | FileEntry>) {
    if (this.leaves.has(leaf.hash) || leaf.entries.length > this.maxEntries) return;
    this.leaves.set(leaf.hash, leaf);
    this.held += leaf.entries.length;
    for (const [hash, oldest] of this.leaves) {
      if (this.held <= this.maxEntries) break;
      this.leaves.delete(hash);
      this.held -= oldest.entries.length;
    }
  }

  /** Keeps the leaves of a revision (one just written: the next read of it, or of a revision made from it, finds them). */
  keep(content: RevisionContent) {
    for (const leaf of content.pages.leaves) this.set(leaf);
    for (const leaf of content.files.leaves) this.set(leaf);
  }
}

/** Pages and files the cache holds at most (about 300 bytes each in memory). */
export const DEFAULT_CONTENT_CACHE_ENTRIES = 200_000;

/**
 * Revisions read whole, kept by ID (a revision never changes), least recently used first out, bounded
 * by the pages and files they hold. One per database client (`contentCacheOf`), so tests that open
 * several databases in one process never share one.
 */
export class ContentCache {
  private readonly revisions = new Map<string, RevisionContent>();
  private held = 0;
  /** Leaves of the revisions read or written, kept longer than the revisions that hold them. */
  readonly leaves: LeafStore;

  constructor(readonly maxEntries = DEFAULT_CONTENT_CACHE_ENTRIES) {
    this.leaves = new LeafStore(maxEntries);
  }

  get(id: string): RevisionContent | undefined {
    const content = this.revisions.get(id);
    if (content) {
      // Most recently used last.
      this.revisions.delete(id);
      this.revisions.set(id, content);
    }
    return content;
  }

  remember(content: RevisionContent) {
    this.leaves.keep(content);
    if (content.size > this.maxEntries) return;
    this.forget(content.id);
    this.revisions.set(content.id, content);
    this.held += content.size;
    for (const [id, oldest] of this.revisions) {
      if (this.held <= this.maxEntries) break;
      this.revisions.delete(id);
      this.held -= oldest.size;
    }
  }

  forget(id: string) {
    const content = this.revisions.get(id);
    if (!content) return;
    this.revisions.delete(id);
    this.held -= content.size;
  }

  /** Reads under way, by revision: concurrent misses (the tree and the files of one request) share one statement. */
  readonly reading = new Map<string, Promise<RevisionContent | null>>();
}

const caches = new WeakMap<object, ContentCache>();

/** The content cache of a database client (made on first use). */
export function contentCacheOf(db: object): ContentCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new ContentCache()));
  return cache;
}

/** Sets the bound of a database client's content cache (the app does, from its configuration). */
export function configureContentCache(db: object, maxEntries: number) {
  caches.set(db, new ContentCache(maxEntries));
}

/**
 * Revisions read whole, from the cache when held, the others in one statement (then kept). `db` may be
 * a transaction; `cacheOwner` is the database client whose cache serves (a revision is the same in
 * every transaction).
 */
export async function revisionContents(db: Db, cacheOwner: object, ids: readonly string[]): Promise<Map<string, RevisionContent>> {
  const cache = contentCacheOf(cacheOwner);
  const found = new Map<string, RevisionContent>();
  const waiting: [string, Promise<RevisionContent | null>][] = [];
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const content = cache.get(id);
    const reading = cache.reading.get(id);
    if (content) found.set(id, content);
    else if (reading) waiting.push([id, reading]);
    else missing.push(id);
  }
  if (missing.length) {
    const read = readRevisionContents(db, missing, cache.leaves);
    for (const id of missing) {
      const one = read.then((contents) => contents.get(id) ?? null);
      one.catch(() => {}).finally(() => cache.reading.delete(id));
      cache.reading.set(id, one);
      waiting.push([id, one]);
    }
    for (const content of (await read).values()) cache.remember(content);
  }
  for (const [id, reading] of waiting) {
    const content = await reading;
    if (content) found.set(id, content);
  }
  return found;
}

/** One revision read whole (cached), or null when there is none. */
export async function revisionContent(db: Db, cacheOwner: object, id: string): Promise<RevisionContent | null> {
  return (await revisionContents(db, cacheOwner, [id])).get(id) ?? null;
}
