import { decodeUriPart } from '../../lib/uri.ts';
import { contentHash } from '../content/index.ts';
import { slugify, type DraftFile, type DraftPage, type RevisionDraft } from '../content/index.ts';
import { newId } from '../../lib/ids.ts';
import { canonicalUrl, type Crawl } from './website-crawler.ts';

/**
 * Puts a crawl into a revision draft: a page per fetched page, placed by its URL path below the crawl's
 * prefix (a page whose parent path was not fetched gets a parent made for it, titled after the path
 * segment, without a body), after the pages the draft already has; images become files. Links between
 * imported pages become page links (`/pages/<id>`, anchor kept) and images file references
 * (`/files/<id>`), the forms the revision writer stores; every other link stays absolute.
 *
 * In two steps: `planImport` does the work — IDs, the tree, every page converted to markdown — before
 * the import's transaction; `addImportedContent`, inside it, only gives the pages their slugs among
 * those the draft holds then and inserts them, so the space's row is not held while pages convert.
 */
export interface ImportPlan {
  /** Pages in the order they are inserted (a parent before its children), each with what its slug is made from. */
  pages: { page: DraftPage; slugBase: string }[];
  files: DraftFile[];
  /** Bytes of the new files, for the writer to store. */
  blobs: Uint8Array<ArrayBuffer>[];
}

/** Title for a page made to hold others: its URL segment, as words. */
const titleOfSegment = (segment: string) => {
  const words = segment.replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Untitled';
};

export function planImport(crawl: Crawl, now: Date): ImportPlan {
  const pageIdOf = new Map<string, string>();
  const idByPath = new Map<string, string>();
  const pages: ImportPlan['pages'] = [];
  const byId = new Map<string, DraftPage>();
  const newPage = (title: string, slugBase: string, parentId: string | null): DraftPage => {
    const page: DraftPage = {
      id: newId(),
      type: 'document',
      title,
      emoji: null,
      description: null,
      hidden: false,
      layout: null,
      slug: '',
      documentHash: null,
      markdown: '',
      parentId,
      createdAt: now,
      updatedAt: now,
    };
    pages.push({ page, slugBase: slugBase.replace(/\.html?$/i, '') });
    byId.set(page.id, page);
    return page;
  };
  // The start page's navigation sections become page groups (top level only, as GitBook's): a page of
  // the top level goes into the group that lists it, or lists a page below it.
  const groupTitleOf = new Map<string, string>();
  for (const group of crawl.pages[0]?.html.navGroups ?? []) {
    for (const link of group.links) {
      const url = canonicalUrl(new URL(link));
      if (!groupTitleOf.has(crawl.aliases.get(url) ?? url)) groupTitleOf.set(crawl.aliases.get(url) ?? url, group.title);
    }
  }
  const groupIds = new Map<string, string>();
  const groupOf = (url: string | undefined): string | null => {
    const title = url ? groupTitleOf.get(url) : undefined;
    if (!title) return null;
    let id = groupIds.get(title);
    if (!id) {
      const group = newPage(title, title, null);
      Object.assign(group, { type: 'group', markdown: undefined });
      groupIds.set(title, (id = group.id));
    }
    return id;
  };
  /** The page at `segments` (made when missing); for none, the top level (or the group that lists `url`). */
  const placeAt = (segments: string[], url?: string): string | null => {
    if (!segments.length) return groupOf(url);
    // Sites that put a group's slug in its pages' paths (GitBook, this server's reader): that segment is the group.
    const title = url ? groupTitleOf.get(url) : undefined;
    if (segments.length === 1 && title && slugify(title) === segments[0]) return groupOf(url);
    const key = segments.join('/');
    let id = idByPath.get(key);
    if (!id) {
      const last = segments[segments.length - 1];
      id = newPage(titleOfSegment(last), last, placeAt(segments.slice(0, -1), url)).id;
      idByPath.set(key, id);
    }
    return id;
  };

  // Shallow pages first, so that a parent fetched later than its child still becomes that child's parent.
  const ordered = [...crawl.pages].sort((a, b) => a.segments.length - b.segments.length);
  for (const crawled of ordered) {
    const key = crawled.segments.join('/');
    const existing = crawled.segments.length ? idByPath.get(key) : undefined;
    if (existing) {
      byId.get(existing)!.title = crawled.html.title;
      pageIdOf.set(crawled.url, existing);
      continue;
    }
    const segment = crawled.segments[crawled.segments.length - 1] ?? crawled.html.title;
    const page = newPage(crawled.html.title, crawled.segments.length ? segment : crawled.html.title, placeAt(crawled.segments.slice(0, -1), crawled.url));
    if (crawled.segments.length) idByPath.set(key, page.id);
    pageIdOf.set(crawled.url, page.id);
  }

  const fileIdOf = new Map<string, string>();
  const files: DraftFile[] = [];
  const blobs: Uint8Array<ArrayBuffer>[] = [];
  for (const image of crawl.images.values()) {
    const id = newId();
    const name = decodeUriPart(new URL(image.url).pathname.split('/').pop() || 'image').slice(0, 256) || 'image';
    files.push({
      id,
      name,
      contentType: image.image.contentType,
      size: image.bytes.byteLength,
      width: image.image.width,
      height: image.image.height,
      blobHash: contentHash(image.bytes),
      createdAt: now,
    });
    fileIdOf.set(image.url, id);
    blobs.push(image.bytes);
  }

  const rewrite = {
    link: (url: string) => {
      const target = new URL(url);
      const canonical = canonicalUrl(target);
      const pageId = pageIdOf.get(crawl.aliases.get(canonical) ?? canonical);
      return pageId ? `/pages/${pageId}${target.hash}` : null;
    },
    image: (url: string) => {
      const fileId = fileIdOf.get(url);
      return fileId ? `/files/${fileId}` : null;
    },
  };
  for (const crawled of crawl.pages) byId.get(pageIdOf.get(crawled.url)!)!.markdown = crawled.html.toMarkdown(rewrite);
  return { pages, files, blobs };
}

/** The planned pages and files into the draft, after what it holds: each page's slug free among its siblings there. */
export function addImportedContent(draft: RevisionDraft, plan: ImportPlan): void {
  for (const { page, slugBase } of plan.pages) draft.insert({ ...page, slug: draft.freeSlug(page.parentId, slugify(slugBase)) });
  for (const file of plan.files) draft.files.set(file.id, file);
}
