import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import type { AppServices } from '../../core/context.ts';
import { AppError, NotFoundError } from '../../core/errors.ts';
import type { HttpRoute } from '../../http/request-state.ts';
import { contentDisposition } from '../content/index.ts';
import { renderPdf, type PdfPage } from '../content/index.ts';
import { signedDownloadRoute } from '../content/index.ts';
import { MAX_PDF_MARKDOWN, PDF_BASE_PATH, readPdfContent, verifyPdfUrl } from './change-request-pdf.ts';

/** PDFs rendered at once per instance: rendering is CPU work on the event loop, others wait their turn. */
const RENDER_CONCURRENCY = 2;
/** Bytes of rendered PDFs kept per instance. */
const CACHE_BYTES = 32 * 1024 * 1024;

class PdfTooLargeError extends AppError {
  constructor() {
    super(`This content is too large for one PDF (over ${MAX_PDF_MARKDOWN} characters of text): export it a page or a section at a time (page, only)`, 'PAYLOAD_TOO_LARGE', 413);
  }
}

/**
 * `GET|HEAD /pdf/{spaceId}/{revisionId}?page&only&expires&signature`: the PDF behind a URL that
 * `GET …/change-requests/{id}/pdf` signed (see change-request-pdf.ts), rendered when asked, with
 * `Content-Type`, `Content-Length` and `Content-Disposition` (a download named after the space or the
 * page). A revision, space or page that is gone is a 404; past the text bound, a 413.
 */
export function pdfExportRoutes(services: AppServices): HttpRoute[] {
  const renderSlot = pLimit(RENDER_CONCURRENCY);
  // A revision never changes, so the PDF of (revision, page, only) is rendered once and served again
  // from memory; concurrent requests for the same PDF share one rendering (lru-cache's fetch).
  const rendered = new LRUCache<string, Uint8Array<ArrayBuffer>, { content: { title: string; pages: PdfPage[] }; now: Date }>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (bytes) => Math.max(1, bytes.byteLength),
    fetchMethod: (_key, _stale, { context }) => renderSlot(() => renderPdf({ ...context.content, createdAt: context.now })),
  });
  return [
    signedDownloadRoute(services, {
      path: '/pdf/{spaceId}/{revisionId}',
      signedUnder: PDF_BASE_PATH,
      what: 'PDF URL',
      verify: verifyPdfUrl,
      async serve(target) {
        const content = await readPdfContent(services.db, target);
        if (!content) throw new NotFoundError('The content of this PDF no longer exists');
        if (content === 'too-large') throw new PdfTooLargeError();
        const { revisionId, selection } = target;
        const key = `${revisionId}\n${selection.page ?? ''}\n${selection.only}`;
        const bytes = (await rendered.fetch(key, { context: { content, now: services.clock.now() } }))!;
        return new Response(bytes, {
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Length': String(bytes.byteLength),
            'Content-Disposition': contentDisposition(`${content.title}.pdf`, 'application/pdf'),
            'Cache-Control': 'private, max-age=3600',
          },
        });
      },
    }),
  ];
}
