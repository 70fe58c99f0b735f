import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { restRoutes, schema } from '../src/graphql/schema.ts';
import { encodeCursor } from '../src/lib/pagination.ts';
import { newMember, newOrganization, useHarness, type Caller, type HttpResult } from './support/harness.ts';

/**
 * Walks every REST route and every GraphQL root field with malformed input — hostile path segments,
 * query strings and body fields of every wrong kind — as an admin, a guest and a reader, and fails on
 * any answer ≥ 500 (or a REST failure without the documented error body). A small deterministic
 * generator over the route table and the schema: each input kind is tried for each argument in turn.
 */
const h = useHarness();

const deep = (n: number): unknown => (n === 0 ? 'x' : { a: deep(n - 1) });
const LONG = 'x'.repeat(20_000);

/** Values that are wrong for most arguments in some way: type, range, length, shape, encoding. */
const BAD_JSON_VALUES: unknown[] = [
  null,
  '',
  ' ',
  'x',
  LONG,
  '\u0000',
  '😀'.repeat(300),
  "'; DROP TABLE \"User\"; --",
  '../../etc/passwd',
  0,
  -1,
  2 ** 31,
  1.5,
  1e308,
  true,
  [],
  ['x'],
  [null],
  Array.from({ length: 2000 }, (_, i) => `v${i}`),
  {},
  { type: 'space' },
  { before: { type: 'space', space: '' } },
  deep(20),
];

/** Hostile path segments (already URL-encoded where needed). */
const BAD_SEGMENTS = ['%20', '%00', '%FF', '%2F', '%252e', 'x'.repeat(3000), '%F0%9F%98%80', "'", '*', '%22%3E%3Cscript%3E'];

/** Hostile query-string values. */
const BAD_QUERY_VALUES = [
  '',
  '-1',
  '0',
  '1001',
  '99999999999999999999',
  '1e309',
  'NaN',
  'abc',
  '%00',
  'x'.repeat(3000),
  encodeCursor(['-271821-04-20T00:00:00.000Z', 'a']),
  encodeCursor(['a\u0000', 'b']),
  '!!!',
];

interface Failure {
  request: string;
  status: number;
  text: string;
}

function checkRest(request: string, res: HttpResult, failures: Failure[]) {
  const bad = res.status >= 500 || (res.status >= 400 && (res.body?.error?.code !== res.status || typeof res.body?.error?.message !== 'string'));
  if (bad) failures.push({ request, status: res.status, text: res.text.slice(0, 300) });
}

function checkGraphql(request: string, res: HttpResult, failures: Failure[]) {
  const internal = (res.body?.errors ?? []).some((e: any) => !e.extensions?.code || e.extensions.code === 'INTERNAL_SERVER_ERROR');
  if (res.status >= 500 || internal) failures.push({ request, status: res.status, text: res.text.slice(0, 300) });
}

