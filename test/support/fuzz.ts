import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { encodeCursor } from '../../src/core/pagination.ts';
import { MAX_FILE_BYTES, MAX_PAGE_MARKDOWN } from '../../src/modules/change-requests/content-changes.ts';
import type { RouteTable } from '../../src/rest/route-table.ts';

/**
 * A deterministic generator of malformed requests over the REST route table and the GraphQL schema:
 * hostile path segments, query values (forged cursors included) and body values of every wrong kind,
 * one argument at a time, plus well-typed but hostile GraphQL variables. Used by the fuzz test (in
 * process) and by the memory benchmark (against a server process).
 */
export type FuzzRequest =
  | { kind: 'rest'; method: string; path: string; body?: unknown; raw?: string; mayAccept?: boolean }
  | { kind: 'graphql'; query: string; variables: Record<string, unknown>; label: string; mayAccept?: boolean };

const deep = (n: number): unknown => (n === 0 ? 'x' : { a: deep(n - 1) });
const LONG = 'x'.repeat(20_000);

/** Values that are wrong for most arguments in some way: type, range, length, shape, encoding. */
export const BAD_JSON_VALUES: unknown[] = [
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

/** Bodies that are no JSON object at all. */
const BAD_RAW_BODIES = ['', 'null', '[]', '"x"', '{', '{"a":', '\u0000', `{"x":${'['.repeat(100)}${']'.repeat(100)}}`];

function rootField(schema: GraphQLSchema, key: string): GraphQLField<unknown, unknown> {
  const [root, name] = key.split('.');
  return (root === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[name];
}

/** Well-typed (but hostile) GraphQL values for an argument: wrong content within the right type. */
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

/** Every malformed request, in a fixed order. `ids` fills path parameters with IDs that exist. */
export function* malformedRequests(routes: RouteTable, schema: GraphQLSchema, ids: Record<string, string>): Generator<FuzzRequest> {
  for (const [key, route] of Object.entries(routes)) {
    const field = rootField(schema, key);
    const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const fill = (override: Record<string, string> = {}) =>
      `/v1${route.path.replace(/\{(\w+)\}/g, (_m, name: string) => override[name] ?? encodeURIComponent(ids[name] ?? 'unknown0000000000001'))}`;
    const others = field.args.filter((a) => !pathParams.includes(a.name));
    const isBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
    const rest = (path: string, body?: unknown, raw?: string): FuzzRequest => ({ kind: 'rest', method: route.method, path, body, raw });

    for (const param of pathParams) for (const segment of BAD_SEGMENTS) yield rest(fill({ [param]: segment }), isBody ? {} : undefined);
    if (isBody) {
      for (const raw of BAD_RAW_BODIES) yield rest(fill(), undefined, raw);
      for (const arg of others) for (const value of BAD_JSON_VALUES) yield rest(fill(), { [arg.name]: value });
      yield rest(fill(), Object.fromEntries(others.map((a, i) => [a.name, BAD_JSON_VALUES[i % BAD_JSON_VALUES.length]])));
    } else {
      for (const arg of others) {
        for (const value of BAD_QUERY_VALUES) yield rest(`${fill()}?${arg.name}=${encodeURIComponent(value)}`);
        yield rest(`${fill()}?${arg.name}=a&${arg.name}=b`);
      }
    }
  }

  for (const [operation, root] of [['query', schema.getQueryType()!], ['mutation', schema.getMutationType()!]] as const) {
    for (const field of Object.values(root.getFields())) {
      const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
      const call = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const selection = isObjectType(getNamedType(field.type)) ? '{ __typename }' : '';
      const query = `${operation}${defs ? `(${defs})` : ''} { ${field.name}${call ? `(${call})` : ''} ${selection} }`;
      const base = Object.fromEntries(field.args.map((a) => [a.name, ids[a.name] ?? typedHostileValues(a.type)[0]]));
      for (const arg of field.args) {
        for (const value of typedHostileValues(arg.type)) {
          yield { kind: 'graphql', query, variables: { ...base, [arg.name]: value }, label: `${field.name}(${arg.name}: ${JSON.stringify(value).slice(0, 100)})` };
        }
      }
    }
  }
}

/** A failure the fuzzers report: an answer ≥ 500, a REST failure without the error body, an internal GraphQL error. */
export function fuzzFailure(request: FuzzRequest, status: number, text: string): string | null {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (request.kind === 'rest') {
    const bad = status >= 500 || (status >= 400 && (body?.error?.code !== status || typeof body?.error?.message !== 'string'));
    return bad ? `${request.method} ${request.path.slice(0, 200)} ${request.raw ?? JSON.stringify(request.body ?? null).slice(0, 200)} → ${status} ${text.slice(0, 300)}` : null;
  }
  const internal = (body?.errors ?? []).some((e: any) => !e.extensions?.code || e.extensions.code === 'INTERNAL_SERVER_ERROR');
  return status >= 500 || internal ? `${request.label} → ${status} ${text.slice(0, 300)}` : null;
}

/**
 * Strings far over any declared limit (`sizes`, e.g. 100,000 and 1,000,000 characters) in every place a
 * string goes: each path segment, each query parameter, each body field — a string argument, the items of
 * a string list, the string fields of an input object, and inside `JSON` arguments — and each string
 * variable of every GraphQL root field. Each must be refused (4xx) before any work that grows with it.
 */
export function* hugeStringRequests(routes: RouteTable, schema: GraphQLSchema, ids: Record<string, string>, sizes: number[]): Generator<FuzzRequest> {
  for (const size of sizes) {
    const huge = 'x'.repeat(size);
    for (const [key, route] of Object.entries(routes)) {
      const field = rootField(schema, key);
      const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const fill = (override: Record<string, string> = {}) =>
        `/v1${route.path.replace(/\{(\w+)\}/g, (_m, name: string) => override[name] ?? encodeURIComponent(ids[name] ?? 'unknown0000000000001'))}`;
      const isBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
      const queryArgs = new Set(route.query ?? []);
      for (const param of pathParams) yield { kind: 'rest', method: route.method, path: fill({ [param]: huge }), body: isBody ? {} : undefined };
      for (const arg of field.args.filter((a) => !pathParams.includes(a.name))) {
        if (!isBody || queryArgs.has(arg.name)) {
          yield { kind: 'rest', method: route.method, path: `${fill()}?${arg.name}=${huge}`, body: isBody ? {} : undefined };
          continue;
        }
        for (const value of hugeValuesFor(arg.type, huge)) yield { kind: 'rest', method: route.method, path: fill(), body: { [arg.name]: value } };
      }
      for (const { body, mayAccept } of INSIDE_JSON[key]?.(huge, ids) ?? []) yield { kind: 'rest', method: route.method, path: fill(), body, mayAccept };
    }
    for (const [operation, root] of [['query', schema.getQueryType()!], ['mutation', schema.getMutationType()!]] as const) {
      for (const field of Object.values(root.getFields())) {
        const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
        const call = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
        const selection = isObjectType(getNamedType(field.type)) ? '{ __typename }' : '';
        const query = `${operation}${defs ? `(${defs})` : ''} { ${field.name}${call ? `(${call})` : ''} ${selection} }`;
        const base = Object.fromEntries(field.args.map((a) => [a.name, ids[a.name] ?? typedHostileValues(a.type)[0]]));
        for (const arg of field.args) {
          for (const value of hugeValuesFor(arg.type, huge)) {
            yield { kind: 'graphql', query, variables: { ...base, [arg.name]: value }, label: `${field.name}(${arg.name}: <${size} characters>)` };
          }
        }
      }
    }
  }
}

/**
 * `huge` where the services read strings inside `JSON` arguments, in the shapes they take. `mayAccept`:
 * the field takes that much (a page's markdown, a file, a spec's text), so a 2xx is right — still
 * within the second.
 */
const INSIDE_JSON: Record<string, (huge: string, ids: Record<string, string>) => { body: Record<string, unknown>; mayAccept?: boolean }[]> = {
  'Mutation.updateChangeRequestContent': (huge) => {
    const page = (extra: Record<string, unknown>) => ({ changes: [{ operation: 'insert_page', title: 'T', document: { markdown: 'x' }, ...extra }] });
    return [
      { body: page({ title: huge }) },
      { body: page({ slug: huge }) },
      { body: page({ description: huge }) },
      { body: page({ emoji: huge }) },
      { body: page({ ref: huge }) },
      { body: page({ into: huge }) },
      { body: page({ document: { markdown: huge } }), mayAccept: huge.length <= MAX_PAGE_MARKDOWN },
      { body: { changes: [{ operation: 'update_page', page: huge }] } },
      { body: { changes: [{ operation: 'revert_page', page: 'p', revision: huge }] } },
      { body: { changes: [{ operation: 'insert_files', files: [{ name: huge, contentType: 'text/plain', base64: '' }] }] } },
      { body: { changes: [{ operation: 'insert_files', files: [{ name: 'a', contentType: huge, base64: '' }] }] } },
      // 'x'.repeat(n) is base64 of 3n/4 bytes: a file within the limit is a file.
      { body: { changes: [{ operation: 'insert_files', files: [{ name: 'a', contentType: 'text/plain', base64: huge }] }] }, mayAccept: (huge.length * 3) / 4 <= MAX_FILE_BYTES },
    ];
  },
  'Mutation.createOpenAPISpec': (huge) => [{ body: { slug: 'huge', source: { url: huge } } }, { body: { slug: 'huge-text', source: { text: huge } }, mayAccept: true }],
  'Mutation.putOpenAPISpec': (huge) => [{ body: { source: { url: huge } } }, { body: { source: { text: huge } }, mayAccept: true }],
  'Mutation.updateSpaceCustomFields': (huge) => [{ body: { values: { owner: { value: huge } } } }, { body: { values: { [huge]: { value: 'x' } } } }],
  'Mutation.updateSiteAdaptiveSchema': (huge) => [
    { body: { jsonSchema: { type: 'object', properties: { a: { type: 'boolean', description: huge } }, additionalProperties: false } } },
    { body: { jsonSchema: { type: 'object', properties: { [huge]: { type: 'boolean', description: 'x' } }, additionalProperties: false } } },
    { body: { jsonSchema: { $schema: huge, type: 'object', properties: {}, additionalProperties: false } } },
  ],
  'Mutation.publishIntegration': (huge, ids) => {
    const base = { runtime: 'v2', title: 'Huge', description: 'Huge', scopes: [], organization: ids.organizationId, previewImages: [], script: 'x' };
    return [
      { body: { ...base, blocks: [{ id: 'b', title: huge }] } },
      { body: { ...base, blocks: [{ id: 'b', title: 'Block', urlUnfurl: [huge] }] } },
      { body: { ...base, contentSources: [{ id: 'c', title: 'Source', configuration: { componentId: huge } }] } },
      { body: { ...base, externalLinks: [{ url: huge, label: 'x' }] } },
      { body: { ...base, configurations: { account: { properties: { [huge]: {} } } } } },
      { body: { ...base, contentSecurityPolicy: huge } },
      { body: { ...base, contentSecurityPolicy: { 'script-src': huge } } },
      { body: { ...base, secrets: { key: huge } } },
      { body: { ...base, secrets: { [huge]: 'x' } } },
      { body: { ...base, script: huge }, mayAccept: true },
    ];
  },
  'Mutation.updateOrganizationTeamMembers': (huge) => [{ body: { memberships: { [huge]: { role: 'member' } } } }, { body: { memberships: { someone: { role: huge } } } }],
};

/** Values of a GraphQL input type that carry `huge` wherever the type holds a string. */
function hugeValuesFor(type: GraphQLInputType, huge: string, depth = 0): unknown[] {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return hugeValuesFor(nullable.ofType as GraphQLInputType, huge, depth).map((v) => [v]);
  const named = getNamedType(type);
  if (isInputObjectType(named)) {
    if (depth > 2) return [];
    return Object.values(named.getFields()).flatMap((f) => hugeValuesFor(f.type, huge, depth + 1).map((v) => ({ [f.name]: v })));
  }
  if (isScalarType(named) && named.name === 'JSON') return [huge, [huge], { x: huge }, { [huge]: 1 }];
  if (isScalarType(named) && ['Int', 'Float', 'Boolean'].includes(named.name)) return [];
  return [huge];
}

/**
 * A request to one of the modules' HTTP routes (HttpRoute: SAML, signed downloads, PDFs, the reader):
 * `expect` is `refused` (a 4xx, `status` when given) or `answered` (anything under 500: the route's
 * normal answer is right too — the reader's HTML 404 page for a path it does not have, a page that
 * ignores a cookie it cannot use).
 */
export interface HttpProbe {
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  expect: 'refused' | 'answered';
  status?: number;
}

/** How a route is reached with inputs that exist: one sample per kind of request the route answers. */
export interface HttpRouteSample {
  /** What the sample is, for the labels (`page`, `search`, `markdown`…). */
  name: string;
  /** Values of the template's parameters that reach real records (as written in a URL). */
  params: Record<string, string>;
  /** The query string a valid request carries (a signed URL's parameters). */
  query?: Record<string, string>;
  /** Other query parameters the route reads. */
  reads?: string[];
  /** Cookies the route reads. */
  cookies?: string[];
  /** The form fields the route reads from its body (application/x-www-form-urlencoded), with valid-looking values. */
  form?: Record<string, string>;
}

/** The longest URL the edge serves (http/body-limit.ts's MAX_URL_LENGTH, repeated: a test states it). */
const URL_LIMIT = 8192;

/**
 * Strings far over any limit (`sizes`) in every input of every HTTP route: each path segment and each
 * query parameter (a URL past 8,192 characters: a 414 at the edge), each cookie, each form field and a
 * JSON body; and, where the URL still fits, each path segment and query parameter as long as the limit
 * allows (what the route itself must bound), and a query string just past the limit (414).
 */
/** The URL of a sample as it is (what the probes then spoil one input at a time). */
export function sampleUrl(base: string, route: { path: string }, sample: HttpRouteSample): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => sample.params[name]);
  const search = new URLSearchParams(sample.query ?? {}).toString();
  return `${base}${path}${search ? `?${search}` : ''}`;
}

