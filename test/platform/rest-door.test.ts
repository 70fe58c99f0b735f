// The REST door runs on SOFA; each step src/rest adds corrects a SOFA behaviour. Each is shown here twice:
// what bare SOFA does (a one-field schema through sofa-api's own useSofa), and what our door does.
import { getNamedType, isObjectType, parse, type GraphQLObjectType, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { useSofa } from 'sofa-api';
import { describe, expect, it } from 'vitest';
import { restRoutes, schema } from '../../src/schema.ts';
import { requestVariables } from '../../src/rest/variables.ts';
import { RawJson, RawJsonSlots } from '../../src/lib/raw-json.ts';
import { restError } from '../support/assertions.ts';
import { buildOrganization, buildUser } from '../factories.ts';
import { BASE, useHarness } from '../support/harness.ts';

const bare = useSofa({
  basePath: '/v1',
  schema: createSchema({
    typeDefs: /* GraphQL */ `
      type Query { echo(id: String!, n: Int, b: Boolean): String }
      type Mutation { set(id: String!, a: String, n: Int, b: Boolean, l: [String!]): String, remove(id: String!): String }`,
    resolvers: {
      Query: { echo: (_: unknown, args: unknown) => JSON.stringify(args) },
      Mutation: { set: (_: unknown, args: unknown) => JSON.stringify(args), remove: () => 'gone' },
    },
  }),
  routes: {
    'Query.echo': { method: 'GET', path: '/echo/:id' },
    'Mutation.set': { method: 'POST', path: '/things/:id' },
    'Mutation.remove': { method: 'DELETE', path: '/things/:id', responseStatus: 204 },
  },
});
async function sofa(method: string, path: string, body?: unknown) {
  const res = await bare.handleRequest(
    new Request(`http://x${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }),
    {},
  );
  return res ? { status: res.status, text: await res.text() } : undefined;
}
const argsOf = async (body: unknown, query = '') => JSON.parse(JSON.parse((await sofa('POST', `/v1/things/1${query}`, body))!.text));

const h = useHarness();

describe('variables come from our reading of the request (variables.ts), not from SOFA', () => {
  it('SOFA drops an explicit null, turns 12 into "12" and "yes" into false, wraps a lone value, reads body fields from the query string', async () => {
    expect(await argsOf({ a: null, n: 5 })).toEqual({ id: '1', n: 5 });
    expect(await argsOf({ a: 12 })).toEqual({ id: '1', a: '12' });
    expect(await argsOf({ b: 'yes' })).toEqual({ id: '1', b: false });
    expect(await argsOf({ l: 'one' })).toEqual({ id: '1', l: ['one'] });
    expect(await argsOf({}, '?a=fromquery')).toEqual({ id: '1', a: 'fromquery' });
  });

  it('ours: null reaches the resolver; wrong types, lone values and body fields in the query string are 400s naming the field', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Door');
    const provider = (await admin.rest('POST', `/v1/orgs/${o}/saml`, { label: 'IdP', entityID: 'https://idp.example' })).body;
    const path = `/v1/orgs/${o}/saml/${provider.id}`;
    // null clears (SOFA would have dropped it and kept the value).
    expect((await admin.rest('PATCH', path, { entityID: null })).body.entityID).toBeUndefined();
    restError(await admin.rest('PATCH', path, { label: 12 }), 400, 'label');
    restError(await admin.rest('PATCH', `/v1/orgs/${o}`, { sso: 'yes' }), 400, 'sso');
    restError(await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'T', members: 'one' }), 400, 'members');
    restError(await admin.rest('PATCH', `${path}?label=FromQuery`, {}), 400, 'label');
    // Query strings of GET routes are typed: integers, booleans, repeated values.
    restError(await admin.rest('GET', `/v1/orgs/${o}/members?limit=abc`), 400, 'limit');
    restError(await admin.rest('GET', `/v1/orgs/${o}/collections?nested=maybe`), 400, 'nested');
    restError(await admin.rest('GET', `/v1/orgs/${o}/members?limit=1&limit=2`), 400, 'limit');
    expect((await admin.rest('GET', `/v1/orgs/${o}/collections?nested=false`)).status).toBe(200);
  });

  it('requestVariables: path values as routed, query strings typed, body values as sent, each checked', () => {
    const route = restRoutes['Query.organizationMembers'];
    const op = parse('query($organizationId: String!, $limit: Int, $role: MemberRoleFilter) { organizationMembers(organizationId: $organizationId) { count } }')
      .definitions[0] as OperationDefinitionNode;
    expect(requestVariables(schema, op, route, { organizationId: 'o1' }, { method: 'GET', query: new URLSearchParams('limit=5&role=guest'), body: {} })).toEqual({
      organizationId: 'o1',
      limit: 5,
      role: 'guest',
    });
    expect(() => requestVariables(schema, op, route, { organizationId: 'o1' }, { method: 'GET', query: new URLSearchParams('role=boss'), body: {} })).toThrow(
      /Invalid "role"/,
    );
    expect(() => requestVariables(schema, op, route, {}, { method: 'GET', query: new URLSearchParams(), body: {} })).toThrow(/Invalid "organizationId".*required/);
  });
});

describe('responses (responses.ts) and routes (plugin.ts)', () => {
  it('SOFA answers a 204 route with a JSON body (no 204 may have one); ours is empty', async () => {
    expect(await sofa('DELETE', '/v1/things/1')).toEqual({ status: 204, text: '"gone"' });
    const { admin, organizationId: o } = await buildOrganization(h, 'NoContent');
    const team = (await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'T' })).body;
    const res = await admin.rest('DELETE', `/v1/orgs/${o}/teams/${team.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it('a HEAD is its GET without the body: status and headers, ETag and 304 of immutable routes; a route without GET is a 405', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Heads');
    const head = (path: string, headers: Record<string, string> = {}) =>
      h.app.fetch(`${BASE}${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${admin.token}`, ...headers } });
    const get = await admin.rest('GET', `/v1/orgs/${o}`);
    const res = await head(`/v1/orgs/${o}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(await res.text()).toBe('');
    const space = (await admin.rest('POST', `/v1/orgs/${o}/spaces`, { title: 'Head space' })).body;
    const revision = `/v1/spaces/${space.id}/revisions/${space.revision}`;
    const tag = (await admin.rest('GET', revision)).headers.get('etag')!;
    const byHead = await head(revision);
    expect([byHead.status, byHead.headers.get('etag'), await byHead.text()]).toEqual([200, tag, '']);
    expect((await head(revision, { 'if-none-match': tag })).status).toBe(304);
    expect((await head(`/v1/orgs/${o}/nothing`)).status).toBe(404);
    expect((await head(`/v1/spaces/${space.id}/change-requests/any/merge`)).status).toBe(405);
    expect((await h.app.fetch(`${BASE}/v1/orgs/${o}/spaces`, { method: 'HEAD' })).status).toBe(401);
    // Path parameters reach the route decoded, as fets' router handed them (the route runs without it).
    expect((await admin.rest('GET', `/v1/orgs/${encodeURIComponent(o)}`)).body.id).toBe(o);
    restError(await admin.rest('GET', `/v1/orgs/${o}%ZZ`), 400);
  });

  it('a 201 carries Location: the created resource', async () => {
    const user = await buildUser(h);
    const created = await user.rest('POST', '/v1/orgs', { title: 'Located' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(created.body.urls.location);
  });

  it('SOFA serves subscription webhooks and answers nothing for unknown routes; ours: 404 with the error body', async () => {
    expect((await sofa('POST', '/v1/webhook', { subscription: 'x' }))!.status).toBe(500);
    expect(await sofa('GET', '/v1/nothing')).toBeUndefined();
    const user = await buildUser(h);
    restError(await user.rest('POST', '/v1/webhook', { subscription: 'x' }), 404);
    restError(await user.rest('DELETE', '/v1/webhook/1'), 404);
    restError(await user.rest('GET', '/v1/nothing'), 404);
    restError(await user.rest('DELETE', '/v1/orgs'), 405);
  });

  it('SOFA documents POST body fields again as query parameters; our document does not', async () => {
    const operation = bare.openAPIDocument.paths?.['/things/{id}']?.post as any;
    expect(operation.parameters.map((p: any) => `${p.in}:${p.name}`)).toEqual(expect.arrayContaining(['query:a', 'path:id']));
    const doc = await (await h.app.fetch(`${BASE}/v1/openapi.json`)).json();
    expect(doc.paths['/orgs/{organizationId}/saml/{samlProviderId}'].patch.parameters.map((p: any) => p.in)).toEqual(['path', 'path']);
  });
});

describe('SOFA builds finite selections (depthLimit)', () => {
  /** Object types reachable from `type` that lead back to a type already on the path. */
  function cycles(rest: GraphQLSchema): string[] {
    const found: string[] = [];
    const visit = (type: GraphQLObjectType, path: string[]) => {
      for (const field of Object.values(type.getFields())) {
        if (field.extensions?.graphOnly) continue;
        const named = getNamedType(field.type);
        if (!isObjectType(named)) continue;
        if (path.includes(named.name)) found.push([...path, named.name].join(' → '));
        else visit(named, [...path, named.name]);
      }
    };
    for (const root of [rest.getQueryType()!, rest.getMutationType()!]) {
      for (const field of Object.values(root.getFields())) {
        const named = getNamedType(field.type);
        if (isObjectType(named)) visit(named, [named.name]);
      }
    }
    return [...new Set(found)];
  }

  it('no REST shape recurs, so no documented field is ever cut (a recursive shape must be served whole as one value)', () => {
    expect(cycles(schema)).toEqual([]);
  });
});

describe('JSON already written as text (src/lib/raw-json.ts) passes through the REST door as it is', () => {
  it('a token stands in for the text while SOFA serializes, and the text goes back in its place, replacement patterns and all', () => {
    const slots = new RawJsonSlots();
    const raw = new RawJson('[{"title":"$& $1 $$ $` $\'"},{"pages":[]}]');
    const answer = { pages: slots.take(raw), other: 'text "quoted"' };
    const serialized = JSON.stringify(answer);
    expect(serialized).not.toContain('$&');
    expect(slots.fill(serialized)).toBe(`{"pages":${raw.text},"other":"text \\"quoted\\""}`);
    // Any other serializer (the GraphQL door) gets the value.
    expect(JSON.stringify({ pages: raw })).toBe(`{"pages":${raw.text}}`);
    // Each token is new: no text of an answer can name one in advance.
    expect(slots.take(raw)).not.toBe(slots.take(raw));
  });
});
