import { Prisma } from '../../generated/prisma/client.ts';
import type { Context, Services } from '../../core/context.ts';
import { BadRequestError } from '../../core/errors.ts';
import { decodeCursor, encodeCursor, resolveLimit, type ListArgs, type Page } from '../../core/pagination.ts';
import { organizationForMember } from '../organizations/index.ts';
import { spaceFor, visibleSpacesWhere } from '../content-access/index.ts';
import { catchUpSearchIndex } from './search-index.ts';
import { parseSearchQuery, tsquerySql, typoRetryable, typoTsquerySql, type SearchQuery } from './search-query.ts';
import { readResultPages, type PageResult } from './search-results.ts';

/**
 * Space and organization search (GitBook's `searchSpaceContent` and `searchOrganizationContent`) over
 * the index of each space's active revision (search-index.ts). A page matches when the query matches
 * its whole text (its words may be in different sections; `-word` excludes the page); its score is
 * `ts_rank` over it, the title weighing most, then headings, then the body. Results are ranked by score, then ID, and paged by that key (the cursor holds the last
 * item's score and ID), so a page of results never repeats or skips one while the index is unchanged.
 * Three statements per search whatever the number of matches: the ranked page of results, their best
 * sections with excerpts, and their ancestors.
 */
export interface SearchArgs extends ListArgs {
  query: string;
}

/** Pages shown under each space of an organization search (the space search lists all). */
export const PAGES_PER_SPACE = 10;

export interface SpaceResult {
  type: 'space';
  id: string;
  title: string;
  score: number;
  pages: PageResult[];
}

export interface RankedRow {
  spaceId: string;
  pageId: string;
  score: number;
  rank: number;
  /** The key of the list item this row belongs to (the page, or in an organization search its space). */
  itemScore: string;
  total: number;
  tsquery: string;
}

/** `[score, id]` cursors: the score as PostgreSQL wrote it (a `real`), so the comparison is exact. */
const CURSOR_KEYS = [{ field: 'score', direction: 'desc' as const, type: 'real' as const }, { field: 'id', direction: 'asc' as const }];

function cursorOf(page: string | null | undefined): { score: string; id: string } | null {
  if (!page) return null;
  const [score, id] = decodeCursor(page, CURSOR_KEYS) as string[];
  return { score, id };
}

/** The tsquery as the search runs it, then once more with typo alternatives if that found nothing. */
export async function withTypoRetry(query: SearchQuery, run: (tsquery: Prisma.Sql) => Promise<RankedRow[]>, firstPage: boolean) {
  const rows = await run(tsquerySql(query));
  // Only a first page retries: a later page of a typo search carries that search's cursor.
  if (rows.length || !typoRetryable(query)) return rows;
  return firstPage ? run(typoTsquerySql(query)) : rows;
}

/** Where a page of ranked pages starts: strictly after this (score, space, page). */
export interface RankedPagesCursor {
  score: string;
  spaceId: string;
  pageId: string;
}

/**
 * The pages of these spaces that match, ranked by score, then space and page ID (the order of `rank`):
 * `limit + 1` rows after `after`, each with the total of matches and the tsquery run. One statement
 * (two when the typo retry runs). Space search and site search page through it; an organization
 * search ranks spaces instead.
 */
export async function rankPages(ctx: Services, spaceIds: readonly string[], query: SearchQuery, limit: number, after: RankedPagesCursor | null): Promise<RankedRow[]> {
  const inSpaces = spaceIds.length === 1 ? Prisma.sql`s."spaceId" = ${spaceIds[0]}` : Prisma.sql`s."spaceId" = ANY(${spaceIds}::text[])`;
  // Rows after the cursor: strictly lower score, or the same score and a later (space, page).
  const afterCursor = (alias: string) =>
    after
      ? Prisma.sql`(${Prisma.raw(alias)}."score" < ${after.score}::real OR (${Prisma.raw(alias)}."score" = ${after.score}::real AND (${Prisma.raw(alias)}."spaceId", ${Prisma.raw(alias)}."pageId") > (${after.spaceId}, ${after.pageId})))`
      : Prisma.sql`TRUE`;
  // Only the page shown is sorted (a top-N sort, not a sort of every match); its rows' `rank` is their
  // place in it plus the matches before the cursor, counted in the same pass as the total.
  return withTypoRetry(
    query,
    (tsquery) => ctx.db.$queryRaw<RankedRow[]>`
      WITH q AS (SELECT ${tsquery} AS "query"),
      pages AS MATERIALIZED (
        SELECT s."spaceId", s."pageId", ts_rank(s."vector", q."query") AS "score"
        FROM "SearchPage" s, q
        WHERE ${inSpaces} AND s."vector" @@ q."query"
      ),
      counts AS (SELECT count(*) AS "total", count(*) FILTER (WHERE NOT ${afterCursor('p')}) AS "before" FROM pages p),
      shown AS (
        SELECT r.* FROM pages r WHERE ${afterCursor('r')}
        ORDER BY r."score" DESC, r."spaceId", r."pageId"
        LIMIT ${limit + 1}
      )
      SELECT r."spaceId", r."pageId", r."score"::float8 AS "score", r."score"::text AS "itemScore",
             (c."before" + row_number() OVER (ORDER BY r."score" DESC, r."spaceId", r."pageId"))::int AS "rank",
             c."total"::int AS "total", (SELECT "query"::text FROM q) AS "tsquery"
      FROM shown r CROSS JOIN counts c
      ORDER BY "rank"`,
    !after,
  );
}

