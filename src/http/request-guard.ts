import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../lib/logger.ts';
import { unexpectedFailure } from './refusal.ts';
import { requestLogger } from './request-id.ts';
import { findRequestState } from './request-state.ts';

/**
 * Our `onRequest` hooks run before Yoga handles anything: an error one of them throws (the database
 * failing while a token is checked, say) is not Yoga's to mask. It would reach the HTTP adapter, which
 * answers 500 with the error's stack as the body — internals shown to the caller, and nothing logged.
 * Each hook is therefore guarded: the cause is logged once, on the request's logger, and the caller gets
 * the same bare 500 as any other unexpected failure, in the shape of its door.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- plugins of any context type, as createYoga takes them
export function guardRequestHooks(plugins: Plugin<any>[], options: { logger: Logger }): Plugin<any>[] {
  return plugins.map((plugin) => {
    const onRequest = plugin.onRequest;
    if (!onRequest) return plugin;
    return {
      ...plugin,
      // Synchronous hooks stay synchronous: no promise per hook per request.
      onRequest(payload) {
        const fail = (error: unknown) => {
          requestLogger(payload.serverContext, options.logger).error({ err: error }, 'unexpected error before the operation');
          payload.endResponse(unexpectedFailure(findRequestState(payload.serverContext)?.door ?? 'none'));
        };
        try {
          const result = onRequest(payload) as unknown;
          return typeof (result as PromiseLike<void> | undefined)?.then === 'function' ? Promise.resolve(result).then(undefined, fail) : undefined;
        } catch (error) {
          fail(error);
        }
      },
    };
  });
}
