import type { Plugin, YogaServerOptions } from 'graphql-yoga';
import { REQUEST_ID_HEADER } from './request-id.ts';

type CorsOption = YogaServerOptions<object, object>['cors'];

/** What a browser page may send and read. Bearer tokens go in a header: no cookies, so no credentials. */
const CORS_RULES = {
  credentials: false,
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  allowedHeaders: ['Authorization', 'Content-Type', REQUEST_ID_HEADER],
  exposedHeaders: [REQUEST_ID_HEADER, 'Location', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
  maxAge: 600,
};

/**
 * Yoga's `cors` option for CORS_ORIGINS. Yoga's default would reflect any Origin *with*
 * `Access-Control-Allow-Credentials: true`; here nothing is allowed unless configured, a listed origin gets
 * exactly itself back, `*` allows every origin (Yoga echoes it, with `Vary: Origin`), and credentials are
 * never allowed. Preflights (OPTIONS, answered 204 by Yoga for /v1 and /graphql alike) carry the headers
 * only for allowed origins.
 */
export function corsOption(origins: string[] | '*'): CorsOption {
  return (request) => {
    const origin = request.headers.get('origin');
    if (!origin) return false;
    if (origins === '*') return { ...CORS_RULES, origin: '*' };
    if (origins.includes(origin)) return { ...CORS_RULES, origin: [origin] };
    return false;
  };
}

/**
 * With a list of origins, whether a response carries Access-Control-Allow-Origin depends on the request's
 * Origin: say so (`Vary: Origin`), or a cache could hand one origin's answer to another.
 */
export function useCorsVary(origins: string[] | '*'): Plugin {
  return {
    onResponse({ response }) {
      if (origins === '*' || origins.length === 0) return;
      const vary = response.headers.get('vary') ?? '';
      if (!/(^|,)\s*origin\s*(,|$)/i.test(vary)) response.headers.set('Vary', vary ? `${vary}, Origin` : 'Origin');
    },
  };
}
