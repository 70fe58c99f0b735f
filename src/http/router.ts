import type { Plugin } from 'graphql-yoga';
import { AppError } from '../core/errors.ts';
import { BodyTooLargeError } from '../lib/body.ts';
import { refusal, unexpectedFailure } from './refusal.ts';
import { findRequestState } from './request-state.ts';

/**
 * The one router of HTTP routes (request-state.ts: HttpRoute): the route the classification matched answers, after
 * authentication and rate limiting have run. An AppError a handler throws is a refusal of its status;
 * a body over the route's limit a 413; anything else is logged and a bare 500.
 */
export function useHttpRoutes(): Plugin {
  return {
    // Synchronous for every other request: no promise per request.
    onRequest({ request, url, serverContext, endResponse }) {
      const state = findRequestState(serverContext);
      const matched = state?.httpRoute;
      if (!state || !matched) return;
      const answer = async () => {
        try {
          const response = await matched.route.handle({ request, url, params: matched.params, state });
          endResponse(request.method === 'HEAD' && response.body ? new Response(null, { status: response.status, headers: response.headers }) : response);
        } catch (error) {
          if (error instanceof AppError) {
            const headers = (error.extensions.http as { headers?: Record<string, string> } | undefined)?.headers;
            return endResponse(refusal(state.door, error.status, error.message, headers));
          }
          if (error instanceof BodyTooLargeError) return endResponse(refusal(state.door, 413, error.message));
          state.logger.error({ err: error }, 'HTTP route failed');
          endResponse(unexpectedFailure(state.door));
        }
      };
      return answer();
    },
  };
}

/** What no route answered: a 405 with `Allow` when the path exists with other methods, else a 404. */
export function useNotFound(): Plugin {
  return {
    onRequest({ request, url, serverContext, endResponse }) {
      const state = findRequestState(serverContext);
      if (!state || state.door !== 'none') return;
      if (state.allowed) {
        const allow = state.allowed.join(', ');
        return endResponse(refusal('none', 405, `${request.method} is not allowed on ${url.pathname} (allowed: ${allow})`, { Allow: allow }));
      }
      endResponse(refusal('none', 404, `No route ${url.pathname}`));
    },
  };
}
