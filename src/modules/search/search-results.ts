import type { Services } from '../../core/context.ts';
import { SEARCH_CONFIG } from './search-index.ts';
import { groupBy } from '../../lib/group-by.ts';
import { revisionContents } from '../content/index.ts';

/** GitBook's `SearchSectionResult`. */
export interface SectionResult {
  id: string;
  title: string;
  path: string;
  score: number;
  /** `section`: the section holds terms of the query; `page`: none (the page's title or description matched). */
  resultType: 'page' | 'section';
  /** A short plain-text excerpt of the section around the match. */
  body: string;
  urls: { app: string };
}

/** GitBook's `SearchPageResult` (with the space it belongs to, for grouping). */
export interface PageResult {
  spaceId: string;
  id: string;
  title: string;
  description: string;
  path: string;
  score: number;
  /** One-based position among all results of the search. */
  rank: number;
  resultType: 'page' | 'section';
  sections: SectionResult[];
  ancestors: { title: string }[];
  urls: { app: string };
}

/** Sections shown under each page: its best matches. */
export const SECTIONS_PER_PAGE = 3;

/** ts_headline's options: plain text (no highlight marks), one fragment of about 15..35 words. */
const EXCERPT = 'StartSel="", StopSel="", MinWords=15, MaxWords=35, MaxFragments=1';
/** A body this short is its own excerpt (ts_headline would cut it to the words around the match). */
const WHOLE_BODY = 240;

interface SectionRow {
  spaceId: string;
  pageId: string;
  ordinal: number;
  anchor: string;
  heading: string;
  pageTitle: string;
  pagePath: string;
  score: number;
  ownMatch: boolean;
  pageMatch: boolean;
  excerpt: string;
}

/**
 * The result pages of ranked `(spaceId, pageId)` hits, in their order: two statements for any number
 * (their best sections with excerpts; their descriptions and ancestors, from the active revision).
 */
export async function readResultPages(
  ctx: Services,
  hits: readonly { spaceId: string; pageId: string; score: number; rank: number; tsquery: string }[],
  revisionBySpace: ReadonlyMap<string, string | null>,
): Promise<PageResult[]> {
  if (!hits.length) return [];
  const tsquery = hits[0].tsquery;
  const spaceIds = hits.map((hit) => hit.spaceId);
  const pageIds = hits.map((hit) => hit.pageId);
  const revisionIds = hits.map((hit) => revisionBySpace.get(hit.spaceId) ?? '');
  const [sections, contents] = await Promise.all([
    // A section matches when it holds any of the query's (non-excluded) terms: the page as a whole
    // matched, its sections each hold a part. Section 0 always comes (with whether the title matched).
    ctx.db.$queryRaw<SectionRow[]>`
      WITH q AS (
        SELECT ${tsquery}::tsquery AS "query",
               regexp_replace(NULLIF(NULLIF(querytree(${tsquery}::tsquery), 'T'), ''), '&', '|', 'g')::tsquery AS "anyTerm"
      ),
      hits AS (
        SELECT s."spaceId", s."pageId", s."ordinal", s."anchor", s."heading", s."body", p."title" AS "pageTitle", p."path" AS "pagePath",
               COALESCE(ts_rank(s."vector", q."anyTerm"), 0) AS "score",
               COALESCE(s."vector" @@ q."anyTerm", false) AS "ownMatch",
               s."ordinal" = 0 AND ts_filter(p."vector", '{a}'::"char"[]) @@ q."query" AS "pageMatch"
        FROM unnest(${spaceIds}::text[], ${pageIds}::text[]) AS t("spaceId", "pageId")
        JOIN "SearchPage" p ON p."spaceId" = t."spaceId" AND p."pageId" = t."pageId"
        JOIN "SearchSection" s ON s."spaceId" = t."spaceId" AND s."pageId" = t."pageId"
        CROSS JOIN q
      ),
      numbered AS (
        SELECT h.*, row_number() OVER (PARTITION BY h."spaceId", h."pageId" ORDER BY h."ownMatch" DESC, h."score" DESC, h."ordinal") AS "n"
        FROM hits h
      )
      SELECT n."spaceId", n."pageId", n."ordinal", n."anchor", n."heading", n."pageTitle", n."pagePath", n."score"::float8 AS "score",
             n."ownMatch", n."pageMatch",
             CASE WHEN char_length(n."body") <= ${WHOLE_BODY} THEN n."body"
                  ELSE ts_headline(${SEARCH_CONFIG}::regconfig, n."body", COALESCE(q."anyTerm", q."query"), ${EXCERPT}) END AS "excerpt"
      FROM numbered n, q
      WHERE (n."n" <= ${SECTIONS_PER_PAGE} AND n."ownMatch") OR n."ordinal" = 0`,
    // Each page's description and its ancestors' titles, from the revisions' trees: held by the content
    // cache once read (a revision never changes), else read whole in one statement and then held.
    revisionContents(ctx.db, ctx.db, [...new Set(revisionIds.filter(Boolean))]),
  ]);

  const key = (spaceOrRevision: string, pageId: string) => `${spaceOrRevision}/${pageId}`;
  const sectionsOf = groupBy(sections, (s) => key(s.spaceId, s.pageId));
  /** The page's description, and its ancestors' titles from the top level down (at most 100 up). */
  const lineageOf = (revisionId: string | null | undefined, pageId: string) => {
    const content = revisionId ? contents.get(revisionId) : undefined;
    const page = content?.page(pageId);
    const ancestors: string[] = [];
    for (let parentId = page?.parentId ?? null, depth = 0; parentId !== null && depth < 100; depth++) {
      const parent = content!.page(parentId);
      if (!parent) break;
      ancestors.unshift(parent.title);
      parentId = parent.parentId;
    }
    return { description: page?.description ?? '', ancestors };
  };
  const appUrl = ctx.config.appUrl;
  return hits.map((hit) => {
    const own = sectionsOf.get(key(hit.spaceId, hit.pageId)) ?? [];
    const pageRow = own.find((s) => s.ordinal === 0);
    const pageTitle = pageRow?.pageTitle ?? own[0]?.pageTitle ?? '';
    const pagePath = pageRow?.pagePath ?? own[0]?.pagePath ?? '';
    const pageUrl = `${appUrl}/s/${hit.spaceId}/${pagePath}`;
    const matched = own.filter((s) => s.ownMatch).sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
    const shown = matched.length ? matched : pageRow ? [pageRow] : [];
    const lineage = lineageOf(revisionBySpace.get(hit.spaceId), hit.pageId);
    return {
      spaceId: hit.spaceId,
      id: hit.pageId,
      title: pageTitle,
      description: lineage.description,
      path: pagePath,
      score: hit.score,
      rank: hit.rank,
      resultType: pageRow?.pageMatch || !matched.length ? 'page' : 'section',
      sections: shown.map((s) => ({
        id: s.ordinal === 0 ? hit.pageId : `${hit.pageId}#${s.anchor}`,
        title: s.ordinal === 0 ? pageTitle : s.heading,
        path: s.ordinal === 0 ? pagePath : `${pagePath}#${s.anchor}`,
        score: s.score,
        resultType: s.ownMatch ? 'section' : 'page',
        body: s.excerpt.replace(/\s+/g, ' ').trim(),
        urls: { app: s.ordinal === 0 ? pageUrl : `${pageUrl}#${encodeURIComponent(s.anchor)}` },
      })),
      ancestors: lineage.ancestors.map((title) => ({ title })),
      urls: { app: pageUrl },
    };
  });
}
