import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/generated/prisma/client.ts';
import { expectGitBookShape, expectOk, restError } from '../support/assertions.ts';
import { buildMember, buildOrganization, buildUser } from '../factories.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { anonymous, useHarness } from '../support/harness.ts';

const h = useHarness();

const ORG_FIELDS = `object id title createdAt emailDomains hostname type useCase communityType defaultRole
  defaultContent { type site } sso ai inviteLinks plan billing { interval endDate hasPaymentFailed isScheduledToCancel }
  urls { location app logo } trial { status count } customHostname blocked { reason } permissions { admin createContent }`;

const UNKNOWN_ORG = 'unknownOrg0000000001';

/** o: the organization. */
type Ids = { o: string };
/** Every role short of admin, and a guest: changing the organization is for admins. */
const NOT_ADMIN = 'members who are not admins (guests included)';
const NON_ADMIN_ROLES: (Role | null)[] = ['read', 'comment', 'edit', 'review', 'create', null];

/** Every organization-scoped operation of this file, through both doors, for the cross-cutting refusals. */
const OPS: RefusalOp<Ids>[] = [
  {
    name: 'get organization',
    rest: ({ o }) => ['GET', `/v1/orgs/${o}`],
    gql: ({ o }) => ['query($o:String!){organization(organizationId:$o){id}}', { o }],
  },
  {
    name: 'update organization', refuse: NOT_ADMIN,
    rest: ({ o }) => ['PATCH', `/v1/orgs/${o}`, { title: 'Mine now', defaultRole: 'admin', inviteLinks: false, ai: true }],
    gql: ({ o }) => ['mutation($o:String!){updateOrganization(organizationId:$o,title:"Mine now",defaultRole:admin,inviteLinks:false,ai:true){id}}', { o }],
  },
];

const organizationRow = (o: string) => h.db.organization.findUnique({ where: { id: o } });

refusalMatrix(OPS, {
  h,
  setup: async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const row = await organizationRow(o);
    expect(row).toMatchObject({ title: 'Acme', defaultRole: 'read', inviteLinks: true, ai: false });
    return { admin, o, row };
  },
  ids: (w) => ({ o: w.o }),
  unknown: { o: UNKNOWN_ORG },
  forbidden: async (w) => ({ callers: await Promise.all(NON_ADMIN_ROLES.map((role) => buildMember(h, w.o, role))) }),
  unchanged: async (w) => {
    expect(await organizationRow(w.o)).toEqual(w.row);
  },
});

