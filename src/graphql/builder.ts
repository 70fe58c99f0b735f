import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import type PrismaTypes from '../generated/pothos-types.ts';
import { getDatamodel } from '../generated/pothos-types.ts';
import type { Context } from '../core/context.ts';

/**
 * The one Pothos builder. Domain modules add their types and root fields to it; `schema.ts` imports
 * the modules and builds the schema. Field extensions from rest-fields.ts mark graph-only fields
 * and meaningful nulls for the REST layer.
 */
export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  DefaultInputFieldRequiredness: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [PrismaPlugin, SimpleObjectsPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    // A `query` a resolver receives and drops is a fallback query per item: fail loudly outside production.
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'error',
  },
});

builder.queryType({});
builder.mutationType({});

