/**
 * Recognizing database failures, for whoever maps them to domain errors (core/errors.ts).
 *
 * Where the SQLSTATE of a failed statement ends up, verified with both driver adapters (Prisma 7.10,
 * @prisma/adapter-pg 7.10, pglite-prisma-adapter 0.7.2):
 * - model queries: PrismaClientKnownRequestError P2002 (23505), P2003 (23503), P2034 (40001; and 40P01 on
 *   adapter-pg) or P2039 "Database error" (40P01 on PGlite, which does not map it), with the adapter's
 *   error in `meta.driverAdapterError` (its `cause.originalCode` is the SQLSTATE);
 * - $executeRaw / $queryRaw: P2010 "Raw query failed" for all of them, same `meta.driverAdapterError`;
 * - a failing COMMIT of an interactive transaction (adapter-pg): the bare DriverAdapterError.
 * So the SQLSTATE is the one reliable key; the Prisma codes are accepted as well.
 */

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


/** Prisma's "the record to update or delete does not exist" (P2025): someone deleted it after we read it. */
export function isRecordGone(error: unknown): boolean {
  return prismaCode(error) === 'P2025';
}

/**
 * An interactive transaction could not start in time (P2028: no connection freed up within `maxWait`)
 * or ran past its `timeout`: the server is overloaded, the request may be sent again later.
 */
export function isTransactionTimeout(error: unknown): boolean {
  return prismaCode(error) === 'P2028';
}
