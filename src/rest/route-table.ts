import type { JobHandler } from '../jobs/job-runner.ts';

/**
 * REST routes are declared per module (`<thing>.rest.ts`) as a table from a root field to its HTTP route.
 * Paths use the documentation's `{param}` syntax so that one grep finds an endpoint; each `{param}`
 * is the name of an argument of the field. SOFA generates the handler from the field and its router is
 * the only one that matches requests (see plugin.ts).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRoute {
  /**
   * GitBook's operationId where GitBook's API has this operation (same method and path), so that code
   * generated from either document calls the same names; the root field's name otherwise.
   */
  operationId?: string;
  method: HttpMethod;
  path: string;
  /** 200 by default; 201 where it creates; 204 for documented "No Content" operations (empty body). */
  status?: 200 | 201 | 204;
  tags: string[];
  /** Not in the API description: an addition (from GitBook's API or for instance administration). */
  addition?: string;
  /**
   * POST/PUT/PATCH only: arguments read from the query string (as documented) rather than the JSON
   * body. Every other argument of those routes is a body field.
   */
  query?: string[];
  /**
   * Reshapes the field's result into the REST body, for an operation whose REST answer depends on a
   * query parameter (GitBook's `compat` switches): GraphQL keeps the full typed result.
   */
  answer?: (data: unknown, query: URLSearchParams) => unknown;
  /** The OpenAPI schema of the body `answer` gives, in place of the field's type. */
  answerSchema?: Record<string, unknown>;
  /** A larger body than MAX_BODY_BYTES allows, for this route only (an OpenAPI document in the body). */
  maxBodyBytes?: number;
  /**
   * GitBook's `Prefer: return=minimal` (its `returnPreference` parameter): the write still happens and
   * the answer is an empty 204 with `Preference-Applied: return=minimal`.
   */
  returnMinimal?: boolean;
}

/** Keys are `Query.<field>` or `Mutation.<field>`. */
export type RouteTable = Record<string, RestRoute>;

/** The `{param}` names of a route path, in order. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

/** The body limit of a request: a route's own (`maxBodyBytes`) where one matches, else `fallback`. */
export function bodyLimitOf(table: RouteTable, basePath: string, fallback: number): (method: string, pathname: string) => number {
  const large = Object.values(table)
    .filter((route) => route.maxBodyBytes)
    .map((route) => ({ method: route.method, pattern: new RegExp(`^${basePath}${route.path.replace(/\{\w+\}/g, '[^/]+')}$`), max: route.maxBodyBytes! }));
  return (method, pathname) => large.find((route) => route.method === method && route.pattern.test(pathname))?.max ?? fallback;
}

/** What the route table says of a request's method and path (below the REST base path). */
export type RouteMatch = { kind: 'route'; route: RestRoute } | { kind: 'method-not-allowed'; allowed: HttpMethod[] } | { kind: 'no-route' };

/**
 * Matches a method and a path against the table's templates (`{param}` is one non-empty segment): the
 * route, or — when routes have this path with other methods — those methods (a 405 with `Allow`), or
 * nothing (a 404). SOFA's router still serves the matched routes; this answers what it cannot (a method
 * such as TRACE, which the Fetch API refuses to even represent).
 */
export function routeMatcher(table: RouteTable): (method: string, path: string) => RouteMatch {
  const bySegments = new Map<number, { pattern: RegExp; route: RestRoute }[]>();
  for (const route of Object.values(table)) {
    const segments = route.path.split('/').length;
    const pattern = new RegExp(`^${route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);
    bySegments.set(segments, [...(bySegments.get(segments) ?? []), { pattern, route }]);
  }
  return (method, path) => {
    const candidates = (bySegments.get(path.split('/').length) ?? []).filter((c) => c.pattern.test(path));
    const route = candidates.find((c) => c.route.method === method)?.route;
    if (route) return { kind: 'route', route };
    if (candidates.length > 0) return { kind: 'method-not-allowed', allowed: [...new Set(candidates.map((c) => c.route.method))] };
    return { kind: 'no-route' };
  };
}

/** `{param}` → `:param`, the syntax of SOFA's router. */
export function toRouterPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * What a domain module gives the app: importing its `index.ts` registers its types and root fields on
 * the builder; `routes` is its REST route table; `jobs` the background work it hands the job runner
 * (src/jobs/), by kind.
 */
export interface DomainModule {
  name: string;
  routes: RouteTable;
  jobs?: Record<string, JobHandler>;
}
