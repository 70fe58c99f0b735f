import { describe, expect, it } from 'vitest';
import { gqlData, gqlError } from '../support/assertions.ts';
import { buildOrganization, buildUser } from '../factories.ts';
import { ADMIN_TOKEN, anonymous, BASE, callerFor, useHarness } from '../support/harness.ts';

const h = useHarness();

describe('authentication', () => {
  it('refuses REST and GraphQL requests without a valid bearer token with 401', async () => {
    const cases: (Record<string, string> | undefined)[] = [
      undefined,
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer short' },
      { authorization: 'Bearer dp_unknown_token_that_does_not_exist' },
    ];
    for (const headers of cases) {
      const rest = await h.app.fetch(`${BASE}/v1/user`, { headers });
      expect(rest.status, JSON.stringify(headers)).toBe(401);
      expect(rest.headers.get('www-authenticate')).toBe('Bearer');
      expect((await rest.json()).error.code).toBe(401);
      const gql = await h.app.fetch(`${BASE}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query: '{ user { id } }' }),
      });
      expect(gql.status).toBe(401);
      expect((await gql.json()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
  });

  it('answers an introspection query without a token (GraphiQL loads the schema first), and nothing else', async () => {
    const post = (query: string, operationName?: string) =>
      h.app.fetch(`${BASE}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, operationName }),
      });
    const schema = await post('query Schema { __schema { queryType { name } } __type(name: "Space") { name } }');
    expect(schema.status).toBe(200);
    expect((await schema.json()).data).toEqual({ __schema: { queryType: { name: 'Query' } }, __type: { name: 'Space' } });

    // Anything selecting a field of ours, a document that does not parse or validate: the same 401.
    for (const query of [
      '{ __typename user { id } }',
      '{ ...F } fragment F on Query { organizations { count } }',
      'query A { __schema { queryType { name } } } query B { user { id } }',
      '{ nope }',
      'garbage {',
    ]) {
      const refused = await post(query, query.startsWith('query A') ? 'B' : undefined);
      expect(refused.status, query).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
      expect((await refused.json()).errors[0].extensions.code, query).toBe('UNAUTHENTICATED');
    }
  });

  it('GET /user returns the caller (REST and GraphQL)', async () => {
    const user = await buildUser(h, 'Grace Hopper');
    const rest = await user.rest('GET', '/v1/user');
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      object: 'user',
      id: user.userId,
      displayName: 'Grace Hopper',
      email: user.email,
      urls: { location: `${h.config.apiUrl}/users/${user.userId}` },
    });
    const gql = await user.gql('{ user { id email } }');
    expect(gql.body.data.user).toEqual({ id: user.userId, email: user.email });
  });

  it('stores only a hash of each token', async () => {
    const user = await buildUser(h);
    const rows = await h.db.accessToken.findMany({ where: { userId: user.userId } });
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).not.toContain(user.token);
    expect(rows[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(user.token.length).toBeGreaterThanOrEqual(32);
  });
});

describe('instance administration', () => {
  const admin = () => callerFor(h, ADMIN_TOKEN);

  it('creates a user and a working token with the admin token', async () => {
    const res = await admin().rest('POST', '/v1/admin/users', { email: 'New.Person@Example.com', displayName: 'New Person' });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ object: 'user', email: 'new.person@example.com', displayName: 'New Person' });
    expect(res.body.token).toMatch(/^dp_/);
    const me = await callerFor(h, res.body.token).rest('GET', '/v1/user');
    expect(me.body.id).toBe(res.body.user.id);
    const duplicate = await admin().rest('POST', '/v1/admin/users', { email: 'new.person@example.com', displayName: 'Again' });
    expect(duplicate.status).toBe(409);
  });

  it('validates input, and the admin token can do nothing else', async () => {
    expect((await admin().rest('POST', '/v1/admin/users', { email: 'not-an-email', displayName: 'X' })).body.error.message).toContain('"email"');
    expect((await admin().rest('POST', '/v1/admin/users', { email: 'a@b.example' })).status).toBe(400);
    expect((await admin().rest('POST', '/v1/admin/users', { email: 'a@b.example', displayName: '' })).status).toBe(400);
    expect((await admin().rest('GET', '/v1/orgs')).status).toBe(403);
    expect((await admin().rest('GET', '/v1/user')).status).toBe(403);
    expect((await admin().gql('{ user { id } }')).status).toBe(403);
  });

  it('creates a user through GraphQL with the admin token, and nothing else there', async () => {
    const create = 'mutation($e: String!, $n: String!) { adminCreateUser(email: $e, displayName: $n) { user { id email displayName } token } }';
    const res = await admin().gql(create, { e: 'Graph.Person@Example.com', n: 'Graph Person' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store'); // the body holds a token
    const created = gqlData(res, 'adminCreateUser');
    expect(created.user).toMatchObject({ email: 'graph.person@example.com', displayName: 'Graph Person' });
    expect(created.token).toMatch(/^dp_/);
    expect((await callerFor(h, created.token).rest('GET', '/v1/user')).body.id).toBe(created.user.id);
    gqlError(await admin().gql(create, { e: 'graph.person@example.com', n: 'Again' }), 'CONFLICT');
    gqlError(await admin().gql(create, { e: 'not-an-email', n: 'X' }), 'BAD_REQUEST', '"email"');

    // Any other root field in the operation — beside it, through a fragment, or alone — is refused whole.
    const refused = [
      '{ user { id } }',
      '{ __schema { queryType { name } } }',
      '{ __typename }',
      'mutation { adminCreateUser(email: "a1@x.example", displayName: "A") { token } createOrganization(title: "Nope") { id } }',
      'mutation { ...F } fragment F on Mutation { adminCreateUser(email: "a2@x.example", displayName: "A") { token } createOrganization(title: "Nope") { id } }',
      'mutation { ... on Mutation { createOrganization(title: "Nope") { id } } }',
    ];
    for (const query of refused) {
      const answer = await admin().gql(query);
      expect(answer.status, query).toBe(403);
      gqlError(answer, 'FORBIDDEN');
    }
    expect(await h.db.user.count({ where: { email: { in: ['a1@x.example', 'a2@x.example'] } } })).toBe(0);
    expect(await h.db.organization.count({ where: { title: 'Nope' } })).toBe(0);
  });

  it('is refused to ordinary users (403) and to anonymous callers (401)', async () => {
    const user = await buildUser(h);
    const res = await user.rest('POST', '/v1/admin/users', { email: 'x@y.example', displayName: 'X' });
    expect(res.status).toBe(403);
    const gql = await user.gql('mutation { adminCreateUser(email: "x@y.example", displayName: "X") { token } }');
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await anonymous(h).rest('POST', '/v1/admin/users', { email: 'x@y.example', displayName: 'X' })).status).toBe(401);
  });
});

