import type { Services } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { searchSiteAsReader } from '../search/index.ts';
import type { SearchAnswer } from './layout/site-page-props.ts';
import { encodePath, variantBase } from './reader-navigation.ts';
import { sharedCacheable, viewAsVisitor, type ResolvedLookup } from './reader-page.ts';
import { readerVisitor } from './reader-visitor.ts';

/**
 * The site's search as a reader uses it: `<variant>/~search?q=` — the site search of the sites API
 * (search/site-search.service.ts), run as the visitor the URL lookup lets in, over the current variant
 * and the other sections' defaults — answered as JSON for the script's search-as-you-type, grouped by
 * page, each section a link to its heading on the page with its excerpt split into matched and other
 * runs (no HTML: the script draws `<mark>` itself).
 */
export const MAX_READER_QUERY = 256;
const RESULTS = 20;

export interface ReaderSearchRequest {
  url: URL;
  cookieHeader: string | null;
  sitePath: string;
}

/** Runs of `text`, those starting with a word of the query marked (case-insensitively). */
export function highlightRuns(text: string, query: string): SearchAnswer['pages'][number]['sections'][number]['excerpt'] {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter((w) => w.length > 0).slice(0, 10);
  if (!words.length || !text) return text ? [{ text, match: false }] : [];
  const runs: { text: string; match: boolean }[] = [];
  const lower = text.toLowerCase();
  let plainStart = 0;
  // Each word of the text (a run of letters and digits) is a match when it starts with a query word.
  for (const m of lower.matchAll(/[\p{L}\p{N}]+/gu)) {
    const hit = words.find((w) => m[0].startsWith(w));
    if (!hit) continue;
    const start = m.index!;
    const end = start + m[0].length;
    if (start > plainStart) runs.push({ text: text.slice(plainStart, start), match: false });
    runs.push({ text: text.slice(start, end), match: true });
    plainStart = end;
  }
  if (plainStart < text.length) runs.push({ text: text.slice(plainStart), match: false });
  return runs;
}

export async function searchAnswer(services: Services, lookup: ResolvedLookup, query: string): Promise<SearchAnswer> {
  const { answer, navigation } = lookup;
  const found = await searchSiteAsReader(services, lookup.reader!, answer.organization, answer.site, {
    query,
    limit: RESULTS,
    scope: { mode: 'default', currentSiteSpace: navigation.siteSpace.id },
  });
  // Where each space's pages are read: the current variant for its own space, else the first shown.
  const sections = new Map(navigation.sections.map((s) => [s.id, s]));
  const baseOfSpace = new Map<string, string>();
  for (const siteSpace of [navigation.siteSpace, ...navigation.siteSpaces]) {
    if (baseOfSpace.has(siteSpace.space.id)) continue;
    const section = siteSpace.sectionId ? (sections.get(siteSpace.sectionId) ?? null) : null;
    baseOfSpace.set(siteSpace.space.id, variantBase(answer.siteBasePath, section, siteSpace));
  }
  const pages: SearchAnswer['pages'] = [];
  for (const space of found.items) {
    const base = baseOfSpace.get(space.id);
    if (!base) continue;
    for (const page of space.pages) {
      const href = `${base}${encodePath(page.path)}`;
      pages.push({
        title: page.title,
        href,
        breadcrumbs: page.ancestors.map((a) => a.title),
        sections: page.sections.slice(0, 3).map((section) => {
          const anchor = section.path.includes('#') ? section.path.slice(section.path.indexOf('#') + 1) : '';
          return {
            title: section.title,
            href: anchor ? `${href}#${encodeURIComponent(anchor)}` : href,
            excerpt: highlightRuns(section.body, query),
          };
        }),
      });
    }
  }
  return { query, pages };
}

/** `<variant>/~search?q=`: JSON (the script's fetch); a browser's form submission gets it as a page (reader.http.ts). */
export async function readerSearch(services: Services, request: ReaderSearchRequest): Promise<{ status: number; answer?: SearchAnswer; lookup?: ResolvedLookup; shared?: boolean }> {
  const query = (request.url.searchParams.get('q') ?? '').trim();
  if (query.length > MAX_READER_QUERY) return { status: 400 };
  const visitor = readerVisitor(request.url, request.cookieHeader);
  const view = await viewAsVisitor(services, request.url, visitor);
  if (!view || view.kind === 'redirect') return { status: 404 };
  const { lookup } = view;
  const shared = sharedCacheable(lookup.site!, visitor);
  if (!query) return { status: 200, answer: { query, pages: [] }, lookup, shared };
  try {
    return { status: 200, answer: await searchAnswer(services, lookup, query), lookup, shared };
  } catch (error) {
    if (error instanceof AppError && error.status === 400) return { status: 400 };
    throw error;
  }
}
