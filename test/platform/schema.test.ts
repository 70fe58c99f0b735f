import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { printedSchema, restRoutes, schema } from '../../src/schema.ts';

describe('schema.graphql', () => {
  it('is the committed, sorted print of the code-first schema (run `npm run schema:print` after changes)', () => {
    const committed = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'schema.graphql'), 'utf8');
    expect(committed).toBe(printedSchema());
  });

  it('routes every root field to REST', () => {
    const fields = [
      ...Object.keys(schema.getQueryType()!.getFields()).map((f) => `Query.${f}`),
      ...Object.keys(schema.getMutationType()!.getFields()).map((f) => `Mutation.${f}`),
    ].sort();
    expect(fields).toEqual(Object.keys(restRoutes).sort());
  });

  it('describes every root field and argument (SOFA copies them into the OpenAPI document)', () => {
    const missing: string[] = [];
    for (const root of [schema.getQueryType()!, schema.getMutationType()!]) {
      for (const field of Object.values(root.getFields())) {
        if (!field.description) missing.push(`${root.name}.${field.name}`);
        for (const arg of field.args) if (!arg.description) missing.push(`${root.name}.${field.name}(${arg.name})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
