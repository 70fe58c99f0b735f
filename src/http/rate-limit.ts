import type { Plugin } from 'graphql-yoga';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Limit, RateLimitConfig } from '../config.ts';
import type { Logger } from '../lib/logger.ts';
import { clientIp } from './client-ip.ts';
import { requestLogger } from './request-id.ts';
import type { RateLimitStore } from './rate-limit-store.ts';

export interface RateLimitOptions {
  config: RateLimitConfig;
  store: RateLimitStore;
  /** Number of trusted reverse proxies (see clientIp). */
  trustProxy: number;
  graphqlPath: string;
  ssoBasePath: string;
  /** `POST /v1/admin/users` and the like: the stricter per-IP admin limit. */
  isAdminRoute(method: string, path: string): boolean;
  logger: Logger;
}

/** The outcome of the one limiter a request was counted by, for its RateLimit-* headers. */
interface Counted {
  limit: Limit;
  res: RateLimiterRes;
}

interface RateLimitState {
  ip: string;
  counted?: Counted;
}

interface ServerContextWithAuth {
  auth?: { viewer: { tokenId: string } | null; instanceAdmin: boolean } | null;
  rateLimit?: RateLimitState;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): the quota, what is left, and when it resets. */
function rateLimitHeaders({ limit, res }: Counted): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit.points),
    'RateLimit-Remaining': String(Math.max(0, res.remainingPoints)),
    'RateLimit-Reset': String(seconds(res.msBeforeNext)),
  };
}

function tooManyRequests(graphql: boolean, counted: Counted, message: string): Response {
  const headers = { ...rateLimitHeaders(counted), 'Retry-After': String(seconds(counted.res.msBeforeNext)) };
  const body = graphql
    ? { errors: [{ message, extensions: { code: 'RATE_LIMITED' } }] }
    : { error: { code: 429, message } };
  return Response.json(body, { status: 429, headers });
}

/**
 * How long `key` is still locked out of `limiter` (0: not locked), asking no store. A shared limiter
 * blocks a key in this process's memory once the store reports its last point used
 * (`inMemoryBlockOnConsumed`, see rate-limit-store.ts); a memory limiter is asked directly.
 */
async function lockedOutMs(limiter: RateLimiterAbstract, key: string): Promise<number> {
  // getInMemoryBlockMsBeforeExpire is public on rate-limiter-flexible's store limiters, though missing
  // from its type declarations.
  const shared = limiter as RateLimiterAbstract & { getInMemoryBlockMsBeforeExpire?: (rlKey: string) => number };
  if (typeof shared.getInMemoryBlockMsBeforeExpire === 'function') {
    return shared.getInMemoryBlockMsBeforeExpire(limiter.getKey(key));
  }
  const res = await limiter.get(key);
  return res && res.consumedPoints >= limiter.points ? res.msBeforeNext : 0;
}

/**
 * Rate limiting as two Yoga plugins around authentication, so that each request costs at most one store
 * round-trip (failed authentications one more):
 * - `beforeAuthentication`: refuses, before any token lookup, a client IP that failed authentication too
 *   often (checked in memory, see lockedOutMs); counts the SAML routes and the admin route per IP, each
 *   under its own stricter limit, and requests without credentials per IP. A 401 answered to a request
 *   that sent credentials is counted against its IP afterwards.
 * - `afterAuthentication`: counts every other request per access token (the caller is known by now), or
 *   per IP when there is none (a token sent to a route that needs none, like the OpenAPI document); the
 *   admin token on /graphql counts per IP under the admin route's limit.
 * `/healthz`, CORS preflights and the GraphiQL page are answered before these plugins run: load balancers
 * and browsers may fetch them freely. Every counted response carries RateLimit-Limit/-Remaining/-Reset; a
 * refused one is a 429 with Retry-After, in the REST or GraphQL error shape of its door.
 */