describe('POST /orgs (createOrganization)', () => {
  it('creates an organization with the caller as admin (REST)', async () => {
    const user = await buildUser(h, 'Founder');
    const res = await user.rest('POST', '/v1/orgs', { title: 'Rocket Co', emailDomains: ['Rocket.example'] });
    expect(res.status).toBe(201);
    expectGitBookShape('createOrganization', 201, res.body);
    expect(res.body).toMatchObject({
      object: 'organization',
      title: 'Rocket Co',
      emailDomains: ['rocket.example'],
      type: 'business',
      plan: 'free_2024',
      inviteLinks: true,
      defaultRole: 'read',
      permissions: { admin: true, createContent: true },
      trial: { status: 'notapplicable' },
    });
    expect(res.body.urls.location).toBe(`${h.config.apiUrl}/orgs/${res.body.id}`);
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    const member = await user.rest('GET', `/v1/orgs/${res.body.id}/members/${user.userId}`);
    expect(member.body.role).toBe('admin');
  });

  it('creates through GraphQL', async () => {
    const user = await buildUser(h);
    const res = await user.gql(`mutation { createOrganization(title: "Graph Org") { id title permissions { admin } } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createOrganization).toMatchObject({ title: 'Graph Org', permissions: { admin: true } });
  });

  it('rejects titles outside 2..255 and with surrounding spaces, naming the field', async () => {
    const user = await buildUser(h);
    for (const title of ['x', 'y'.repeat(256), ' padded ']) {
      const res = await user.rest('POST', '/v1/orgs', { title });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 400 });
      expect(res.body.error.message).toContain('"title"');
    }
    expect((await user.rest('POST', '/v1/orgs', { title: 'y'.repeat(255) })).status).toBe(201);
    expect((await user.rest('POST', '/v1/orgs', { title: 'ok' })).status).toBe(201);
    const missing = await user.rest('POST', '/v1/orgs', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('"title"');
    const gql = await user.gql(`mutation { createOrganization(title: "x") { id } }`);
    expect(gql.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('requires authentication', async () => {
    expect((await anonymous(h).rest('POST', '/v1/orgs', { title: 'Nope' })).status).toBe(401);
  });
});

describe('GET /orgs and GET /orgs/{organizationId}', () => {
  it('lists only the caller\'s organizations, newest membership first (REST and GraphQL)', async () => {
    const user = await buildUser(h);
    const first = await user.rest('POST', '/v1/orgs', { title: 'First' });
    h.clock.advance(1000);
    const second = await user.rest('POST', '/v1/orgs', { title: 'Second' });
    await buildOrganization(h, 'Someone Else');
    const res = await user.rest('GET', '/v1/orgs');
    expect(res.status).toBe(200);
    expectGitBookShape('listOrganizationsForAuthenticatedUser', 200, res.body);
    expect(res.body.count).toBe(2);
    expect(res.body.items.map((o: any) => o.id)).toEqual([second.body.id, first.body.id]);
    expect(res.body.next).toBeUndefined();
    const page = await user.rest('GET', '/v1/orgs?limit=1');
    expect(page.body.items).toHaveLength(1);
    expect(page.body.next.page).toEqual(expect.any(String));
    const rest = await user.rest('GET', `/v1/orgs?limit=1&page=${page.body.next.page}`);
    expect(rest.body.items[0].id).toBe(first.body.id);
    expect(rest.body.next).toBeUndefined();

    const gql = await user.gql(`{ organizations { count items { id title } } }`);
    expect(gql.body.data.organizations).toEqual({
      count: 2,
      items: [
        { id: second.body.id, title: 'Second' },
        { id: first.body.id, title: 'First' },
      ],
    });
  });

  it('rejects bad limits and cursors', async () => {
    const user = await buildUser(h);
    for (const query of ['limit=1001', 'limit=0', 'limit=abc', 'page=not-a-cursor']) {
      const res = await user.rest('GET', `/v1/orgs?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message).toMatch(/"(limit|page)"/);
    }
    expect((await user.rest('GET', '/v1/orgs?limit=1000')).status).toBe(200);
  });

  it("billing.endDate ends the current monthly period counted from the organization's creation (REST and GraphQL)", async () => {
    const { admin, organizationId } = await buildOrganization(h, 'Billed');
    // Created on a 31st: periods end on 30 Nov, 31 Dec, 31 Jan, 28 Feb (clamped), 31 Mar, at 12:00 UTC.
    await h.db.organization.update({ where: { id: organizationId }, data: { createdAt: new Date('2025-10-31T12:00:00.000Z') } });
    const endDate = async () => {
      const rest = await admin.rest('GET', `/v1/orgs/${organizationId}`);
      expectGitBookShape('getOrganizationById', 200, rest.body);
      const gql = await admin.gql(`query($id: String!) { organization(organizationId: $id) { billing { endDate } } }`, { id: organizationId });
      expect(gql.body.data.organization.billing.endDate).toBe(rest.body.billing.endDate);
      return rest.body.billing.endDate;
    };
    const moveClockTo = (iso: string) => h.clock.advance(new Date(iso).getTime() - h.clock.now().getTime());
    expect(h.clock.now() < new Date('2026-01-31T12:00:00.000Z')).toBe(true);
    moveClockTo('2026-01-15T00:00:00.000Z');
    expect(await endDate()).toBe('2026-01-31T12:00:00.000Z');
    moveClockTo('2026-01-31T12:00:00.000Z');
    expect(await endDate()).toBe('2026-02-28T12:00:00.000Z');
    moveClockTo('2026-02-28T12:00:00.001Z');
    expect(await endDate()).toBe('2026-03-31T12:00:00.000Z');
  });

  it('returns every documented field to a member', async () => {
    const { admin, organizationId } = await buildOrganization(h, 'Fields');
    const res = await admin.rest('GET', `/v1/orgs/${organizationId}`);
    expect(res.status).toBe(200);
    expectGitBookShape('getOrganizationById', 200, res.body);
    expect(res.body).toMatchObject({ id: organizationId, billing: { interval: 'monthly', hasPaymentFailed: false } });
    expect(res.body.urls).toEqual({
      location: `${h.config.apiUrl}/orgs/${organizationId}`,
      app: `${h.config.appUrl}/o/${organizationId}/`,
      logo: expect.stringMatching(/^http/),
    });
    // Graph-only navigation never leaks into REST.
    expect(res.body.members).toBeUndefined();
    expect(res.body.teams).toBeUndefined();
    const gql = await admin.gql(`query($id: String!) { organization(organizationId: $id) { ${ORG_FIELDS} } }`, { id: organizationId });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.organization).toMatchObject({ id: organizationId, title: 'Fields', permissions: { admin: true, createContent: true } });
  });

  it('computes permissions from the caller\'s role', async () => {
    const { organizationId } = await buildOrganization(h);
    const creator = await buildMember(h, organizationId, 'create');
    const reader = await buildMember(h, organizationId, 'read');
    const guest = await buildMember(h, organizationId, null);
    expect((await creator.rest('GET', `/v1/orgs/${organizationId}`)).body.permissions).toEqual({ admin: false, createContent: true });
    expect((await reader.rest('GET', `/v1/orgs/${organizationId}`)).body.permissions).toEqual({ admin: false, createContent: false });
    expect((await guest.rest('GET', `/v1/orgs/${organizationId}`)).body.permissions).toEqual({ admin: false, createContent: false });
  });

  it('listing needs a token', async () => {
    expect((await anonymous(h).rest('GET', '/v1/orgs')).status).toBe(401);
  });
});

