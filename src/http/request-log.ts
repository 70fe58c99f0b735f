import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../lib/logger.ts';
import { findRequestState } from './request-state.ts';

/** One structured log line per request: method, route template, status, duration (with its request ID and caller). */
export function useRequestLog(logger: Logger): Plugin {
  const started = new WeakMap<Request, number>();
  return {
    // Instrumentation wraps the whole request, so the clock starts before any plugin's onRequest
    // (answers given early — GraphiQL, CORS preflights — would otherwise log no duration).
    instrumentation: {
      request({ request }, wrapped) {
        started.set(request, performance.now());
        return wrapped();
      },
    },
    onResponse({ request, response, serverContext }) {
      const start = started.get(request);
      const state = findRequestState(serverContext);
      (state?.logger ?? logger).info(
        {
          method: request.method,
          route: state?.route ?? new URL(request.url).pathname,
          status: response.status,
          durationMs: start === undefined ? undefined : Math.round((performance.now() - start) * 100) / 100,
        },
        'request',
      );
    },
  };
}
