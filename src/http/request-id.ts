import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../lib/logger.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * A client's (or a proxy's) own request ID is kept when it is short and made of characters that are safe
 * in a header and a log line; anything else is replaced, so callers cannot inject into logs.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

/** What every log line of one request carries: its ID, and once authenticated the caller's user ID. */
export interface RequestScope {
  id: string;
  logger: Logger;
}

// AsyncLocalStorage, not only the GraphQL context: errors are masked (and logged) in places that receive
// no context at all (Yoga's maskError), and the request line is written outside GraphQL execution.
const storage = new AsyncLocalStorage<RequestScope>();

export function requestIdFrom(header: string | null): string {
  return header !== null && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** The logger for the current request (carrying requestId and userId), else `fallback`. */
export function requestLogger(fallback: Logger): Logger {
  return storage.getStore()?.logger ?? fallback;
}

/**
 * Gives every request an ID — the client's `X-Request-Id` when sane, else a random UUID — echoed in the
 * response's `X-Request-Id`, and a pino child logger bound to it, reachable from anywhere in the request's
 * async work (see `requestLogger`). Support can then match a client's report to the server's log lines.
 */
export function useRequestId(logger: Logger): Plugin {
  return {
    // Instrumentation wraps the whole request, onRequest to onResponse, so even answers produced by
    // Yoga's own early plugins (CORS preflights, GraphiQL) run inside the scope.
    instrumentation: {
      request({ request }, wrapped) {
        const id = requestIdFrom(request.headers.get(REQUEST_ID_HEADER));
        const scope: RequestScope = { id, logger: logger.child({ requestId: id }) };
        return storage.run(scope, wrapped);
      },
    },
    onResponse({ response }) {
      const scope = storage.getStore();
      if (scope) response.headers.set(REQUEST_ID_HEADER, scope.id);
    },
  };
}

interface AuthenticatedServerContext {
  auth?: { viewer: { user: { id: string } } | null; instanceAdmin: boolean } | null;
}

/** Placed after authentication: from here on the request's log lines also name the caller. */
export function useRequestCaller(): Plugin {
  return {
    onRequest({ serverContext }) {
      const auth = (serverContext as AuthenticatedServerContext).auth;
      const scope = storage.getStore();
      if (!scope || !auth) return;
      scope.logger = scope.logger.child(auth.viewer ? { userId: auth.viewer.user.id } : { caller: 'instance-admin' });
    },
  };
}
