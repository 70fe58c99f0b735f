import type { Door, RateLimitBucket, RequestState } from './request-state.ts';

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
