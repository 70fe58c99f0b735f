import type { Context, Services, SiteReader } from '../../core/context.ts';
import { BadRequestError } from '../../core/errors.ts';
import { decodeCursor, encodeCursor, resolveLimit, type ListArgs, type Page } from '../../core/pagination.ts';
import { readerSearchableSiteSpaces, searchableSiteSpaces, type SearchableSiteSpace } from '../sites/index.ts';
import { catchUpSearchIndex } from './search-index.ts';
import { parseSearchQuery } from './search-query.ts';
import { readResultPages } from './search-results.ts';
import { rankPages, type SpaceResult } from './search.service.ts';

/**
 * Site search (GitBook's `searchSiteContent`): the published content of a site — each site space's
 * space as it is published, its current revision, through the same index, tsquery and ranking as the
 * space search — read only in the site spaces the caller may see (sites' `searchableSiteSpaces`: a
 * reader with the site's apiToken sees the sections and site spaces whose conditions hold for them),
 * narrowed by the scope asked for. Results are pages ranked across the site's spaces, paged by
 * `limit` pages, and each page of results grouped by space (GitBook's `SearchSpaceResult`: `rank` is
 * kept across pages and groups). Three statements after the site's: the ranked page of results, their
 * sections, their ancestors.
 */

export type SiteSearchMode = 'default' | 'specific' | 'all';
export type SiteSearchRestriction = 'currentSiteSpace' | 'otherSiteSpaces';

/** GitBook's `SiteSearchScope`. */
export interface SiteSearchScopeInput {
  mode: string;
  currentSiteSpace?: string | null;
  restrictTo?: string | null;
  siteSpaceIds?: readonly string[] | null;
}

export interface SiteSearchArgs extends ListArgs {
  query: string;
  scope?: SiteSearchScopeInput | null;
  /** GitBook's deprecated forms of the scope: `specific` with siteSpaceIds, `current` with siteSpaceId, `all`. */
  mode?: string | null;
  siteSpaceIds?: readonly string[] | null;
  siteSpaceId?: string | null;
}

/** Site space IDs a scope may name. */
export const MAX_SCOPE_SITE_SPACES = 100;

type Scope =
  | { kind: 'all' }
  | { kind: 'default'; current: string | null; restrictTo: SiteSearchRestriction | null }
  | { kind: 'specific'; ids: readonly string[] };

/** The scope asked for (GitBook's `scope`, else its deprecated `mode` forms); none is the whole site. */
function scopeOf(args: SiteSearchArgs): Scope {
  const scope = args.scope;
  if (scope) {
    if (scope.mode === 'all') return { kind: 'all' };
    if (scope.mode === 'specific') {
      if (!scope.siteSpaceIds?.length) throw new BadRequestError('Invalid "scope.siteSpaceIds": the "specific" mode needs at least one site space ID');
      return { kind: 'specific', ids: scope.siteSpaceIds };
    }
    if (scope.mode === 'default') {
      if (scope.restrictTo && !scope.currentSiteSpace) throw new BadRequestError('Invalid "scope.currentSiteSpace": "restrictTo" needs the current site space');
      return { kind: 'default', current: scope.currentSiteSpace ?? null, restrictTo: (scope.restrictTo as SiteSearchRestriction | null) ?? null };
    }
    throw new BadRequestError('Invalid "scope.mode": must be one of "default", "specific", "all"');
  }
  if (args.mode === 'current') {
    if (!args.siteSpaceId) throw new BadRequestError('Invalid "siteSpaceId": the "current" mode needs the current site space');
    return { kind: 'default', current: args.siteSpaceId, restrictTo: null };
  }
  if (args.mode === 'specific' || args.siteSpaceIds) {
    if (!args.siteSpaceIds?.length) throw new BadRequestError('Invalid "siteSpaceIds": the "specific" mode needs at least one site space ID');
    return { kind: 'specific', ids: args.siteSpaceIds };
  }
  return { kind: 'all' };
}

/**
 * The site spaces a scope searches among those the caller may see: `all` every one; `specific` those
 * named (IDs the caller may not see count as unknown, and find nothing); `default` the default site
 * space of each section (or the first shown), the current site space standing in for its section's —
 * `restrictTo` then keeps only the current one, or only the others. (GitBook also matches the other
 * sections' variants by the current one's language; site spaces here have no language.)
 */
