import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../lib/logger.ts';
import type { HttpRoute } from './request-state.ts';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id.ts';
import { findRequestState, setRequestState, type Classification, type RequestState } from './request-state.ts';
import type { RouteMatch } from './route-matcher.ts';

/** A REST route as the edge sees it: its template below the REST base, its root field, its limits. */
export interface RestEdgeRoute {
  methods: readonly string[];
  path: string;
  rootField: string;
  adminOnly: boolean;
  /** Called without a token (the URL lookup of published sites). */
  public?: boolean;
  /** The last path parameter takes the rest of the path. */
  restOfPath?: boolean;
  maxBodyBytes?: number;
}

/** What the edge serves, for classification. */
export interface EdgeRoutes {
  graphqlPath: string;
  restBasePath: string;
  /** The REST table's matcher (paths below `restBasePath`). */
  rest: (method: string, path: string) => RouteMatch<RestEdgeRoute>;
  /** The HTTP routes' matcher (modules' and the app's own). */
  http: (method: string, path: string) => RouteMatch<HttpRoute>;
  /** MAX_BODY_BYTES. */
  defaultBodyLimit: number;
  /**
   * Published sites on their own hostnames: a request whose host is one goes to the reader's route,
   * whatever its path (the site's pages start at `/`).
   */
  hostedSites?: { has(hostname: string): boolean; route: HttpRoute };
}

/**
 * Which door, route and limits a request has — decided here once, from its method, path and (for the
 * GraphQL endpoint) whether a browser asks for the GraphiQL page. `HEAD` is `GET` without a body
 * wherever a route answers `GET`.
 */
export function classifier(edge: EdgeRoutes): (request: Request, url: URL) => Classification {
  const base: Omit<Classification, 'door' | 'route' | 'public'> = {
    rootField: null,
    adminOnly: false,
    bodyLimit: edge.defaultBodyLimit,
    rateLimit: 'requests',
    allowed: null,
    httpRoute: null,
    restParams: null,
    restOfPath: false,
  };
  return (request, url) => {
    const { pathname } = url;
    const method = request.method;
    if (edge.hostedSites?.has(url.hostname)) {
      const route = edge.hostedSites.route;
      if (!route.methods.includes(method as HttpRoute['methods'][number])) return { ...base, door: 'published-site', route: route.path, public: true, allowed: [...route.methods] };
      return { ...base, door: route.door, route: route.path, public: true, rateLimit: route.rateLimit ?? 'requests', httpRoute: { route, params: { path: pathname.slice(1) } } };
    }
    if (pathname === edge.graphqlPath) {
      if (method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html')) {
        return { ...base, door: 'static', route: pathname, public: true, rateLimit: 'none' };
      }
      return { ...base, door: 'graphql', route: pathname, public: false };
    }
    const http = edge.http(method, pathname);
    if (http.kind === 'route') {
      const { route, params } = http;
      return {
        ...base,
        door: route.door,
        route: route.path,
        public: route.access === 'public',
        bodyLimit: route.maxBodyBytes ?? edge.defaultBodyLimit,
        rateLimit: route.rateLimit ?? 'requests',
        httpRoute: { route, params },
      };
    }
    const underRest = pathname === edge.restBasePath || pathname.startsWith(`${edge.restBasePath}/`);
    if (underRest) {
      const rest = edge.rest(method === 'HEAD' ? 'GET' : method, pathname.slice(edge.restBasePath.length) || '/');
      if (rest.kind === 'route') {
        const { route, params } = rest;
        return {
          ...base,
          door: 'rest',
          route: `${edge.restBasePath}${route.path}`,
          rootField: route.rootField,
          adminOnly: route.adminOnly,
          public: route.public === true,
          bodyLimit: route.maxBodyBytes ?? edge.defaultBodyLimit,
          rateLimit: route.adminOnly ? 'admin' : 'requests',
          restParams: params,
          restOfPath: route.restOfPath === true,
        };
      }
      // Under the API, a caller is authenticated before learning which routes exist.
      return { ...base, door: 'none', route: null, public: false, allowed: rest.kind === 'method-not-allowed' ? rest.allowed : null };
    }
    return { ...base, door: 'none', route: null, public: true, allowed: http.kind === 'method-not-allowed' ? http.allowed : null };
  };
}

/**
 * The first plugin: each request gets its state — an ID (the client's `X-Request-Id` when sane, else a
 * new UUID, echoed in the response), a logger bound to it, and its classification. Answers Yoga gives
 * before any plugin (CORS preflights) get an ID on their way out.
 */
export function useRequestClassification(
  classify: (request: Request, url: URL) => Classification,
  logger: Logger,
  /** Work that must be done before a request is classified (reading which hosts are sites'), when any. */
  prepare?: (url: URL) => Promise<void> | undefined,
): Plugin {
  const stateOf = (serverContext: object, request: Request, url: URL): RequestState => {
    const existing = findRequestState(serverContext);
    if (existing) return existing;
    const id = requestIdFrom(request.headers.get(REQUEST_ID_HEADER));
    return setRequestState(serverContext, { id, logger: logger.child({ requestId: id }), method: request.method, url, auth: null, ...classify(request, url) });
  };
  return {
    onRequest({ request, url, serverContext }) {
      const pending = prepare?.(url);
      if (!pending) {
        stateOf(serverContext, request, url);
        return;
      }
      return pending.then(() => {
        stateOf(serverContext, request, url);
      });
    },
    onResponse({ request, response, serverContext }) {
      response.headers.set(REQUEST_ID_HEADER, stateOf(serverContext, request, new URL(request.url)).id);
    },
  };
}
