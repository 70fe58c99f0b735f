import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../lib/logger.ts';
import { findRequestState } from './request-state.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * A client's (or a proxy's) own request ID is kept when it is short and made of characters that are safe
 * in a header and a log line; anything else is replaced, so callers cannot inject into logs.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

export function requestIdFrom(header: string | null): string {
  return header !== null && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * The logger of the request this server context belongs to (its ID, and its caller once authenticated),
 * else `fallback`. The request state lives on Yoga's server context — one object per request, which
 * every hook receives and the GraphQL context is built from — not in AsyncLocalStorage: in Node 20 that
 * turns on promise hooks for every promise of the process, which cost about a seventh of the throughput
 * of a list route.
 */
export function requestLogger(serverContext: object | undefined, fallback: Logger): Logger {
  return findRequestState(serverContext)?.logger ?? fallback;
}

/** Placed after authentication: from here on the request's log lines also name the caller. */
export function useRequestCaller(): Plugin {
  return {
    onRequest({ serverContext }) {
      const state = findRequestState(serverContext);
      if (!state?.auth) return;
      state.logger = state.logger.child(state.auth.viewer ? { userId: state.auth.viewer.user.id } : { caller: 'instance-admin' });
    },
  };
}
