import type { Plugin } from 'graphql-yoga';
import type { AppServices } from '../../core/context.ts';
import { errorResponse } from '../../rest/errors.ts';
import { contentDisposition } from '../content/file-download.plugin.ts';
import { renderPdf } from '../content/markdown-pdf.ts';
import { PDF_BASE_PATH, readPdfContent, verifyPdfUrl } from './change-request-pdf.ts';

/**
 * `GET|HEAD /pdf/{spaceId}/{revisionId}?page&only&expires&signature`: the PDF behind a URL that
 * `GET …/change-requests/{id}/pdf` signed (see change-request-pdf.ts), rendered when asked, with
 * `Content-Type`, `Content-Length` and `Content-Disposition` (a download named after the space or the
 * page). A tampered or expired URL is a 403; a revision, space or page that is gone a 404.
 */
export function usePdfExports(services: AppServices): Plugin {
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
    const bytes = await renderPdf({ ...content, createdAt: now });
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
