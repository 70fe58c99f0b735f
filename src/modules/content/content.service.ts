import type { Page } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { paginate, type ListArgs } from '../../core/pagination.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { spaceFor } from '../spaces/content-access.ts';
import { markdownToDocument } from './markdown-document.ts';
import { pageJson, pageTreeJson } from './page-json.ts';
import { buildPageTree, findPage } from './page-tree.ts';

/**
 * `GET /spaces/{id}/content/pages`: the page tree of the space's active revision, without bodies, in
 * one statement whatever its size.
 */
export async function listSpacePages(ctx: Context, spaceId: string): Promise<{ pages: object[] }> {
  const { space } = await spaceFor(ctx, spaceId, 'read');
  if (!space.revisionId) return { pages: [] };
  const rows = await ctx.db.page.findMany({ where: { revisionId: space.revisionId }, orderBy: [{ position: 'asc' }, { id: 'asc' }] });
  return { pages: pageTreeJson(buildPageTree(space.id, rows), ctx.config.appUrl) };
}

export type DocumentFormat = 'document' | 'markdown';

/**
 * `GET /spaces/{id}/content/page/{pageId}`: one page of the active revision with its child pages and,
 * for a document page, its body as `markdown` or as a structured `document` (default, as GitBook).
 * One statement: every page of the revision (the children at any depth come from the same rows), with
 * the body joined for the requested page only.
 */
export async function getSpacePage(ctx: Context, spaceId: string, pageId: string, format: DocumentFormat = 'document') {
  const { space } = await spaceFor(ctx, spaceId, 'read');
  const notFound = () => new NotFoundError(`Page "${pageId}" not found in this space`);
  if (!space.revisionId) throw notFound();
  const rows = await ctx.db.$queryRaw<(Page & { markdown: string | null })[]>(Prisma.sql`
    SELECT p.*, d."markdown"
    FROM "Page" p LEFT JOIN "Document" d ON d."hash" = p."documentHash" AND p."id" = ${pageId}
    WHERE p."revisionId" = ${space.revisionId}
    ORDER BY p."position", p."id"`);
  const node = findPage(buildPageTree(space.id, rows), pageId);
  if (!node) throw notFound();
  const json = pageJson(node, ctx.config.appUrl);
  const markdown = rows.find((row) => row.id === pageId)?.markdown;
  // Only document pages have a body (a group or a link has none, whatever a row holds).
  if (node.page.type === 'document' && markdown !== null && markdown !== undefined) {
    if (format === 'markdown') json.markdown = markdown;
    else json.document = markdownToDocument(markdown);
  }
  return json;
}

/** `GET /spaces/{id}/content/files`: the files of the active revision, by name (then ID), paged. */
export async function listSpaceFiles(ctx: Context, spaceId: string, args: ListArgs) {
  const { space } = await spaceFor(ctx, spaceId, 'read');
  return paginate({
    args,
    keys: [
      { field: 'name', direction: 'asc' },
      { field: 'id', direction: 'asc' },
    ],
    where: { revisionId: space.revisionId ?? '' },
    model: ctx.db.file,
  });
}

/** `GET /spaces/{id}/content/files/{fileId}`: one file of the active revision. */
export async function getSpaceFile(ctx: Context, spaceId: string, fileId: string) {
  const { space } = await spaceFor(ctx, spaceId, 'read');
  const file = await ctx.db.file.findUnique({ where: { revisionId_id: { revisionId: space.revisionId ?? '', id: fileId } } });
  if (!file) throw new NotFoundError(`File "${fileId}" not found in this space`);
  return file;
}

/**
 * `GET /spaces/{id}/content`: the space's active revision with its page tree (no bodies) and its
 * files, in one statement (the revision row with its pages and files joined).
 */
export async function getSpaceRevision(ctx: Context, spaceId: string) {
  const { space } = await spaceFor(ctx, spaceId, 'read');
  const revision = space.revisionId
    ? await ctx.db.revision.findUnique({
        where: { id: space.revisionId },
        relationLoadStrategy: 'join',
        include: { pages: { orderBy: [{ position: 'asc' }, { id: 'asc' }] }, files: { orderBy: [{ name: 'asc' }, { id: 'asc' }] } },
      })
    : null;
  if (!revision) throw new NotFoundError(`Space "${spaceId}" has no content`);
  const published = `${ctx.config.publicUrl}/s/${space.id}/`;
  return {
    revision,
    pages: pageTreeJson(buildPageTree(space.id, revision.pages), ctx.config.appUrl),
    files: revision.files,
    urls: {
      app: `${ctx.config.appUrl}/s/${space.id}/~/revisions/${revision.id}/`,
      published: space.visibility === 'private' ? null : published,
      public: space.visibility === 'public' ? published : null,
    },
  };
}
