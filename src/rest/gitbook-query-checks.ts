import { GITBOOK_QUERY_TYPES, type GitBookQueryType } from './gitbook-query-types.ts';
import { RestInputError } from './request-body.ts';

/**
 * The query parameters GitBook's OpenAPI document types for an operation we serve — booleans, enums and
 * integers — are checked before anything runs, whether or not the route reads them: a wrong value is a
 * 400 naming the parameter, as GitBook answers (issue 39). The table (gitbook-query-types.ts) is
 * generated from `@gitbook/api`'s document by test/platform/query-parameters.test.ts, which fails when
 * it is out of date. Integers are checked for being integers only: the ranges our routes allow are
 * their own (lists take up to 1000 where GitBook declares less), checked by the routes' arguments.
 */
export function checkGitBookQueryTypes(operationId: string | undefined, query: URLSearchParams): void {
  const types = operationId ? GITBOOK_QUERY_TYPES[operationId] : undefined;
  if (!types) return;
  for (const [name, type] of Object.entries(types)) {
    for (const value of query.getAll(name)) {
      const problem = problemOf(type, value);
      if (problem) throw new RestInputError(400, `Invalid "${name}": ${problem}`);
    }
  }
}

function problemOf(type: GitBookQueryType, value: string): string | null {
  if (type === 'boolean') return value === 'true' || value === 'false' ? null : 'expected true or false';
  if (type === 'integer') return /^-?[0-9]{1,16}$/.test(value) ? null : 'expected an integer';
  return type.includes(value) ? null : `expected one of ${type.join(', ')}`;
}
