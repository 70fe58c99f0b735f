import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gqlError, masked, restError } from '../support/assertions.ts';
import { buildMember, buildOrganization, buildUser } from '../factories.ts';
import { BASE, type HttpResult, useHarness } from '../support/harness.ts';
import { newIdp, newSamlId, responseXml, samlResponse, signAssertion, type AssertionOptions } from '../support/saml-idp.ts';
import { UNKNOWN_PROVIDER, samlPath, providerPath, idp, otherIdp, fullInput, sp, ssoKit } from './sso-kit.ts';

// Signing in through an organization's SAML provider: start, metadata, the assertion consumer service.

const h = useHarness();
const { setup } = ssoKit(h);

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
