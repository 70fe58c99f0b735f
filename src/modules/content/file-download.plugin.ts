import type { Plugin } from 'graphql-yoga';
import type { AppServices } from '../../core/context.ts';
import { errorResponse } from '../../rest/errors.ts';
import { FILES_BASE_PATH, verifyFileUrl } from './file-urls.ts';
import { databaseFileStore } from './file-store.ts';

/** Images a browser may show in place; anything else (HTML, SVG, scripts, PDFs…) is only ever downloaded. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

export function contentDisposition(name: string, contentType: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const kind = INLINE_TYPES.has(contentType) ? 'inline' : 'attachment';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * `GET|HEAD /files/{hash}/{name}?type&expires&signature`: the bytes behind a signed download URL (see
 * file-urls.ts), with `Content-Type`, `Content-Length`, `ETag` (the content hash: the bytes behind it
 * never change) and `Content-Disposition`; `If-None-Match` answers 304. A tampered or expired URL is a
 * 403, bytes that are gone a 404.
 */
export function useFileDownloads(services: AppServices): Plugin {
  return {
    // Synchronous for every other path (no promise per request); downloads continue in `download`.
    onRequest(payload) {
      if (!payload.url.pathname.startsWith(`${FILES_BASE_PATH}/`)) return;
      return download(payload);
    },
  };

  async function download({ request, url, endResponse, serverContext }: Parameters<NonNullable<Plugin['onRequest']>>[0]) {
    (serverContext as { route?: string }).route = `${FILES_BASE_PATH}/{hash}/{name}`;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return endResponse(errorResponse(405, `Use GET on ${FILES_BASE_PATH}`, { Allow: 'GET, HEAD' }));
    }
    const now = services.clock.now();
    const target = await verifyFileUrl(services.db, url, now);
    if (target === 'invalid') return endResponse(errorResponse(403, 'Invalid download URL'));
    if (target === 'expired') return endResponse(errorResponse(403, 'This download URL has expired: ask the API for a new one'));
    const etag = `"${target.hash}"`;
    const headers = {
      'Content-Type': target.contentType,
      ETag: etag,
      'Content-Disposition': contentDisposition(target.name, target.contentType),
      'Cache-Control': 'private, max-age=3600',
    };
    if (request.headers.get('if-none-match') === etag) return endResponse(new Response(null, { status: 304, headers }));
    const bytes = await databaseFileStore.get(services.db, target.hash);
    if (!bytes) return endResponse(errorResponse(404, 'File not found'));
    endResponse(
      new Response(request.method === 'HEAD' ? null : bytes, { headers: { ...headers, 'Content-Length': String(bytes.byteLength) } }),
    );
  }
}
