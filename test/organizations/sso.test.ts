import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DOORS, dropNulls, expectFailure, expectOk, gqlError, masked, restError, throughDoor, type Door, type DoorResult } from '../support/assertions.ts';
import { buildMember, buildOrganization, buildUser } from '../factories.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { BASE, useHarness, type Caller, type HttpResult } from '../support/harness.ts';
import { newIdp, newSamlId, responseXml, samlResponse, signAssertion, type AssertionOptions, type TestIdp } from '../support/saml-idp.ts';

const h = useHarness();

const UNKNOWN_ORG = 'unknownOrg0000000001';
const UNKNOWN_PROVIDER = 'unknownSaml000000001';
const TEAM = 'defaultTeam { object id title members spaces createdAt }';
const FIELD = `object id label ssoURL entityID certificate ${TEAM} defaultRole createdAt status service { acsURL startURL entityID } urls { location }`;

type Who = Pick<Caller, 'rest'>;
const call = (door: Door, c: Who, rest: [string, string, unknown?], gql: [string, string, Record<string, unknown>]): Promise<DoorResult> =>
  throughDoor(door, c, rest, gql);

const samlPath = (o: string) => `/v1/orgs/${o}/saml`;
const providerPath = (o: string, p: string) => `${samlPath(o)}/${p}`;
const INPUT_VARS = '$entityID:String,$certificate:String,$ssoURL:String,$defaultTeam:String,$defaultRole:Role';
const INPUT_ARGS = 'entityID:$entityID,certificate:$certificate,ssoURL:$ssoURL,defaultTeam:$defaultTeam,defaultRole:$defaultRole';

const api = (door: Door) => ({
  list: (c: Who, o: string, query: { page?: string; limit?: number } = {}) => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return call(door, c, ['GET', `${samlPath(o)}${qs ? `?${qs}` : ''}`], [
      'organizationSamlProviders',
      `query($o:String!,$page:String,$limit:Int){organizationSamlProviders(organizationId:$o,page:$page,limit:$limit){count next{page} items{${FIELD}}}}`,
      { o, ...query },
    ]);
  },
  create: (c: Who, o: string, body: Record<string, unknown>) =>
    call(door, c, ['POST', samlPath(o), body], [
      'createOrganizationSamlProvider',
      `mutation($o:String!,$label:String!,${INPUT_VARS}){createOrganizationSamlProvider(organizationId:$o,label:$label,${INPUT_ARGS}){${FIELD}}}`,
      { o, ...body },
    ]),
  get: (c: Who, o: string, p: string) =>
    call(door, c, ['GET', providerPath(o, p)], [
      'organizationSamlProvider',
      `query($o:String!,$p:String!){organizationSamlProvider(organizationId:$o,samlProviderId:$p){${FIELD}}}`,
      { o, p },
    ]),
  update: (c: Who, o: string, p: string, body: Record<string, unknown>) =>
    call(door, c, ['PATCH', providerPath(o, p), body], [
      'updateOrganizationSamlProvider',
      `mutation($o:String!,$p:String!,$label:String,${INPUT_VARS}){updateOrganizationSamlProvider(organizationId:$o,samlProviderId:$p,label:$label,${INPUT_ARGS}){${FIELD}}}`,
      { o, p, ...body },
    ]),
  remove: (c: Who, o: string, p: string) =>
    call(door, c, ['DELETE', providerPath(o, p)], [
      'deleteOrganizationSamlProvider',
      'mutation($o:String!,$p:String!){deleteOrganizationSamlProvider(organizationId:$o,samlProviderId:$p)}',
      { o, p },
    ]),
  logins: (c: Who, o: string) =>
    call(door, c, ['GET', `/v1/orgs/${o}/sso`], [
      'organizationSsoProviderLogins',
      'query($o:String!){organizationSsoProviderLogins(organizationId:$o){items{id label startURL}}}',
      { o },
    ]),
});

let idp: TestIdp;
let otherIdp: TestIdp;
const idpReady = (async () => {
  [idp, otherIdp] = await Promise.all([newIdp(), newIdp('https://evil.example.test/idp')]);
})();

async function setup() {
  await idpReady;
  const { admin, organizationId: o } = await buildOrganization(h, 'SSO Co');
  const reader = await buildMember(h, o, 'read', 'Reader');
  const outsider = await buildUser(h, 'Outsider');
  const team = await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'Newcomers' });
  expect(team.status, team.text).toBe(201);
  return { admin, o, reader, outsider, teamId: team.body.id as string };
}

const fullInput = (teamId: string | null, extra: Record<string, unknown> = {}) => ({
  label: 'Okta',
  entityID: idp.entityID,
  certificate: idp.cert,
  ssoURL: 'https://idp.example.test/sso/saml',
  ...(teamId ? { defaultTeam: teamId } : {}),
  defaultRole: 'edit',
  ...extra,
});

const sp = (providerId: string) => ({
  entityID: `${BASE}/sso/saml/${providerId}`,
  acsURL: `${BASE}/sso/saml/${providerId}/acs`,
  startURL: `${BASE}/sso/saml/${providerId}/start`,
});

