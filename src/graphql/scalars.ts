import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.ts';
import { openApiScalar } from './constraints.ts';

builder.scalarType('DateTime', {
  description: 'ISO 8601 date-time string',
  extensions: openApiScalar({ type: 'string', format: 'date-time' }),
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString()),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : new Date(NaN);
    if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string');
    return date;
  },
});

/** Free-form JSON, for documented maps such as `memberships` (key → { role }). */
builder.scalarType('JSON', {
  description: 'Any JSON value',
  // No type: the fields of this type say in their description (and GitBook's document) what they hold.
  extensions: openApiScalar({}),
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: function parse(ast): unknown {
    switch (ast.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return ast.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(ast.value);
      case Kind.NULL:
        return null;
      case Kind.LIST:
        return ast.values.map((v) => parse(v));
      case Kind.OBJECT:
        return Object.fromEntries(ast.fields.map((f) => [f.name.value, parse(f.value)]));
      default:
        throw new GraphQLError('Variables are not supported inside JSON literals');
    }
  },
});
