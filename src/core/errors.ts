import { GraphQLError } from 'graphql';
import { isForeignKeyViolation, isRecordGone, isRetryableConflict, isTransactionTimeout, isUniqueViolation } from '../db/errors.ts';

/**
 * One error hierarchy for both doors. Each carries a GraphQL `extensions.code` and the HTTP status that
 * the REST layer (and Yoga) use for the response; REST renders it as `{ error: { code, message } }`.
 */
export class AppError extends GraphQLError {
  constructor(message: string, code: string, status: number) {
    super(message, { extensions: { code, http: { status } } });
  }
  get status(): number {
    return (this.extensions.http as { status: number }).status;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(message, 'BAD_REQUEST', 400);
  }
}
export class UnauthenticatedError extends AppError {
  constructor(message = 'Authentication required: send "Authorization: Bearer <token>"') {
    super(message, 'UNAUTHENTICATED', 401);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'You are not allowed to do this') {
    super(message, 'FORBIDDEN', 403);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(message, 'NOT_FOUND', 404);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(message, 'CONFLICT', 409);
  }
}

/** The server is too busy to serve the request now; it may be sent again later. */
export class ServiceUnavailableError extends AppError {
  constructor(message: string) {
    super(message, 'SERVICE_UNAVAILABLE', 503);
  }
}

/** What a service wants said instead of the generic conflict message, per kind of database refusal. */
export interface DatabaseErrorMessages {
  /** A unique constraint refused the write, e.g. `A user with e-mail "x" already exists`. */
  unique?: string;
}

/**
 * The one mapping from database refusals to domain errors (409; 503 when a transaction waited too
 * long). Services pass the message that names
 * what collided; the resolver safety net (graphql/database-conflicts.ts) uses the generic ones for
 * whatever a service did not expect. Null for anything else: a real bug stays a 500. A record that is
 * gone (P2025) was deleted by a concurrent request after we read it.
 */
export function domainErrorFromDatabase(error: unknown, messages: DatabaseErrorMessages = {}): ConflictError | ServiceUnavailableError | null {
  if (isUniqueViolation(error)) return new ConflictError(messages.unique ?? 'Conflict with a concurrent change: this already exists; retry the request');
  if (isForeignKeyViolation(error)) {
    return new ConflictError('Conflict with a concurrent change: something this request refers to was removed; retry the request');
  }
  if (isRecordGone(error)) return new ConflictError('Conflict with a concurrent change: the record was removed meanwhile');
  if (isRetryableConflict(error)) return new ConflictError('Conflict with concurrent changes (the database could not serialize them); retry the request');
  if (isTransactionTimeout(error)) return new ServiceUnavailableError('The database is busy: the request could not be served in time; retry it');
  return null;
}

/** Rethrow a failed write as its domain error (see domainErrorFromDatabase), or as it is. */
export function rethrowDatabaseError(error: unknown, messages?: DatabaseErrorMessages): never {
  throw domainErrorFromDatabase(error, messages) ?? error;
}
