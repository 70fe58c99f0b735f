import { describe, expect, it } from 'vitest';
import { restRoutes } from '../../src/schema.ts';
import { encodeCursor } from '../../src/core/pagination.ts';
import { gqlError, restError } from '../support/assertions.ts';
import { buildOrganization } from '../factories.ts';
import { BASE, useHarness, type HttpResult } from '../support/harness.ts';

/** Inputs a hostile client found that reached a 500: each must now be a 4xx with the error body. */
const h = useHarness();

async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Hostile');
  const space = (await admin.rest('POST', `/v1/orgs/${o}/spaces`, { title: 'S' })).body;
  const collection = (await admin.rest('POST', `/v1/orgs/${o}/collections`, { title: 'C' })).body;
  const team = (await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'T' })).body;
  return { admin, o, space, collection, team };
}

/** Every route's path with real-looking IDs, `{param}` → `x`. */
const samplePath = (path: string) => path.replace(/\{\w+\}/g, 'abcdefghij0123456789');

describe('REST paths with a trailing slash or a dot segment', () => {
  it('answer 404 with the error body on every route, never a 500', async () => {
    const { admin } = await setup();
    const paths = new Set<string>();
    for (const route of Object.values(restRoutes)) {
      const path = samplePath(route.path);
      paths.add(`${route.method} /v1${path}/`);
      paths.add(`${route.method} /v1${path}/.`);
      paths.add(`${route.method} /v1${path}/..`);
      paths.add(`${route.method} /v1${path}/%2e`);
    }
    expect(paths.size).toBeGreaterThan(200);
    for (const entry of paths) {
      const [method, path] = entry.split(' ');
      const res = await admin.rest(method, path, method === 'GET' ? undefined : {});
      expect(res.status, `${entry} → ${res.status} ${res.text.slice(0, 200)}`).toBeLessThan(500);
      expect(res.headers.get('content-type') ?? '', entry).toContain('application/json');
      expect(res.body?.error?.code, entry).toBe(res.status);
    }
    // The reported ones, exactly.
    restError(await admin.rest('GET', '/v1/orgs/'), 404);
    restError(await admin.rest('GET', '/v1/orgs/.'), 404);
  });
});

describe('a NUL byte in an SSO path', () => {
  it.each([
    ['GET', '/sso/saml/%00/start'],
    ['GET', '/sso/saml/%00'],
    ['POST', '/sso/saml/%00/acs'],
  ])('%s %s → 404 with the error body', async (method, path) => {
    const res = await h.app.fetch(`${BASE}${path}`, { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: method === 'POST' ? 'SAMLResponse=x' : undefined });
    const text = await res.text();
    expect(res.status, text).toBe(404);
    expect(JSON.parse(text)).toEqual({ error: { code: 404, message: expect.any(String) } });
  });
});

describe('an empty string where an ID is expected', () => {
  it('is a 400 naming the field (it names no collection), through both doors', async () => {
    const { admin, o, space, collection } = await setup();
    restError(await admin.rest('POST', `/v1/orgs/${o}/spaces`, { parent: '' }), 400, 'parent');
    restError(await admin.rest('POST', `/v1/orgs/${o}/collections`, { parent: '' }), 400, 'parent');
    restError(await admin.rest('POST', `/v1/spaces/${space.id}/move`, { parent: '' }), 400, 'parent');
    restError(await admin.rest('POST', `/v1/collections/${collection.id}/move`, { parent: '' }), 400, 'parent');
    restError(await admin.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: o, collection: '' }), 400, 'collection');
    restError(await admin.rest('POST', `/v1/spaces/${space.id}/transfer`, { organization: '' }), 404);
    gqlError(await admin.gql(`mutation($o:String!){ createSpace(organizationId:$o, parent:"") { id } }`, { o }), 'BAD_REQUEST', 'parent');
    // Nothing was created or moved.
    expect(await h.db.space.count({ where: { organizationId: o } })).toBe(1);
    expect((await h.db.space.findUnique({ where: { id: space.id } }))?.collectionId).toBeNull();
  });
});

