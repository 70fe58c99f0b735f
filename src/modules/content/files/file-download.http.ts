import type { AppServices } from '../../../core/context.ts';
import { NotFoundError } from '../../../core/errors.ts';
import type { HttpRoute } from '../../../http/request-state.ts';
import { FILES_BASE_PATH, verifyFileUrl } from './file-urls.ts';
import { databaseFileStore } from '../store/file-store.ts';
import { signedDownloadRoute } from './signed-download.ts';

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
 * never change) and `Content-Disposition`; `If-None-Match` answers 304. Bytes that are gone are a 404.
 */
export function fileDownloadRoutes(services: AppServices): HttpRoute[] {
  return [
    signedDownloadRoute(services, {
      path: '/files/{hash}/{name}',
      signedUnder: FILES_BASE_PATH,
      what: 'download URL',
      verify: verifyFileUrl,
      async serve(target, { request }) {
        const etag = `"${target.hash}"`;
        const headers = {
          'Content-Type': target.contentType,
          ETag: etag,
          'Content-Disposition': contentDisposition(target.name, target.contentType),
          'Cache-Control': 'private, max-age=3600',
        };
        if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
        const bytes = await databaseFileStore.get(services.db, target.hash);
        if (!bytes) throw new NotFoundError('File not found');
        return new Response(bytes, { headers: { ...headers, 'Content-Length': String(bytes.byteLength) } });
      },
    }),
  ];
}
