import type { Space } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { decodeCursor, resolveLimit, toPage, type ListArgs, type Page, type SortKey } from '../../core/pagination.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { spaceForSiteReader } from '../sites/index.ts';
import { spaceFor } from '../content-access/index.ts';
import { computedMarkdown } from './computed-sources.ts';
import { documentBudget } from './markdown/document-budget.ts';
import { markdownToDocument } from './markdown/markdown-document.ts';
import { RawJson } from '../../lib/raw-json.ts';
import { pageJson } from './page-json.ts';
import { pageTreeText } from './page-tree-text.ts';
import { buildPageTree } from './store/page-tree.ts';
import { contentCacheOf, fileCodec, pageCodec, revisionContent, type FileEntry, type PageEntry } from './store/revision-content.ts';

/**
 * Whose content a read serves: the space's active revision, or a change request's revision. The
 * caller has been checked for `read` on the space before a source is made.
 */
export interface ContentSource extends PageSource {
  space: Space;
}

/**
 * What a read of pages needs of its source: the space's ID (and its organization's, for computed
 * pages) and the revision — the published view (published/) gives that much, without the space's row.
 */
export interface PageSource {
  space: Pick<Space, 'id' | 'organizationId'>;
  revisionId: string | null;
  /**
   * Set when reading a change request: its number names it in application URLs; `baseRevisionId` is
   * the space revision it is based on (what it changed is relative to that).
   */
  changeRequest?: { id: string; number: number; baseRevisionId: string };
}

/** The active revision of a space the caller may read (a site's reader: a space the site shows them). */
export async function spaceContentSource(ctx: Context, spaceId: string): Promise<ContentSource> {
  const space = ctx.siteReader ? await spaceForSiteReader(ctx, ctx.siteReader, spaceId) : (await spaceFor(ctx, spaceId, 'read')).space;
  return { space, revisionId: space.revisionId };
}

/**
 * A revision of a space the caller may read, by ID (`…/revisions/{revisionId}/…`): any revision of the
 * space, its change requests' included. A revision of another space is as unknown as one that does not
 * exist. Its row comes from the content cache when the revision is held; else, run beside the space's
 * access check, one statement reads it — the whole revision (`whole`: the read that follows needs it and
 * then finds it in the cache) or its row alone (a page or a file follows).
 */
export async function revisionContentSource(ctx: Context, spaceId: string, revisionId: string, whole = false): Promise<ContentSource> {
  if (ctx.siteReader) {
    // A published site's reader reads the published revision of the site's spaces, nothing older or
    // in progress (sites/site-readers.ts).
    const space = await spaceForSiteReader(ctx, ctx.siteReader, spaceId);
    if (space.revisionId !== revisionId) throw new NotFoundError(`Revision "${revisionId}" not found in this space`);
    return { space, revisionId };
  }
  const held = contentCacheOf(ctx.db).get(revisionId)?.revision;
  const read = async () =>
    whole
      ? ((await revisionContent(ctx.db, ctx.db, revisionId))?.revision ?? null)
      : ctx.db.revision.findUnique({ where: { id: revisionId }, select: { id: true, spaceId: true } });
  const [{ space }, revision] = await Promise.all([spaceFor(ctx, spaceId, 'read'), held ?? read()]);
  if (!revision || revision.spaceId !== space.id) throw new NotFoundError(`Revision "${revisionId}" not found in this space`);
  return { space, revisionId };
}

/**
 * The page at `path` in the revision (`…/path/{pagePath}`): a document or a group (GitBook's rule: a link
 * page has no page of its own), read like `getPage`. The path is found in the revision read whole,
 * which the cache then keeps: a renderer asks for pages by path, page after page.
 */
export async function getPageByPath(ctx: Context, source: PageSource, path: string, format: DocumentFormat = 'document', computed = true) {
  const normalized = path.replace(/^\/+|\/+$/g, '');
  const content = source.revisionId ? await revisionContent(ctx.db, ctx.db, source.revisionId) : null;
  const entry = content?.pageAtPath(normalized);
  if (!entry || (entry.type !== 'document' && entry.type !== 'group')) {
    throw new NotFoundError(`No page at "${normalized}" in this ${source.changeRequest ? 'change request' : 'space'}`);
  }
  return getPage(ctx, source, entry.id, format, computed);
}

