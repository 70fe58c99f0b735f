import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { pageSections } from './page-sections.ts';
import { getDocuments, revisionContents, sequenceChanges, type PageEntry, type RevisionContent } from '../content/index.ts';

type Tx = Prisma.TransactionClient;

/**
 * The search index of a space's active revision (`SearchPage` and `SearchSection`, see schema.prisma),
 * kept up to date by the writers that move a space to a new revision (a merge, an import), in their own
 * transaction, and only for the pages that changed: the new revision's page tree is compared with that
 * of the revision the index reflects (`Space.searchRevisionId`) by its nodes (leaves both share are
 * skipped), and only pages whose body, title, path, description or type differ are split and indexed
 * again. A page whose parent was renamed keeps its rows: ancestors are read at query time.
 */

/** Pages of these types have a body and a URL of their own; groups and links are not searched. */
const SEARCHED_TYPES = ['document', 'computed'];

/** Pages per batch of INSERTs: bounds one statement's arrays when a whole large space is indexed. */
const INSERT_BATCH = 500;

/** The text search configuration of every vector and query (docs/api/search-and-import.md, "Search"). */
export const SEARCH_CONFIG = 'simple';

interface ChangedPage {
  id: string;
  title: string;
  path: string;
  description: string | null;
  type: string;
  markdown: string | null;
}

/** What the index holds of a page: a change to anything else (its place, its emoji…) leaves it. */
const indexedSame = (a: PageEntry, b: PageEntry) =>
  a.documentHash === b.documentHash &&
  a.title === b.title &&
  a.path === b.path &&
  a.description === b.description &&
  a.type === b.type &&
  a.noIndex === b.noIndex;

/**
 * Brings the index of `spaceId` to the revision `to` (its content, or its ID), inside the caller's
 * transaction (which holds the space row: the writer moved the space's revision in it). From the
 * revision the index reflects, only what changed is rewritten; with none (a space never indexed),
 * every page. `cacheOwner`: the database client whose content cache serves the revisions.
 */
export async function updateSearchIndex(tx: Tx, spaceId: string, to: RevisionContent | string, cacheOwner: object): Promise<void> {
  const revisionId = typeof to === 'string' ? to : to.id;
  const [state] = await tx.$queryRaw<{ searchRevisionId: string | null }[]>`
    SELECT "searchRevisionId" FROM "Space" WHERE "id" = ${spaceId}`;
  const from = state?.searchRevisionId ?? null;
  if (from === revisionId) return;

  const contents = await revisionContents(tx, cacheOwner, [...(typeof to === 'string' ? [to] : []), ...(from ? [from] : [])]);
  const next = typeof to === 'string' ? contents.get(to) : to;
  if (!next) return;
  const previous = from ? contents.get(from) : undefined;
  // Pages of the new revision that are new or differ from the indexed revision's, and pages it no longer has.
  let changed: PageEntry[];
  let gone: string[] = [];
  if (!previous) changed = [...next.pages.entries()];
  else {
    changed = [];
    for (const [id, change] of sequenceChanges(previous.pages, next.pages, indexedSame)) {
      if (change.after) changed.push(change.after);
      else gone.push(id);
    }
  }
  if (from === null || !previous) {
    await tx.$executeRaw`DELETE FROM "SearchPage" WHERE "spaceId" = ${spaceId}`;
    gone = [];
  } else if (changed.length || gone.length) {
    // Rows of changed pages go (written again below), and those of pages the new revision no longer
    // has; their sections go with them (cascade).
    await tx.$executeRaw`
      DELETE FROM "SearchPage" WHERE "spaceId" = ${spaceId} AND "pageId" = ANY(${[...changed.map((p) => p.id), ...gone]}::text[])`;
  }
  // A page marked `noIndex` is left out of search (its row went above, with the changed pages').
  const searched = changed.filter((page) => SEARCHED_TYPES.includes(page.type) && !page.noIndex);
  for (let start = 0; start < searched.length; start += INSERT_BATCH) await insertPages(tx, spaceId, await withBodies(tx, searched.slice(start, start + INSERT_BATCH)));
  await tx.$executeRaw`UPDATE "Space" SET "searchRevisionId" = ${revisionId} WHERE "id" = ${spaceId}`;
}

/** Pages with their bodies (one statement for a batch). */
async function withBodies(tx: Tx, pages: PageEntry[]): Promise<ChangedPage[]> {
  const hashes = [...new Set(pages.map((page) => page.documentHash).filter((hash): hash is string => hash !== null))];
  const markdown = await getDocuments(tx, hashes);
  return pages.map((page) => ({
    id: page.id,
    title: page.title,
    path: page.path,
    description: page.description,
    type: page.type,
    markdown: page.documentHash ? (markdown.get(page.documentHash) ?? null) : null,
  }));
}

