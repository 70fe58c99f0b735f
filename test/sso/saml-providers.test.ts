import { describe, expect, it } from 'vitest';
import { DOORS, dropNulls, expectFailure, expectOk, gqlError, masked, restError } from '../support/assertions.ts';
import { buildMember, buildOrganization } from '../factories.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { BASE, useHarness } from '../support/harness.ts';
import { UNKNOWN_ORG, UNKNOWN_PROVIDER, samlPath, providerPath, api, idp, fullInput, sp, ssoKit } from './sso-kit.ts';

// SAML identity providers of an organization (GitBook's organization SAML operations): both doors, refusals, cost.

const h = useHarness();
const { setup } = ssoKit(h);

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
