import { getNullableType, isListType, isScalarType, type GraphQLInputType } from 'graphql';

/**
 * Constraints of an argument or a field in JSON Schema words, declared next to it in the schema code
 * and written into the OpenAPI document (src/rest/openapi.ts): what a REST client generated from the
 * document, or a person reading /docs, needs to know before sending a value.
 *
 * The services enforce them (src/core/validate.ts: each violation is a 400 naming the field);
 * test/platform/openapi-document.test.ts sends a value outside each declared bound on every route and expects
 * that 400, so a declaration cannot drift from what is enforced.
 */
export interface JsonSchemaConstraints {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  format?: 'date-time' | 'uri' | 'email' | 'hostname';
  /** A constant (`object: 'team'`) or a closed set of strings that is not a GraphQL enum. */
  enum?: readonly (string | number | boolean)[];
  /** Constraints of each item of a list. */
  items?: JsonSchemaConstraints;
}

const KEY = 'jsonSchema';

/**
 * The longest string an argument or input field takes when it declares no bound of its own (IDs, names,
 * filters). Every string input is bounded before anything else looks at it: a check whose cost grows
 * with the length (segmenting graphemes, a regex, parsing) must never see more than its field allows.
 * Fields that legitimately carry more (a script, an image in base64, a cursor) declare their own
 * `maxLength`.
 */
export const DEFAULT_MAX_STRING_LENGTH = 256;

/** `t.arg.string({ description: 'Title', extensions: constrained({ maxLength: 50 }) })` */
export function constrained(constraints: JsonSchemaConstraints): { [KEY]: JsonSchemaConstraints } {
  return { [KEY]: constraints };
}

/** The constraints declared on an argument or a field, if any. */
export function constraintsOf(element: { extensions?: Readonly<Record<string, unknown>> | null }): JsonSchemaConstraints | undefined {
  return element.extensions?.[KEY] as JsonSchemaConstraints | undefined;
}

/**
 * The constraints of an argument or an input field as enforced and documented: those it declares, plus
 * `DEFAULT_MAX_STRING_LENGTH` on a `String` (or on the `String` items of a list) that declares no
 * `maxLength` and no `enum`.
 */
export function inputConstraintsOf(element: { type: GraphQLInputType; extensions?: Readonly<Record<string, unknown>> | null }): JsonSchemaConstraints | undefined {
  return withDefaultLength(element.type, constraintsOf(element));
}

function withDefaultLength(type: GraphQLInputType, declared: JsonSchemaConstraints | undefined): JsonSchemaConstraints | undefined {
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const items = withDefaultLength(nullable.ofType, declared?.items);
    return items ? { ...declared, items } : declared;
  }
  if (!isScalarType(nullable) || nullable.name !== 'String') return declared;
  if (declared?.maxLength !== undefined || declared?.enum !== undefined) return declared;
  return { ...declared, maxLength: DEFAULT_MAX_STRING_LENGTH };
}

const SCALAR_KEY = 'openApiSchema';

/**
 * How a custom scalar appears in the OpenAPI document (SOFA describes every custom scalar as an object):
 * `DateTime` is a date-time string, a string enum its values, `JSON` any value.
 */
export function openApiScalar(schema: Record<string, unknown>): { [SCALAR_KEY]: Record<string, unknown> } {
  return { [SCALAR_KEY]: schema };
}

export function openApiSchemaOfScalar(scalar: { extensions?: Readonly<Record<string, unknown>> | null }): Record<string, unknown> | undefined {
  return scalar.extensions?.[SCALAR_KEY] as Record<string, unknown> | undefined;
}

const SHAPE_KEY = 'openApiShape';

/**
 * The shape of a `JSON` output field, for the OpenAPI document (a `JSON` field is otherwise "any
 * value"): `t.field({ type: 'JSON', extensions: shaped({ type: 'array', items: { … } }) })`. Output only:
 * every REST response the tests receive is validated against the document, so a shape that is not what
 * the server answers fails them.
 */
export function shaped(schema: Record<string, unknown>): { [SHAPE_KEY]: Record<string, unknown> } {
  return { [SHAPE_KEY]: schema };
}

export function shapeOf(field: { extensions?: Readonly<Record<string, unknown>> | null }): Record<string, unknown> | undefined {
  return field.extensions?.[SHAPE_KEY] as Record<string, unknown> | undefined;
}
