import { expect } from 'vitest';
import { throughDoor, type Door, type DoorResult } from '../support/assertions.ts';
import { buildMember, buildOrganization, buildUser } from '../factories.ts';
import { BASE, type Caller, type Harness } from '../support/harness.ts';
import { newIdp, type TestIdp } from '../support/saml-idp.ts';

/** What the SAML test files share: selections, paths, both doors' calls, the test identity providers. */
export const UNKNOWN_ORG = 'unknownOrg0000000001';
export const UNKNOWN_PROVIDER = 'unknownSaml000000001';
export const TEAM = 'defaultTeam { object id title members spaces createdAt }';
export const FIELD = `object id label ssoURL entityID certificate ${TEAM} defaultRole createdAt status service { acsURL startURL entityID } urls { location }`;

export type Who = Pick<Caller, 'rest'>;
export const call = (door: Door, c: Who, rest: [string, string, unknown?], gql: [string, string, Record<string, unknown>]): Promise<DoorResult> =>
  throughDoor(door, c, rest, gql);

export const samlPath = (o: string) => `/v1/orgs/${o}/saml`;
export const providerPath = (o: string, p: string) => `${samlPath(o)}/${p}`;
export const INPUT_VARS = '$entityID:String,$certificate:String,$ssoURL:String,$defaultTeam:String,$defaultRole:Role';
export const INPUT_ARGS = 'entityID:$entityID,certificate:$certificate,ssoURL:$ssoURL,defaultTeam:$defaultTeam,defaultRole:$defaultRole';

export const api = (door: Door) => ({
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

export let idp: TestIdp;
export let otherIdp: TestIdp;
export const idpReady = (async () => {
  [idp, otherIdp] = await Promise.all([newIdp(), newIdp('https://evil.example.test/idp')]);
})();


export const fullInput = (teamId: string | null, extra: Record<string, unknown> = {}) => ({
  label: 'Okta',
  entityID: idp.entityID,
  certificate: idp.cert,
  ssoURL: 'https://idp.example.test/sso/saml',
  ...(teamId ? { defaultTeam: teamId } : {}),
  defaultRole: 'edit',
  ...extra,
});

export const sp = (providerId: string) => ({
  entityID: `${BASE}/sso/saml/${providerId}`,
  acsURL: `${BASE}/sso/saml/${providerId}/acs`,
  startURL: `${BASE}/sso/saml/${providerId}/start`,
});

/** An organization with an admin, a `read` member, a user outside it and a team for newcomers. */
export function ssoKit(h: Harness) {
  async function setup() {
    await idpReady;
    const { admin, organizationId: o } = await buildOrganization(h, 'SSO Co');
    const reader = await buildMember(h, o, 'read', 'Reader');
    const outsider = await buildUser(h, 'Outsider');
    const team = await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'Newcomers' });
    expect(team.status, team.text).toBe(201);
    return { admin, o, reader, outsider, teamId: team.body.id as string };
  }
  return { setup };
}