export function useRateLimit(options: RateLimitOptions): { beforeAuthentication: Plugin; afterAuthentication: Plugin } {
  const { config, store } = options;
  const limits = {
    requests: store.limiter('requests', config.requests),
    authFailures: store.limiter('auth-failures', config.authFailures),
    sso: store.limiter('sso', config.sso),
    admin: store.limiter('admin', config.admin),
  };
  const limitOf = new Map<RateLimiterAbstract, Limit>([
    [limits.requests, config.requests],
    [limits.authFailures, config.authFailures],
    [limits.sso, config.sso],
    [limits.admin, config.admin],
  ]);

  /** Counts one request; a 429 to answer when over the limit, else undefined. */
  async function count(limiter: RateLimiterAbstract, key: string, state: RateLimitState, graphql: boolean, serverContext: unknown) {
    const limit = limitOf.get(limiter)!;
    try {
      state.counted = { limit, res: await limiter.consume(key) };
      return undefined;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        state.counted = { limit, res: rejection };
        return tooManyRequests(graphql, state.counted, 'Too many requests: slow down and retry later');
      }
      // Store and insurance both failed: better to serve than to refuse everyone.
      requestLogger(serverContext, options.logger).error({ err: rejection }, 'rate limiting failed; request let through');
      return undefined;
    }
  }

  const stateOf = (serverContext: unknown) => (serverContext as ServerContextWithAuth).rateLimit;

  const beforeAuthentication: Plugin = {
    async onRequest({ request, url, serverContext, endResponse }) {
      const state: RateLimitState = { ip: clientIp(request, serverContext, options.trustProxy) };
      (serverContext as ServerContextWithAuth).rateLimit = state;
      const graphql = url.pathname === options.graphqlPath;

      const lockedMs = await lockedOutMs(limits.authFailures, state.ip);
      if (lockedMs > 0) {
        const counted = { limit: config.authFailures, res: new RateLimiterRes(0, lockedMs, config.authFailures.points) };
        return endResponse(tooManyRequests(graphql, counted, 'Too many failed authentications from this address; retry later'));
      }
      const path = url.pathname;
      let refused: Response | undefined;
      if (path === options.ssoBasePath || path.startsWith(`${options.ssoBasePath}/`)) {
        refused = await count(limits.sso, state.ip, state, false, serverContext);
      } else if (options.isAdminRoute(request.method, path)) {
        refused = await count(limits.admin, state.ip, state, false, serverContext);
      } else if (!request.headers.has('authorization')) {
        // No credentials: counted per IP here, because authentication may answer 401 without calling
        // the plugin after it.
        refused = await count(limits.requests, `ip:${state.ip}`, state, graphql, serverContext);
      }
      if (refused) endResponse(refused);
    },
    async onResponse({ request, response, serverContext }) {
      const state = stateOf(serverContext);
      if (!state) return;
      // Only a 401 to credentials is a failed authentication (a guess). A request that sent none guesses
      // nothing — GraphiQL's introspection before a token is entered, say — and must not lock anyone out.
      if (response.status === 401 && request.headers.has('authorization')) {
        // A rejection here only means the IP is now over its limit: its next request is refused.
        await limits.authFailures.consume(state.ip).catch(() => undefined);
      }
      if (state.counted && response.status !== 429) {
        for (const [name, value] of Object.entries(rateLimitHeaders(state.counted))) response.headers.set(name, value);
      }
    },
  };

  const afterAuthentication: Plugin = {
    async onRequest({ url, serverContext, endResponse }) {
      const state = stateOf(serverContext);
      if (!state || state.counted) return; // already counted (SAML, admin route)
      const auth = (serverContext as ServerContextWithAuth).auth;
      const graphql = url.pathname === options.graphqlPath;
      // The admin token on /graphql (where it may run the administration mutation): the admin route's
      // per-IP budget, shared with the REST admin route.
      if (auth?.instanceAdmin && graphql) {
        const refused = await count(limits.admin, state.ip, state, true, serverContext);
        if (refused) endResponse(refused);
        return;
      }
      const key = auth?.viewer ? `token:${auth.viewer.tokenId}` : `ip:${state.ip}`;
      const refused = await count(limits.requests, key, state, graphql, serverContext);
      if (refused) endResponse(refused);
    },
  };

  return { beforeAuthentication, afterAuthentication };
}
