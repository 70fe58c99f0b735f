import type { File, Page, PageType, Prisma } from '../../generated/prisma/client.ts';

/**
 * A revision being made: the page tree and files of the revision it starts from, changed in memory by
 * a batch of edits (or a merge), then written as a new revision by `writeRevision`. Nothing here
 * touches the database, so a batch that fails half-way leaves no trace.
 */
export interface DraftPage {
  id: string;
  type: PageType;
  title: string;
  emoji: string | null;
  description: string | null;
  hidden: boolean;
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

export type DraftFile = Omit<File, 'revisionId'>;

const ROOT = '';

export class RevisionDraft {
  readonly pages = new Map<string, DraftPage>();
  /** Child page IDs in order, by parent ID ('' for the top level). */
  private readonly children = new Map<string, string[]>();
  readonly files = new Map<string, DraftFile>();

  /** The draft of an existing revision, from its page rows (any order) and file rows. */
  static fromRows(pages: readonly Page[], files: readonly File[]): RevisionDraft {
    const draft = new RevisionDraft();
    const sorted = [...pages].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const known = new Set(pages.map((p) => p.id));
    for (const row of sorted) {
      // A row whose parent is missing is kept at the top level, as the readers show it.
      const parentId = row.parentId !== null && known.has(row.parentId) ? row.parentId : null;
      draft.pages.set(row.id, {
        id: row.id,
        type: row.type,
        title: row.title,
        emoji: row.emoji,
        description: row.description,
        hidden: row.hidden,
        layout: row.layout,
        computed: row.computed,
        slug: row.slug,
        documentHash: row.documentHash,
        parentId,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
      });
      draft.childIds(parentId).push(row.id);
    }
    for (const { revisionId: _revision, ...file } of files) draft.files.set(file.id, file);
    return draft;
  }

  /** The IDs of a parent's children (the top level for null), in order; the live array. */
  childIds(parentId: string | null): string[] {
    const key = parentId ?? ROOT;
    let list = this.children.get(key);
    if (!list) this.children.set(key, (list = []));
    return list;
  }

  /** True when `id` is `ancestorId` or below it. */
  isWithin(id: string, ancestorId: string): boolean {
    for (let at: string | null = id; at !== null; at = this.pages.get(at)?.parentId ?? null) {
      if (at === ancestorId) return true;
    }
    return false;
  }

  /** Puts a new page under `parentId` at index `at` (clamped; the end when absent). */
  insert(page: DraftPage, at?: number | null) {
    this.pages.set(page.id, page);
    this.place(page.id, page.parentId, at);
  }

  /** Moves a page (with its sub-pages) under `parentId` at index `at` (the end when absent). */
  move(id: string, parentId: string | null, at?: number | null) {
    const page = this.pages.get(id)!;
    const siblings = this.childIds(page.parentId);
    siblings.splice(siblings.indexOf(id), 1);
    page.parentId = parentId;
    this.place(id, parentId, at);
  }

  private place(id: string, parentId: string | null, at?: number | null) {
    const siblings = this.childIds(parentId);
    const index = at === undefined || at === null ? siblings.length : Math.min(Math.max(at, 0), siblings.length);
    siblings.splice(index, 0, id);
  }

  /** Removes a page and every page below it; answers the removed IDs. */
  remove(id: string): string[] {
    const page = this.pages.get(id);
    if (!page) return [];
    const siblings = this.childIds(page.parentId);
    siblings.splice(siblings.indexOf(id), 1);
    const removed: string[] = [];
    const drop = (pageId: string) => {
      removed.push(pageId);
      for (const child of this.children.get(pageId) ?? []) drop(child);
      this.children.delete(pageId);
      this.pages.delete(pageId);
    };
    drop(id);
    return removed;
  }

  /** The index of a page among its siblings. */
  indexOf(id: string): number {
    const page = this.pages.get(id)!;
    return this.childIds(page.parentId).indexOf(id);
  }

  /** The slug path of a page from the top level (`guides/getting-started`). */
  pathOf(id: string): string {
    const slugs: string[] = [];
    for (let at: string | null = id; at !== null; at = this.pages.get(at)?.parentId ?? null) {
      slugs.unshift(this.pages.get(at)!.slug);
    }
    return slugs.join('/');
  }

  /** True when a sibling under `parentId` other than `exceptId` has this slug. */
  slugTaken(parentId: string | null, slug: string, exceptId?: string): boolean {
    return this.childIds(parentId).some((id) => id !== exceptId && this.pages.get(id)!.slug === slug);
  }

  /** `base`, or `base-2`, `base-3` … : the first slug free among the siblings under `parentId`. */
  freeSlug(parentId: string | null, base: string, exceptId?: string): string {
    let slug = base;
    for (let n = 2; this.slugTaken(parentId, slug, exceptId); n++) slug = `${base.slice(0, 95)}-${n}`;
    return slug;
  }

  /** Every page in tree order (depth first), with its path and its order key among its siblings. */
  *walk(): Generator<{ page: DraftPage; path: string; position: string }> {
    const visit = function* (this: RevisionDraft, parentId: string | null, prefix: string): Generator<{ page: DraftPage; path: string; position: string }> {
      const ids = this.childIds(parentId);
      for (let i = 0; i < ids.length; i++) {
        const page = this.pages.get(ids[i])!;
        const path = prefix ? `${prefix}/${page.slug}` : page.slug;
        // Fixed-width decimal keys compare byte-wise in the order given (Page.position is collated "C").
        yield { page, path, position: String(i).padStart(6, '0') };
        yield* visit.call(this, page.id, path);
      }
    };
    yield* visit.call(this, null, '');
  }

  /** The page whose slug path is `path`, if any. */
  pageAtPath(path: string): DraftPage | undefined {
    let parentId: string | null = null;
    let found: DraftPage | undefined;
    for (const slug of path.split('/').filter(Boolean)) {
      found = this.childIds(parentId)
        .map((id) => this.pages.get(id)!)
        .find((page) => page.slug === slug);
      if (!found) return undefined;
      parentId = found.id;
    }
    return found;
  }

  hasChildren(id: string): boolean {
    return (this.children.get(id)?.length ?? 0) > 0;
  }
}

/** A slug from a title: lower-case ASCII letters, digits and dashes, at most 100 characters. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return slug || 'page';
}
