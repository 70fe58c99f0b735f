import { useGraphQlJit } from '@envelop/graphql-jit';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../lib/logger.ts';
import { containsNul } from '../lib/text.ts';

/** GraphQL counterpart of the REST NUL check: PostgreSQL text cannot hold U+0000. */
export function useNoNulInput(): Plugin {
  return {
    onParams({ params }) {
      if (containsNul(JSON.stringify(params))) {
        throw new GraphQLError('Text must not contain NUL characters', {
          extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
        });
      }
    },
  };
}

/**
 * Bad variables (wrong type, missing, unknown enum value) are reported without a code; give them
 * BAD_REQUEST like our own input errors, so every GraphQL error carries `extensions.code`. They are the
 * errors of a result with no `data` at all: the operation never started, because variables are coerced
 * first. graphql-jit reports them with an error class of its own, so they are rebuilt as GraphQLErrors
 * (which Yoga's error masking lets through).
 */
export function useInputErrorCodes(): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result) || !result.errors || result.data !== undefined) return;
          setResult({
            ...result,
            errors: result.errors.map(
              (error) =>
                new GraphQLError(error.message, { extensions: { ...error.extensions, code: error.extensions?.code ?? 'BAD_REQUEST' } }),
            ),
          });
        },
      };
    },
  };
}

/**
 * Operations run compiled (graphql-jit). graphql-js interprets a document field by field and builds a
 * resolve-info object for every field of every row, even for plain properties: on a page of 100 spaces
 * that was half of all allocation. A compiled operation reads plain properties directly. Compiled
 * operations are kept with their parsed document (weakly: Yoga's parser cache, bounded in bytes, and
 * SOFA's per-route documents hold them), so a document is compiled once. Every execution is compiled,
 * not only repeated ones, so that the same request always gets the same answer (graphql-js and
 * graphql-jit word a few errors differently). Resolvers still see response paths as graphql-js builds
 * them (graphql/stable-paths.ts).
 */
export function useCompiledExecution(logger: Logger): ReturnType<typeof useGraphQlJit> {
  return useGraphQlJit(
    {},
    { onError: (result) => logger.warn({ errors: result.errors?.map((e) => e.message) }, 'operation could not be compiled') },
  );
}
