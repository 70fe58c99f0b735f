import { createHash } from 'node:crypto';
import type { RestRoute } from './route-table.ts';

/** What a cache may do with an `immutable` route's answer: keep it, for its caller only. */
export const IMMUTABLE_CACHE_CONTROL = 'private, max-age=3600';

/**
 * SOFA answers every route with `Response.json(data, { status: responseStatus })`. For a documented
 * "No Content" operation that is a 204 with a JSON body, which HTTP forbids (and the standard Fetch API
 * refuses to construct): such routes are given status 200 in SOFA, and their answer becomes an empty 204
 * here.
 */
export function sofaStatusOf(route: RestRoute): 200 | 201 {
  return route.status === 201 ? 201 : 200;
}

export function finalResponse(
  route: RestRoute,
  response: Response,
  { location, resetContent }: { location?: string; resetContent?: boolean },
  request?: Request,
): Response {
  if (route.status === 204 && response.status === 200) return new Response(null, { status: resetContent ? 205 : 204 });
  if (route.status === 205 && response.status === 200) return new Response(null, { status: 205 });
  if (route.returnMinimal && response.status === 200 && /(^|[\s,;])return=minimal\b/i.test(request?.headers.get('prefer') ?? '')) {
    return new Response(null, { status: 204, headers: { 'Preference-Applied': 'return=minimal' } });
  }
  // A 201 names the created resource in `Location`: the `urls.location` of the result, kept at execution.
  if (response.status === 201 && location) {
    const headers = new Headers(response.headers);
    headers.set('Location', location);
    return new Response(response.body, { status: 201, headers });
  }
  return response;
}

/** The API URL of a created resource, from the result of its root field (a resource, or `{ user }`). */
export function locationOf(data: unknown): string | undefined {
  const value = data as { urls?: { location?: unknown }; user?: { urls?: { location?: unknown } } } | null | undefined;
  const location = value?.urls?.location ?? value?.user?.urls?.location;
  return typeof location === 'string' ? location : undefined;
}

/** Whether an `If-None-Match` header lists this entity tag (weak comparison, as RFC 9110 asks of GETs). */
function matchesTag(ifNoneMatch: string | null, tag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (value: string) => value.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => opaque(candidate) === opaque(tag));
}

/**
 * An `immutable` route's 200: its body's digest as a strong `ETag`, and a `Cache-Control` that lets the
 * caller's cache keep it; `304 Not Modified` (no body) when the request already holds that tag.
 */
export async function cacheableResponse(route: RestRoute, response: Response, request: Request): Promise<Response> {
  if (!route.immutable || response.status !== 200 || (request.method !== 'GET' && request.method !== 'HEAD')) return response;
  const body = await response.text();
  const tag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  const headers = new Headers(response.headers);
  headers.set('ETag', tag);
  headers.set('Cache-Control', IMMUTABLE_CACHE_CONTROL);
  if (matchesTag(request.headers.get('if-none-match'), tag)) {
    headers.delete('content-type');
    headers.delete('content-length');
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, headers });
}
