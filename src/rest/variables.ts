import {
  coerceInputValue,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  isNonNullType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { BadRequestError } from '../core/errors.ts';
import { pathParameters, type RestRoute } from './route-table.ts';

/** What a REST request carries besides its path: the query string and the JSON body (already read). */
export interface RestRequestValues {
  method: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

/** Methods whose arguments (beyond the path) are the fields of a JSON body. */
const JSON_BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const invalid = (name: string, reason: string) => new BadRequestError(`Invalid "${name}": ${reason}`);

/**
 * The variables of a routed operation, made from the request as a JSON API means it:
 * - path parameters as SOFA's router extracted them (strings);
 * - for GET and DELETE, the query string, each value converted from text to the argument's type;
 * - for POST, PUT and PATCH, the JSON body's values exactly as sent (a `null` stays null, `12` stays a
 *   number), and nothing from the query string unless the route declares it a query parameter.
 * Every value is then checked with graphql-js's own input coercion, so each failure is a 400 naming the
 * parameter, before anything runs. SOFA's own conversion would drop nulls, turn `12` into `"12"` and
 * `"yes"` into `false`, wrap a lone value into a list, and read body fields from the query string (see
 * src/rest/README.md).
 */
export function requestVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  route: RestRoute,
  pathValues: Record<string, unknown>,
  request: RestRequestValues,
): Record<string, unknown> {
  const inPath = new Set(pathParameters(route.path));
  const fromBody = JSON_BODY_METHODS.has(request.method);
  const declaredQuery = new Set(fromBody ? (route.query ?? []) : []);
  const variables: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType;
    let value: unknown;
    if (inPath.has(name)) {
      value = pathValues[name];
    } else if (fromBody && !declaredQuery.has(name)) {
      if (request.query.has(name)) throw invalid(name, 'send it in the JSON request body, not in the query string');
      value = Object.hasOwn(request.body, name) ? request.body[name] : undefined;
      // GraphQL would wrap a lone value into a one-item list; a JSON API refuses the wrong type.
      if (isListType(getNullableType(type)) && value !== null && value !== undefined && !Array.isArray(value)) {
        throw invalid(name, 'must be an array');
      }
    } else if (request.query.has(name)) {
      value = fromQueryString(name, type, request.query.getAll(name));
    }
    if (value === undefined) {
      if (isNonNullType(type)) throw invalid(name, `a value of type ${type.toString()} is required`);
      continue;
    }
    checkValue(name, type, value);
    variables[name] = value;
  }
  return variables;
}

/** graphql-js's input coercion, its first complaint a 400 naming the parameter (and the path inside it). */
function checkValue(name: string, type: GraphQLInputType, value: unknown): void {
  coerceInputValue(value, type, (path, _invalidValue, error) => {
    throw invalid([name, ...path].join('.'), error.message);
  });
}

/**
 * A query-string parameter as the argument's type: integers and floats as numbers, booleans from
 * "true"/"false", lists from repeated parameters; strings, IDs, enums and our scalars stay text (their
 * own parsing then checks them). Objects and JSON cannot come from a query string.
 */
export function fromQueryString(name: string, type: GraphQLInputType, values: string[]): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return values.map((value) => scalarFromText(name, nullable.ofType as GraphQLInputType, value));
  if (values.length > 1) throw invalid(name, 'give it once');
  return scalarFromText(name, nullable as GraphQLInputType, values[0]);
}

function scalarFromText(name: string, type: GraphQLInputType, text: string): unknown {
  const named = getNamedType(type);
  if (isInputObjectType(named) || named.name === 'JSON') throw invalid(name, 'send it in the JSON body');
  switch (named.name) {
    case 'Int':
      if (!/^-?\d{1,10}$/.test(text)) throw invalid(name, 'must be an integer');
      return Number(text);
    case 'Float':
      if (!/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text)) throw invalid(name, 'must be a number');
      return Number(text);
    case 'Boolean':
      if (text !== 'true' && text !== 'false') throw invalid(name, 'must be true or false');
      return text === 'true';
    default:
      return text;
  }
}
