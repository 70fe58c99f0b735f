import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { domainErrorFromDatabase } from '../core/errors.ts';
import { isRetryableConflict } from '../db/errors.ts';

/** How many times a root field runs in all when the database reports a deadlock or serialization failure. */
export const RESOLVER_ATTEMPTS = 4;

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, attempt * (5 + Math.random() * 20)));

/**
 * The safety net for database conflicts, the same for both doors (REST runs this schema through the same
 * envelop execution as /graphql). Every resolver is wrapped:
 * - root fields (each request's writes happen in one): on a deadlock or serialization failure the
 *   database rolled the transaction back, so the resolver runs again (services keep each write in one
 *   transaction, so a rerun does not apply anything twice), a few times with a short random pause, then
 *   answers 409;
 * - any other database conflict a service left unmapped (unique or foreign-key violation, row deleted
 *   meanwhile) answers 409 at once, from any field: nested fields only read, but a read can still find
 *   its parent deleted by a concurrent request (e.g. Pothos' relation counts load the parent again).
 * This happens inside the resolver, before graphql-js hands the error to Yoga's masking: a ConflictError
 * is a GraphQLError and passes unmasked, whereas a raw Prisma error would become "Unexpected error." (500).
 */
export function withDatabaseConflicts(schema: GraphQLSchema): GraphQLSchema {
  const roots = new Set([schema.getQueryType(), schema.getMutationType()]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve) field.resolve = roots.has(type) ? retryingConflicts(field.resolve) : mappingConflicts(field.resolve);
    }
  }
  return schema;
}

const rethrowMapped = (error: unknown): never => {
  throw domainErrorFromDatabase(error) ?? error;
};

/**
 * Nested fields: synchronous results stay synchronous (most fields just read a property). The four
 * arguments are named, not spread: a list of 100 spaces calls this some 1,300 times per answer.
 */
function mappingConflicts(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (parent, args, context, info) => {
    try {
      const result = resolve(parent, args, context, info);
      // Any thenable (Prisma's lazy PrismaPromise is not a Promise): graphql-js awaits it either way.
      return typeof (result as PromiseLike<unknown> | undefined)?.then === 'function'
        ? Promise.resolve(result).catch(rethrowMapped)
        : result;
    } catch (error) {
      return rethrowMapped(error);
    }
  };
}

function retryingConflicts(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return async (...args) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await resolve(...args);
      } catch (error) {
        if (attempt < RESOLVER_ATTEMPTS && isRetryableConflict(error)) {
          await pause(attempt);
          continue;
        }
        rethrowMapped(error);
      }
    }
  };
}