export async function searchSpace(ctx: Context, spaceId: string, args: SearchArgs): Promise<Page<PageResult>> {
  const query = parseSearchQuery(args.query);
  const limit = resolveLimit(args.limit);
  const after = cursorOf(args.page);
  const { space } = await spaceFor(ctx, spaceId, 'read');
  if (space.searchRevisionId !== space.revisionId) await catchUpSearchIndex(ctx.db, [space.id]);

  const rows = await rankPages(ctx, [space.id], query, limit, after && { score: after.score, spaceId: space.id, pageId: after.id });
  const shown = rows.slice(0, limit);
  const pages = await readResultPages(ctx, shown, new Map([[space.id, space.revisionId]]));
  const result: Page<PageResult> = { items: pages, count: rows[0]?.total ?? 0 };
  if (rows.length > limit) {
    const last = shown[shown.length - 1];
    result.next = { page: encodeCursor([last.itemScore, last.pageId]) };
  }
  return result;
}

export async function searchOrganization(ctx: Context, organizationId: string, args: SearchArgs): Promise<Page<SpaceResult>> {
  const query = parseSearchQuery(args.query);
  const limit = resolveLimit(args.limit);
  const after = cursorOf(args.page);
  await organizationForMember(ctx, organizationId);
  // The spaces the caller may read: nothing of any other reaches the query.
  const spaces = await ctx.db.space.findMany({
    where: await visibleSpacesWhere(ctx, organizationId),
    select: { id: true, title: true, revisionId: true, searchRevisionId: true },
  });
  if (!spaces.length) return { items: [], count: 0 };
  const stale = spaces.filter((s) => s.searchRevisionId !== s.revisionId).map((s) => s.id);
  if (stale.length) await catchUpSearchIndex(ctx.db, stale);

  const rows = await withTypoRetry(
    query,
    (tsquery) => ctx.db.$queryRaw<RankedRow[]>`
      WITH q AS (SELECT ${tsquery} AS "query"),
      pages AS (
        SELECT s."spaceId", s."pageId", ts_rank(s."vector", q."query") AS "score"
        FROM "SearchPage" s, q
        WHERE s."spaceId" = ANY(${spaces.map((s) => s.id)}::text[]) AND s."vector" @@ q."query"
      ),
      ranked AS (
        SELECT p.*, row_number() OVER (ORDER BY p."score" DESC, p."spaceId", p."pageId") AS "rank",
               row_number() OVER (PARTITION BY p."spaceId" ORDER BY p."score" DESC, p."pageId") AS "nth"
        FROM pages p
      ),
      spaces AS (SELECT "spaceId", max("score") AS "score" FROM pages GROUP BY "spaceId"),
      chosen AS (
        SELECT * FROM spaces sp
        WHERE ${after ? Prisma.sql`(sp."score" < ${after.score}::real OR (sp."score" = ${after.score}::real AND sp."spaceId" > ${after.id}))` : Prisma.sql`TRUE`}
        ORDER BY sp."score" DESC, sp."spaceId" LIMIT ${limit + 1}
      )
      SELECT c."spaceId", r."pageId", r."score"::float8 AS "score", c."score"::text AS "itemScore", r."rank"::int AS "rank",
             (SELECT count(*) FROM spaces)::int AS "total", (SELECT "query"::text FROM q) AS "tsquery"
      FROM chosen c JOIN ranked r ON r."spaceId" = c."spaceId" AND r."nth" <= ${PAGES_PER_SPACE}
      ORDER BY c."score" DESC, c."spaceId", r."rank"`,
    !after,
  );

  const order: string[] = [];
  for (const row of rows) if (order[order.length - 1] !== row.spaceId) order.push(row.spaceId);
  const shownSpaces = new Set(order.slice(0, limit));
  const shown = rows.filter((row) => shownSpaces.has(row.spaceId));
  const pages = await readResultPages(ctx, shown, new Map(spaces.map((s) => [s.id, s.revisionId])));
  const byId = new Map(spaces.map((s) => [s.id, s]));
  const items: SpaceResult[] = order.slice(0, limit).map((spaceId) => {
    const own = pages.filter((page) => page.spaceId === spaceId);
    return { type: 'space', id: spaceId, title: byId.get(spaceId)!.title, score: Math.max(...own.map((p) => p.score)), pages: own };
  });
  const result: Page<SpaceResult> = { items, count: rows[0]?.total ?? 0 };
  if (order.length > limit) {
    const lastSpace = order[limit - 1];
    result.next = { page: encodeCursor([rows.find((row) => row.spaceId === lastSpace)!.itemScore, lastSpace]) };
  }
  return result;
}