export function* hugeHttpRouteRequests(base: string, routes: { path: string; methods: readonly string[] }[], samplesOf: (path: string) => HttpRouteSample[], sizes: number[]): Generator<HttpProbe> {
  for (const route of routes) {
    for (const sample of samplesOf(route.path)) {
      const method = route.methods[0];
      const tag = `${method} ${route.path} (${sample.name})`;
      const build = (params: Record<string, string>, query: [string, string][]) => {
        const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? sample.params[name]);
        const search = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        return `${base}${path}${search ? `?${search}` : ''}`;
      };
      const validQuery = Object.entries(sample.query ?? {});
      const valid = build({}, validQuery);
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const queryNames = [...new Set([...validQuery.map(([k]) => k), ...(sample.reads ?? [])])];
      const withQuery = (name: string, value: string) => build({}, [...validQuery.filter(([k]) => k !== name), [name, value]]);
      const form = sample.form;
      const formBody = form ? new URLSearchParams(form).toString() : undefined;
      const formHeaders: Record<string, string> = form ? { 'content-type': 'application/x-www-form-urlencoded' } : {};
      const probe = (label: string, url: string, extra: Partial<HttpProbe> = {}): HttpProbe => ({
        label: `${tag} ${label}`,
        method,
        url,
        headers: { ...formHeaders },
        body: formBody,
        expect: 'answered',
        ...extra,
      });

      // As long as the URL allows: what the route reads itself (the edge lets these through).
      const room = URL_LIMIT - valid.length - 64;
      const near = 'x'.repeat(Math.max(1, room));
      for (const name of names) yield probe(`{${name}} of ${near.length} characters`, build({ [name]: near }, validQuery));
      for (const name of queryNames) yield probe(`?${name} of ${near.length} characters`, withQuery(name, near));
      yield probe(`a query string of ${URL_LIMIT + 1000} characters`, withQuery('padding', 'x'.repeat(URL_LIMIT + 1000)), { expect: 'refused', status: 414 });

      for (const size of sizes) {
        const huge = 'x'.repeat(size);
        for (const name of names) yield probe(`{${name}} of ${size} characters`, build({ [name]: huge }, validQuery), { expect: 'refused', status: 414 });
        for (const name of queryNames) yield probe(`?${name} of ${size} characters`, withQuery(name, huge), { expect: 'refused', status: 414 });
        // In process there is no header limit (over the wire Node's 16 KiB answers 431): the route must
        // bound the cookie itself — ignoring it, or refusing.
        for (const name of sample.cookies ?? []) yield probe(`cookie ${name} of ${size} characters`, valid, { headers: { ...formHeaders, cookie: `${name}=${huge}` } });
        if (form) {
          for (const field of Object.keys(form)) {
            yield probe(`form field ${field} of ${size} characters`, valid, { body: new URLSearchParams({ ...form, [field]: huge }).toString(), expect: 'refused' });
          }
          yield probe(`a JSON body with ${Object.keys(form).join(', ')} of ${size} characters`, valid, {
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(Object.fromEntries(Object.keys(form).map((f) => [f, huge]))),
            expect: 'refused',
          });
          yield probe(`a form body of one ${size}-character name`, valid, { body: `${huge}=x`, expect: 'refused' });
        }
      }
      for (const name of sample.cookies ?? []) yield probe(`cookie ${name} of 6,000 characters`, valid, { headers: { ...formHeaders, cookie: `${name}=${'x'.repeat(6000)}` } });
    }
  }
}
