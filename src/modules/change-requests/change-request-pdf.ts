import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { Db } from '../../db/client.ts';
import { Prisma, type Page } from '../../generated/prisma/client.ts';
import type { PdfPage } from '../content/index.ts';
import { buildPageTree, findPage, type PageNode } from '../content/index.ts';
import { signUrl, verifySignedUrl } from '../content/index.ts';
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

/**
 * The most text one PDF lays out, in characters of markdown (about 1,000 pages of 4 KB; the largest
 * page body is 500,000). Layout costs CPU and memory in proportion: a larger export is refused (413)
 * before any body is read, and is made page by page or section by section (`page`, `only`).
 */
export const MAX_PDF_MARKDOWN = 4_000_000;

/** A page of the revision with the length of its body, or (a revision without pages) the one row with no page. */
type PdfRow = Omit<Page, 'id'> & { id: string | null; spaceTitle: string; markdownLength: number | null };

/** Pages depth-first: each page, then its children in order. */
function flatten(nodes: readonly PageNode<PdfRow & { id: string }>[], out: (PdfRow & { id: string })[] = []) {
  for (const node of nodes) {
    out.push(node.page);
    flatten(node.pages, out);
  }
  return out;
}

/**
 * What a PDF URL shows, in tree order: null when the revision, its space (deleted ones included) or the
 * page is gone; 'too-large' past MAX_PDF_MARKDOWN. Two statements: the revision's pages with the length
 * of their bodies (joined to the live space), then the bodies of the pages shown.
 */
export async function readPdfContent(db: Db, target: PdfTarget): Promise<{ title: string; pages: PdfPage[] } | 'too-large' | null> {
  const rows = await db.$queryRaw<PdfRow[]>(Prisma.sql`
    SELECT s."title" AS "spaceTitle", p.*, length(d."markdown") AS "markdownLength"
    FROM "Revision" r
    JOIN "Space" s ON s."id" = r."spaceId" AND s."deletedAt" IS NULL
    LEFT JOIN "Page" p ON p."revisionId" = r."id"
    LEFT JOIN "Document" d ON d."hash" = p."documentHash"
    WHERE r."id" = ${target.revisionId} AND r."spaceId" = ${target.spaceId}
    ORDER BY p."position", p."id"`);
  if (!rows.length) return null;
  const tree = buildPageTree(target.spaceId, rows.filter((row): row is PdfRow & { id: string } => row.id !== null));
  const { page, only } = target.selection;
  let title = rows[0].spaceTitle || 'Untitled';
  let shown = flatten(tree);
  if (page !== null) {
    const node = findPage(tree, page);
    if (!node) return null;
    title = node.page.title;
    shown = flatten(only ? [{ ...node, pages: [] }] : [node]);
  }
  // Only document pages have a body (a group or a link has none, whatever a row holds).
  const withBody = shown.filter((p) => p.type === 'document' && p.documentHash);
  if (withBody.reduce((sum, p) => sum + Number(p.markdownLength ?? 0), 0) > MAX_PDF_MARKDOWN) return 'too-large';
  const hashes = [...new Set(withBody.map((p) => p.documentHash!))];
  const documents = hashes.length ? await db.document.findMany({ where: { hash: { in: hashes } }, select: { hash: true, markdown: true } }) : [];
  const markdown = new Map(documents.map((d) => [d.hash, d.markdown]));
  const bodyOf = (p: PdfRow) => (p.type === 'document' && p.documentHash ? (markdown.get(p.documentHash) ?? null) : null);
  return { title, pages: shown.map((p) => ({ title: p.title, type: p.type, markdown: bodyOf(p) })) };
}
