import { it } from 'vitest';
import { anonymous, newMember, newOrganization, useHarness } from './support/harness.ts';
const h = useHarness();
it('probe', async () => {
  const { admin, organizationId: o } = await newOrganization(h);
  const m = await newMember(h, o, 'read', 'Zed');
  const log = (l: string, r: any) => console.log(l, r.status, r.text.slice(0, 400));
  log('enumvar', await admin.gql('query($o:String!,$r:MemberRoleFilter){organizationMembers(organizationId:$o,role:$r){count}}', { o, r: 'owner' }));
  log('missingvar', await admin.gql('mutation($o:String!,$t:String!){updateOrganizationTeam(organizationId:$o,teamId:"x",title:$t){id}}', { o }));
  log('anonrest', await anonymous(h).rest('GET', `/v1/orgs/${o}/members`));
  log('outsider', await (await newOrganization(h)).admin.rest('GET', `/v1/orgs/${o}/members`));
  log('team', await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'T', members: ['nope'] }));
  log('teamtitle', await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: '' }));
  log('teamnotitle', await admin.rest('PUT', `/v1/orgs/${o}/teams`, { }));
});
