import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.ts';
import { openApiScalar } from './constraints.ts';

/**
 * An enum whose values contain "-" (e.g. `share-link`), which GraphQL enum names cannot. Exposed as a
 * scalar that accepts and returns exactly the documented spellings in both doors, and refuses
 * anything else (a 400 naming the field over REST).
 */
export function stringEnumScalar<T extends string>(name: string, values: readonly T[], description: string) {
  const allowed = new Set<string>(values);
  const check = (value: unknown): T => {
    if (typeof value !== 'string' || !allowed.has(value)) {
      // A GraphQLError: Yoga masks any other error thrown while coercing input as an internal error.
      throw new GraphQLError(`${name} must be one of ${values.map((v) => `"${v}"`).join(', ')}`);
    }
    return value as T;
  };
  return builder.scalarType(name as any, {
    description: `${description}. One of: ${values.join(', ')}`,
    extensions: openApiScalar({ type: 'string', enum: [...values] }),
    serialize: (value) => check(value),
    parseValue: (value) => check(value),
    parseLiteral: (ast) => check(ast.kind === Kind.STRING ? ast.value : undefined),
  });
}

/**
 * GitBook's `boolean | "<keyword>"` parameters (`evaluated: true | false | "deterministic-only"`,
 * `dereferenced: … | "reusable-contents"`): a boolean, or the keyword. Over REST the query string's
 * `true` and `false` are booleans; anything else is refused (a 400 naming the parameter).
 */
export function booleanOrKeywordScalar<K extends string>(name: string, keyword: K, description: string) {
  const check = (value: unknown): boolean | K => {
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    if (value === keyword) return keyword;
    throw new GraphQLError(`${name} must be true, false or "${keyword}"`);
  };
  return builder.scalarType(name as any, {
    description: `${description}: true, false or "${keyword}"`,
    extensions: openApiScalar({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: [keyword] }] }),
    serialize: (value) => check(value),
    parseValue: (value) => check(value),
    parseLiteral: (ast) => check(ast.kind === Kind.BOOLEAN || ast.kind === Kind.STRING ? ast.value : undefined),
  });
}
