import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import {
  getNullableType,
  isNonNullType,
  isInputObjectType,
  isListType,
  type GraphQLArgument,
  type GraphQLFieldResolver,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { BadRequestError } from '../core/errors.ts';
import { inputConstraintsOf, type JsonSchemaConstraints } from './constraints.ts';

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
      if (field.args.length === 0 || !field.resolve) continue;
      const argsSchema = objectSchema(field.args, new Set());
      // Compiled on the field's first call: compiling all of them costs start-up time.
      let validate: ValidateFunction | undefined;
      field.resolve = checkingArguments(field.resolve, argsSchema ? () => (validate ??= ajv.compile(argsSchema)) : undefined);
    }
  }
  return schema;
}

type Schema = Record<string, unknown>;

/** The JSON Schema of the constrained fields among `fields`, or undefined when none is constrained. */
function objectSchema(fields: readonly (GraphQLArgument | GraphQLInputField)[], visiting: Set<string>): Schema | undefined {
  const properties: Record<string, Schema> = {};
  for (const field of fields) {
    const own = inputConstraintsOf(field);
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
  // A nullable input object may be given as null (GitBook's `defaultContent: null` clears it).
  return schema && !isNonNullType(type) ? { ...schema, type: ['object', 'null'] } : schema;
}

/** Declared constraints as JSON Schema: `format` and `default` only describe, they are not checked here. */
function toSchema(constraints: JsonSchemaConstraints): Schema {
  const { items, format: _format, default: _default, ...checked } = constraints;
  return items ? { ...checked, items: toSchema(items) } : checked;
}

function checkingArguments(
  resolve: GraphQLFieldResolver<unknown, unknown>,
  validator: (() => ValidateFunction) | undefined,
): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    if (validator) {
      const validate = validator();
      if (!validate(args)) throw new BadRequestError(describe(validate.errors![0]));
    }
    const illFormed = illFormedStringPath(args);
    if (illFormed !== null) throw new BadRequestError(`Invalid "${illFormed}": must be well-formed Unicode (it holds a lone surrogate)`);
    return resolve(source, args, context, info);
  };
}

/**
 * The path (`a.b[0]`) of the first string among `args` — at any depth, `JSON` values and object keys
 * included — that is not well-formed UTF-16 (a lone surrogate, as `"\ud800"` in JSON makes one), or
 * null. Such a string cannot be stored as PostgreSQL text, nor encoded as UTF-8 for an answer. The walk
 * is iterative: inputs are bounded in depth at the door, but this must not depend on it.
 */
export function illFormedStringPath(args: Record<string, unknown>): string | null {
  const stack: [value: unknown, path: string][] = Object.entries(args).map(([name, value]) => [value, name]);
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (!value.isWellFormed()) return path;
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, `${path}[${i}]`]));
    } else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
      for (const [key, item] of Object.entries(value)) {
        if (!key.isWellFormed()) return path;
        stack.push([item, `${path}.${key}`]);
      }
    }
  }
  return null;
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
