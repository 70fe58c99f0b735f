import type { SiteReader, Viewer } from '../core/viewer.ts';
import type { Logger } from '../lib/logger.ts';

/**
 * The request model of the HTTP edge. The first plugin (request-classification.ts) classifies each
 * request once — which door it comes through, which route it names, what limits apply — into a
 * `RequestState` kept on Yoga's server context; every later step reads it through `requestStateOf`
 * and none matches paths again.
 */

/**
 * Which door a request comes through:
 * - `graphql`: the GraphQL endpoint (an operation; the GraphiQL page is `static`);
 * - `rest`: a route of the REST table under `/v1` (run as its root field through SOFA);
 * - `http-route`: an HTTP route a module declares (SAML sign-in, signed downloads, PDFs);
 * - `operations`: what operators and tools call (health, metrics, the OpenAPI document);
 * - `static`: pages and assets served from packages (GraphiQL, the API reference, the reader's assets);
 * - `published-site`: the pages of published sites as readers open them (modules/reader/), answered in
 *   HTML, refusals included;
 * - `none`: nothing matched (a 404, or a 405 when the path exists with other methods).
 */
export type Door = 'graphql' | 'rest' | 'http-route' | 'operations' | 'static' | 'published-site' | 'none';

/** Which rate limit a request counts against (rate-limit.ts): `pages` is the published sites' readers'. */
export type RateLimitBucket = 'requests' | 'sso' | 'admin' | 'pages' | 'none';

/** Who is calling, decided once per request by authentication (auth/authentication.ts). */
export interface RequestAuth {
  viewer: Viewer | null;
  instanceAdmin: boolean;
  /** No token on the GraphQL door: only an introspection operation (or a public root field) may run. */
  anonymous?: boolean;
  /** A published site's `apiToken`: only the root fields a site reader may call run. */
  siteReader?: SiteReader;
}

/** What the classification says of a request. */
export interface Classification {
  door: Door;
  /** The route's template, for logs and metrics (`/v1/orgs/{organizationId}`); null when nothing matched. */
  route: string | null;
  /** REST: the root field the route runs (`Query.organization`). */
  rootField: string | null;
  /** Only the instance ADMIN_TOKEN may call it (instance administration). */
  adminOnly: boolean;
  /** Needs no bearer token (it is public, or authenticates another way: a signature, an identity provider). */
  public: boolean;
  /** The largest body read, in bytes. */
  bodyLimit: number;
  rateLimit: RateLimitBucket;
  /** When the path exists with other methods only: those methods (a 405 with `Allow`). */
  allowed: string[] | null;
  /** The HTTP route a `http-route`, `operations` or `static` request matched, with its path parameters. */
  httpRoute: { route: HttpRoute; params: Record<string, string> } | null;
  /** REST: the path parameters matched, raw (undecoded). */
  restParams: Record<string, string> | null;
  /** REST: the route's last parameter takes the rest of the path. */
  restOfPath: boolean;
}

/** One request, as every step of the edge sees it. */
export interface RequestState extends Classification {
  readonly id: string;
  /** The request's logger: its ID, and once authenticated its caller. */
  logger: Logger;
  readonly method: string;
  readonly url: URL;
  /** Set by authentication; null before it, and for requests that need none. */
  auth: RequestAuth | null;
  /** Set by the reader for a public page any visitor without credentials gets the same (page-memory.ts). */
  pageToRemember?: PageToRemember;
}

/**
 * An endpoint that is not a GraphQL root field — SAML sign-in, signed downloads, PDF exports, the
 * operations endpoints — declared where it belongs (a module's `<thing>.http.ts`, beside its REST table)
 * and served by the one router (router.ts) after classification, authentication and rate limiting.
 */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpRoute {
  /** Path template, `{name}` for one segment: `/files/{hash}/{name}`. */
  path: string;
  /** The template's last `{name}` takes the rest of the path, slashes included (a published page's path). */
  restOfPath?: boolean;
  methods: readonly HttpMethod[];
  /** `http-route` for a module's endpoints; `operations` and `static` for the app's own. */
  door: Extract<Door, 'http-route' | 'operations' | 'static' | 'published-site'>;
  /**
   * Who may call it: `public` (no bearer token: a signature, an identity provider or the route itself
   * decides), `bearer` (a personal access token, as the API).
   */
  access: 'public' | 'bearer';
  /** Which rate limit it counts against (default `requests`). */
  rateLimit?: RateLimitBucket;
  /** The largest body it reads (default MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** The answer. An AppError thrown is a refusal of its status; anything else a logged 500. */
  handle(request: HttpRouteRequest): Promise<Response> | Response;
}

export interface HttpRouteRequest {
  request: Request;
  url: URL;
  /** The path parameters, as written in the URL (percent-encoded). */
  params: Record<string, string>;
  state: RequestState;
}

/** What the reader hands the edge for a page that may be remembered (on the request state). */
export interface PageToRemember {
  etag: string;
  body: RememberedBody;
  /** Epoch milliseconds after which the page must be drawn again (its signed URLs change). */
  expiresAt: number;
}

/** A page's bytes, with compressed forms made on first ask (shared with the reader's own cache). */
export interface RememberedBody {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

const KEY = 'requestState';

/** Yoga's server context, as the edge's plugins receive it: one object per request. */
type ServerContext = object;

export function setRequestState(serverContext: ServerContext, state: RequestState): RequestState {
  (serverContext as Record<typeof KEY, RequestState>)[KEY] = state;
  return state;
}

/**
 * The state of the request this server context (or GraphQL context built from it) belongs to. Every
 * request has one from the first plugin on; a context without one is a programming error.
 */
export function requestStateOf(serverContext: ServerContext): RequestState {
  const state = findRequestState(serverContext);
  if (!state) throw new TypeError('A request without a request state: the classification plugin must run first');
  return state;
}

/** The same, or undefined where a request may not have one yet (answers made before classification). */
export function findRequestState(serverContext: ServerContext | undefined): RequestState | undefined {
  return (serverContext as Partial<Record<typeof KEY, RequestState>> | undefined)?.[KEY];
}
