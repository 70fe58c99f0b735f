/**
 * REST routes are declared per module (`<thing>.rest.ts`) as a table from a root field to its HTTP route.
 * Paths use the documentation's `{param}` syntax so that one grep finds an endpoint; each `{param}`
 * is the name of an argument of the field. SOFA generates the handler from the field.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRoute {
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
}

/** Keys are `Query.<field>` or `Mutation.<field>`. */
export type RouteTable = Record<string, RestRoute>;

export interface CompiledRoute extends RestRoute {
  field: string;
  paramNames: string[];
  regex: RegExp;
}

export function compileRoutes(table: RouteTable): CompiledRoute[] {
  return Object.entries(table).map(([field, route]) => {
    const paramNames: string[] = [];
    const escaped = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    const pattern = escaped.replace(/\{(\w+)\}/g, (_m, name: string) => {
      paramNames.push(name);
      return '([^/]+)';
    });
    // Exact paths only: SOFA's router matches no trailing slash, so neither may we (a path we accept and
    // SOFA does not would have no handler).
    return { ...route, field, paramNames, regex: new RegExp(`^${pattern}$`) };
  });
}

export interface RouteMatch {
  route: CompiledRoute;
  params: Record<string, string>;
}

/** Finds the route for a method and a path relative to the REST base (e.g. `/orgs/abc`). */
export function matchRoute(routes: CompiledRoute[], method: string, path: string): RouteMatch | null {
  for (const route of routes) {
    if (route.method !== method) continue;
    const m = route.regex.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    route.paramNames.forEach((name, i) => {
      params[name] = safeDecode(m[i + 1]);
    });
    return { route, params };
  }
  return null;
}

/** `{param}` → `:param`, the syntax of SOFA's router. */
export function toRouterPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** A malformed %-escape is kept as typed: it simply names no resource (404) instead of crashing. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
