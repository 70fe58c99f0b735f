import { GraphQLError } from 'graphql';

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

// ---- Database errors ----
//
// Where the SQLSTATE of a failed statement ends up, verified with both driver adapters (Prisma 7.10,
// @prisma/adapter-pg 7.10, pglite-prisma-adapter 0.7.2):
// - model queries: PrismaClientKnownRequestError P2002 (23505), P2003 (23503), P2034 (40001; and 40P01 on
//   adapter-pg) or P2039 "Database error" (40P01 on PGlite, which does not map it), with the adapter's
//   error in `meta.driverAdapterError` (its `cause.originalCode` is the SQLSTATE);
// - $executeRaw / $queryRaw: P2010 "Raw query failed" for all of them, same `meta.driverAdapterError`;
// - a failing COMMIT of an interactive transaction (adapter-pg): the bare DriverAdapterError.
// So the SQLSTATE is the one reliable key; the Prisma codes are accepted as well.

function sqlState(error: unknown): string | undefined {
  const e = error as { name?: string; cause?: { originalCode?: string }; meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } };
  if (typeof e !== 'object' || e === null) return undefined;
  if (e.name === 'DriverAdapterError') return e.cause?.originalCode;
  return e.meta?.driverAdapterError?.cause?.originalCode;
}

const prismaCode = (error: unknown) => (typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined);

/** A unique constraint (or primary key) refused the write. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505' || prismaCode(error) === 'P2002';
}

/** A foreign key refused the write: what it refers to was deleted (or never existed). */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error) === '23503' || prismaCode(error) === 'P2003';
}

/** Deadlock or serialization failure: the transaction was rolled back and may simply be run again. */
export function isRetryableConflict(error: unknown): boolean {
  const state = sqlState(error);
  return state === '40001' || state === '40P01' || prismaCode(error) === 'P2034';
}

/**
 * The one mapping from database conflicts to our errors (409), for whatever a service did not map to a
 * more specific error itself; null for anything else (a real bug stays a 500). P2025 is Prisma's "the
 * record to update or delete does not exist": a concurrent request deleted it after we read it.
 */
export function conflictFromDatabase(error: unknown): ConflictError | null {
  if (isUniqueViolation(error)) return new ConflictError('Conflict with a concurrent change: this already exists; retry the request');
  if (isForeignKeyViolation(error)) {
    return new ConflictError('Conflict with a concurrent change: something this request refers to was removed; retry the request');
  }
  if (prismaCode(error) === 'P2025') return new ConflictError('Conflict with a concurrent change: the record was removed meanwhile');
  if (isRetryableConflict(error)) return new ConflictError('Conflict with concurrent changes (the database could not serialize them); retry the request');
  return null;
}