const rootFieldOf = (key: string): GraphQLField<unknown, unknown> => {
  const [root, name] = key.split('.');
  return (root === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[name];
};

/** A well-typed (but hostile) GraphQL value for an argument: wrong content within the right type. */
function typedHostileValues(type: GraphQLInputType): unknown[] {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return [[], typedHostileValues(nullable.ofType as GraphQLInputType).slice(0, 3)];
  const named = getNamedType(type);
  if (isEnumType(named)) return [named.getValues()[0].value];
  if (isInputObjectType(named)) return [{}];
  if (isScalarType(named)) {
    switch (named.name) {
      case 'Int':
        return [-1, 0, 2 ** 31 - 1];
      case 'Float':
        return [-1, 1e308];
      case 'Boolean':
        return [true, false];
      case 'JSON':
        return [null, 'x', [], {}, deep(10), { x: { value: LONG } }];
      case 'DateTime':
        return ['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z'];
      default:
        return ['', ' ', LONG, '😀', "'", 'unknownId0000000000001'];
    }
  }
  return [null];
}

const selectionFor = (field: GraphQLField<unknown, unknown>) => (isObjectType(getNamedType(field.type)) ? '{ __typename }' : '');
const typeString = (arg: GraphQLArgument) => arg.type.toString();

describe('every route with malformed input', () => {
  it('never answers ≥ 500, and every REST failure has the error body', async () => {
    const { admin, organizationId: o } = await newOrganization(h, 'Fuzzed');
    const reader = await newMember(h, o, 'read');
    const guest = await newMember(h, o, null);
    const space = (await admin.rest('POST', `/v1/orgs/${o}/spaces`, { title: 'S' })).body;
    const collection = (await admin.rest('POST', `/v1/orgs/${o}/collections`, { title: 'C' })).body;
    const team = (await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'T', members: [reader.userId] })).body;
    await admin.rest('POST', `/v1/orgs/${o}/custom-fields`, { name: 'owner', type: 'text' });
    const link = (await admin.rest('POST', `/v1/orgs/${o}/link-invites`, { role: 'read' })).body;
    const saml = (await admin.rest('POST', `/v1/orgs/${o}/saml`, { label: 'IdP' })).body;
    const ids: Record<string, string> = {
      organizationId: o,
      spaceId: space.id,
      collectionId: collection.id,
      teamId: team.id,
      userId: reader.userId,
      inviteId: link.id,
      samlProviderId: saml.id,
      fieldName: 'owner',
      customFieldName: 'owner',
      emailDomain: 'example.com',
    };
    const callers: Caller[] = [admin, reader, guest];
    const failures: Failure[] = [];
    let sent = 0;

    const routes = Object.entries(restRoutes);
    for (const [key, route] of routes) {
      const field = rootFieldOf(key);
      const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const fill = (override: Record<string, string> = {}) =>
        `/v1${route.path.replace(/\{(\w+)\}/g, (_m, name: string) => override[name] ?? encodeURIComponent(ids[name] ?? 'unknown0000000000001'))}`;
      const others = field.args.filter((a) => !pathParams.includes(a.name));
      const isBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
      const caller = callers[sent % callers.length];
      const send = async (path: string, body?: unknown, raw?: string) => {
        sent += 1;
        const c = callers[sent % callers.length];
        const res = raw === undefined ? await c.rest(route.method, path, body) : await c.raw(route.method, path, raw);
        checkRest(`${route.method} ${path.slice(0, 200)} ${raw ?? JSON.stringify(body ?? null).slice(0, 200)}`, res, failures);
      };

      // Hostile path segments, one parameter at a time.
      for (const param of pathParams) for (const segment of BAD_SEGMENTS) await send(fill({ [param]: segment }), isBody ? {} : undefined);
      if (isBody) {
        // Bodies that are no JSON object at all.
        for (const raw of ['', 'null', '[]', '"x"', '{', '{"a":', '\u0000', `{"x":${'['.repeat(100)}${']'.repeat(100)}}`]) await send(fill(), undefined, raw);
        // Each argument with each wrong value, the others absent.
        for (const arg of others) for (const value of BAD_JSON_VALUES) await send(fill(), { [arg.name]: value });
        // Every argument wrong at once.
        await send(fill(), Object.fromEntries(others.map((a, i) => [a.name, BAD_JSON_VALUES[i % BAD_JSON_VALUES.length]])));
      } else {
        for (const arg of others) {
          for (const value of BAD_QUERY_VALUES) await send(`${fill()}?${arg.name}=${encodeURIComponent(value)}`);
          await send(`${fill()}?${arg.name}=a&${arg.name}=b`);
        }
      }
      void caller;
    }

    // GraphQL: every root field with well-typed hostile values, one argument at a time.
    for (const [rootName, root] of [['query', schema.getQueryType()!], ['mutation', schema.getMutationType()!]] as const) {
      for (const field of Object.values(root.getFields())) {
        const defs = field.args.map((a) => `$${a.name}: ${typeString(a)}`).join(', ');
        const call = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
        const query = `${rootName}${defs ? `(${defs})` : ''} { ${field.name}${call ? `(${call})` : ''} ${selectionFor(field)} }`;
        const base = Object.fromEntries(field.args.map((a) => [a.name, ids[a.name] ?? typedHostileValues(a.type)[0]]));
        for (const arg of field.args) {
          for (const value of typedHostileValues(arg.type)) {
            sent += 1;
            const res = await callers[sent % callers.length].gql(query, { ...base, [arg.name]: value });
            checkGraphql(`${field.name}(${arg.name}: ${JSON.stringify(value).slice(0, 100)})`, res, failures);
          }
        }
      }
    }

    console.log(`fuzz: ${sent} requests, ${failures.length} failures`);
    expect(sent).toBeGreaterThan(3000);
    expect(failures.slice(0, 20)).toEqual([]);
  });
});
