import type { PageEntry, RevisionContent } from '../content/index.ts';

/**
 * Which page of a variant a published URL shows — one rule for every rendering (the API's
 * `publishedPage`, the reader's HTML, its `.md` and llms files):
 * - a visitor opens documents and computed pages; a group opens its first such page (a redirect there);
 * - a hidden page is read at its path but not listed, and neither are the pages under it;
 * - the variant's root opens its first listed page.
 */

/** Pages a visitor opens: documents and computed pages (groups open their first document). */
export const readable = (page: PageEntry) => page.type === 'document' || page.type === 'computed';

/**
 * The pages a visitor is shown in reading (tree) order: readable, not hidden and not under a hidden
 * page. `pages` is a revision's sequence (depth first) or a slice of it.
 */
export function* listedReadable(pages: readonly PageEntry[]): Generator<PageEntry> {
  let hiddenUntil = -1;
  for (let i = 0; i < pages.length; i++) {
    const page = pages[i];
    // A hidden page hides its pages too: they follow it, `descendants` of them.
    if (page.hidden && i > hiddenUntil) hiddenUntil = i + page.descendants;
    if (i > hiddenUntil && readable(page)) yield page;
  }
}

/** The page a variant opens at its root, or a group at its path: its first listed page. */
export function firstReadable(content: RevisionContent, under: PageEntry | null): PageEntry | null {
  for (const page of listedReadable(under ? content.subtree(under.id) : content.pages.entries())) return page;
  return null;
}

/** What a page path of a variant shows: a page, a group's first page to go to instead, or nothing. */
export type PageChoice = { kind: 'page'; entry: PageEntry } | { kind: 'go-to'; entry: PageEntry } | { kind: 'none' };

export function choosePage(content: RevisionContent, pathname: string): PageChoice {
  if (!pathname) {
    const first = firstReadable(content, null);
    return first ? { kind: 'page', entry: first } : { kind: 'none' };
  }
  const at = content.pageAtPath(pathname.replace(/\/+$/, ''));
  if (at && at.type === 'group') {
    const first = firstReadable(content, at);
    return first ? { kind: 'go-to', entry: first } : { kind: 'none' };
  }
  return at && readable(at) ? { kind: 'page', entry: at } : { kind: 'none' };
}