/**
 * `GET …/content/pages`: the page tree of the revision, without bodies: the revision read whole in one
 * statement, or from the cache (a revision never changes) without any.
 */
export async function listPages(ctx: Context, source: PageSource): Promise<{ pages: RawJson | object[] }> {
  if (!source.revisionId) return { pages: [] };
  const content = await revisionContent(ctx.db, ctx.db, source.revisionId);
  return { pages: content ? new RawJson(pageTreeText(content, ctx.config.appUrl)) : [] };
}

export type DocumentFormat = 'document' | 'markdown';

/**
 * `GET …/content/page/{pageId}`: one page of the revision with its child pages and, for a document
 * page, its body as `markdown` or as a structured `document` (default, as GitBook). One statement that
 * reads what the page needs and nothing else, whatever the size of the space: the nodes above the
 * leaves, the leaf holding the page (found through the index of leaf IDs), the leaves holding its
 * descendants (which follow it), and its body.
 */
export async function getPage(ctx: Context, source: PageSource, pageId: string, format: DocumentFormat = 'document', computed = true) {
  const notFound = () => new NotFoundError(`Page "${pageId}" not found in this ${source.changeRequest ? 'change request' : 'space'}`);
  if (!source.revisionId) throw notFound();
  const [row] = await ctx.db.$queryRaw<{ first: bigint; leaves: string; markdown: string | null }[]>(Prisma.sql`
    WITH leaves AS MATERIALIZED (
      SELECT l.* FROM "Revision" r CROSS JOIN LATERAL content_leaves(r."pageTree") l WHERE r."id" = ${source.revisionId}
    ),
    -- Materialized: the position of the page's last descendant is computed once, not again (reading
    -- its leaf's items) for every leaf the subtree's filter below looks at.
    found AS MATERIALIZED (
      SELECT l."start" + u.k - 1 AS "first", l."start" + u.k - 1 + (n."items" -> (u.k::int - 1) ->> 'descendants')::bigint AS "last",
             n."items" -> (u.k::int - 1) ->> 'documentHash' AS "documentHash"
      FROM leaves l JOIN "ContentNode" n ON n."hash" = l."hash" AND n."ids" @> ARRAY[${pageId}]::text[]
      CROSS JOIN LATERAL unnest(n."ids") WITH ORDINALITY AS u(id, k)
      WHERE u.id = ${pageId}
    )
    SELECT f."first",
           (SELECT json_agg(json_build_object('start', l."start", 'items', n."items") ORDER BY l."start")
              FROM leaves l JOIN "ContentNode" n ON n."hash" = l."hash"
              WHERE l."start" <= f."last" AND l."start" + l."count" > f."first")::text AS "leaves",
           (SELECT d."markdown" FROM "Document" d WHERE d."hash" = f."documentHash") AS "markdown"
    FROM found f`);
  if (!row) throw notFound();
  const first = Number(row.first);
  const subtree: PageEntry[] = [];
  for (const leaf of JSON.parse(row.leaves) as { start: number; items: Record<string, unknown>[] }[]) {
    leaf.items.forEach((item, i) => {
      if (leaf.start + i >= first) subtree.push(pageCodec.decode(item));
    });
  }
  const pages = subtree.slice(0, 1 + subtree[0].descendants);
  const [node] = buildPageTree(source.space.id, pages);
  const json = pageJson(node, ctx.config.appUrl);
  // A computed page's content is made from its source when read (unless `computed=false`: as stored).
  const markdown = node.page.type === 'computed' && computed ? await computedMarkdown(ctx.db, source.space.organizationId, node.page.computed) : row.markdown;
  // Only document (and computed) pages have a body (a group or a link has none, whatever a row holds).
  if ((node.page.type === 'document' || (node.page.type === 'computed' && computed)) && markdown !== null && markdown !== undefined) {
    if (format === 'markdown') json.markdown = markdown;
    else json.document = markdownToDocument(markdown, documentBudget(ctx));
  }
  return json;
}

const FILE_KEYS: SortKey[] = [
  { field: 'name', direction: 'asc' },
  { field: 'id', direction: 'asc' },
];

