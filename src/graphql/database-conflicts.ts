import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { conflictFromDatabase, isRetryableConflict } from './errors.ts';

/** How many times a root field runs in all when the database reports a deadlock or serialization failure. */
export const RESOLVER_ATTEMPTS = 4;

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, attempt * (5 + Math.random() * 20)));

/**
 * The safety net for database conflicts, the same for both doors (REST runs this schema through the same
 * envelop execution as /graphql). Every root field — each request's writes start in one — is wrapped:
 * - deadlock / serialization failure: the database rolled the transaction back, so the resolver runs
 *   again (services keep each write in one transaction, so a rerun does not apply anything twice), a few
 *   times with a short random pause, then answers 409;
 * - any other database conflict a service left unmapped (unique or foreign-key violation, row deleted
 *   meanwhile) answers 409 at once.
 * This happens inside the resolver, before graphql-js hands the error to Yoga's masking: a ConflictError
 * is a GraphQLError and passes unmasked, whereas a raw Prisma error would become "Unexpected error." (500).
 * Nested fields only read, and plain reads take no locks in PostgreSQL: they cannot conflict.
 */
export function withDatabaseConflicts(schema: GraphQLSchema): GraphQLSchema {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      if (field.resolve) field.resolve = retryingConflicts(field.resolve);
    }
  }
  return schema;
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
        throw conflictFromDatabase(error) ?? error;
      }
    }
  };
}
