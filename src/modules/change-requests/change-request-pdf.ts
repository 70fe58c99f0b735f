import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { Db } from '../../db/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { PdfPage, RevisionContent } from '../content/index.ts';
import { getDocuments, imageFileIds, pageExists, revisionContent, type PageEntry } from '../content/index.ts';
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
    if (!(await pageExists(ctx, revisionId, page))) throw new NotFoundError(`Page "${page}" not found in this change request`);
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

/**
 * What a PDF URL shows, in tree order: null when the revision, its space (deleted ones included) or the
 * page is gone; 'too-large' past MAX_PDF_MARKDOWN. The revision read whole (or from the cache), then the
 * space's title with the length of the bodies shown, then those bodies.
 */
export async function readPdfContent(db: Db, target: PdfTarget): Promise<{ title: string; pages: PdfPage[]; images: Map<string, Uint8Array> } | 'too-large' | null> {
  const content = await revisionContent(db, db, target.revisionId);
  if (!content || content.revision.spaceId !== target.spaceId) return null;
  const { page, only } = target.selection;
  let shown: readonly PageEntry[] = content.pages.entries();
  let title: string | null = null;
  if (page !== null) {
    const entry = content.page(page);
    if (!entry) return null;
    title = entry.title;
    shown = only ? [entry] : content.subtree(page);
  }
  // Only document pages have a body (a group or a link has none, whatever an entry holds).
  const withBody = shown.filter((p) => p.type === 'document' && p.documentHash);
  const hashes = [...new Set(withBody.map((p) => p.documentHash!))];
  const [row] = await db.$queryRaw<{ spaceTitle: string; lengths: Record<string, number> | null }[]>(Prisma.sql`
    SELECT s."title" AS "spaceTitle",
           (SELECT json_object_agg(d."hash", length(d."markdown")) FROM "Document" d WHERE d."hash" = ANY(${hashes}::text[])) AS "lengths"
    FROM "Space" s WHERE s."id" = ${target.spaceId} AND s."deletedAt" IS NULL`);
  if (!row) return null;
  const lengths = row.lengths ?? {};
  if (withBody.reduce((sum, p) => sum + (lengths[p.documentHash!] ?? 0), 0) > MAX_PDF_MARKDOWN) return 'too-large';
  const markdown = await getDocuments(db, hashes);
  const bodyOf = (p: PageEntry) => (p.type === 'document' && p.documentHash ? (markdown.get(p.documentHash) ?? null) : null);
  const pages = shown.map((p) => ({ title: p.title, type: p.type, markdown: bodyOf(p) }));
  return { title: title ?? (row.spaceTitle || 'Untitled'), pages, images: await pdfImages(db, content, pages) };
}

/** Images one PDF draws at most, and their bytes in all: past either, the rest show their alternative text. */
const MAX_PDF_IMAGES = 200;
const MAX_PDF_IMAGE_BYTES = 32 * 1024 * 1024;

/** The revision's PNG and JPEG files the pages' bodies show, read in one statement, within the bounds. */
async function pdfImages(db: Db, content: RevisionContent, pages: PdfPage[]): Promise<Map<string, Uint8Array>> {
  const wanted = new Map<string, string>();
  let bytes = 0;
  for (const page of pages) {
    for (const id of page.markdown ? imageFileIds(page.markdown) : []) {
      const file = content.files.get(id);
      if (!file || wanted.has(id) || !/^image\/(png|jpeg)$/.test(file.contentType)) continue;
      if (wanted.size >= MAX_PDF_IMAGES || bytes + file.size > MAX_PDF_IMAGE_BYTES) break;
      wanted.set(id, file.blobHash);
      bytes += file.size;
    }
  }
  if (!wanted.size) return new Map();
  const blobs = await db.fileBlob.findMany({ where: { hash: { in: [...new Set(wanted.values())] } }, select: { hash: true, bytes: true } });
  const byHash = new Map(blobs.map((blob) => [blob.hash, blob.bytes]));
  return new Map([...wanted].flatMap(([id, hash]) => (byHash.has(hash) ? [[id, byHash.get(hash)!] as const] : [])));
}
