// The official client (`GitBookAPI` from @gitbook/api) driving the SAML provider and SSO login
// operations on a real HTTP listener, then a browser-like sign-in over the same wire: start → IdP → ACS.
import { inflateRawSync } from 'node:zlib';
import { GitBookAPI, MemberRole, SAMLProviderStatus } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { expectApiError, useClientServer } from '../support/client-server.ts';
import { newIdp, samlResponse } from '../support/saml-idp.ts';

const s = useClientServer();

describe('official GitBookAPI client: SAML providers and SSO logins', () => {
  it('drives list/create/get/update/delete of SAML providers and the SSO login list', async () => {
    const idp = await newIdp();
    const ada = await s.newUser('Ada');
    const grace = await s.newUser('Grace');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Federated Co' })).data;
    const team = (await api.orgs.createOrganizationTeam(org.id, { title: 'Everyone' })).data;

    // createOrganizationSAMLProvider: 201 + Location.
    const created = await api.orgs.createOrganizationSamlProvider(org.id, {
      label: 'Okta',
      entityID: idp.entityID,
      certificate: idp.cert,
      ssoURL: 'https://idp.example.test/sso',
      defaultTeam: team.id,
      defaultRole: MemberRole.Comment,
    });
    expect(created.status).toBe(201);
    const provider = created.data;
    const spBase = `${s.endpoint}/sso/saml/${provider.id}`;
    expect(provider).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      entityID: idp.entityID,
      ssoURL: 'https://idp.example.test/sso',
      defaultTeam: { id: team.id, title: 'Everyone' },
      defaultRole: 'comment',
      status: SAMLProviderStatus.Active,
      service: { acsURL: `${spBase}/acs`, startURL: `${spBase}/start`, entityID: spBase },
      urls: { location: `${s.endpoint}/v1/orgs/${org.id}/saml/${provider.id}` },
    });
    expect(created.headers.get('location')).toBe(provider.urls.location);

    // A second one without configuration: pending, guest default role (null).
    s.clock.advance(1000);
    const pending = (await api.orgs.createOrganizationSamlProvider(org.id, { label: 'Later' })).data;
    expect(pending).toMatchObject({ status: 'pending', defaultRole: null });

    // listSAMLProvidersInOrganizationById, with paging.
    const list = await api.orgs.listSamlProvidersInOrganizationById(org.id);
    expect(list.data.count).toBe(2);
    expect(list.data.items.map((p) => p.id)).toEqual([provider.id, pending.id]);
    const page = await api.orgs.listSamlProvidersInOrganizationById(org.id, { limit: 1 });
    expect(page.data.items.map((p) => p.id)).toEqual([provider.id]);
    const next = await api.orgs.listSamlProvidersInOrganizationById(org.id, { limit: 1, page: page.data.next!.page });
    expect(next.data.items.map((p) => p.id)).toEqual([pending.id]);

    // getOrganizationSAMLProviderById
    expect((await api.orgs.getOrganizationSamlProviderById(org.id, provider.id)).data).toEqual(provider);

    // updateOrganizationSAMLProvider
    const updated = await api.orgs.updateOrganizationSamlProvider(org.id, pending.id, {
      label: 'Azure',
      certificate: idp.cert,
      ssoURL: 'https://login.example.test/saml',
    });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ id: pending.id, label: 'Azure', status: 'active', defaultRole: null });

    // listSSOProviderLoginsInOrganization: what a sign-in page shows, for any member.
    await s.store.database.prisma.member.create({ data: { organizationId: org.id, userId: grace.id, role: 'read' } });
    const logins = await grace.api.orgs.listSsoProviderLoginsInOrganization(org.id);
    expect(logins.data).toEqual({
      items: [
        { id: provider.id, label: 'Okta', startURL: `${spBase}/start` },
        { id: pending.id, label: 'Azure', startURL: `${s.endpoint}/sso/saml/${pending.id}/start` },
      ],
    });

    // Admins only; outsiders and unknown IDs get 404; no token 401.
    await expectApiError(grace.api.orgs.listSamlProvidersInOrganizationById(org.id), 403);
    await expectApiError(grace.api.orgs.createOrganizationSamlProvider(org.id, { label: 'Mine' }), 403);
    const outsider = await s.newUser('Outsider');
    await expectApiError(outsider.api.orgs.getOrganizationSamlProviderById(org.id, provider.id), 404);
    await expectApiError(outsider.api.orgs.listSsoProviderLoginsInOrganization(org.id), 404);
    await expectApiError(new GitBookAPI({ endpoint: s.endpoint }).orgs.listSamlProvidersInOrganizationById(org.id), 401);
    await expectApiError(api.orgs.createOrganizationSamlProvider(org.id, { label: 'x'.repeat(31) }), 400);

    // deleteOrganizationSAMLProvider: No Content, then gone.
    const removed = await api.orgs.deleteOrganizationSamlProvider(org.id, pending.id);
    expect(removed.status).toBe(204);
    await expectApiError(api.orgs.getOrganizationSamlProviderById(org.id, pending.id), 404);
    expect((await api.orgs.listSamlProvidersInOrganizationById(org.id)).data.count).toBe(1);

    // Sign-in over the wire: the startURL redirects to the IdP with an AuthnRequest for our ACS URL,
    // and the IdP's signed response POSTed to the ACS URL yields a token the client can use.
    const start = await fetch(provider.service.startURL, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const location = new URL(start.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('https://idp.example.test/sso');
    const authnRequest = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    expect(authnRequest).toContain(`AssertionConsumerServiceURL="${provider.service.acsURL}"`);

    const email = `linus.${Date.now()}@federated.example.com`;
    const response = samlResponse(idp, { audience: provider.service.entityID, acsURL: provider.service.acsURL, nameID: email });
    const signedIn = await fetch(provider.service.acsURL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: response }),
    });
    expect(signedIn.status).toBe(200);
    const result = await signedIn.json();
    expect(result).toMatchObject({ user: { object: 'user', email }, organization: org.id, token: expect.any(String) });
    const linus = new GitBookAPI({ endpoint: s.endpoint, authToken: result.token });
    expect((await linus.user.getAuthenticatedUser()).data).toEqual(result.user);
    const member = await api.orgs.getMemberInOrganizationById(org.id, result.user.id);
    expect(member.data).toMatchObject({ role: 'comment', sso: true });
    const teamMembers = await api.orgs.listTeamMembersInOrganizationById(org.id, team.id);
    expect(teamMembers.data.items.map((m) => m.organization.id)).toEqual([result.user.id]);
  });
});