describe('PATCH /orgs/{organizationId}', () => {
  it('updates every documented setting (REST), null defaultRole means guest', async () => {
    const { admin, organizationId } = await buildOrganization(h);
    const res = await admin.rest('PATCH', `/v1/orgs/${organizationId}`, {
      title: 'Renamed',
      emailDomains: ['acme.example', 'ACME.example', 'docs.acme.example'],
      hostname: `acme-${Date.now().toString(36)}`,
      defaultRole: null,
      logo: 'https://cdn.example.com/logo.png',
      sso: true,
      ai: true,
      inviteLinks: false,
    });
    expect(res.status).toBe(200);
    expectGitBookShape('updateOrganizationById', 200, res.body);
    expect(res.body).toMatchObject({
      title: 'Renamed',
      emailDomains: ['acme.example', 'docs.acme.example'],
      defaultRole: null,
      sso: true,
      ai: true,
      inviteLinks: false,
      urls: { logo: 'https://cdn.example.com/logo.png' },
    });
    expect(Object.hasOwn(res.body, 'defaultRole')).toBe(true);
    // Omitted fields stay as they are.
    const again = await admin.rest('PATCH', `/v1/orgs/${organizationId}`, { defaultRole: 'edit' });
    expect(again.body).toMatchObject({ title: 'Renamed', defaultRole: 'edit', sso: true });
  });

  it('updates through GraphQL', async () => {
    const { admin, organizationId } = await buildOrganization(h);
    const res = await admin.gql(`mutation($id: String!) { updateOrganization(organizationId: $id, title: "Via Graph", defaultRole: comment) { title defaultRole } }`, { id: organizationId });
    expect(res.body.data.updateOrganization).toEqual({ title: 'Via Graph', defaultRole: 'comment' });
  });

  it('validates every field, naming it', async () => {
    const { admin, organizationId } = await buildOrganization(h);
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'a' }, 'title'],
      [{ title: null }, 'title'],
      [{ hostname: 'ab' }, 'hostname'],
      [{ hostname: 'a'.repeat(33) }, 'hostname'],
      [{ hostname: 'Not Valid' }, 'hostname'],
      [{ emailDomains: ['not a domain'] }, 'emailDomains'],
      [{ emailDomains: ['localhost'] }, 'emailDomains'],
      [{ emailDomains: 'acme.example' }, 'emailDomains'],
      [{ defaultRole: 'owner' }, 'defaultRole'],
      [{ logo: 'not-a-url' }, 'logo'],
      [{ sso: 'yes' }, 'sso'],
      [{ inviteLinks: null }, 'inviteLinks'],
      [{ defaultContent: { type: 'space', site: 'x' } }, 'defaultContent'],
      [{ defaultContent: { type: 'site', site: 'unknownSite' } }, 'defaultContent.site'],
    ];
    for (const [body, field] of cases) {
      const res = await admin.rest('PATCH', `/v1/orgs/${organizationId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toContain(`"${field}`);
    }
    expect((await admin.rest('PATCH', `/v1/orgs/${organizationId}`, { hostname: 'abc' })).status).toBe(200);
    const malformed = await admin.raw('PATCH', `/v1/orgs/${organizationId}`, '{"title": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe(400);
  });

  it("defaultContent: one of the organization's sites, answered back; another organization's site is a 400; null clears it", async () => {
    const { admin, organizationId } = await buildOrganization(h);
    const site = expectOk(await admin.rest('POST', `/v1/orgs/${organizationId}/sites`, { title: 'Docs' }), 201);
    const updated = expectOk(await admin.rest('PATCH', `/v1/orgs/${organizationId}`, { defaultContent: { type: 'site', site: site.id } }), 200, 'updateOrganizationById');
    expect(updated.defaultContent).toEqual({ type: 'site', site: site.id });
    expect(expectOk(await admin.rest('GET', `/v1/orgs/${organizationId}`)).defaultContent).toEqual({ type: 'site', site: site.id });
    const other = await buildOrganization(h);
    const foreign = expectOk(await other.admin.rest('POST', `/v1/orgs/${other.organizationId}/sites`, { title: 'Theirs' }), 201);
    restError(await admin.rest('PATCH', `/v1/orgs/${organizationId}`, { defaultContent: { type: 'site', site: foreign.id } }), 400, 'defaultContent.site');
    expect(expectOk(await admin.rest('PATCH', `/v1/orgs/${organizationId}`, { defaultContent: null })).defaultContent).toBeUndefined();
  });

  it('refuses a hostname already taken with 409', async () => {
    const a = await buildOrganization(h);
    const b = await buildOrganization(h);
    const hostname = `taken-${Date.now().toString(36)}`;
    expect((await a.admin.rest('PATCH', `/v1/orgs/${a.organizationId}`, { hostname })).status).toBe(200);
    const clash = await b.admin.rest('PATCH', `/v1/orgs/${b.organizationId}`, { hostname });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe(409);
  });
});

