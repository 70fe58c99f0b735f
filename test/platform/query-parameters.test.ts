// Issue 39 §4: query parameters GitBook types (`unmasked` boolean, `format` enum, …) are validated on
// every route: a wrong value is a 400 naming the parameter. Walks GitBook's OpenAPI document: every
// operation we serve, every query parameter it types as a boolean, an enum or an integer.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { restRoutes } from '../../src/schema.ts';
import { buildFuzzWorld } from '../support/fuzz-world.ts';
import { buildMember, buildOrganization } from '../factories.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();
type Json = any;

const spec: Json = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../node_modules/@gitbook/api/spec/openapi.json'), 'utf8'));
const deref = (node: Json): Json => {
  let cur = node;
  for (let i = 0; cur?.$ref && i < 10; i++) cur = cur.$ref.split('/').slice(1).reduce((o: Json, k: string) => o[k], spec);
  return cur;
};
const operations = new Map<string, Json>();
for (const [, item] of Object.entries<Json>(spec.paths)) {
  for (const [method, op] of Object.entries<Json>(item)) if (op?.operationId) operations.set(op.operationId, { ...op, method, shared: item.parameters ?? [] });
}

/** What the server checks of a parameter's schema (src/rest/gitbook-query-checks.ts), or null. */
function checkedType(schema: Json): 'boolean' | 'integer' | string[] | null {
  const s = deref(schema);
  if (!s) return null;
  if (Array.isArray(s.enum) && s.enum.every((v: unknown) => typeof v === 'string')) return s.enum;
  if (s.type === 'boolean') return 'boolean';
  if (s.type === 'integer') return 'integer';
  return null;
}

/** The table gitbook-query-types.ts holds: every operation we serve, its checked query parameters. */
function expectedTable(): Record<string, Record<string, 'boolean' | 'integer' | string[]>> {
  const table: Record<string, Record<string, 'boolean' | 'integer' | string[]>> = {};
  const served = [...new Set(Object.values(restRoutes).map((r) => r.operationId).filter((id): id is string => Boolean(id && operations.has(id))))].sort();
  for (const id of served) {
    const op = operations.get(id);
    const params: Record<string, 'boolean' | 'integer' | string[]> = {};
    for (const param of [...op.shared, ...(op.parameters ?? [])].map(deref)) {
      if (param.in !== 'query') continue;
      const type = checkedType(param.schema);
      if (type) params[param.name] = type;
    }
    if (Object.keys(params).length) table[id] = params;
  }
  return table;
}

const TABLE_FILE = path.join(import.meta.dirname, '../../src/rest/gitbook-query-types.ts');
function tableSource(): string {
  const body = JSON.stringify(expectedTable(), null, 2);
  return `// Generated from @gitbook/api's OpenAPI document by test/platform/query-parameters.test.ts
// (UPDATE_GITBOOK_QUERY_TYPES=1 npx vitest run --project in-process test/platform/query-parameters.test.ts):
// the query parameters GitBook types as booleans, enums and integers, per operation we serve.
export type GitBookQueryType = 'boolean' | 'integer' | readonly string[];

export const GITBOOK_QUERY_TYPES: Readonly<Record<string, Readonly<Record<string, GitBookQueryType>>>> = ${body};
`;
}
if (process.env.UPDATE_GITBOOK_QUERY_TYPES) writeFileSync(TABLE_FILE, tableSource());

/** A value the parameter's type refuses, or null when it types nothing to check. */
function wrongValue(schema: Json): string | null {
  const s = deref(schema);
  if (!s) return null;
  if (Array.isArray(s.enum) && s.enum.every((v: unknown) => typeof v === 'string')) return 'not-one-of-them';
  if (s.type === 'boolean') return 'maybe';
  if (s.type === 'integer') return 'abc';
  return null;
}

describe("GitBook's typed query parameters", () => {
  it('the table the server checks them by is the one GitBook\'s document gives (regenerate: UPDATE_GITBOOK_QUERY_TYPES=1)', () => {
    expect(readFileSync(TABLE_FILE, 'utf8')).toBe(tableSource());
  });

  it('a wrong value is a 400 naming the parameter, on every route that serves a GitBook operation', { timeout: 240_000 }, async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Params');
    const reader = await buildMember(h, o, 'read');
    const ids = await buildFuzzWorld(
      async (method, p, body) => {
        const res = await admin.rest(method, p, body);
        if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${res.text}`);
        return res.body;
      },
      o,
      reader.userId,
    );
    const failures: string[] = [];
    let checked = 0;
    for (const route of Object.values(restRoutes)) {
      const op = route.operationId ? operations.get(route.operationId) : undefined;
      if (!op) continue;
      const url = `/v1${route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(ids[name] ?? 'unknown0000000000001'))}`;
      for (const param of [...op.shared, ...(op.parameters ?? [])].map(deref)) {
        if (param.in !== 'query') continue;
        const value = wrongValue(param.schema);
        if (value === null) continue;
        checked++;
        const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
        const res = await admin.rest(route.method, `${url}?${param.name}=${value}`, body);
        const named = res.status === 400 && String(res.body?.error?.message ?? '').includes(param.name);
        if (!named) failures.push(`${route.method} ${route.path} ?${param.name}=${value} → ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  });
});
