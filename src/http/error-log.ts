import { GraphQLError } from 'graphql';
import { maskError, type YogaServerOptions } from 'graphql-yoga';
import type { Logger } from '../lib/logger.ts';
import { requestLogger } from './request-id.ts';

type MaskError = NonNullable<Exclude<YogaServerOptions<object, object>['maskedErrors'], boolean | undefined>>['maskError'];

/**
 * Yoga's error masking, plus the log line the masked error would otherwise never get. Clients see only
 * "Unexpected error." (GraphQL) or a bare 500 (REST: SOFA's errorHandler receives the masked error, since
 * both doors share the envelop execution); the cause — a Prisma error, a bug — is logged here, once, with
 * its stack, on the request's logger (request ID, user ID). This is the one place every unexpected error
 * passes: resolver errors and errors thrown outside execution (context, parsing) alike.
 */
export function maskAndLogErrors(fallback: Logger): MaskError {
  return (error, message, isDev) => {
    const masked = maskError(error, message, isDev);
    if (masked !== error) {
      // graphql-js wraps what a resolver threw: log the thrown error itself, and where it surfaced.
      const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
      const path = error instanceof GraphQLError && error.path ? error.path.join('.') : undefined;
      requestLogger(fallback).error({ err: original, path }, 'unexpected error');
    }
    return masked;
  };
}

/** Masked by `maskAndLogErrors` (and so already logged): Yoga marks such errors `extensions.unexpected`. */
export function isMaskedError(error: unknown): boolean {
  return error instanceof GraphQLError && error.extensions?.unexpected === true;
}