function inScope(visible: SearchableSiteSpace[], scope: Scope): SearchableSiteSpace[] {
  if (scope.kind === 'all') return visible;
  if (scope.kind === 'specific') {
    const named = new Set(scope.ids);
    return visible.filter((siteSpace) => named.has(siteSpace.id));
  }
  const bySection = new Map<string | null, SearchableSiteSpace[]>();
  for (const siteSpace of visible) bySection.set(siteSpace.sectionId, [...(bySection.get(siteSpace.sectionId) ?? []), siteSpace]);
  const defaults = [...bySection.values()].map((variants) => variants.find((v) => v.isDefault) ?? variants[0]);
  const current = scope.current ? visible.find((siteSpace) => siteSpace.id === scope.current) : undefined;
  if (scope.restrictTo === 'currentSiteSpace') return current ? [current] : [];
  const others = current ? defaults.filter((d) => d.sectionId !== current.sectionId) : defaults;
  if (scope.restrictTo === 'otherSiteSpaces' || !current) return others;
  return [current, ...others];
}

/** `[score, spaceId, pageId]` of the last page shown: the ranking's own order. */
const CURSOR_KEYS = [
  { field: 'score', direction: 'desc' as const, type: 'real' as const },
  { field: 'spaceId', direction: 'asc' as const },
  { field: 'pageId', direction: 'asc' as const },
];

/** The API's site search: the site spaces the caller may see (a member, or the apiToken's reader). */
export async function searchSite(ctx: Context, organizationId: string, siteId: string, args: SiteSearchArgs): Promise<Page<SpaceResult>> {
  const checked = checkedArgs(args);
  return searchSiteSpaces(ctx, await searchableSiteSpaces(ctx, organizationId, siteId), checked);
}

/** The reader's site search (its `~search`): as the visitor the published view let in, no request context. */
export async function searchSiteAsReader(services: Services, reader: SiteReader, organizationId: string, siteId: string, args: SiteSearchArgs): Promise<Page<SpaceResult>> {
  const checked = checkedArgs(args);
  return searchSiteSpaces(services, await readerSearchableSiteSpaces(services.db, reader, organizationId, siteId), checked);
}

/** Everything the caller sent, checked before anything is read. */
function checkedArgs(args: SiteSearchArgs) {
  return {
    query: parseSearchQuery(args.query),
    limit: resolveLimit(args.limit),
    after: args.page ? (decodeCursor(args.page, CURSOR_KEYS) as string[]) : null,
    scope: scopeOf(args),
  };
}

async function searchSiteSpaces(services: Services, visible: SearchableSiteSpace[], { query, limit, after, scope }: ReturnType<typeof checkedArgs>): Promise<Page<SpaceResult>> {
  const siteSpaces = inScope(visible, scope);
  // A space shown in several site spaces (sections, variants) is searched, and listed, once.
  const spaces = new Map(siteSpaces.map((siteSpace) => [siteSpace.space.id, siteSpace.space]));
  if (!spaces.size) return { items: [], count: 0 };
  const stale = [...spaces.values()].filter((space) => space.searchRevisionId !== space.revisionId).map((space) => space.id);
  if (stale.length) await catchUpSearchIndex(services.db, stale);

  const rows = await rankPages(services, [...spaces.keys()], query, limit, after && { score: after[0], spaceId: after[1], pageId: after[2] });
  const shown = rows.slice(0, limit);
  const pages = await readResultPages(services, shown, new Map([...spaces.values()].map((space) => [space.id, space.revisionId])));
  const groups = new Map<string, SpaceResult>();
  for (const page of pages) {
    let group = groups.get(page.spaceId);
    if (!group) {
      // Pages come best first: a space's first page is its best, and the spaces come in that order.
      group = { type: 'space', id: page.spaceId, title: spaces.get(page.spaceId)!.title, score: page.score, pages: [] };
      groups.set(page.spaceId, group);
    }
    group.pages.push(page);
  }
  const result: Page<SpaceResult> = { items: [...groups.values()], count: rows[0]?.total ?? 0 };
  if (rows.length > limit) {
    const last = shown[shown.length - 1];
    result.next = { page: encodeCursor([last.itemScore, last.spaceId, last.pageId]) };
  }
  return result;
}