/** o: the organization, p: one of its SAML providers. */
type Ids = { o: string; p: string };
const NOT_ADMIN = 'members who are not admins (guests included)';
const UNKNOWN_IDS = { o: UNKNOWN_ORG, p: UNKNOWN_PROVIDER };
const OPS: RefusalOp<Ids>[] = [
  {
    name: 'list providers', refuse: NOT_ADMIN,
    rest: ({ o }) => ['GET', samlPath(o)],
    gql: ({ o }) => ['query($o:String!){organizationSamlProviders(organizationId:$o){count}}', { o }],
  },
  {
    name: 'create provider', refuse: NOT_ADMIN,
    rest: ({ o }) => ['POST', samlPath(o), { label: 'New' }],
    gql: ({ o }) => ['mutation($o:String!){createOrganizationSamlProvider(organizationId:$o,label:"New"){id}}', { o }],
  },
  {
    name: 'get provider', refuse: NOT_ADMIN,
    rest: ({ o, p }) => ['GET', providerPath(o, p)],
    gql: ({ o, p }) => ['query($o:String!,$p:String!){organizationSamlProvider(organizationId:$o,samlProviderId:$p){id}}', { o, p }],
  },
  {
    name: 'update provider', refuse: NOT_ADMIN,
    rest: ({ o, p }) => ['PATCH', providerPath(o, p), { label: 'Changed', defaultRole: 'admin' }],
    gql: ({ o, p }) => [
      'mutation($o:String!,$p:String!){updateOrganizationSamlProvider(organizationId:$o,samlProviderId:$p,label:"Changed",defaultRole:admin){id}}',
      { o, p },
    ],
  },
  {
    name: 'delete provider', refuse: NOT_ADMIN,
    rest: ({ o, p }) => ['DELETE', providerPath(o, p)],
    gql: ({ o, p }) => ['mutation($o:String!,$p:String!){deleteOrganizationSamlProvider(organizationId:$o,samlProviderId:$p)}', { o, p }],
  },
  {
    name: 'list sign-in choices',
    rest: ({ o }) => ['GET', `/v1/orgs/${o}/sso`],
    gql: ({ o }) => ['query($o:String!){organizationSsoProviderLogins(organizationId:$o){items{id}}}', { o }],
  },
];

/** setup()'s organization with one fully configured provider, and its provider rows as they were. */
async function refusalWorld() {
  const w = await setup();
  const created = await w.admin.rest('POST', samlPath(w.o), fullInput(w.teamId));
  expect(created.status, created.text).toBe(201);
  const providers = () => h.db.samlProvider.findMany({ where: { organizationId: w.o }, orderBy: { id: 'asc' } });
  const before = { providers: await providers(), all: await h.db.samlProvider.count() };
  expect(before.providers).toEqual([expect.objectContaining({ id: created.body.id, label: 'Okta', defaultRole: 'edit', defaultTeamId: w.teamId })]);
  const unchanged = async () => expect({ providers: await providers(), all: await h.db.samlProvider.count() }).toEqual(before);
  return { ...w, p: created.body.id as string, unchanged };
}

refusalMatrix(OPS, {
  h,
  setup: refusalWorld,
  ids: (w) => ({ o: w.o, p: w.p }),
  unknown: UNKNOWN_IDS,
  forbidden: async (w) => ({
    callers: [w.reader, await buildMember(h, w.o, 'edit', 'Editor'), await buildMember(h, w.o, 'create', 'Creator'), await buildMember(h, w.o, null, 'Guest')],
  }),
  unchanged: (w) => w.unchanged(),
});

// The matrix's outsider is an admin of another organization; a user of no organization at all is one too.
describe.each(OPS)('$name: a user who belongs to no organization', (op) => {
  it('gets the same 404 as for unknown IDs (REST and GraphQL), and changes nothing', async () => {
    const w = await refusalWorld();
    const ids = { o: w.o, p: w.p };
    const rest = (i: Ids) => w.outsider.rest(...op.rest(i));
    const gql = (i: Ids) => w.outsider.gql(...op.gql(i));
    const refusedRest = await rest(ids);
    restError(refusedRest, 404);
    expect(masked(refusedRest, [w.o, w.p])).toEqual(masked(await rest(UNKNOWN_IDS), [UNKNOWN_ORG, UNKNOWN_PROVIDER]));
    const refusedGql = await gql(ids);
    gqlError(refusedGql, 'NOT_FOUND');
    expect(masked(refusedGql, [w.o, w.p])).toEqual(masked(await gql(UNKNOWN_IDS), [UNKNOWN_ORG, UNKNOWN_PROVIDER]));
    await w.unchanged();
  });
});

