import type { Page, Space } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { paginate, type ListArgs } from '../../core/pagination.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { spaceFor } from '../spaces/index.ts';
import { computedMarkdown } from './computed-sources.ts';
import { documentBudget } from './document-budget.ts';
import { markdownToDocument } from './markdown-document.ts';
import { pageJson, pageTreeJson } from './page-json.ts';
import { buildPageTree, findPage } from './page-tree.ts';

/**
 * Whose content a read serves: the space's active revision, or a change request's revision. The
 * caller has been checked for `read` on the space before a source is made.
 */
export interface ContentSource {
  space: Space;
  revisionId: string | null;
  /**
   * Set when reading a change request: its number names it in application URLs; `baseRevisionId` is
   * the space revision it is based on (what it changed is relative to that).
   */
  changeRequest?: { id: string; number: number; baseRevisionId: string };
}

/** The active revision of a space the caller may read. */
export async function spaceContentSource(ctx: Context, spaceId: string): Promise<ContentSource> {
  const { space } = await spaceFor(ctx, spaceId, 'read');
  return { space, revisionId: space.revisionId };
}

/**
 * `GET …/content/pages`: the page tree of the revision, without bodies, in one statement whatever
 * its size.
 */
export async function listPages(ctx: Context, source: ContentSource): Promise<{ pages: object[] }> {
  if (!source.revisionId) return { pages: [] };
  const rows = await ctx.db.page.findMany({ where: { revisionId: source.revisionId }, orderBy: [{ position: 'asc' }, { id: 'asc' }] });
  return { pages: pageTreeJson(buildPageTree(source.space.id, rows), ctx.config.appUrl) };
}

export type DocumentFormat = 'document' | 'markdown';

/**
 * `GET …/content/page/{pageId}`: one page of the revision with its child pages and, for a document
 * page, its body as `markdown` or as a structured `document` (default, as GitBook). One statement:
 * every page of the revision (the children at any depth come from the same rows), with the body
 * joined for the requested page only.
 */
export async function getPage(ctx: Context, source: ContentSource, pageId: string, format: DocumentFormat = 'document', computed = true) {
  const notFound = () => new NotFoundError(`Page "${pageId}" not found in this ${source.changeRequest ? 'change request' : 'space'}`);
  if (!source.revisionId) throw notFound();
  const rows = await ctx.db.$queryRaw<(Page & { markdown: string | null })[]>(Prisma.sql`
    SELECT p.*, d."markdown"
    FROM "Page" p LEFT JOIN "Document" d ON d."hash" = p."documentHash" AND p."id" = ${pageId}
    WHERE p."revisionId" = ${source.revisionId}
    ORDER BY p."position", p."id"`);
  const node = findPage(buildPageTree(source.space.id, rows), pageId);
  if (!node) throw notFound();
  const json = pageJson(node, ctx.config.appUrl);
  // A computed page's content is made from its source when read (unless `computed=false`: as stored).
  const markdown =
    node.page.type === 'computed' && computed
      ? await computedMarkdown(ctx.db, source.space.organizationId, node.page.computed)
      : rows.find((row) => row.id === pageId)?.markdown;
  // Only document (and computed) pages have a body (a group or a link has none, whatever a row holds).
  if ((node.page.type === 'document' || (node.page.type === 'computed' && computed)) && markdown !== null && markdown !== undefined) {
    if (format === 'markdown') json.markdown = markdown;
    else json.document = markdownToDocument(markdown, documentBudget(ctx));
  }
  return json;
}

/** `GET …/content/files`: the files of the revision, by name (then ID), paged. */
export async function listFiles(ctx: Context, source: ContentSource, args: ListArgs) {
  return paginate({
    args,
    keys: [
      { field: 'name', direction: 'asc' },
      { field: 'id', direction: 'asc' },
    ],
    where: { revisionId: source.revisionId ?? '' },
    model: ctx.db.file,
  });
}

/** `GET …/content/files/{fileId}`: one file of the revision. */
export async function getFile(ctx: Context, source: ContentSource, fileId: string) {
  const file = await ctx.db.file.findUnique({ where: { revisionId_id: { revisionId: source.revisionId ?? '', id: fileId } } });
  if (!file) throw new NotFoundError(`File "${fileId}" not found in this ${source.changeRequest ? 'change request' : 'space'}`);
  return file;
}

/**
 * `GET …/content`: the revision with its page tree (no bodies), its files and the change request a
 * merge revision merged, in one statement (the revision row with the others joined).
 */
export async function getRevision(ctx: Context, source: ContentSource, mergedFromQuery: object = {}) {
  const { space } = source;
  const revision = source.revisionId
    ? await ctx.db.revision.findUnique({
        where: { id: source.revisionId },
        relationLoadStrategy: 'join',
        include: {
          pages: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
          files: { orderBy: [{ name: 'asc' }, { id: 'asc' }] },
          // A merge revision names the change request it merged (GitBook's `mergedFrom`): read with it,
          // with what the selection needs of it (the Prisma plugin's query for that field).
          changeRequestsMergedInto: mergedFromQuery,
        },
      })
    : null;
  if (!revision) throw new NotFoundError(`Space "${space.id}" has no content`);
  const published = `${ctx.config.publicUrl}/s/${space.id}/`;
  const app = source.changeRequest
    ? `${ctx.config.appUrl}/s/${space.id}/~/changes/${source.changeRequest.number}/`
    : `${ctx.config.appUrl}/s/${space.id}/~/revisions/${revision.id}/`;
  return {
    revision,
    pages: pageTreeJson(buildPageTree(space.id, revision.pages), ctx.config.appUrl),
    files: revision.files,
    urls: {
      app,
      published: space.visibility === 'private' ? null : published,
      public: space.visibility === 'public' ? published : null,
    },
  };
}
