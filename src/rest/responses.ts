import type { RestRoute } from './route-table.ts';

/**
 * SOFA answers every route with `Response.json(data, { status: responseStatus })`. For a documented
 * "No Content" operation that is a 204 with a JSON body, which HTTP forbids (and the standard Fetch API
 * refuses to construct): such routes are given status 200 in SOFA, and their answer becomes an empty 204
 * here.
 */
export function sofaStatusOf(route: RestRoute): 200 | 201 {
  return route.status === 201 ? 201 : 200;
}

export function finalResponse(route: RestRoute, response: Response, location: string | undefined, request?: Request): Response {
  if (route.status === 204 && response.status === 200) return new Response(null, { status: 204 });
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
