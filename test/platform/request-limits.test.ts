import { describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import { DEFAULT_LIMITS } from '../../src/config.ts';
import { estimateListItems } from '../../src/graphql/limits.ts';
import { schema } from '../../src/schema.ts';
import { restError } from '../support/assertions.ts';
import { buildOrganization, buildUser } from '../factories.ts';
import { ADMIN_TOKEN, BASE, useHarness, type HttpResult } from '../support/harness.ts';

/** Requests that cost the server without bound are refused: bodies (413) and GraphQL operations (400). */
const h = useHarness();
const MAX_BODY = DEFAULT_LIMITS.maxBodyBytes;

async function send(method: string, path: string, init: { token?: string; type?: string; body?: BodyInit; headers?: Record<string, string> }): Promise<HttpResult> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.type) headers['content-type'] = init.type;
  const res = await h.app.fetch(`${BASE}${path}`, { method, headers, body: init.body, duplex: 'half' } as RequestInit);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, text, body, headers: res.headers };
}

/** A body streamed in 64 KiB chunks without a Content-Length, counting how much of it was pulled. */
function streamedBody(totalBytes: number) {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= totalBytes) return controller.close();
      state.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, state };
}

describe('request bodies over MAX_BODY_BYTES', () => {
  it('REST: a declared 50 MB body is refused with 413 before it is read', async () => {
    const user = await buildUser(h);
    const { stream, state } = streamedBody(50 * 1024 * 1024);
    const res = await send('POST', '/v1/orgs', { token: user.token, type: 'application/json', body: stream, headers: { 'content-length': String(50 * 1024 * 1024) } });
    restError(res, 413);
    expect(state.pulled).toBeLessThanOrEqual(2 * 64 * 1024);
  });

  it('REST: a streamed body without Content-Length stops being read at the cap (413)', async () => {
    const user = await buildUser(h);
    const { stream, state } = streamedBody(50 * 1024 * 1024);
    const res = await send('POST', '/v1/orgs', { token: user.token, type: 'application/json', body: stream });
    expect(restError(res, 413)).toContain(String(MAX_BODY));
    // Read up to the cap (plus what the stream buffered ahead), never the 50 MB.
    expect(state.pulled).toBeLessThan(2 * MAX_BODY);
  });

  it('REST: a body just under the cap is read (and judged on its content)', async () => {
    const user = await buildUser(h);
    const body = JSON.stringify({ title: 'Under the cap', padding: 'x'.repeat(MAX_BODY - 100) });
    const res = await user.raw('POST', '/v1/orgs', body);
    expect(res.status, res.text.slice(0, 200)).toBe(201);
  });

  it('GraphQL: a streamed body over the cap is refused with 413', async () => {
    const user = await buildUser(h);
    const { stream, state } = streamedBody(20 * 1024 * 1024);
    const res = await send('POST', '/graphql', { token: user.token, type: 'application/json', body: stream });
    expect(res.status, res.text).toBe(413);
    expect((res.body as any).errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    expect(state.pulled).toBeLessThan(2 * MAX_BODY);
  });

  it('SAML ACS (no token): a large form is refused with 413 without being read whole', async () => {
    const { stream, state } = streamedBody(50 * 1024 * 1024);
    const res = await send('POST', '/sso/saml/anyProvider0000000001/acs', { type: 'application/x-www-form-urlencoded', body: stream });
    restError(res, 413);
    expect(state.pulled).toBeLessThan(2 * MAX_BODY);
  });

  it('admin route: 413 before the admin token is even looked at', async () => {
    const res = await send('POST', '/v1/admin/users', {
      token: ADMIN_TOKEN,
      type: 'application/json',
      body: 'x',
      headers: { 'content-length': String(MAX_BODY + 1) },
    });
    restError(res, 413);
  });
});

describe('GraphQL operation limits', () => {
  const gql = async (token: string, query: string, variables?: Record<string, unknown>) =>
    send('POST', '/graphql', { token, type: 'application/json', body: JSON.stringify({ query, variables }) });
  const refused = (res: HttpResult, message: RegExp) => {
    expect(res.status, res.text).toBe(400);
    const error = (res.body as any).errors[0];
    expect(error.extensions.code).toBe('BAD_REQUEST');
    expect(error.message).toMatch(message);
    expect((res.body as any).data ?? null).toBeNull();
  };
  const g = DEFAULT_LIMITS.graphql;

  it('refuses each limit with 400 and a message naming it; the operation at the limit passes', async () => {
    const { admin } = await buildOrganization(h, 'Limits');
    // aliases
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: user { id }`).join(' ')} }`;
    expect((await gql(admin.token, aliases(g.maxAliases))).status).toBe(200);
    refused(await gql(admin.token, aliases(g.maxAliases + 1)), /Aliases limit of 15/);
    // tokens
    const fields = (n: number) => `{ user { ${Array.from({ length: n }, () => 'id').join(' ')} } }`;
    expect((await gql(admin.token, fields(g.maxTokens - 6))).status).toBe(200);
    refused(await gql(admin.token, fields(g.maxTokens)), /more than 2000 tokens/);
    // directives
    const directives = (n: number) => `{ user { id ${Array.from({ length: n }, () => '@include(if: true)').join(' ')} } }`;
    expect((await gql(admin.token, directives(g.maxDirectives))).status).toBe(200);
    refused(await gql(admin.token, directives(g.maxDirectives + 1)), /Directives limit of 50/);
    // depth: __type(1) fields(2) type(3), then one level per ofType, and `name` at the bottom.
    const ofTypes = (n: number, leaf = 'name') => `{ __type(name: "Query") { fields { type { ${'ofType { '.repeat(n)}${leaf}${' }'.repeat(n)} } } } }`;
    expect((await gql(admin.token, ofTypes(g.maxDepth - 4))).status).toBe(200);
    refused(await gql(admin.token, ofTypes(g.maxDepth - 3)), /depth limit of 12 exceeded, found 13/);
    // cost: the same selection, many times over near the bottom (objects 2, scalars 1, ×1.5 per level).
    refused(await gql(admin.token, ofTypes(7, Array.from({ length: 120 }, () => 'name').join(' '))), /Cost limit of 5000 exceeded/);
    // The schema stays explorable: GraphiQL's introspection query is deeper than the limit and passes.
    const { getIntrospectionQuery } = await import('graphql');
    expect((await gql(admin.token, getIntrospectionQuery())).status).toBe(200);
  });

  it('refuses an operation that may return more list items than the limit, counting nested pages', async () => {
    const { admin } = await buildOrganization(h, 'Items');
    // 40 organizations × 50 members = 2000 items + 40 → over 2000.
    refused(await gql(admin.token, `{ organizations(limit: 40) { items { members(limit: 50) { count } } } }`), /2040 list items.*2000/);
    // The same through a variable.
    refused(await gql(admin.token, `query($n: Int) { organizations(limit: $n) { items { members(limit: 50) { count } } } }`, { n: 40 }), /2040/);
    // Aliases add up.
    refused(await gql(admin.token, `{ a: organizations(limit: 1000) { count } b: organizations(limit: 1000) { count } c: organizations(limit: 1) { count } }`), /2001/);
    // Exactly at the limit passes.
    const atLimit = await gql(admin.token, `{ organizations(limit: 40) { items { members(limit: 49) { count } } } }`);
    expect(atLimit.status, atLimit.text).toBe(200);
    // Default pages nested two deep (50 + 50 × 50) are over it: nested lists name their page size.
    refused(await gql(admin.token, `{ organizations { items { teams { items { id } } } } }`), /2550/);
    expect(atLimit.status, atLimit.text).toBe(200);
    // REST lists are fixed shapes with limit ≤ 1000: not subject to it.
    expect((await admin.rest('GET', '/v1/orgs?limit=1000')).status).toBe(200);
  });

  it('levels of one page tree add up instead of multiplying (each page sits at one level)', () => {
    const estimate = (query: string) => estimateListItems(parse(query), schema.getQueryType(), schema.getMutationType(), null, {});
    // Five levels of 10 (unpaged lists are assumed 10 long) rather than 10 + 100 + … + 100,000.
    expect(estimate('{ space(spaceId: "s") { content { pages { pages { pages { pages { pages { id } } } } } } } }')).toBe(50);
    // A page of spaces still multiplies each tree, and the files beside it: 20 + 20 × (10 + 10 + 10).
    expect(estimate('{ organizationSpaces(organizationId: "o", limit: 20) { items { content { pages { pages { id } } files { id } } } } }')).toBe(620);
    // One page's children are a first level: 10, then 10 for the level below.
    expect(estimate('{ space(spaceId: "s") { content { page(id: "p") { pages { pages { id } } } } } }')).toBe(20);
  });
});

describe('configurable limits', () => {
  const small = useHarness({
    limits: { maxBodyBytes: 2048, maxInputDepth: 4, graphql: { ...DEFAULT_LIMITS.graphql, maxAliases: 1, maxDepth: 3, maxListItems: 100 } },
  });
  it('apply as configured', async () => {
    const user = await buildUser(small);
    const post = (body: string) => small.app.fetch(`${BASE}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body });
    expect((await post(JSON.stringify({ query: '{ a: user { id } }' }))).status).toBe(200);
    expect((await post(JSON.stringify({ query: '{ a: user { id } b: user { id } }' }))).status).toBe(400);
    expect((await post(JSON.stringify({ query: '{ organizations(limit: 100) { count } }' }))).status).toBe(200);
    expect((await post(JSON.stringify({ query: '{ organizations(limit: 101) { count } }' }))).status).toBe(400);
    expect((await post(JSON.stringify({ query: '{ organizations { items { members(limit: 1) { count } } } }' }))).status).toBe(400);
    expect((await post(JSON.stringify({ query: '{ user { id } }', variables: { x: { a: { b: { c: 1 } } } } }))).status).toBe(200);
    expect((await post(JSON.stringify({ query: '{ user { id } }', variables: { x: { a: { b: { c: { d: { e: 1 } } } } } } }))).status).toBe(400);
    expect((await post(JSON.stringify({ query: '{ user { id } }', padding: 'x'.repeat(3000) }))).status).toBe(413);
    const rest = await small.app.fetch(`${BASE}/v1/orgs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(3000) }),
    });
    expect(rest.status).toBe(413);
  });
});
