import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { Db } from '../../db/client.ts';
import { Prisma, type Page } from '../../generated/prisma/client.ts';
import type { PdfPage } from '../content/markdown-pdf.ts';
import { buildPageTree, findPage, type PageNode } from '../content/page-tree.ts';
import { signUrl, verifySignedUrl } from '../content/signed-urls.ts';
import { changeRequestContentSource } from './change-request-content.ts';

/**
 * `GET …/change-requests/{id}/pdf` answers a URL rather than the PDF: like a file download URL, it is
 * signed and expires (one to two hours), and serves the PDF to whoever holds it without a token. It
 * names the revision the change request had when asked, so the PDF shows what the caller saw.
 */
export const PDF_BASE_PATH = '/pdf';
const PDF_SEGMENT = PDF_BASE_PATH.slice(1);

/** Which pages: one page and its descendants, that page alone (`only`), or every page (no `page`). */
export interface PdfSelection {
  page?: string | null;
  only?: boolean | null;
}

export interface PdfTarget {
  spaceId: string;
  revisionId: string;
  selection: { page: string | null; only: boolean };
}

/** `only` means something with a page only: it is left out of the URL otherwise. */
function normalize(selection: PdfSelection): PdfTarget['selection'] {
  const page = selection.page || null;
  return { page, only: page !== null && selection.only === true };
}

/** A signed URL of the change request's revision as a PDF; the caller needs `read` on the space. */
export async function changeRequestPdfUrl(ctx: Context, spaceId: string, changeRequestId: string, selection: PdfSelection) {
  const source = await changeRequestContentSource(ctx, spaceId, changeRequestId);
  const { page, only } = normalize(selection);
  const revisionId = source.revisionId ?? '';
  if (page !== null) {
    const found = await ctx.db.page.findUnique({ where: { revisionId_id: { revisionId, id: page } }, select: { id: true } });
    if (!found) throw new NotFoundError(`Page "${page}" not found in this change request`);
  }
  const params: Record<string, string> = {};
  if (page !== null) params.page = page;
  if (only) params.only = 'true';
  const url = await signUrl(ctx.db, ctx.config.publicUrl, { segments: [PDF_SEGMENT, source.space.id, revisionId], params }, ctx.clock.now());
  return { url };
}

/** The target of a PDF URL when its signature holds and it has not expired; else why not. */
export async function verifyPdfUrl(db: Db, url: URL, now: Date): Promise<PdfTarget | 'invalid' | 'expired'> {
  const verified = await verifySignedUrl(db, url, now);
  if (typeof verified === 'string') return verified;
  const [prefix, spaceId, revisionId, ...rest] = verified.segments;
  const { page, only, ...others } = verified.params;
  if (prefix !== PDF_SEGMENT || !spaceId || !revisionId || rest.length || Object.keys(others).length) return 'invalid';
  return { spaceId, revisionId, selection: { page: page ?? null, only: only === 'true' } };
}

/** Pages depth-first: each page, then its children in order. */
function flatten(nodes: readonly PageNode[], markdown: Map<string, string | null>, out: PdfPage[] = []): PdfPage[] {
  for (const node of nodes) {
    out.push({ title: node.page.title, type: node.page.type, markdown: markdown.get(node.page.id) ?? null });
    flatten(node.pages, markdown, out);
  }
  return out;
}

/** A page with its body, or (a revision without pages) the one row of the revision with no page. */
type PdfRow = Omit<Page, 'id'> & { id: string | null; spaceTitle: string; markdown: string | null };

/**
 * What a PDF URL shows, in tree order: null when the revision, its space (deleted ones included) or the
 * page is gone. One statement: the revision's pages with their bodies, joined to the live space.
 */
export async function readPdfContent(db: Db, target: PdfTarget): Promise<{ title: string; pages: PdfPage[] } | null> {
  const rows = await db.$queryRaw<PdfRow[]>(Prisma.sql`
    SELECT s."title" AS "spaceTitle", p.*, d."markdown"
    FROM "Revision" r
    JOIN "Space" s ON s."id" = r."spaceId" AND s."deletedAt" IS NULL
    LEFT JOIN "Page" p ON p."revisionId" = r."id"
    LEFT JOIN "Document" d ON d."hash" = p."documentHash"
    WHERE r."id" = ${target.revisionId} AND r."spaceId" = ${target.spaceId}
    ORDER BY p."position", p."id"`);
  if (!rows.length) return null;
  const pages = rows.filter((row): row is PdfRow & { id: string } => row.id !== null);
  // Only document pages have a body (a group or a link has none, whatever a row holds).
  const markdown = new Map(pages.map((p) => [p.id, p.type === 'document' ? p.markdown : null]));
  const tree = buildPageTree(target.spaceId, pages);
  const { page, only } = target.selection;
  if (page === null) return { title: rows[0].spaceTitle || 'Untitled', pages: flatten(tree, markdown) };
  const node = findPage(tree, page);
  if (!node) return null;
  return { title: node.page.title, pages: flatten(only ? [{ ...node, pages: [] }] : [node], markdown) };
}
