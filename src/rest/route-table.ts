import type { RestEdgeRoute } from '../http/request-classification.ts';

/**
 * REST routes are declared per module (`<thing>.rest.ts`) as a table from a root field to its HTTP route.
 * Paths use the documentation's `{param}` syntax so that one grep finds an endpoint; each `{param}`
 * is the name of an argument of the field. The edge classifies requests by this table (edgeRoutesOf);
 * SOFA generates each route's handler from its field (see plugin.ts).
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
  /**
   * 200 by default; 201 where it creates; 204 for documented "No Content" operations (empty body); 205
   * for those GitBook documents as "Reset Content" only (empty body).
   */
  status?: 200 | 201 | 204 | 205;
  /**
   * With `status: 204`, for a Boolean field: `true` is answered `205 Reset Content` instead (GitBook's
   * "removed" against "there was nothing to remove"). Both are empty.
   */
  resetContentWhenTrue?: boolean;
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
  /**
   * Instance administration: only the ADMIN_TOKEN may call it, and that token may call nothing else —
   * through this route and, on the GraphQL door, through this root field (the one declaration both read).
   */
  adminOnly?: boolean;
  /**
   * The answer never changes for a given URL (content addressed by revision: revisions are immutable).
   * It carries a strong `ETag` (a digest of the body) and `Cache-Control: private, max-age=3600`; a GET
   * whose `If-None-Match` holds that tag is answered `304` without a body (rest/responses.ts).
   */
  immutable?: boolean;
  /**
   * Called without an access token (a token sent along is ignored): the URL lookup of published sites,
   * which shows a visitor only what a site shows anyone in their place. Rate-limited as anonymous
   * requests are; on the GraphQL door the root field runs without a token too.
   */
  public?: boolean;
  /** The path's last `{param}` takes the rest of the path, slashes included (GitBook's `{pagePath}`). */
  restOfPath?: boolean;
}

/** Keys are `Query.<field>` or `Mutation.<field>`. */
export type RouteTable = Record<string, RestRoute>;

/** The `{param}` names of a route path, in order. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

/**
 * The table as the edge classifies requests by it (src/http/request-classification.ts): each route's
 * template, root field, whether only the instance ADMIN_TOKEN may call it, and its body limit.
 */
export function edgeRoutesOf(table: RouteTable): RestEdgeRoute[] {
  return Object.entries(table).map(([rootField, route]) => ({
    methods: [route.method],
    path: route.path,
    rootField,
    adminOnly: route.adminOnly === true,
    public: route.public === true,
    restOfPath: route.restOfPath === true,
    maxBodyBytes: route.maxBodyBytes,
  }));
}

/** The root fields of the routes only the instance ADMIN_TOKEN may call (the GraphQL door's half of the rule). */
export function adminRootFieldsOf(table: RouteTable): ReadonlySet<string> {
  return new Set(Object.entries(table).filter(([, route]) => route.adminOnly).map(([key]) => key.split('.')[1]));
}

/** The root fields callable without a token (the GraphQL door's half of `public`). */
export function publicRootFieldsOf(table: RouteTable): ReadonlySet<string> {
  return new Set(Object.entries(table).filter(([, route]) => route.public).map(([key]) => key.split('.')[1]));
}

/** `{param}` → `:param`, the syntax of SOFA's router. */
export function toRouterPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