/** Indexes pages: a row each (and the words the index had not seen), then their sections. */
async function insertPages(tx: Tx, spaceId: string, pages: ChangedPage[]) {
  const split = pages.map((page) => ({ page, sections: pageSections(page.markdown ?? '') }));
  const pageColumn = <T>(value: (entry: (typeof split)[number]) => T) => split.map(value);
  // Words are inserted in order, so two writers adding overlapping words cannot deadlock.
  await tx.$executeRaw`
    WITH inserted AS (
      INSERT INTO "SearchPage" ("spaceId", "pageId", "title", "path", "vector")
      SELECT ${spaceId}, r."pageId", r."title", r."path",
             setweight(to_tsvector(${SEARCH_CONFIG}::regconfig, r."title"), 'A')
             || setweight(to_tsvector(${SEARCH_CONFIG}::regconfig, r."headings"), 'B')
             || setweight(to_tsvector(${SEARCH_CONFIG}::regconfig, r."body"), 'C')
      FROM unnest(${pageColumn((e) => e.page.id)}::text[], ${pageColumn((e) => e.page.title)}::text[], ${pageColumn((e) => e.page.path)}::text[],
                  ${pageColumn((e) => [e.page.description ?? '', ...e.sections.map((s) => s.heading)].join('\n'))}::text[],
                  ${pageColumn((e) => e.sections.map((s) => s.body).join('\n'))}::text[])
           AS r("pageId", "title", "path", "headings", "body")
      RETURNING "vector"
    )
    INSERT INTO "SearchWord" ("word")
    SELECT DISTINCT w FROM inserted, unnest(tsvector_to_array(inserted."vector")) AS w
    WHERE char_length(w) BETWEEN 3 AND 40
    ORDER BY w
    ON CONFLICT DO NOTHING`;

  const sections = split.flatMap(({ page, sections }) => sections.map((section) => ({ pageId: page.id, ...section })));
  const column = <K extends keyof (typeof sections)[number]>(key: K) => sections.map((section) => section[key]);
  await tx.$executeRaw`
    INSERT INTO "SearchSection" ("spaceId", "pageId", "ordinal", "anchor", "heading", "body", "vector")
    SELECT ${spaceId}, r."pageId", r."ordinal", r."anchor", r."heading", r."body",
           setweight(to_tsvector(${SEARCH_CONFIG}::regconfig, r."heading"), 'B') || setweight(to_tsvector(${SEARCH_CONFIG}::regconfig, r."body"), 'C')
    FROM unnest(${column('pageId')}::text[], ${column('ordinal')}::int[], ${column('anchor')}::text[], ${column('heading')}::text[], ${column('body')}::text[])
         AS r("pageId", "ordinal", "anchor", "heading", "body")`;
}

/**
 * A copy of a space (duplicate) holds its source's pages unchanged: when the source's index is current,
 * its rows are the copy's, copied in one statement; otherwise the copy is indexed when first searched.
 */
export async function copySearchIndex(tx: Tx, fromSpaceId: string, toSpaceId: string, toRevisionId: string, sourceRevisionId: string | null) {
  const [source] = await tx.$queryRaw<{ searchRevisionId: string | null }[]>`SELECT "searchRevisionId" FROM "Space" WHERE "id" = ${fromSpaceId}`;
  if (!sourceRevisionId || source?.searchRevisionId !== sourceRevisionId) return;
  await tx.$executeRaw`
    INSERT INTO "SearchPage" ("spaceId", "pageId", "title", "path", "vector")
    SELECT ${toSpaceId}, "pageId", "title", "path", "vector" FROM "SearchPage" WHERE "spaceId" = ${fromSpaceId}`;
  await tx.$executeRaw`
    INSERT INTO "SearchSection" ("spaceId", "pageId", "ordinal", "anchor", "heading", "body", "vector")
    SELECT ${toSpaceId}, "pageId", "ordinal", "anchor", "heading", "body", "vector" FROM "SearchSection" WHERE "spaceId" = ${fromSpaceId}`;
  await tx.$executeRaw`UPDATE "Space" SET "searchRevisionId" = ${toRevisionId} WHERE "id" = ${toSpaceId}`;
}

/**
 * Brings stale indexes up to date before a search reads them: spaces whose content was written before
 * the index existed (an older release), or by a writer outside the API. Each in its own transaction
 * holding the space row, so a merge landing meanwhile and two searches catching up at once serialise.
 */
export async function catchUpSearchIndex(db: Db, spaceIds: readonly string[]): Promise<void> {
  for (const spaceId of spaceIds) {
    await db.$transaction(async (tx) => {
      const [space] = await tx.$queryRaw<{ revisionId: string | null }[]>`
        SELECT "revisionId" FROM "Space" WHERE "id" = ${spaceId} FOR NO KEY UPDATE`;
      if (space?.revisionId) await updateSearchIndex(tx, spaceId, space.revisionId, db);
    }, TRANSACTION_OPTIONS);
  }
}