describe('GET /email-domains/{emailDomain}/orgs', () => {
  it('shows organizations of the caller\'s own e-mail domain, without billing for non-members', async () => {
    const { admin, organizationId } = await buildOrganization(h, 'Domain Org');
    const domain = admin.email.split('@')[1];
    await admin.rest('PATCH', `/v1/orgs/${organizationId}`, { emailDomains: [domain] });
    const colleague = await buildUser(h, 'Colleague'); // same example.com domain, not a member
    const res = await colleague.rest('GET', `/v1/email-domains/${domain}/orgs`);
    expect(res.status).toBe(200);
    const found = res.body.organizations.find((o: any) => o.id === organizationId);
    expect(found).toMatchObject({ title: 'Domain Org', permissions: { admin: false, createContent: false } });
    expect(found.billing).toBeUndefined();
    expect((await admin.rest('GET', `/v1/email-domains/${domain}/orgs`)).body.organizations.find((o: any) => o.id === organizationId).billing).toBeDefined();

    const gql = await colleague.gql(`{ organizationsForEmailDomain(emailDomain: "${domain}") { organizations { id } } }`);
    expect(gql.body.data.organizationsForEmailDomain.organizations.map((o: any) => o.id)).toContain(organizationId);
    // Graph navigation does not open the organization to non-members.
    const nav = await colleague.gql(`{ organizationsForEmailDomain(emailDomain: "${domain}") { organizations { id members(limit: 1) { count } } } }`);
    expect(nav.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('reveals nothing for another domain, validates the domain, needs a token', async () => {
    const { admin, organizationId } = await buildOrganization(h);
    await admin.rest('PATCH', `/v1/orgs/${organizationId}`, { emailDomains: ['secret-corp.example'] });
    const stranger = await buildUser(h);
    const res = await stranger.rest('GET', '/v1/email-domains/secret-corp.example/orgs');
    expect(res.body).toEqual({ organizations: [] });
    expect((await stranger.rest('GET', '/v1/email-domains/not_a_domain/orgs')).status).toBe(400);
    expect((await anonymous(h).rest('GET', '/v1/email-domains/example.com/orgs')).status).toBe(401);
  });
});

describe('GraphQL graph navigation', () => {
  it('exposes members and teams of an organization with the list arguments', async () => {
    const { admin, organizationId } = await buildOrganization(h);
    const editor = await buildMember(h, organizationId, 'edit', 'Navigated Editor');
    await admin.rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: 'Writers', members: [editor.userId] });
    const res = await admin.gql(
      `query($id: String!) { organization(organizationId: $id) {
         members(role: edit) { count items { id role user { displayName } } }
         all: members(limit: 1, order: asc) { count items { id } next { page } }
         teams(title: "writ", limit: 10) { count items { title members memberships(limit: 10) { count items { organization { id } team { role } } } } }
      } }`,
      { id: organizationId },
    );
    expect(res.body.errors).toBeUndefined();
    const org = res.body.data.organization;
    expect(org.members).toEqual({ count: 1, items: [{ id: editor.userId, role: 'edit', user: { displayName: 'Navigated Editor' } }] });
    expect(org.all.count).toBe(2);
    expect(org.all.items).toEqual([{ id: admin.userId }]);
    expect(org.all.next.page).toEqual(expect.any(String));
    expect(org.teams.items[0]).toEqual({
      title: 'Writers',
      members: 1,
      memberships: { count: 1, items: [{ organization: { id: editor.userId }, team: { role: 'member' } }] },
    });
  });
});
