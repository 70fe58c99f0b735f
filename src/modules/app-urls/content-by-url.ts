import type { ChangeRequest, Collection, Space } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import { checkLength } from '../../core/validate.ts';
import { changeRequestContentSource, findChangeRequest } from '../change-requests/index.ts';
import { getPageByPath, spaceContentSource } from '../content/index.ts';
import { collectionFor } from '../content-access/index.ts';

/**
 * "What does this application URL show?" (GitBook's getContentByUrl): the `urls.app` this server hands
 * out — a collection (`/o/{organizationId}/c/{collectionId}/`), a space (`/s/{spaceId}/`), a change
 * request (`/s/{spaceId}/~/changes/{number}/`) and a page of either (`…/{pagePath}`) — resolved to the
 * collection, or to the space with its change request and page, for a caller who may read them. Any
 * other URL, and anything the caller may not read, is a 404.
 */

export const MAX_APP_URL = 2048;

export type AppUrlTarget =
  | { kind: 'collection'; organizationId: string; collectionId: string }
  | { kind: 'space'; spaceId: string; changeRequest: string | null; pagePath: string | null };

export interface ContentAtUrl {
  collection?: Collection;
  space?: Space;
  changeRequest?: ChangeRequest | null;
  page?: Record<string, unknown> | null;
}

/** The target of an application URL, from its path under APP_URL; null when it names nothing we serve. */
export function appUrlTarget(text: string, appUrl: string): AppUrlTarget | null {
  checkLength('url', text, 1, MAX_APP_URL);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BadRequestError('Invalid "url": an absolute URL is expected');
  }
  const app = new URL(appUrl);
  const base = app.pathname.replace(/\/+$/, '');
  if (url.host !== app.host || !(url.pathname === base || url.pathname.startsWith(`${base}/`))) return null;
  let segments: string[];
  try {
    segments = url.pathname.slice(base.length).split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw new BadRequestError('Invalid "url": a path segment is not valid percent-encoding');
  }
  if (segments.length === 4 && segments[0] === 'o' && segments[2] === 'c') return { kind: 'collection', organizationId: segments[1], collectionId: segments[3] };
  if (segments[0] !== 's' || !segments[1]) return null;
  const rest = segments.slice(2);
  let changeRequest: string | null = null;
  if (rest[0] === '~') {
    if (rest[1] !== 'changes' || !/^[1-9][0-9]{0,8}$/.test(rest[2] ?? '')) return null;
    changeRequest = rest[2];
    rest.splice(0, 3);
  }
  return { kind: 'space', spaceId: segments[1], changeRequest, pagePath: rest.length > 0 ? rest.join('/') : null };
}

export async function contentByUrl(ctx: Context, url: string): Promise<ContentAtUrl> {
  const target = appUrlTarget(url, ctx.config.appUrl);
  const notFound = new NotFoundError(`No content at "${url.length > 200 ? `${url.slice(0, 200)}…` : url}"`);
  if (!target) throw notFound;
  if (target.kind === 'collection') {
    const { collection } = await collectionFor(ctx, target.collectionId, 'read');
    if (collection.organizationId !== target.organizationId || collection.deletedAt) throw notFound;
    return { collection };
  }
  const source = target.changeRequest
    ? await changeRequestContentSource(ctx, target.spaceId, target.changeRequest)
    : await spaceContentSource(ctx, target.spaceId);
  const [changeRequest, page] = await Promise.all([
    source.changeRequest ? findChangeRequest(ctx, source.space.id, source.changeRequest.id) : null,
    target.pagePath ? getPageByPath(ctx, source, target.pagePath) : null,
  ]);
  return { space: source.space, changeRequest, page };
}
