import type { Context } from '../../core/context.ts';
import { SEARCH_CONFIG } from './search-index.ts';
import { groupBy } from '../../lib/group-by.ts';

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

interface ChainRow {
  revisionId: string;
  pageId: string;
  description: string | null;
  depth: number;
  title: string | null;
}

/**
 * The result pages of ranked `(spaceId, pageId)` hits, in their order: two statements for any number
 * (their best sections with excerpts; their descriptions and ancestors, from the active revision).
 */
export async function readResultPages(
  ctx: Context,
  hits: readonly { spaceId: string; pageId: string; score: number; rank: number; tsquery: string }[],
  revisionBySpace: ReadonlyMap<string, string | null>,
): Promise<PageResult[]> {
  if (!hits.length) return [];
  const tsquery = hits[0].tsquery;
  const spaceIds = hits.map((hit) => hit.spaceId);
  const pageIds = hits.map((hit) => hit.pageId);
  const revisionIds = hits.map((hit) => revisionBySpace.get(hit.spaceId) ?? '');
  const [sections, chains] = await Promise.all([
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
    // Each page's description, then its ancestors' titles (depth 1 = the parent), up the tree.
    ctx.db.$queryRaw<ChainRow[]>`
      WITH RECURSIVE chain AS (
        SELECT t."revisionId", t."pageId", f."item" ->> 'description' AS "description", f."item" ->> 'parentId' AS "nextId", 0 AS "depth", NULL::text AS "title"
        FROM unnest(${revisionIds}::text[], ${pageIds}::text[]) AS t("revisionId", "pageId")
        JOIN "Revision" r ON r."id" = t."revisionId"
        CROSS JOIN LATERAL content_find(r."pageTree", ARRAY[t."pageId"]) f
        UNION ALL
        SELECT c."revisionId", c."pageId", NULL, a."item" ->> 'parentId', c."depth" + 1, a."item" ->> 'title'
        FROM chain c JOIN "Revision" r ON r."id" = c."revisionId"
        CROSS JOIN LATERAL content_find(r."pageTree", ARRAY[c."nextId"]) a
        WHERE c."nextId" IS NOT NULL AND c."depth" < 100
      )
      SELECT "revisionId", "pageId", "description", "depth", "title" FROM chain`,
  ]);

  const key = (spaceOrRevision: string, pageId: string) => `${spaceOrRevision}/${pageId}`;
  const sectionsOf = groupBy(sections, (s) => key(s.spaceId, s.pageId));
  const chainOf = groupBy(chains, (c) => key(c.revisionId, c.pageId));
  const appUrl = ctx.config.appUrl;
  return hits.map((hit) => {
    const own = sectionsOf.get(key(hit.spaceId, hit.pageId)) ?? [];
    const pageRow = own.find((s) => s.ordinal === 0);
    const pageTitle = pageRow?.pageTitle ?? own[0]?.pageTitle ?? '';
    const pagePath = pageRow?.pagePath ?? own[0]?.pagePath ?? '';
    const pageUrl = `${appUrl}/s/${hit.spaceId}/${pagePath}`;
    const matched = own.filter((s) => s.ownMatch).sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
    const shown = matched.length ? matched : pageRow ? [pageRow] : [];
    const chain = (chainOf.get(key(revisionBySpace.get(hit.spaceId) ?? '', hit.pageId)) ?? []).sort((a, b) => b.depth - a.depth);
    return {
      spaceId: hit.spaceId,
      id: hit.pageId,
      title: pageTitle,
      description: chain.find((c) => c.depth === 0)?.description ?? '',
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
      ancestors: chain.filter((c) => c.depth > 0).map((c) => ({ title: c.title ?? '' })),
      urls: { app: pageUrl },
    };
  });
}