describe.each(DOORS)('SAML providers through %s', (door) => {
  const a = api(door);

  it('creates, reads, lists, updates and deletes a provider with its service endpoints', async () => {
    const { admin, o, teamId } = await setup();
    const created = expectOk(await a.create(admin, o, fullInput(teamId)), 201, 'createOrganizationSAMLProvider');
    const id = created.id;
    expect(created).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      entityID: idp.entityID,
      certificate: idp.cert.trim(),
      ssoURL: 'https://idp.example.test/sso/saml',
      defaultTeam: { object: 'team', id: teamId, title: 'Newcomers', members: 0, spaces: 0 },
      defaultRole: 'edit',
      status: 'active',
      service: sp(id),
      urls: { location: `${BASE}/v1/orgs/${o}/saml/${id}` },
    });
    expect(typeof created.createdAt).toBe('string');
    if (door === 'rest') {
      h.clock.advance(1000);
      const raw = (await a.create(admin, o, { label: 'Second' })).raw;
      expect(raw.headers.get('location')).toBe(raw.body.urls.location);
      expectOk(raw, 201, 'createOrganizationSAMLProvider');
      // A guest default role is a meaningful null, kept in REST JSON; absent optionals are omitted.
      expect(raw.body.defaultRole).toBeNull();
      expect(raw.body).not.toHaveProperty('ssoURL');
      expect(raw.body.status).toBe('pending');
    }

    const got = expectOk(await a.get(admin, o, id), 200, 'getOrganizationSAMLProviderById');
    expect(got).toEqual(created);

    const list = expectOk(await a.list(admin, o), 200, 'listSAMLProvidersInOrganizationById');
    expect(list.items.map((p: any) => p.id)[0]).toBe(id);
    expect(list.count).toBe(door === 'rest' ? 2 : 1);

    const patched = expectOk(await a.update(admin, o, id, { label: 'Okta SSO', defaultRole: 'read' }), 200, 'updateOrganizationSAMLProvider');
    expect(patched).toMatchObject({ label: 'Okta SSO', defaultRole: 'read', entityID: idp.entityID, defaultTeam: { id: teamId } });

    // null clears the optional fields; the label stays.
    const cleared = expectOk(
      await a.update(admin, o, id, { entityID: null, certificate: null, ssoURL: null, defaultTeam: null, defaultRole: null }),
      200,
      'updateOrganizationSAMLProvider',
    );
    expect(dropNulls(cleared)).toEqual({
      object: 'saml-provider',
      id,
      label: 'Okta SSO',
      createdAt: created.createdAt,
      status: 'pending',
      service: sp(id),
      urls: { location: `${BASE}/v1/orgs/${o}/saml/${id}` },
    });
    expect(cleared.defaultRole).toBeNull();

    expectOk(await a.remove(admin, o, id), 204, 'deleteOrganizationSAMLProvider');
    expectFailure(await a.get(admin, o, id), 404);
    expectFailure(await a.remove(admin, o, id), 404);
    expectFailure(await a.update(admin, o, id, { label: 'x' }), 404);
    expect(await h.db.samlProvider.count({ where: { id } })).toBe(0);
  });

  it('enforces the documented limits on create and update', async () => {
    const { admin, o, teamId } = await setup();
    const other = await buildOrganization(h, 'Other Co');
    const otherTeam = await other.admin.rest('PUT', `/v1/orgs/${other.organizationId}/teams`, { title: 'Theirs' });

    expectOk(await a.create(admin, o, { label: 'x'.repeat(30) }), 201);
    expectFailure(await a.create(admin, o, { label: 'x'.repeat(31) }), 400, 'label');
    expectFailure(await a.create(admin, o, { label: '' }), 400, 'label');
    expectOk(await a.create(admin, o, { label: 'E', entityID: 'e'.repeat(1024) }), 201);
    expectFailure(await a.create(admin, o, { label: 'E', entityID: 'e'.repeat(1025) }), 400, 'entityID');
    expectFailure(await a.create(admin, o, { label: 'C', certificate: 'not a certificate' }), 400, 'certificate');
    const body = idp.cert.trim().split('\n').slice(1, -1).join('\n');
    expectFailure(await a.create(admin, o, { label: 'C', certificate: body }), 400, 'certificate');
    expectFailure(await a.create(admin, o, { label: 'C', certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' }), 400, 'certificate');
    expectFailure(await a.create(admin, o, { label: 'C', certificate: `${idp.cert}\n${'A'.repeat(10_001)}` }), 400, 'certificate');
    expectFailure(await a.create(admin, o, { label: 'U', ssoURL: 'not a uri' }), 400, 'ssoURL');
    expectFailure(await a.create(admin, o, { label: 'U', ssoURL: 'ftp://idp.example.test/sso' }), 400, 'ssoURL');
    const base = 'https://idp.example.test/';
    expectOk(await a.create(admin, o, { label: 'U', ssoURL: base + 'a'.repeat(2048 - base.length) }), 201);
    expectFailure(await a.create(admin, o, { label: 'U', ssoURL: base + 'a'.repeat(2049 - base.length) }), 400, 'ssoURL');
    expectFailure(await a.create(admin, o, { label: 'T', defaultTeam: otherTeam.body.id }), 400, 'defaultTeam');
    expectFailure(await a.create(admin, o, { label: 'T', defaultTeam: 'noSuchTeam' }), 400, 'defaultTeam');
    expectFailure(await a.create(admin, o, { label: 'R', defaultRole: 'owner' }), 400, 'defaultRole');
    if (door === 'rest') expectFailure(await a.create(admin, o, {}), 400, 'label');

    const created = expectOk(await a.create(admin, o, fullInput(teamId)), 201, 'createOrganizationSAMLProvider');
    expectFailure(await a.update(admin, o, created.id, { label: null }), 400, 'label');
    expectFailure(await a.update(admin, o, created.id, { label: 'x'.repeat(31) }), 400, 'label');
    expectFailure(await a.update(admin, o, created.id, { entityID: 'e'.repeat(1025) }), 400, 'entityID');
    expectFailure(await a.update(admin, o, created.id, { certificate: 'nope' }), 400, 'certificate');
    expectFailure(await a.update(admin, o, created.id, { ssoURL: '/relative' }), 400, 'ssoURL');
    expectFailure(await a.update(admin, o, created.id, { defaultTeam: otherTeam.body.id }), 400, 'defaultTeam');
    expectFailure(await a.update(admin, o, created.id, { defaultRole: 'owner' }), 400, 'defaultRole');
    // Nothing was changed by the refused updates; absent fields are kept by a valid one.
    const kept = expectOk(await a.update(admin, o, created.id, {}));
    expect(kept).toMatchObject({ label: 'Okta', certificate: idp.cert.trim(), defaultTeam: { id: teamId }, defaultRole: 'edit' });
  });

  it("an unknown provider, or another organization's, is a 404 for the admin too", async () => {
    const { admin, o } = await setup();
    expectOk(await a.create(admin, o, { label: 'P' }), 201);
    expectFailure(await a.get(admin, o, UNKNOWN_PROVIDER), 404);
    // Another organization's provider is unknown here.
    const other = await buildOrganization(h, 'Elsewhere');
    const theirs = expectOk(await a.create(other.admin, other.organizationId, { label: 'Theirs' }), 201).id;
    expectFailure(await a.get(admin, o, theirs), 404);
    expectFailure(await a.remove(admin, o, theirs), 404);
    expect(await h.db.samlProvider.count({ where: { organizationId: o } })).toBe(1);
    expect(await h.db.samlProvider.count({ where: { id: theirs } })).toBe(1);
  });

  it('lists sign-in choices to any member', async () => {
    const { admin, o, reader } = await setup();
    const first = expectOk(await a.create(admin, o, fullInput(null, { label: 'Okta' })), 201).id;
    h.clock.advance(1000);
    const second = expectOk(await a.create(admin, o, { label: 'Azure' }), 201).id;
    const res = await a.logins(reader, o);
    expect(expectOk(res, 200, 'listSSOProviderLoginsInOrganization')).toEqual({
      items: [
        { id: first, label: 'Okta', startURL: sp(first).startURL },
        { id: second, label: 'Azure', startURL: sp(second).startURL },
      ],
    });
  });

  it('pages through providers', async () => {
    const { admin, o } = await setup();
    for (const label of ['A', 'B', 'C']) {
      h.clock.advance(1000);
      expectOk(await a.create(admin, o, { label }), 201);
    }
    const first = expectOk(await a.list(admin, o, { limit: 2 }));
    expect(first.items.map((p: any) => p.label)).toEqual(['A', 'B']);
    expect(first.count).toBe(3);
    const second = expectOk(await a.list(admin, o, { limit: 2, page: first.next.page }));
    expect(second.items.map((p: any) => p.label)).toEqual(['C']);
    expect(second.next ?? null).toBeNull();
    expectFailure(await a.list(admin, o, { limit: 1001 }), 400, 'limit');
  });
});

describe('SAML provider list cost', () => {
  it('does not grow with the number of providers and default teams (no N+1)', async () => {
    const count = async (n: number) => {
      const { admin, o } = await setup();
      for (let i = 0; i < n; i++) {
        const team = await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: `T${i}` });
        await admin.rest('POST', samlPath(o), { label: `P${i}`, defaultTeam: team.body.id });
      }
      const before = h.store.queries.length;
      const res = await admin.rest('GET', `${samlPath(o)}?limit=100`);
      expect(res.body.items).toHaveLength(n);
      expect(res.body.items.every((p: any) => p.defaultTeam.members === 0)).toBe(true);
      return h.store.queries.length - before;
    };
    expect(await count(8)).toBe(await count(2));
  });
});

