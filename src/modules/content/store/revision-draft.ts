import type { PageType, Prisma } from '../../../generated/prisma/client.ts';
import { ContentSequence } from './content-tree.ts';
import { RevisionContent, type FileEntry, type PageEntry } from './revision-content.ts';

/**
 * A revision being made: the content of the revision it starts from, changed in memory by a batch of
 * edits (or a merge), then written as a new revision by `writeRevision`. Nothing here touches the
 * database, so a batch that fails half-way leaves no trace.
 *
 * A draft records only what changes: a page is copied from the base when first asked for by
 * `pages.get` (callers change the copy), a list of children when first changed. So a one-page edit of
 * a 5,000-page space handles a few pages, and the writer (src/modules/content/store/revision-writer.ts)
 * rewrites only the part of the tree they sit in.
 */
export interface DraftPage {
  id: string;
  type: PageType;
  title: string;
  emoji: string | null;
  /** Absent on a new page: none (as for the three below: false, false, none). */
  icon?: string | null;
  description: string | null;
  hidden: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  cover?: Prisma.JsonValue | null;
  layout: Prisma.JsonValue | null;
  /** A computed page's source (type `computed`); null for every other page. */
  computed?: Prisma.JsonValue | null;
  slug: string;
  /** The stored body; replaced by `markdown` when this draft gives the page a new one. */
  documentHash: string | null;
  /** A new body, stored (content-addressed) when the draft is written. */
  markdown?: string;
  parentId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type DraftFile = FileEntry;

const ROOT = '';
const keyOf = (parentId: string | null) => parentId ?? ROOT;

/** A page as a draft reads it without copying: the draft's copy, or the base's entry. */
type PageView = Readonly<DraftPage>;

/** A draft's own copy of a page entry: what a draft or a merge may change of it. */
export function draftPageOf(entry: PageEntry): DraftPage {
  return {
    id: entry.id,
    type: entry.type,
    title: entry.title,
    emoji: entry.emoji,
    icon: entry.icon,
    description: entry.description,
    hidden: entry.hidden,
    noIndex: entry.noIndex,
    noRobotsIndex: entry.noRobotsIndex,
    cover: entry.cover,
    layout: entry.layout,
    computed: entry.computed,
    slug: entry.slug,
    documentHash: entry.documentHash,
    parentId: entry.parentId,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
}

/** The pages of a draft, by ID: `get` answers a page the caller may change. */
export class DraftPages {
  constructor(private readonly draft: RevisionDraft) {}

  get(id: string): DraftPage | undefined {
    return this.draft.own(id);
  }

  has(id: string): boolean {
    return this.draft.peek(id) !== undefined;
  }
}

/** The files of a draft, by ID: added and removed ones recorded over the base's. */
export class DraftFiles {
  readonly added = new Map<string, DraftFile>();
  readonly removed = new Set<string>();

  constructor(private readonly base: ContentSequence<FileEntry>) {}

  get(id: string): DraftFile | undefined {
    return this.added.get(id) ?? (this.removed.has(id) ? undefined : this.base.get(id));
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  set(id: string, file: DraftFile) {
    if (this.base.has(id)) this.removed.add(id);
    this.added.set(id, file);
  }

  delete(id: string) {
    this.added.delete(id);
    if (this.base.has(id)) this.removed.add(id);
  }

  get size(): number {
    let size = this.base.length + this.added.size;
    for (const id of this.removed) if (this.base.has(id)) size--;
    return size;
  }
}

export class RevisionDraft {
  readonly base: RevisionContent;
  readonly pages: DraftPages;
  readonly files: DraftFiles;
  /** Pages copied from the base (maybe changed) and pages added, by ID. */
  readonly copies = new Map<string, DraftPage>();
  /** Base pages this draft removed. */
  readonly removed = new Set<string>();
  /** Lists of children this draft changed, by parent ID ('' for the top level). */
  readonly lists = new Map<string, string[]>();

  /** A draft of `base`, or of an empty revision. */
  constructor(base?: RevisionContent | null) {
    this.base = base ?? emptyContent();
    this.pages = new DraftPages(this);
    this.files = new DraftFiles(this.base.files);
  }

  /** A page as it is in the draft, without copying it. */
  peek(id: string): PageView | undefined {
    const copy = this.copies.get(id);
    if (copy) return copy;
    if (this.removed.has(id)) return undefined;
    return this.base.page(id);
  }

  /** A page of the draft to change (copied from the base on first use). */
  own(id: string): DraftPage | undefined {
    let copy = this.copies.get(id);
    if (copy) return copy;
    if (this.removed.has(id)) return undefined;
    const entry = this.base.page(id);
    if (!entry) return undefined;
    copy = draftPageOf(entry);
    this.copies.set(id, copy);
    return copy;
  }

  /** The IDs of a parent's children (the top level for null), in order; do not change the array. */
  children(parentId: string | null): readonly string[] {
    return this.lists.get(keyOf(parentId)) ?? (parentId === null || !this.removed.has(parentId) ? this.base.children(parentId) : []);
  }

  /** The children of a parent as a list this draft owns (copied on first change). */
  private ownChildren(parentId: string | null): string[] {
    const key = keyOf(parentId);
    let list = this.lists.get(key);
    if (!list) this.lists.set(key, (list = [...this.children(parentId)]));
    return list;
  }

  /** The IDs of a parent's children (the top level for null), in order. */
  childIds(parentId: string | null): readonly string[] {
    return this.children(parentId);
  }

  /** True when `id` is `ancestorId` or below it. */
  isWithin(id: string, ancestorId: string): boolean {
    for (let at: string | null = id; at !== null; at = this.peek(at)?.parentId ?? null) {
      if (at === ancestorId) return true;
    }
    return false;
  }

  /** Puts a new page under `parentId` at index `at` (clamped; the end when absent). */
  insert(page: DraftPage, at?: number | null) {
    this.copies.set(page.id, page);
    // A page removed earlier in the batch and put back: its old children stay removed.
    if (this.removed.delete(page.id)) this.lists.set(page.id, []);
    this.place(page.id, page.parentId, at);
  }

  /** Moves a page (with its sub-pages) under `parentId` at index `at` (the end when absent). */
  move(id: string, parentId: string | null, at?: number | null) {
    const page = this.own(id)!;
    const siblings = this.ownChildren(page.parentId);
    siblings.splice(siblings.indexOf(id), 1);
    page.parentId = parentId;
    this.place(id, parentId, at);
  }

  private place(id: string, parentId: string | null, at?: number | null) {
    const siblings = this.ownChildren(parentId);
    const index = at === undefined || at === null ? siblings.length : Math.min(Math.max(at, 0), siblings.length);
    siblings.splice(index, 0, id);
  }

  /** Removes a page and every page below it; answers the removed IDs. */
  remove(id: string): string[] {
    const page = this.peek(id);
    if (!page) return [];
    const siblings = this.ownChildren(page.parentId);
    siblings.splice(siblings.indexOf(id), 1);
    const removed: string[] = [];
    const drop = (pageId: string) => {
      removed.push(pageId);
      for (const child of this.children(pageId)) drop(child);
      this.lists.delete(pageId);
      this.copies.delete(pageId);
      if (this.base.page(pageId)) this.removed.add(pageId);
    };
    drop(id);
    return removed;
  }

  /** Takes one page out, alone (a merge places its children elsewhere, or drops them too). */
  drop(id: string) {
    const page = this.peek(id);
    if (!page) return;
    const siblings = this.ownChildren(page.parentId);
    const at = siblings.indexOf(id);
    if (at !== -1) siblings.splice(at, 1);
    this.copies.delete(id);
    this.lists.delete(id);
    if (this.base.page(id)) this.removed.add(id);
  }

  /** Holds `page` as given, to be placed by `setChildren` (a merge). */
  put(page: DraftPage) {
    this.removed.delete(page.id);
    this.copies.set(page.id, page);
  }

  /** Sets the children of a parent (the top level for null), in order; each takes it as its parent. */
  setChildren(parentId: string | null, ids: readonly string[]) {
    this.lists.set(keyOf(parentId), [...ids]);
    for (const id of ids) if (this.peek(id)!.parentId !== parentId) this.own(id)!.parentId = parentId;
  }

  /** The index of a page among its siblings. */
  indexOf(id: string): number {
    const page = this.peek(id)!;
    return this.children(page.parentId).indexOf(id);
  }

  /** The slug path of a page from the top level (`guides/getting-started`). */
  pathOf(id: string): string {
    const slugs: string[] = [];
    for (let at: string | null = id; at !== null; at = this.peek(at)?.parentId ?? null) slugs.unshift(this.peek(at)!.slug);
    return slugs.join('/');
  }

  /** True when a sibling under `parentId` other than `exceptId` has this slug. */
  slugTaken(parentId: string | null, slug: string, exceptId?: string): boolean {
    return this.children(parentId).some((id) => id !== exceptId && this.peek(id)!.slug === slug);
  }

  /** `base`, or `base-2`, `base-3` … : the first slug free among the siblings under `parentId`. */
  freeSlug(parentId: string | null, base: string, exceptId?: string): string {
    const taken = new Set(
      this.children(parentId)
        .filter((id) => id !== exceptId)
        .map((id) => this.peek(id)!.slug),
    );
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base.slice(0, 95)}-${n}`;
    return slug;
  }

  /** The page whose slug path is `path`, if any. */
  pageAtPath(path: string): PageView | undefined {
    let parentId: string | null = null;
    let found: PageView | undefined;
    for (const slug of path.split('/').filter(Boolean)) {
      found = undefined;
      for (const id of this.children(parentId) as string[]) {
        const page: PageView = this.peek(id)!;
        if (page.slug === slug) {
          found = page;
          break;
        }
      }
      if (!found) return undefined;
      parentId = found.id;
    }
    return found;
  }

  hasChildren(id: string): boolean {
    return this.children(id).length > 0;
  }

  /** Pages the draft holds with a new body (to store before writing). */
  withNewBodies(): DraftPage[] {
    return [...this.copies.values()].filter((page) => page.markdown !== undefined);
  }
}

let empty: RevisionContent | null = null;

/** The content of a revision with no pages and no files. */
export function emptyContent(): RevisionContent {
  empty ??= new RevisionContent(
    { id: '', spaceId: '', parents: [], type: 'edits', createdById: null, gitOid: null, gitMessage: null, pageTree: null, fileTree: null, createdAt: new Date(0) },
    ContentSequence.empty('pages'),
    ContentSequence.empty('files'),
  );
  return empty;
}
