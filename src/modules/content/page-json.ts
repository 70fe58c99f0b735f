import type { PageNode } from './store/page-tree.ts';

/** GitBook's deprecated `kind` of each page type, still required by its schemas. */
export const PAGE_KIND: Record<string, string> = { document: 'sheet', group: 'group', link: 'link', computed: 'sheet' };

/** What a document page shows when no layout was chosen (GitBook requires every option): everything. */
const DEFAULT_LAYOUT = Object.freeze({
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
});

/** Shared by every page of a tree answer (frozen: JSON output only), so a 5,000-page tree allocates them once. */
const NO_TAGS: readonly never[] = Object.freeze([]);

/** Document (and computed) pages are pages of their own: a URL and a layout. Groups and links are not. */
export const hasOwnPage = (page: Pick<PageNode['page'], 'type'>) => page.type === 'document' || page.type === 'computed';

/** Where the page is in the application. */
export const pageAppUrl = (node: PageNode, appUrl: string) => `${appUrl}/s/${node.spaceId}/${node.page.path}`;

/** The page's layout: what was chosen, the default (everything shown) for the rest. */
export const pageLayout = (page: PageNode['page']) => (page.layout ? { ...DEFAULT_LAYOUT, ...(page.layout as object) } : DEFAULT_LAYOUT);

/**
 * A page tree as GitBook's `RevisionPage` JSON, children nested under `pages`. The REST door cannot
 * express a tree of unbounded depth as a GraphQL selection (src/rest/README.md), so the tree is one
 * JSON value built here; optional fields that are absent are left out, as everywhere in REST.
 */
export function pageTreeJson(nodes: readonly PageNode[], appUrl: string, isoDates = new IsoDates()): object[] {
  return nodes.map((node) => pageJson(node, appUrl, isoDates));
}

/**
 * ISO strings of timestamps, each written once per answer: the pages of a space were mostly created in
 * a few batches and share their timestamps, and a 5,000-page tree would otherwise format 10,000 dates.
 */
export class IsoDates {
  private readonly written = new Map<number, string>();
  of(date: Date): string {
    const time = date.getTime();
    let iso = this.written.get(time);
    if (iso === undefined) this.written.set(time, (iso = date.toISOString()));
    return iso;
  }
}

/** One page as GitBook's `RevisionPage` JSON, with its child pages (no body: see `pageWithBody`). */
export function pageJson(node: PageNode, appUrl: string, isoDates = new IsoDates()): Record<string, unknown> {
  const { page } = node;
  const json: Record<string, unknown> = {
    id: page.id,
    title: page.title,
    kind: PAGE_KIND[page.type],
    type: page.type,
    slug: page.slug,
    path: page.path,
    hidden: page.hidden,
    createdAt: isoDates.of(page.createdAt),
    updatedAt: isoDates.of(page.updatedAt),
  };
  if (page.emoji) json.emoji = page.emoji;
  if (page.icon) json.icon = page.icon;
  if (page.description) json.description = page.description;
  // Set only when true (GitBook's default is false), so pages that never set them read as before.
  if (page.noIndex) json.noIndex = true;
  if (page.noRobotsIndex) json.noRobotsIndex = true;
  if (page.cover && hasOwnPage(page)) json.cover = page.cover;
  if (page.type === 'computed' && page.computed) json.computed = page.computed;
  if (page.type === 'document' && page.documentHash) json.documentId = page.documentHash;
  if (hasOwnPage(page)) {
    json.urls = { app: pageAppUrl(node, appUrl) };
    json.layout = pageLayout(page);
    json.tags = NO_TAGS;
  }
  json.pages = pageTreeJson(node.pages, appUrl, isoDates);
  return json;
}
