import { GraphQLError } from 'graphql';
import { maskError, type Plugin, type YogaServerOptions } from 'graphql-yoga';
import type { Logger } from '../lib/logger.ts';
import { requestLogger } from './request-id.ts';

type MaskError = NonNullable<Exclude<YogaServerOptions<object, object>['maskedErrors'], boolean | undefined>>['maskError'];

/** The cause a masked error hides from the client, until it is logged. */
const CAUSE = Symbol('cause of a masked error');
interface Cause {
  err: unknown;
  path?: string;
}
type MaskedError = GraphQLError & { [CAUSE]?: Cause };

/**
 * Yoga's error masking, keeping what it hides for the log. Clients see only "Unexpected error."
 * (GraphQL) or a bare 500 (REST: SOFA's errorHandler receives the masked error, since both doors share
 * the envelop execution). Every unexpected error passes here — resolver errors and errors thrown outside
 * execution (context, parsing) alike — but with no request at hand: the cause rides on the masked error
 * to where the request is known (`useUnexpectedErrorLog`, the REST door), which logs it once.
 */
export function maskKeepingCause(): MaskError {
  return (error, message, isDev) => {
    const masked = maskError(error, message, isDev);
    if (masked !== error && masked instanceof GraphQLError) {
      // graphql-js wraps what a resolver threw: log the thrown error itself, and where it surfaced.
      const err = error instanceof GraphQLError && error.originalError ? error.originalError : error;
      const path = error instanceof GraphQLError && error.path ? error.path.join('.') : undefined;
      Object.defineProperty(masked, CAUSE, { value: { err, path } satisfies Cause, enumerable: false, configurable: true });
    }
    return masked;
  };
}

/** Logs the cause of each masked error, with its stack, on the request's logger; once per error. */
export function logUnexpectedErrors(errors: readonly unknown[] | undefined, logger: Logger): void {
  for (const error of errors ?? []) {
    const cause = (error as MaskedError | null)?.[CAUSE];
    if (!cause) continue;
    delete (error as MaskedError)[CAUSE];
    logger.error({ err: cause.err, path: cause.path }, 'unexpected error');
  }
}

/** The /graphql door: every result passes here on its way out, with its request. */
export function useUnexpectedErrorLog(fallback: Logger): Plugin {
  return {
    onResultProcess({ result, serverContext }) {
      const results = Array.isArray(result) ? result : [result];
      for (const one of results) logUnexpectedErrors((one as { errors?: readonly unknown[] })?.errors, requestLogger(serverContext, fallback));
    },
  };
}

/** Masked by `maskKeepingCause`: Yoga marks such errors `extensions.unexpected`. */
export function isMaskedError(error: unknown): boolean {
  return error instanceof GraphQLError && error.extensions?.unexpected === true;
}