describe('HTTP behaviour', () => {
  it('answers unknown routes with a 404 error body, and a method the path does not have with a 405 and Allow', async () => {
    const user = await buildUser(h);
    for (const [method, path, allow] of [
      ['POST', '/v1/user', 'GET'],
      ['DELETE', '/v1/orgs', 'GET, POST'],
      ['TRACE', '/v1/orgs', 'GET, POST'],
    ]) {
      const res = await user.rest(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.body.error.code).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
    }
    for (const [method, path] of [
      ['GET', '/v1/nothing-here'],
      ['TRACE', '/v1/nothing-here'],
      ['GET', '/v1/webhook'],
      ['POST', '/v1/webhook'],
      ['GET', '/v1/organization-members'],
      ['GET', '/'],
      ['GET', '/nothing'],
      ['POST', '/v2/orgs'],
    ]) {
      const res = await user.rest(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe(404);
    }
  });

  it('rejects malformed or non-object JSON bodies with 400', async () => {
    const user = await buildUser(h);
    for (const body of ['{', '[1,2]', '"text"', 'null', '{"title": "x",}']) {
      const res = await user.raw('POST', '/v1/orgs', body);
      expect(res.status, body).toBe(400);
      expect(res.body.error.code).toBe(400);
    }
  });

  it('refuses NUL characters (PostgreSQL text cannot store them) with 400, not 500', async () => {
    const user = await buildUser(h);
    const rest = await user.rest('POST', '/v1/orgs', { title: 'Null\u0000Byte' });
    expect(rest.status).toBe(400);
    expect((await user.rest('GET', '/v1/orgs/x%00y')).status).toBe(400);
    expect((await user.rest('GET', '/v1/orgs/%E0%A4%A')).status).toBe(400); // malformed %-escape
    const gql = await user.gql('mutation($t: String!) { createOrganization(title: $t) { id } }', { t: 'Null\u0000Byte' });
    expect(gql.status).toBe(400);
    expect(gql.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('returns 204 with an empty body for No Content operations', async () => {
    const { admin, organizationId } = await buildOrganization(h);
    const team = await admin.rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: 'Temp' });
    const res = await admin.rest('DELETE', `/v1/orgs/${organizationId}/teams/${team.body.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it('serves /healthz without a token', async () => {
    const res = await h.app.fetch(`${BASE}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves the GraphiQL page to browsers without a token', async () => {
    const res = await h.app.fetch(`${BASE}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('graphiql');
  });

  it('serves the OpenAPI document of exactly the routed operations', async () => {
    const res = await h.app.fetch(`${BASE}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.servers).toEqual([{ url: h.config.apiUrl }]);
    expect(Object.keys(doc.paths)).not.toContain('/webhook');
    const member = doc.paths['/orgs/{organizationId}/members/{userId}'];
    // GitBook's operationId where GitBook has the operation.
    expect(member.get.operationId).toBe('getMemberInOrganizationById');
    expect(member.delete.responses['204']).toEqual({ description: 'No Content' });
    expect(doc.paths['/orgs'].post.responses['201']).toBeDefined();
    // REST shapes carry no graph-only fields.
    expect(Object.keys(doc.components.schemas.Organization.properties)).not.toContain('members');
    expect(Object.keys(doc.components.schemas.Team.properties)).not.toContain('memberships');
  });
});