/**
 * `GET …/content/files`: the files of the revision, by name (then ID), paged. One statement: the file
 * tree is kept in that order, so a page is the entries after the cursor's, and the count is the root's.
 */
export async function listFiles(ctx: Context, source: ContentSource, args: ListArgs) {
  const limit = resolveLimit(args.limit);
  const after = args.page ? (decodeCursor(args.page, FILE_KEYS) as [string, string]) : null;
  const [row] = await ctx.db.$queryRaw<{ count: number | null; items: string | null }[]>(Prisma.sql`
    SELECT (SELECT n."count" FROM "ContentNode" n WHERE n."hash" = r."fileTree") AS "count",
           (SELECT json_agg(x."item" ORDER BY x."position") FROM (
              SELECT it."position", it."item" FROM content_items(r."fileTree") it
              WHERE ${after?.[0] ?? null}::text IS NULL
                 OR ((it."item" ->> 'name') COLLATE "C", (it."item" ->> 'id') COLLATE "C") > (${after?.[0] ?? null}::text COLLATE "C", ${after?.[1] ?? null}::text COLLATE "C")
              ORDER BY it."position" LIMIT ${limit + 1}) x)::text AS "items"
    FROM "Revision" r WHERE r."id" = ${source.revisionId ?? ''}`);
  const files = row?.items ? (JSON.parse(row.items) as Record<string, unknown>[]).map((item) => fileCodec.decode(item)) : [];
  return toPage(files as unknown as Record<string, unknown>[], row?.count ?? 0, limit, FILE_KEYS) as unknown as Page<FileEntry>;
}

/** `GET …/content/files/{fileId}`: one file of the revision (found through the index of leaf IDs). */
export async function getFile(ctx: Context, source: ContentSource, fileId: string): Promise<FileEntry> {
  const [row] = await ctx.db.$queryRaw<{ item: string }[]>(Prisma.sql`
    SELECT f."item"::text AS "item" FROM "Revision" r CROSS JOIN LATERAL content_find(r."fileTree", ARRAY[${fileId}]::text[]) f
    WHERE r."id" = ${source.revisionId ?? ''}`);
  if (!row) throw new NotFoundError(`File "${fileId}" not found in this ${source.changeRequest ? 'change request' : 'space'}`);
  return fileCodec.decode(JSON.parse(row.item));
}

/**
 * `GET …/content`: the revision with its page tree (no bodies) and its files, read whole in one
 * statement (or from the cache, without any); a merge revision's change request (`mergedFrom`, with
 * what the selection needs of it) is one more.
 */
export async function getRevision(ctx: Context, source: ContentSource, mergedFromQuery: object = {}) {
  const { space } = source;
  const content = source.revisionId ? await revisionContent(ctx.db, ctx.db, source.revisionId) : null;
  if (!content) throw new NotFoundError(`Space "${space.id}" has no content`);
  const { revision } = content;
  const mergedFrom = revision.type === 'merge' ? await ctx.db.changeRequest.findFirst({ where: { revisionMergedId: revision.id }, ...mergedFromQuery }) : null;
  const published = `${ctx.config.publicUrl}/s/${space.id}/`;
  const app = source.changeRequest
    ? `${ctx.config.appUrl}/s/${space.id}/~/changes/${source.changeRequest.number}/`
    : `${ctx.config.appUrl}/s/${space.id}/~/revisions/${revision.id}/`;
  return {
    revision,
    mergedFrom,
    pages: new RawJson(pageTreeText(content, ctx.config.appUrl)),
    files: content.files.entries(),
    urls: {
      app,
      published: space.visibility === 'private' ? null : published,
      public: space.visibility === 'public' ? published : null,
    },
  };
}

/** Whether a revision has this page: one statement that reads the leaf holding it, not the tree. */
export async function pageExists(ctx: Pick<Context, 'db'>, revisionId: string, pageId: string): Promise<boolean> {
  const [row] = await ctx.db.$queryRaw<{ found: boolean }[]>(Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM "Revision" r CROSS JOIN LATERAL content_find(r."pageTree", ARRAY[${pageId}]::text[]) f WHERE r."id" = ${revisionId}) AS "found"`);
  return row?.found === true;
}
