import type { Plugin } from 'graphql-yoga';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Limit, RateLimitConfig } from '../config.ts';
import { clientIp } from './client-ip.ts';
import type { RateLimitStore } from './rate-limit-store.ts';
import { refusal } from './refusal.ts';
import { findRequestState, requestStateOf, type Door, type RequestState } from './request-state.ts';
import type { PageRateLimit } from './page-memory.ts';

export interface RateLimitOptions {
  config: RateLimitConfig;
  store: RateLimitStore;
  /** Number of trusted reverse proxies (see clientIp). */
  trustProxy: number;
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

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): the quota, what is left, and when it resets. */
function rateLimitHeaders({ limit, res }: Counted): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit.points),
    'RateLimit-Remaining': String(Math.max(0, res.remainingPoints)),
    'RateLimit-Reset': String(seconds(res.msBeforeNext)),
  };
}

function tooManyRequests(door: Door, counted: Counted, message: string): Response {
  return refusal(door, 429, message, { ...rateLimitHeaders(counted), 'Retry-After': String(seconds(counted.res.msBeforeNext)) });
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
 * round-trip (failed authentications one more). Which limit a request counts against is its
 * classification's `rateLimit` (request-state.ts):
 * - `beforeAuthentication`: refuses, before any token lookup, a client IP that failed authentication too
 *   often (checked in memory, see lockedOutMs); counts the `sso` and `admin` buckets per IP, each under
 *   its own stricter limit, and requests without credentials per IP. A 401 answered to a request that
 *   sent credentials is counted against its IP afterwards.
 * - `afterAuthentication`: counts every other request per access token (the caller is known by now), or
 *   per IP when there is none (a token sent to a route that needs none, like the OpenAPI document); the
 *   admin token on /graphql counts per IP under the admin route's limit.
 * Requests of the `none` bucket (`/healthz`, `/metrics`, the GraphiQL page) and CORS preflights (answered
 * by Yoga before any plugin) are not counted: load balancers, scrapers and browsers may fetch them freely. Every counted response carries RateLimit-Limit/-Remaining/-Reset; a
 * refused one is a 429 with Retry-After, in the REST or GraphQL error shape of its door.
 */
export function useRateLimit(options: RateLimitOptions): { beforeAuthentication: Plugin; afterAuthentication: Plugin; countPage: PageRateLimit } {
  const { config, store } = options;
  const limits = {
    requests: store.limiter('requests', config.requests),
    authFailures: store.limiter('auth-failures', config.authFailures),
    sso: store.limiter('sso', config.sso),
    admin: store.limiter('admin', config.admin),
    // Readers of published sites: counted in this process's memory, not in the shared store — a page
    // served from the render cache must not wait on a database upsert (or a Redis round-trip). The
    // limit is per instance (N instances let an address read N times as much); it stops a flood, not a
    // reader: twice the API's, as a page view is one request and a reader's search a few.
    pages: new RateLimiterMemory({ keyPrefix: 'pages', points: config.requests.points * 2, duration: config.requests.windowSeconds }),
  };
  const pagesLimit: Limit = { points: config.requests.points * 2, windowSeconds: config.requests.windowSeconds };
  const limitOf = new Map<RateLimiterAbstract, Limit>([
    [limits.requests, config.requests],
    [limits.authFailures, config.authFailures],
    [limits.sso, config.sso],
    [limits.admin, config.admin],
    [limits.pages, pagesLimit],
  ]);

  /** Counts one request; a 429 to answer when over the limit, else undefined. */
  async function count(limiter: RateLimiterAbstract, key: string, counting: RateLimitState, request: RequestState) {
    const limit = limitOf.get(limiter)!;
    try {
      counting.counted = { limit, res: await limiter.consume(key) };
      return undefined;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        counting.counted = { limit, res: rejection };
        return tooManyRequests(request.door, counting.counted, 'Too many requests: slow down and retry later');
      }
      // Store and insurance both failed: better to serve than to refuse everyone.
      request.logger.error({ err: rejection }, 'rate limiting failed; request let through');
      return undefined;
    }
  }

  /** This plugin's own state of each request: its client IP and what it was counted by. */
  const countingOf = new WeakMap<RequestState, RateLimitState>();

  const beforeAuthentication: Plugin = {
    async onRequest({ request, serverContext, endResponse }) {
      const state = requestStateOf(serverContext);
      if (state.rateLimit === 'none') return;
      const counting: RateLimitState = { ip: clientIp(request, serverContext, options.trustProxy) };
      countingOf.set(state, counting);

      const lockedMs = await lockedOutMs(limits.authFailures, counting.ip);
      if (lockedMs > 0) {
        const counted = { limit: config.authFailures, res: new RateLimiterRes(0, lockedMs, config.authFailures.points) };
        return endResponse(tooManyRequests(state.door, counted, 'Too many failed authentications from this address; retry later'));
      }
      let refused: Response | undefined;
      if (state.rateLimit === 'sso') {
        refused = await count(limits.sso, counting.ip, counting, state);
      } else if (state.rateLimit === 'admin') {
        refused = await count(limits.admin, counting.ip, counting, state);
      } else if (state.rateLimit === 'pages') {
        refused = await count(limits.pages, counting.ip, counting, state);
      } else if (!request.headers.has('authorization')) {
        // No credentials: counted per IP here, because authentication may answer 401 without calling
        // the plugin after it.
        refused = await count(limits.requests, `ip:${counting.ip}`, counting, state);
      }
      if (refused) endResponse(refused);
    },
    async onResponse({ request, response, serverContext }) {
      const requestState = findRequestState(serverContext);
      const state = requestState && countingOf.get(requestState);
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
    async onRequest({ serverContext, endResponse }) {
      const state = requestStateOf(serverContext);
      const counting = countingOf.get(state);
      if (!counting || counting.counted) return; // not counted (`none`), or already (SAML, admin route)
      const { auth } = state;
      // The admin token on /graphql (where it may run the administration mutation): the admin route's
      // per-IP budget, shared with the REST admin route.
      if (auth?.instanceAdmin && state.door === 'graphql') {
        const refused = await count(limits.admin, counting.ip, counting, state);
        if (refused) endResponse(refused);
        return;
      }
      const key = auth?.viewer ? `token:${auth.viewer.tokenId}` : `ip:${counting.ip}`;
      const refused = await count(limits.requests, key, counting, state);
      if (refused) endResponse(refused);
    },
  };

  /**
   * A reader's page answered from memory (page-memory.ts) counts as the pipeline would count it: its
   * RateLimit headers, or null when the address is over the limit or locked out (the pipeline then
   * answers the refusal).
   */
  const countPage: PageRateLimit = async (ip) => {
    if ((await lockedOutMs(limits.authFailures, ip)) > 0) return null;
    try {
      return rateLimitHeaders({ limit: pagesLimit, res: await limits.pages.consume(ip) });
    } catch (rejection) {
      return rejection instanceof RateLimiterRes ? null : {};
    }
  };

  return { beforeAuthentication, afterAuthentication, countPage };
}
