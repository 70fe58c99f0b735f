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

/**
 * The scope lives on Yoga's server context: one object per request, which every plugin hook receives,
 * which the GraphQL context is built from, and which SOFA hands on to the REST door's executions. Not
 * AsyncLocalStorage: in Node 20 it turns on promise hooks for every promise of the process, which cost
 * about a seventh of the throughput of a list route.
 */
interface HoldsRequestScope {
  requestScope?: RequestScope;
}

export function requestIdFrom(header: string | null): string {
  return header !== null && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** The request's scope, made on first use (from its `X-Request-Id` when sane). */
export function requestScopeOf(serverContext: unknown, request: Request, logger: Logger): RequestScope {
  const holder = serverContext as HoldsRequestScope;
  if (!holder.requestScope) {
    const id = requestIdFrom(request.headers.get(REQUEST_ID_HEADER));
    holder.requestScope = { id, logger: logger.child({ requestId: id }) };
  }
  return holder.requestScope;
}

/** The logger of the request this server context belongs to (request ID, caller), else `fallback`. */
export function requestLogger(serverContext: unknown, fallback: Logger): Logger {
  return (serverContext as HoldsRequestScope | undefined)?.requestScope?.logger ?? fallback;
}

/**
 * Gives every request an ID — the client's `X-Request-Id` when sane, else a random UUID — echoed in the
 * response's `X-Request-Id`, and a pino child logger bound to it (see `requestLogger`). Support can then
 * match a client's report to the server's log lines.
 */
export function useRequestId(logger: Logger): Plugin {
  return {
    onRequest({ request, serverContext }) {
      requestScopeOf(serverContext, request, logger);
    },
    // Also for answers Yoga's own plugins gave before ours ran (CORS preflights, GraphiQL): made here.
    onResponse({ request, response, serverContext }) {
      response.headers.set(REQUEST_ID_HEADER, requestScopeOf(serverContext, request, logger).id);
    },
  };
}

interface AuthenticatedServerContext extends HoldsRequestScope {
  auth?: { viewer: { user: { id: string } } | null; instanceAdmin: boolean } | null;
}

/** Placed after authentication: from here on the request's log lines also name the caller. */
export function useRequestCaller(): Plugin {
  return {
    onRequest({ serverContext }) {
      const { auth, requestScope: scope } = serverContext as AuthenticatedServerContext;
      if (!scope || !auth) return;
      scope.logger = scope.logger.child(auth.viewer ? { userId: auth.viewer.user.id } : { caller: 'instance-admin' });
    },
  };
}
