import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import type { AppServices } from '../../core/context.ts';
import { errorResponse } from '../../rest/errors.ts';
import { contentDisposition } from '../content/file-download.plugin.ts';
import { renderPdf, type PdfPage } from '../content/markdown-pdf.ts';
import { MAX_PDF_MARKDOWN, PDF_BASE_PATH, readPdfContent, verifyPdfUrl } from './change-request-pdf.ts';

/**
 * `GET|HEAD /pdf/{spaceId}/{revisionId}?page&only&expires&signature`: the PDF behind a URL that
 * `GET …/change-requests/{id}/pdf` signed (see change-request-pdf.ts), rendered when asked, with
 * `Content-Type`, `Content-Length` and `Content-Disposition` (a download named after the space or the
 * page). A tampered or expired URL is a 403; a revision, space or page that is gone a 404.
 */
/** PDFs rendered at once per instance: rendering is CPU work on the event loop, others wait their turn. */
const RENDER_CONCURRENCY = 2;
/** Bytes of rendered PDFs kept per instance. */
const CACHE_BYTES = 32 * 1024 * 1024;

export function usePdfExports(services: AppServices): Plugin {
  const renderSlot = pLimit(RENDER_CONCURRENCY);
  // A revision never changes, so the PDF of (revision, page, only) is rendered once and served again
  // from memory; concurrent requests for the same PDF share one rendering (lru-cache's fetch).
  const rendered = new LRUCache<string, Uint8Array<ArrayBuffer>, { content: { title: string; pages: PdfPage[] }; now: Date }>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (bytes) => Math.max(1, bytes.byteLength),
    fetchMethod: (_key, _stale, { context }) => renderSlot(() => renderPdf({ ...context.content, createdAt: context.now })),
  });
  return {
    // Synchronous for every other path (no promise per request); PDFs continue in `serve`.
    onRequest(payload) {
      if (!payload.url.pathname.startsWith(`${PDF_BASE_PATH}/`)) return;
      return serve(payload);
    },
  };

  async function serve({ request, url, endResponse, serverContext }: Parameters<NonNullable<Plugin['onRequest']>>[0]) {
    (serverContext as { route?: string }).route = `${PDF_BASE_PATH}/{spaceId}/{revisionId}`;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return endResponse(errorResponse(405, `Use GET on ${PDF_BASE_PATH}`, { Allow: 'GET, HEAD' }));
    }
    const now = services.clock.now();
    const target = await verifyPdfUrl(services.db, url, now);
    if (target === 'invalid') return endResponse(errorResponse(403, 'Invalid PDF URL'));
    if (target === 'expired') return endResponse(errorResponse(403, 'This PDF URL has expired: ask the API for a new one'));
    const content = await readPdfContent(services.db, target);
    if (!content) return endResponse(errorResponse(404, 'The content of this PDF no longer exists'));
    if (content === 'too-large') {
      return endResponse(
        errorResponse(413, `This content is too large for one PDF (over ${MAX_PDF_MARKDOWN} characters of text): export it a page or a section at a time (page, only)`),
      );
    }
    const { revisionId, selection } = target;
    const key = `${revisionId}\n${selection.page ?? ''}\n${selection.only}`;
    const bytes = (await rendered.fetch(key, { context: { content, now } }))!;
    endResponse(
      new Response(request.method === 'HEAD' ? null : bytes, {
        headers: {
          'Content-Type': 'application/pdf',
          'Content-Length': String(bytes.byteLength),
          'Content-Disposition': contentDisposition(`${content.title}.pdf`, 'application/pdf'),
          'Cache-Control': 'private, max-age=3600',
        },
      }),
    );
  }
}
