import type { AppServices } from '../../../core/context.ts';
import type { Db } from '../../../db/client.ts';
import { ForbiddenError } from '../../../core/errors.ts';
import type { HttpRoute, HttpRouteRequest } from '../../../http/request-state.ts';

/**
 * An HTTP route behind signed URLs (signed-urls.ts), the one way downloads are served: `GET` and `HEAD`
 * (the same answer without its body), no bearer token — whoever holds the URL may fetch it until it
 * expires; a tampered URL, or one that has expired, is a 403 naming which.
 */
export interface SignedDownload<Target> {
  /** The path template, written out (`/files/{hash}/{name}`) so that a grep of the path finds its declaration. */
  path: string;
  /** The base path its URLs are signed under (`FILES_BASE_PATH`): the template must start with it. */
  signedUnder: string;
  /** What it serves, for the 403s ("download URL", "PDF URL"). */
  what: string;
  verify(db: Db, url: URL, now: Date): Promise<Target | 'invalid' | 'expired'>;
  serve(target: Target, request: HttpRouteRequest): Promise<Response>;
}

export function signedDownloadRoute<Target>(services: AppServices, download: SignedDownload<Target>): HttpRoute {
  // The template and the URLs signed for it cannot drift apart: the app would not start.
  if (!download.path.startsWith(`${download.signedUnder}/`)) throw new Error(`The route ${download.path} is not under ${download.signedUnder}, where its URLs are signed`);
  return {
    path: download.path,
    methods: ['GET', 'HEAD'],
    door: 'http-route',
    access: 'public',
    async handle(request) {
      const target = await download.verify(services.db, request.url, services.clock.now());
      if (target === 'invalid') throw new ForbiddenError(`Invalid ${download.what}`);
      if (target === 'expired') throw new ForbiddenError(`This ${download.what} has expired: ask the API for a new one`);
      return download.serve(target, request);
    },
  };
}
