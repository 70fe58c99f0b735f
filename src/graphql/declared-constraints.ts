import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import {
  getNullableType,
  isInputObjectType,
  isListType,
  type GraphQLArgument,
  type GraphQLFieldResolver,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { BadRequestError } from '../core/errors.ts';
import { constraintsOf, type JsonSchemaConstraints } from './constraints.ts';

/**
 * What the OpenAPI document states is what the server enforces: the constraints declared on the
 * arguments of a root field (and on the fields of its input objects, through lists) are checked before
 * its resolver runs, by Ajv against the same JSON Schema words the document shows. A violation is a 400
 * naming the field (`Invalid "title": must be at most 50 characters`), in both doors. Services keep their
 * own checks for what a schema cannot say (trimmed lengths, a value depending on another).
 */
export function withDeclaredConstraints(schema: GraphQLSchema): GraphQLSchema {
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false, useDefaults: false });
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const argsSchema = objectSchema(field.args, new Set());
      if (!argsSchema || !field.resolve) continue;
      // Compiled on the field's first call: compiling all of them costs start-up time.
      let validate: ValidateFunction | undefined;
      field.resolve = checkingArguments(field.resolve, () => (validate ??= ajv.compile(argsSchema)));
    }
  }
  return schema;
}

type Schema = Record<string, unknown>;

/** The JSON Schema of the constrained fields among `fields`, or undefined when none is constrained. */
function objectSchema(fields: readonly (GraphQLArgument | GraphQLInputField)[], visiting: Set<string>): Schema | undefined {
  const properties: Record<string, Schema> = {};
  for (const field of fields) {
    const own = constraintsOf(field);
    const nested = typeSchema(field.type, visiting);
    const schema = { ...(own ? toSchema(own) : {}), ...(nested ?? {}) };
    if (Object.keys(schema).length > 0) properties[field.name] = schema;
  }
  return Object.keys(properties).length > 0 ? { type: 'object', properties } : undefined;
}

/** Constraints reached through the type: an input object's constrained fields, a list's items. */
function typeSchema(type: GraphQLInputType, visiting: Set<string>): Schema | undefined {
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const items = typeSchema(nullable.ofType, visiting);
    return items ? { items } : undefined;
  }
  if (!isInputObjectType(nullable) || visiting.has(nullable.name)) return undefined;
  visiting.add(nullable.name);
  const schema = objectSchema(Object.values(nullable.getFields()), visiting);
  visiting.delete(nullable.name);
  return schema;
}

/** Declared constraints as JSON Schema: `format` and `default` only describe, they are not checked here. */
function toSchema(constraints: JsonSchemaConstraints): Schema {
  const { items, format: _format, default: _default, ...checked } = constraints;
  return items ? { ...checked, items: toSchema(items) } : checked;
}

function checkingArguments(resolve: GraphQLFieldResolver<unknown, unknown>, validator: () => ValidateFunction): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const validate = validator();
    if (!validate(args)) throw new BadRequestError(describe(validate.errors![0]));
    return resolve(source, args, context, info);
  };
}

/** `Invalid "<field path>": <what it must be>`, in the words of the services' own checks. */
function describe(error: ErrorObject): string {
  const field = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
  const limit = (error.params as { limit?: number }).limit;
  const rule: Record<string, string> = {
    maxLength: `must be at most ${limit} characters`,
    minLength: `must be at least ${limit} characters`,
    maximum: `must be at most ${limit}`,
    minimum: `must be at least ${limit}`,
    maxItems: `must contain at most ${limit} entries`,
    minItems: `must contain at least ${limit} entries`,
    pattern: `must match ${(error.params as { pattern?: string }).pattern}`,
    enum: `must be one of ${((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`,
  };
  return `Invalid "${field}": ${rule[error.keyword] ?? error.message}`;
}