// ---------------------------------------------------------------------------------------------
// Sign-in
// ---------------------------------------------------------------------------------------------

async function acs(providerId: string, response: string | null, contentType = 'application/x-www-form-urlencoded'): Promise<HttpResult> {
  const body = response === null ? '' : new URLSearchParams({ SAMLResponse: response, RelayState: 'abc' }).toString();
  const res = await h.app.fetch(`${BASE}/sso/saml/${providerId}/acs`, { method: 'POST', headers: { 'content-type': contentType }, body });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

async function signInSetup(extra: Record<string, unknown> = {}) {
  const s = await setup();
  const created = await s.admin.rest('POST', samlPath(s.o), fullInput(s.teamId, extra));
  expect(created.status, created.text).toBe(201);
  const providerId = created.body.id as string;
  const assertion = (o: Partial<AssertionOptions> & { nameID: string }): AssertionOptions => ({
    audience: sp(providerId).entityID,
    acsURL: sp(providerId).acsURL,
    ...o,
  });
  return { ...s, providerId, assertion };
}

/** Everything a sign-in could create, to show that a refused one created nothing. */
async function footprint(o: string, email: string) {
  const [users, members, tokens, teamMembers, uses] = await Promise.all([
    h.db.user.count({ where: { email } }),
    h.db.member.count({ where: { organizationId: o } }),
    h.db.accessToken.count(),
    h.db.teamMember.count({ where: { organizationId: o } }),
    h.db.samlAssertionUse.count(),
  ]);
  return { users, members, tokens, teamMembers, uses };
}

const uniqueEmail = (name: string) => `${name}.${newSamlId().slice(1, 9)}@corp.example.com`;

describe('SAML sign-in: start and metadata', () => {
  it('redirects to the ssoURL with a deflated AuthnRequest for our ACS URL', async () => {
    const { providerId } = await signInSetup({ ssoURL: 'https://idp.example.test/sso/saml?tenant=acme' });
    const res = await h.app.fetch(`${BASE}/sso/saml/${providerId}/start?RelayState=${encodeURIComponent('/after sign-in')}`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe('https://idp.example.test/sso/saml');
    expect(location.searchParams.get('tenant')).toBe('acme');
    expect(location.searchParams.get('RelayState')).toBe('/after sign-in');
    const request = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    expect(request).toMatch(/^<\?xml[^>]*>\s*<samlp:AuthnRequest /);
    expect(request).toContain(`AssertionConsumerServiceURL="${sp(providerId).acsURL}"`);
    expect(request).toContain('Destination="https://idp.example.test/sso/saml?tenant=acme"');
    expect(request).toContain(`<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${sp(providerId).entityID}</saml:Issuer>`);
    // No bearer token is needed, and a start without RelayState carries none.
    const plain = new URL((await h.app.fetch(`${BASE}/sso/saml/${providerId}/start`)).headers.get('location')!);
    expect(plain.searchParams.has('RelayState')).toBe(false);
  });

  it('refuses to start with an unknown or unconfigured provider, or the wrong method', async () => {
    const { admin, o } = await setup();
    const unknown = await h.app.fetch(`${BASE}/sso/saml/${UNKNOWN_PROVIDER}/start`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: { code: 404, message: expect.any(String) } });
    const noUrl = await admin.rest('POST', samlPath(o), { label: 'No URL', certificate: idp.cert });
    const noCert = await admin.rest('POST', samlPath(o), { label: 'No cert', ssoURL: 'https://idp.example.test/sso' });
    for (const p of [noUrl.body.id, noCert.body.id]) {
      const res = await h.app.fetch(`${BASE}/sso/saml/${p}/start`);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe(400);
    }
    expect((await h.app.fetch(`${BASE}/sso/saml/${noUrl.body.id}/start`, { method: 'POST' })).status).toBe(405);
    expect((await h.app.fetch(`${BASE}/sso/saml/${noUrl.body.id}/acs`)).status).toBe(405);
    expect((await h.app.fetch(`${BASE}/sso/saml/${noUrl.body.id}/other`)).status).toBe(404);
  });

  it('serves our SP metadata at the entity ID', async () => {
    const { providerId } = await signInSetup();
    const res = await h.app.fetch(sp(providerId).entityID);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await res.text();
    expect(xml).toContain(`entityID="${sp(providerId).entityID}"`);
    expect(xml).toContain(`Location="${sp(providerId).acsURL}"`);
    expect((await h.app.fetch(`${BASE}/sso/saml/${UNKNOWN_PROVIDER}`)).status).toBe(404);
  });
});

describe('SAML sign-in: the assertion consumer service', () => {
  it('signs a new person in: user created, SSO member with the default role, in the default team, with a working token', async () => {
    const { o, providerId, teamId, assertion } = await signInSetup();
    const email = uniqueEmail('new.person');
    const res = await acs(providerId, samlResponse(idp, assertion({ nameID: email, attributes: { displayName: 'New Person' } })));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      user: { object: 'user', id: expect.any(String), displayName: 'New Person', email, urls: { location: `${BASE}/v1/users/${res.body.user.id}` } },
      organization: o,
      token: expect.stringMatching(/^dp_/),
    });
    const userId = res.body.user.id;
    const member = await h.db.member.findUnique({ where: { organizationId_userId: { organizationId: o, userId } } });
    expect(member).toMatchObject({ role: 'edit', sso: true, disabled: false });
    expect(await h.db.teamMember.findUnique({ where: { teamId_userId: { teamId, userId } } })).toMatchObject({ role: 'member' });
    // The token is stored hashed only.
    const tokens = await h.db.accessToken.findMany({ where: { userId } });
    expect(tokens).toHaveLength(1);
    expect(tokens[0].tokenHash).not.toContain(res.body.token);
    // The token works, and shows the user as REST does.
    const me = await h.app.fetch(`${BASE}/v1/user`, { headers: { authorization: `Bearer ${res.body.token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual(res.body.user);
    const org = await h.app.fetch(`${BASE}/v1/orgs/${o}/members/${userId}`, { headers: { authorization: `Bearer ${res.body.token}` } });
    expect(org.status).toBe(200);
    expect((await org.json()).sso).toBe(true);
  });

  it('gives a guest membership when the default role is null, and finds the e-mail in an attribute', async () => {
    const { o, providerId, assertion, admin } = await signInSetup();
    await admin.rest('PATCH', providerPath(o, providerId), { defaultRole: null, defaultTeam: null });
    const email = uniqueEmail('attr');
    const res = await acs(
      providerId,
      samlResponse(idp, assertion({ nameID: 'opaque-id-123', nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', attributes: { email: email.toUpperCase() } })),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ email, displayName: email.split('@')[0] });
    const member = await h.db.member.findUnique({ where: { organizationId_userId: { organizationId: o, userId: res.body.user.id } } });
    expect(member).toMatchObject({ role: null, sso: true });
    expect(await h.db.teamMember.count({ where: { userId: res.body.user.id } })).toBe(0);
  });

  it('signs an existing member in: role and teams kept, membership becomes SSO; an existing user joins', async () => {
    const { o, providerId, assertion, teamId } = await signInSetup();
    const member = await buildMember(h, o, 'admin', 'Existing Admin');
    const res = await acs(providerId, samlResponse(idp, assertion({ nameID: member.email })));
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.id).toBe(member.userId);
    const row = await h.db.member.findUnique({ where: { organizationId_userId: { organizationId: o, userId: member.userId } } });
    expect(row).toMatchObject({ role: 'admin', sso: true });
    expect(await h.db.teamMember.count({ where: { teamId, userId: member.userId } })).toBe(0);
    expect(await h.db.user.count({ where: { email: member.email } })).toBe(1);
    // Their old token still works, and so does the new one.
    expect((await member.rest('GET', '/v1/user')).status).toBe(200);

    const user = await buildUser(h, 'Not Yet Member');
    const joined = await acs(providerId, samlResponse(idp, assertion({ nameID: user.email })));
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body.user.id).toBe(user.userId);
    expect(await h.db.member.findUnique({ where: { organizationId_userId: { organizationId: o, userId: user.userId } } })).toMatchObject({
      role: 'edit',
      sso: true,
    });
    expect(await h.db.teamMember.count({ where: { teamId, userId: user.userId } })).toBe(1);
  });

  it('lets a member of an organization that enforces SSO back in by signing in with SAML', async () => {
    const { o, admin, reader, providerId, assertion } = await signInSetup();
    expect((await admin.rest('PATCH', `/v1/orgs/${o}`, { sso: true })).status).toBe(200);
    restError(await reader.rest('GET', `/v1/orgs/${o}`), 403);
    const res = await acs(providerId, samlResponse(idp, assertion({ nameID: reader.email })));
    expect(res.status, res.text).toBe(200);
    const org = await h.app.fetch(`${BASE}/v1/orgs/${o}`, { headers: { authorization: `Bearer ${res.body.token}` } });
    expect(org.status).toBe(200);
    expect(await h.db.member.findUnique({ where: { organizationId_userId: { organizationId: o, userId: reader.userId } } })).toMatchObject({
      role: 'read',
      sso: true,
    });
  });

  it('claims the pending user of someone invited by e-mail', async () => {
    const { o, admin, providerId, assertion } = await signInSetup();
    const email = uniqueEmail('invited');
    const invited = await admin.rest('POST', `/v1/orgs/${o}/invites`, { emails: [email], role: 'comment' });
    expect(invited.status, invited.text).toBe(200);
    expect(await h.db.user.findUnique({ where: { email } })).toMatchObject({ pending: true });
    const res = await acs(providerId, samlResponse(idp, assertion({ nameID: email, attributes: { givenName: 'Ivy', surname: 'Invited' } })));
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.displayName).toBe('Ivy Invited');
    expect(await h.db.user.findUnique({ where: { email } })).toMatchObject({ id: res.body.user.id, pending: false, displayName: 'Ivy Invited' });
    expect(await h.db.user.count({ where: { email } })).toBe(1);
  });

  it('refuses a disabled member (403) without creating anything', async () => {
    const { o, providerId, assertion } = await signInSetup();
    const member = await buildMember(h, o, 'read', 'Disabled');
    await h.db.member.update({ where: { organizationId_userId: { organizationId: o, userId: member.userId } }, data: { disabled: true } });
    const before = await footprint(o, member.email);
    const res = await acs(providerId, samlResponse(idp, assertion({ nameID: member.email })));
    restError(res, 403);
    expect(await footprint(o, member.email)).toEqual(before);
  });

  describe('refuses a bad response with 401 and creates nothing', () => {
    const cases: [string, (ctx: Awaited<ReturnType<typeof signInSetup>>, email: string) => string][] = [
      ['forged: signed by another key', (c, email) => samlResponse(idp, c.assertion({ nameID: email }), otherIdp)],
      [
        'wrongly signed: assertion altered after signing',
        (c, email) => {
          const signed = signAssertion(responseXml(idp, c.assertion({ nameID: uniqueEmail('victim') })), idp);
          const altered = signed.replace(/(<saml:NameID[^>]*>)[^<]*/, `$1${email}`);
          expect(altered).not.toBe(signed);
          return Buffer.from(altered).toString('base64');
        },
      ],
      [
        'expired (NotOnOrAfter in the real past)',
        (c, email) =>
          samlResponse(idp, c.assertion({ nameID: email, notBefore: new Date(Date.now() - 30 * 60_000), notOnOrAfter: new Date(Date.now() - 10 * 60_000) })),
      ],
      ['not yet valid', (c, email) => samlResponse(idp, c.assertion({ nameID: email, notBefore: new Date(Date.now() + 10 * 60_000), notOnOrAfter: new Date(Date.now() + 20 * 60_000) }))],
      ['wrong audience', (c, email) => samlResponse(idp, c.assertion({ nameID: email, audience: 'https://other.example.test/sp' }))],
      ["issued by another entity than the provider's", (c, email) => samlResponse(idp, c.assertion({ nameID: email, issuer: 'https://evil.example.test/idp' }))],
      ['unsigned', (c, email) => Buffer.from(responseXml(idp, c.assertion({ nameID: email }))).toString('base64')],
      ['no e-mail', (c) => samlResponse(idp, c.assertion({ nameID: 'opaque', nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' }))],
      ['not XML', () => Buffer.from('hello').toString('base64')],
    ];
    it.each(cases)('%s', async (_name, build) => {
      const c = await signInSetup();
      const email = uniqueEmail('refused');
      const before = await footprint(c.o, email);
      const res = await acs(c.providerId, build(c, email));
      const message = restError(res, 401);
      expect(message).toMatch(/^SAML response rejected/);
      expect(await footprint(c.o, email)).toEqual(before);
      expect(before.users).toBe(0);
    });
  });

  it('refuses a replayed response: the same response twice → the second is 401 and creates nothing', async () => {
    const { o, providerId, assertion } = await signInSetup();
    const email = uniqueEmail('replay');
    const response = samlResponse(idp, assertion({ nameID: email }));
    expect((await acs(providerId, response)).status).toBe(200);
    const before = await footprint(o, email);
    const again = await acs(providerId, response);
    expect(restError(again, 401)).toContain('already been used');
    expect(await footprint(o, email)).toEqual(before);
    expect(await h.db.samlAssertionUse.count({ where: { providerId } })).toBe(1);
  });

  it('accepts only one of two simultaneous uses of the same response', async () => {
    const { o, providerId, assertion } = await signInSetup();
    const email = uniqueEmail('race');
    const response = samlResponse(idp, assertion({ nameID: email }));
    const results = await Promise.all([acs(providerId, response), acs(providerId, response), acs(providerId, response)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    const userId = results.find((r) => r.status === 200)!.body.user.id;
    expect(await h.db.accessToken.count({ where: { userId } })).toBe(1);
    expect(await h.db.member.count({ where: { organizationId: o, userId } })).toBe(1);
  });

  it('signs the same new person in twice at once (two assertions): one user, one membership, two tokens', async () => {
    const { o, providerId, assertion, teamId } = await signInSetup();
    const email = uniqueEmail('twice');
    const results = await Promise.all([1, 2].map(() => acs(providerId, samlResponse(idp, assertion({ nameID: email })))));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results[0].body.user.id).toBe(results[1].body.user.id);
    const userId = results[0].body.user.id;
    expect(await h.db.user.count({ where: { email } })).toBe(1);
    expect(await h.db.member.count({ where: { organizationId: o, userId } })).toBe(1);
    expect(await h.db.teamMember.count({ where: { teamId, userId } })).toBe(1);
    expect(await h.db.accessToken.count({ where: { userId } })).toBe(2);
  });

  it('answers 404 for an unknown provider, 401 for a provider without certificate, 400 for a malformed request', async () => {
    const { o, admin, providerId, assertion } = await signInSetup();
    const email = uniqueEmail('edge');
    const response = samlResponse(idp, assertion({ nameID: email }));
    const before = await footprint(o, email);
    restError(await acs(UNKNOWN_PROVIDER, response), 404);
    restError(await acs(providerId, null), 400);
    restError(await acs(providerId, response, 'application/json'), 400);
    await admin.rest('PATCH', providerPath(o, providerId), { certificate: null });
    restError(await acs(providerId, response), 401);
    expect(await footprint(o, email)).toEqual(before);
    // A deleted provider is unknown.
    await admin.rest('DELETE', providerPath(o, providerId));
    restError(await acs(providerId, response), 404);
  });

  it('trusts a renewed certificate only after the admin configures it', async () => {
    const { o, admin, providerId, assertion } = await signInSetup();
    const renewed = await newIdp(idp.entityID);
    const email = uniqueEmail('renewed');
    restError(await acs(providerId, samlResponse(renewed, assertion({ nameID: email }))), 401);
    const patched = await admin.rest('PATCH', providerPath(o, providerId), { certificate: renewed.cert });
    expect(patched.status, patched.text).toBe(200);
    expect((await acs(providerId, samlResponse(renewed, assertion({ nameID: email })))).status).toBe(200);
    restError(await acs(providerId, samlResponse(idp, assertion({ nameID: uniqueEmail('old') }))), 401);
  });
});

describe('SAML sign-in stays inside its organization', () => {
  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  const withToken = (token: string) => ({
    rest: async (method: string, path: string, body?: unknown): Promise<HttpResult> => {
      const res = await h.app.fetch(`${BASE}${path}`, { method, ...bearer(token), body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, text, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    },
  });

  it("refuses the takeover: another organization's admin asserts the e-mail of a user who belongs only to org2", async () => {
    // org1's admin registers a provider with a certificate of their own and signs whatever they like.
    const attacker = await signInSetup();
    const { admin: victimAdmin, organizationId: org2 } = await buildOrganization(h, 'Victim Co');
    const victim = await buildMember(h, org2, 'admin', 'Victim');
    const before = await footprint(attacker.o, victim.email);
    const victimTokens = await h.db.accessToken.count({ where: { userId: victim.userId } });

    const res = await acs(attacker.providerId, samlResponse(idp, attacker.assertion({ nameID: victim.email })));
    expect(restError(res, 403)).toContain('belongs to other organizations');
    expect(res.body.token).toBeUndefined();
    // Nothing was linked: no token for the victim, no membership in org1, org2 untouched.
    expect(await footprint(attacker.o, victim.email)).toEqual(before);
    expect(await h.db.accessToken.count({ where: { userId: victim.userId } })).toBe(victimTokens);
    expect(await h.db.member.findUnique({ where: { organizationId_userId: { organizationId: attacker.o, userId: victim.userId } } })).toBeNull();
    const org = await victimAdmin.rest('GET', `/v1/orgs/${org2}`);
    expect(org.body.title).toBe('Victim Co');
  });

  it('issues a token scoped to the provider\'s organization: elsewhere the caller is an outsider', async () => {
    const { o, admin, providerId, assertion } = await signInSetup();
    // A person in two organizations, who joined this one with their own token (an invite link).
    const { admin: otherAdmin, organizationId: org2 } = await buildOrganization(h, 'Other Co');
    const person = await buildMember(h, org2, 'admin', 'Two Orgs');
    const link = await admin.rest('POST', `/v1/orgs/${o}/link-invites`, { role: 'edit' });
    expect((await person.rest('POST', `/v1/orgs/${o}/invites/${link.body.id}`)).status).toBe(200);
    const space2 = await person.rest('POST', `/v1/orgs/${org2}/spaces`, { title: 'Private' });
    expect(space2.status, space2.text).toBe(201);
    const link2 = await otherAdmin.rest('POST', `/v1/orgs/${org2}/link-invites`, { role: 'read' });
    const { admin: thirdAdmin, organizationId: org3 } = await buildOrganization(h, 'Inviting Co');
    await thirdAdmin.rest('POST', `/v1/orgs/${org3}/invites`, { emails: [person.email] });

    const signedIn = await acs(providerId, samlResponse(idp, assertion({ nameID: person.email })));
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.user.id).toBe(person.userId);
    const scoped = withToken(signedIn.body.token);
    expect(await h.db.accessToken.findFirst({ where: { userId: person.userId, organizationId: o } })).not.toBeNull();

    // Its own organization works as for any member.
    expect((await scoped.rest('GET', `/v1/orgs/${o}`)).status).toBe(200);
    expect((await scoped.rest('GET', '/v1/user')).body.id).toBe(person.userId);
    const orgs = await scoped.rest('GET', '/v1/orgs');
    expect(orgs.body.items.map((i: { id: string }) => i.id)).toEqual([o]);
    expect(orgs.body.count).toBe(1);
    const gqlOrgs = await scoped.rest('POST', '/graphql', { query: '{ organizations { count items { id } } }' });
    expect(gqlOrgs.body.data.organizations).toEqual({ count: 1, items: [{ id: o }] });

    // The other organization answers exactly as for an unknown one, reads and writes alike.
    const unknown = 'unknownOrg0000000001';
    for (const [method, path, body] of [
      ['GET', `/v1/orgs/${org2}`],
      ['PATCH', `/v1/orgs/${org2}`, { title: 'Taken over' }],
      ['GET', `/v1/orgs/${org2}/members`],
      ['GET', `/v1/orgs/${org2}/spaces`],
    ] as [string, string, unknown?][]) {
      const res = await scoped.rest(method, path, body);
      const same = await scoped.rest(method, path.replace(org2, unknown), body);
      expect(masked(res, [org2]), `${method} ${path}`).toEqual(masked(same, [unknown]));
      expect(res.status).toBe(404);
    }
    restError(await scoped.rest('GET', `/v1/spaces/${space2.body.id}`), 404);
    restError(await scoped.rest('PATCH', `/v1/spaces/${space2.body.id}`, { title: 'Mine' }), 404);
    const gqlOrg = await scoped.rest('POST', '/graphql', { query: `{ organization(organizationId: "${org2}") { id } }` });
    gqlError(gqlOrg, 'NOT_FOUND');
    // Instance-level operations: no new organization, no joining another one, only its own invitations.
    expect(restError(await scoped.rest('POST', '/v1/orgs', { title: 'New one' }), 403)).toContain('SSO');
    restError(await scoped.rest('POST', `/v1/orgs/${org2}/invites/${link2.body.id}`), 404);
    expect((await scoped.rest('GET', '/v1/user/invitations')).body).toMatchObject({ count: 0, items: [] });
    expect((await person.rest('GET', '/v1/user/invitations')).body.count).toBe(1);
    // The person's personal token is unaffected.
    expect((await person.rest('PATCH', `/v1/orgs/${org2}`, { title: 'Other Co 2' })).status).toBe(200);
    expect((await h.db.organization.findUnique({ where: { id: org2 } }))?.title).toBe('Other Co 2');
  });

  it('links an account of other organizations once it accepted an invitation with its own token', async () => {
    const { o, admin, providerId, assertion } = await signInSetup();
    const { organizationId: org2 } = await buildOrganization(h, 'Home Co');
    const person = await buildMember(h, org2, 'read', 'Invited Elsewhere');
    await admin.rest('PATCH', `/v1/orgs/${o}`, { emailDomains: [person.email.split('@')[1]] });
    await admin.rest('POST', `/v1/orgs/${o}/invites`, { emails: [person.email], role: 'comment', sso: true });
    const response = () => samlResponse(idp, assertion({ nameID: person.email }));

    // The invitation alone is the organization's word, not the account's: still refused.
    restError(await acs(providerId, response()), 403);
    const [invitation] = (await person.rest('GET', '/v1/user/invitations')).body.items;
    expect(invitation).toMatchObject({ sso: true });
    const accepted = await person.rest('POST', `/v1/orgs/${o}/invites/${invitation.id}`);
    expect(accepted.status, accepted.text).toBe(200);
    expect(await h.db.member.findUnique({ where: { organizationId_userId: { organizationId: o, userId: person.userId } } })).toMatchObject({
      role: 'comment',
      sso: false,
    });

    const signedIn = await acs(providerId, response());
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.user.id).toBe(person.userId);
    expect(await h.db.member.findUnique({ where: { organizationId_userId: { organizationId: o, userId: person.userId } } })).toMatchObject({
      role: 'comment',
      sso: true,
    });
  });
});