describe('page cursors that this server never made', () => {
  const b64 = (text: string) => Buffer.from(text).toString('base64url');
  /** Well-formed for a list sorted by strings (teams by title), invalid where the first key is a date. */
  const dateCursors: [string, string][] = [
    ['an out-of-range date', encodeCursor(['-271821-04-20T00:00:00.000Z', 'a'])],
    ['a date with a six-digit year', encodeCursor(['+275760-09-13T00:00:00.000Z', 'a'])],
    ['a date that is no date', encodeCursor(['2026-02-30T00:00:00.000Z', 'a'])],
  ];
  const cursors: [string, string][] = [
    ['a NUL inside a value', encodeCursor(['a\u0000b', 'c'])],
    ['a NUL inside a date value', encodeCursor(['2026-01-01T00:00:00.000Z\u0000', 'c'])],
    ['a number instead of a string', b64('[1, 2]')],
    ['an object', b64('{"a":1}')],
    ['the wrong number of values', encodeCursor(['a', 'b', 'c'])],
    ['not JSON', b64('[[[')],
    ['not base64url', '***'],
    ['a very long value', encodeCursor(['x'.repeat(5000), 'y'])],
  ];

  // Hundreds of requests: far under its limit even on a machine busy with other work (51 s was seen).
  it('are refused with 400 naming "page" on every list, REST and GraphQL alike', { timeout: 240_000 }, async () => {
    const { admin, o, space, collection, team } = await setup();
    const ids: Record<string, string> = {
      organizationId: o,
      spaceId: space.id,
      collectionId: collection.id,
      teamId: team.id,
      userId: admin.userId,
      samlProviderId: 'none',
      inviteId: 'none',
      customFieldName: 'none',
      emailDomain: 'example.com',
    };
    // Every GET route that answers a page ({ items, … }) here.
    const lists = Object.entries(restRoutes).filter(([, r]) => r.method === 'GET');
    let checked = 0;
    const dateKeyed = new Set<string>();
    for (const [field, route] of lists) {
      const path = `/v1${route.path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name])}`;
      const probe = await admin.rest('GET', path);
      if (probe.status !== 200 || !('count' in (probe.body ?? {}))) continue; // not a page (or not reachable here)
      for (const [name, cursor] of cursors) {
        const res = await admin.rest('GET', `${path}?page=${encodeURIComponent(cursor)}`);
        expect(res.status, `${field} with ${name}: ${res.text}`).toBe(400);
        expect(res.body.error.message, field).toContain('"page"');
      }
      for (const [name, cursor] of dateCursors) {
        const res = await admin.rest('GET', `${path}?page=${encodeURIComponent(cursor)}`);
        expect([200, 400], `${field} with ${name}: ${res.text}`).toContain(res.status);
        if (res.status === 400) dateKeyed.add(field);
      }
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(12);
    // Ten lists sort by a date first (members, organizations, invitations, spaces, …).
    expect(dateKeyed.size).toBeGreaterThanOrEqual(10);
    // The GraphQL door validates the same way.
    for (const [name, cursor] of [...cursors, ...dateCursors]) {
      const res = await admin.gql(`query($o:String!,$p:String){ organizationMembers(organizationId:$o, page:$p) { count } organizationSpaces(organizationId:$o, page:$p) { count } }`, { o, p: cursor });
      expect(res.body.errors?.[0]?.extensions?.code, `${name}: ${res.text}`).toBe('BAD_REQUEST');
    }
  });
});

describe('deeply nested GraphQL input', () => {
  const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
  const deepArray = (n: number) => `${'['.repeat(n)}"x"${']'.repeat(n)}`;
  const post = async (token: string, body: string): Promise<HttpResult> => {
    const res = await h.app.fetch(`${BASE}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text), headers: res.headers };
  };
  let selection = 'id';
  for (let i = 0; i < 2000; i++) selection = `user { ${selection} }`;

  it.each([
    ['a variables object 20,000 deep, unused', `{"query":"{ user { id } }","variables":{"x":${deepObject(20_000)}}}`],
    ['an array variable 50,000 deep', `{"query":"query($e: [String!]) { user { id } }","variables":{"e":${deepArray(50_000)}}}`],
    ['a JSON literal 3,000 deep', JSON.stringify({ query: `mutation { updateSpaceCustomFields(spaceId: "x", values: ${'['.repeat(3000)}1${']'.repeat(3000)}) }` })],
    ['a selection set 2,000 deep', JSON.stringify({ query: `{ ${selection} }` })],
  ])('%s → 400 BAD_REQUEST, not an internal error', async (_name, body) => {
    const { admin } = await setup();
    const res = await post(admin.token, body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('a REST body nested beyond the input depth is a 400', async () => {
    const { admin, space } = await setup();
    const res = await admin.raw('PATCH', `/v1/spaces/${space.id}/custom-fields`, `{"values":${deepObject(5000)}}`);
    restError(res, 400);
  });
});
