import { describe, expect, it } from 'vitest';
import { expectOk, gqlData, gqlError, masked, restError } from '../support/assertions.ts';
import { buildMember, buildOrganization, buildTeam } from '../factories.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { anonymous, useHarness, type Caller, type HttpResult } from '../support/harness.ts';

const h = useHarness();

const TEAM = 'object id title members spaces createdAt';
const UNKNOWN_ORG = 'unknownOrg0000000001';
const UNKNOWN_TEAM = 'unknownTeam000000001';
const UNKNOWN_USER = 'unknownUser000000001';

const teamsPath = (o: string) => `/v1/orgs/${o}/teams`;
const teamPath = (o: string, t: string) => `/v1/orgs/${o}/teams/${t}`;

/** An organization with an admin, a plain member and one team holding the admin and the member. */
async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const member = await buildMember(h, o, 'create', 'Plain Member');
  const team = await buildTeam(admin, o, { title: 'Core', members: [admin.userId, member.userId] });
  return { admin, o, member, team };
}

const teamRow = (teamId: string) => h.db.team.findUnique({ where: { id: teamId }, include: { members: { orderBy: { userId: 'asc' } } } });
const rolesIn = async (teamId: string) =>
  Object.fromEntries(((await teamRow(teamId))?.members ?? []).map((m) => [m.userId, m.role]));
/** Team.members and Member.teams as both doors report them. */
async function counts(c: Caller, o: string, teamId: string, userId: string) {
  const team = (await c.rest('GET', teamPath(o, teamId))).body.members;
  const member = (await c.rest('GET', `/v1/orgs/${o}/members/${userId}`)).body.teams;
  const q = `query($o:String!,$t:String!,$u:String!){organizationTeam(organizationId:$o,teamId:$t){members} organizationMember(organizationId:$o,userId:$u){teams}}`;
  const data = (await c.gql(q, { o, t: teamId, u: userId })).body.data;
  expect(data).toEqual({ organizationTeam: { members: team }, organizationMember: { teams: member } });
  return { team, member };
}

/** o: the organization, t: the team, u: a member of the team. */
type Ids = { o: string; t: string; u: string };
/** Who is refused with 403: operations for admins refuse team owners too, team management refuses non-owners. */
const NOT_ADMIN = 'members who are not admins (team owners included)';
const NOT_OWNER = 'members who do not own the team';
const q = (field: string, args: string, selection = '') => {
  const vars = args.split(',').map((a) => `$${a}:String!`).join(',');
  const params = args.split(',').map((a) => `${{ o: 'organizationId', t: 'teamId', u: 'userId' }[a]}:$${a}`).join(',');
  return (extra = '') => `${field.startsWith('m:') ? 'mutation' : 'query'}(${vars}){${field.replace('m:', '')}(${params}${extra})${selection}}`;
};
const OPS: RefusalOp<Ids>[] = [
  { name: 'list teams', rest: ({ o }) => ['GET', teamsPath(o)], gql: ({ o }) => [q('organizationTeams', 'o', '{count}')(), { o }] },
  {
    name: 'create team', refuse: NOT_ADMIN,
    rest: ({ o }) => ['PUT', teamsPath(o), { title: 'New' }],
    gql: ({ o }) => [q('m:createOrganizationTeam', 'o', '{id}')(',title:"New"'), { o }],
  },
  { name: 'get team', rest: ({ o, t }) => ['GET', teamPath(o, t)], gql: ({ o, t }) => [q('organizationTeam', 'o,t', '{id}')(), { o, t }] },
  {
    name: 'rename team', refuse: NOT_ADMIN,
    rest: ({ o, t }) => ['PATCH', teamPath(o, t), { title: 'Renamed' }],
    gql: ({ o, t }) => [q('m:updateOrganizationTeam', 'o,t', '{id}')(',title:"Renamed"'), { o, t }],
  },
  {
    name: 'delete team', refuse: NOT_ADMIN,
    rest: ({ o, t }) => ['DELETE', teamPath(o, t)],
    gql: ({ o, t }) => [q('m:deleteOrganizationTeam', 'o,t')(), { o, t }],
  },
  {
    name: 'list team members',
    rest: ({ o, t }) => ['GET', `${teamPath(o, t)}/members`],
    gql: ({ o, t }) => [q('organizationTeamMembers', 'o,t', '{count}')(), { o, t }],
  },
  {
    name: 'update team members', refuse: NOT_OWNER,
    rest: ({ o, t, u }) => ['PUT', `${teamPath(o, t)}/members`, { remove: [u] }],
    gql: ({ o, t, u }) => [q('m:updateOrganizationTeamMembers', 'o,t')(`,remove:["${u}"]`), { o, t }],
  },
  {
    name: 'put team member', refuse: NOT_OWNER,
    rest: ({ o, t, u }) => ['PUT', `${teamPath(o, t)}/members/${u}`, { role: 'owner' }],
    gql: ({ o, t, u }) => [q('m:addOrganizationTeamMember', 'o,t,u')(',role:owner'), { o, t, u }],
  },
  {
    name: 'delete team member', refuse: NOT_OWNER,
    rest: ({ o, t, u }) => ['DELETE', `${teamPath(o, t)}/members/${u}`],
    gql: ({ o, t, u }) => [q('m:removeOrganizationTeamMember', 'o,t,u')(), { o, t, u }],
  },
];

refusalMatrix(OPS, {
  h,
  setup: async () => {
    const w = await setup();
    return { ...w, teams: 1, roles: await rolesIn(w.team.id) };
  },
  ids: (w) => ({ o: w.o, t: w.team.id, u: w.member.userId }),
  unknown: { o: UNKNOWN_ORG, t: UNKNOWN_TEAM, u: UNKNOWN_USER },
  // A plain member, and the owner of another team; for admin operations, an owner of this team too.
  forbidden: async (w, refuse) => {
    const other = await buildTeam(w.admin, w.o, { title: 'Other' });
    w.teams += 1;
    const otherOwner = await buildMember(h, w.o, 'edit');
    expect((await w.admin.rest('PUT', `${teamPath(w.o, other.id)}/members/${otherOwner.userId}`, { role: 'owner' })).status).toBe(204);
    const callers = [w.member, otherOwner];
    if (refuse === NOT_ADMIN) {
      const owner = await buildMember(h, w.o, 'edit');
      expect((await w.admin.rest('PUT', `${teamPath(w.o, w.team.id)}/members/${owner.userId}`, { role: 'owner' })).status).toBe(204);
      w.roles = await rolesIn(w.team.id);
      expect(w.roles[owner.userId]).toBe('owner');
      callers.push(owner);
    }
    return { callers };
  },
  unchanged: async (w) => {
    expect(await teamRow(w.team.id)).toMatchObject({ organizationId: w.o, title: 'Core' });
    expect(await rolesIn(w.team.id)).toEqual(w.roles);
    expect(w.roles[w.member.userId]).toBe('member');
    expect(await h.db.team.count({ where: { organizationId: w.o } })).toBe(w.teams);
  },
});

describe.each(OPS.filter((op) => op.rest({ o: 'o', t: 't', u: 'u' })[1].includes('/teams/t')))('$name: teams of other organizations', (op) => {
  it("a team of another organization, asked for through the caller's own organization, is an unknown team", async () => {
    const { admin, o } = await setup();
    const { o: other, team: foreign, member: foreignMember } = await setup();
    for (const call of [(i: Ids) => admin.rest(...op.rest(i)), (i: Ids) => admin.gql(...op.gql(i))]) {
      const res = await call({ o, t: foreign.id, u: foreignMember.userId });
      expect(res.text).toMatch(/404|NOT_FOUND/);
      expect(masked(res, [foreign.id, foreignMember.userId])).toEqual(masked(await call({ o, t: UNKNOWN_TEAM, u: UNKNOWN_USER }), [UNKNOWN_TEAM, UNKNOWN_USER]));
    }
    expect(await teamRow(foreign.id)).toMatchObject({ organizationId: other, title: 'Core', members: [expect.anything(), expect.anything()] });
  });
});

describe('GET /orgs/{o}/teams', () => {
  async function threeTeams() {
    const { admin, o, member, team: core } = await setup();
    const owner = await buildMember(h, o, 'read');
    const create = async (title: string) => expectOk(await admin.rest('PUT', teamsPath(o), { title }), 201, 'createOrganizationTeam');
    const alpha = await create('Alpha Squad');
    const beta = await create('Beta Squad');
    expect((await admin.rest('PUT', `${teamPath(o, beta.id)}/members/${owner.userId}`, { role: 'owner' })).status).toBe(204);
    expect((await admin.rest('PUT', `${teamPath(o, alpha.id)}/members/${owner.userId}`, { role: 'member' })).status).toBe(204);
    return { admin, o, member, owner, core, alpha, beta };
  }

  it('REST: lists teams by title with real counts; title and owner filters', async () => {
    const { admin, o, member, owner, core, alpha, beta } = await threeTeams();
    const list = async (query = '') => expectOk(await member.rest('GET', `${teamsPath(o)}?${query}`), 200, 'listTeamsInOrganizationById');
    const all = await list();
    expect(all.count).toBe(3);
    expect(all.items.map((t: any) => t.id)).toEqual([alpha.id, beta.id, core.id]);
    expect(all.items[2]).toEqual({ object: 'team', id: core.id, title: 'Core', members: 2, spaces: 0, createdAt: expect.any(String) });
    expect(all.items.map((t: any) => t.members)).toEqual([1, 1, 2]);
    expect((await list('title=SQUAD')).items.map((t: any) => t.id)).toEqual([alpha.id, beta.id]);
    expect((await list('title=beta%20s')).items.map((t: any) => t.id)).toEqual([beta.id]);
    expect((await list(`owner=${admin.userId}`)).count).toBe(3);
    const owned = await list(`owner=${owner.userId}`);
    expect(owned.items.map((t: any) => t.id)).toEqual([beta.id]);
    expect(owned.count).toBe(1);
    expect((await list(`owner=${member.userId}`)).count).toBe(0);
    expect((await list(`owner=${owner.userId}&title=alpha`)).count).toBe(0);
    const page = await list('limit=2');
    expect(page.items).toHaveLength(2);
    const rest = await list(`limit=2&page=${encodeURIComponent(page.next.page)}`);
    expect(rest.items.map((t: any) => t.id)).toEqual([core.id]);
    expect(rest.next).toBeUndefined();
  });

  it('REST: 400 naming limit and title', async () => {
    const { o, member } = await setup();
    restError(await member.rest('GET', `${teamsPath(o)}?limit=1001`), 400, 'limit');
    restError(await member.rest('GET', `${teamsPath(o)}?title=${'x'.repeat(65)}`), 400, 'title');
  });

  it('GraphQL: same list and filters; validation', async () => {
    const { o, member, owner, beta } = await threeTeams();
    const query = `query($o:String!,$owner:String,$title:String,$limit:Int){organizationTeams(organizationId:$o,owner:$owner,title:$title,limit:$limit){count items{${TEAM}}}}`;
    const all = gqlData(await member.gql(query, { o }), 'organizationTeams');
    expect(all.items.map((t: any) => t.title)).toEqual(['Alpha Squad', 'Beta Squad', 'Core']);
    expect(gqlData(await member.gql(query, { o, owner: owner.userId }), 'organizationTeams').items).toEqual([
      { object: 'team', id: beta.id, title: 'Beta Squad', members: 1, spaces: 0, createdAt: expect.any(String) },
    ]);
    expect(gqlData(await member.gql(query, { o, title: 'squad' }), 'organizationTeams').count).toBe(2);
    gqlError(await member.gql(query, { o, limit: 1001 }), 'BAD_REQUEST', 'limit');
    gqlError(await member.gql(query, { o, title: 'x'.repeat(65) }), 'BAD_REQUEST', 'title');
  });
});

describe('PUT /orgs/{o}/teams (create)', () => {
  it('REST: 201 with the team; members are organization member IDs; counts are real', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const a = await buildMember(h, o, 'read');
    const b = await buildMember(h, o, null);
    h.clock.advance(1234);
    const team = expectOk(await admin.rest('PUT', teamsPath(o), { title: 'Platform', members: [a.userId, b.userId] }), 201, 'createOrganizationTeam');
    expect(team).toEqual({ object: 'team', id: expect.any(String), title: 'Platform', members: 2, spaces: 0, createdAt: h.clock.now().toISOString() });
    expect(await rolesIn(team.id)).toEqual({ [a.userId]: 'member', [b.userId]: 'member' });
    expect(await counts(admin, o, team.id, a.userId)).toEqual({ team: 2, member: 1 });
    const max = expectOk(await admin.rest('PUT', teamsPath(o), { title: 'x'.repeat(64) }), 201, 'createOrganizationTeam');
    expect(max).toMatchObject({ title: 'x'.repeat(64), members: 0 });
  });

  it('REST: 400 naming title (missing, 0 or 65 characters) and members (unknown or foreign IDs); nothing created', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const { organizationId: other } = await buildOrganization(h, 'Other');
    const foreigner = await buildMember(h, other, 'read');
    restError(await admin.rest('PUT', teamsPath(o), {}), 400, 'title');
    restError(await admin.rest('PUT', teamsPath(o), { title: '' }), 400, 'title');
    restError(await admin.rest('PUT', teamsPath(o), { title: 'y'.repeat(65) }), 400, 'title');
    restError(await admin.rest('PUT', teamsPath(o), { title: 12 }), 400, 'title');
    restError(await admin.rest('PUT', teamsPath(o), { title: 'T', members: [UNKNOWN_USER] }), 400, 'members');
    restError(await admin.rest('PUT', teamsPath(o), { title: 'T', members: [admin.userId, foreigner.userId] }), 400, 'members');
    expect(await h.db.team.count({ where: { organizationId: o } })).toBe(0);
  });

  it('GraphQL: creates a team; validation errors', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const m = `mutation($o:String!,$title:String!,$members:[String!]){createOrganizationTeam(organizationId:$o,title:$title,members:$members){${TEAM}}}`;
    const team = gqlData(await admin.gql(m, { o, title: 'Docs', members: [admin.userId] }), 'createOrganizationTeam');
    expect(team).toMatchObject({ object: 'team', title: 'Docs', members: 1, spaces: 0 });
    expect(await rolesIn(team.id)).toEqual({ [admin.userId]: 'member' });
    gqlError(await admin.gql(m, { o, title: 'z'.repeat(65) }), 'BAD_REQUEST', 'title');
    gqlError(await admin.gql(m, { o }), 'BAD_REQUEST', 'title');
    gqlError(await admin.gql(m, { o, title: 'T', members: [UNKNOWN_USER] }), 'BAD_REQUEST', 'members');
    expect(await h.db.team.count({ where: { organizationId: o } })).toBe(1);
  });
});

describe('GET / PATCH / DELETE /orgs/{o}/teams/{teamId}', () => {
  it('GET (REST and GraphQL): any member reads the team; unknown team 404', async () => {
    const { o, member, team } = await setup();
    const body = expectOk(await member.rest('GET', teamPath(o, team.id)), 200, 'getTeamInOrganizationById');
    expect(body).toEqual({ object: 'team', id: team.id, title: 'Core', members: 2, spaces: 0, createdAt: expect.any(String) });
    const g = gqlData(await member.gql(`query($o:String!,$t:String!){organizationTeam(organizationId:$o,teamId:$t){${TEAM}}}`, { o, t: team.id }), 'organizationTeam');
    expect(g).toEqual(body);
    restError(await member.rest('GET', teamPath(o, UNKNOWN_TEAM)), 404);
    gqlError(await member.gql('query($o:String!){organizationTeam(organizationId:$o){id}}', { o }), 'BAD_REQUEST', 'teamId');
  });

  it('PATCH (REST and GraphQL): renames; title is required and 1..64', async () => {
    const { admin, o, team } = await setup();
    const body = expectOk(await admin.rest('PATCH', teamPath(o, team.id), { title: 'Core Renamed' }), 200, 'updateTeamInOrganizationById');
    expect(body).toMatchObject({ object: 'team', id: team.id, title: 'Core Renamed', members: 2 });
    expect((await teamRow(team.id))!.title).toBe('Core Renamed');
    restError(await admin.rest('PATCH', teamPath(o, team.id), {}), 400, 'title');
    restError(await admin.rest('PATCH', teamPath(o, team.id), { title: 'q'.repeat(65) }), 400, 'title');
    restError(await admin.rest('PATCH', teamPath(o, team.id), { title: null }), 400, 'title');
    restError(await admin.rest('PATCH', teamPath(o, UNKNOWN_TEAM), { title: 'Nope' }), 404);
    const m = `mutation($o:String!,$t:String!,$title:String!){updateOrganizationTeam(organizationId:$o,teamId:$t,title:$title){${TEAM}}}`;
    expect(gqlData(await admin.gql(m, { o, t: team.id, title: 'Via GraphQL' }), 'updateOrganizationTeam')).toMatchObject({ title: 'Via GraphQL' });
    gqlError(await admin.gql(m, { o, t: team.id, title: '' }), 'BAD_REQUEST', 'title');
    gqlError(await admin.gql(m, { o, t: team.id }), 'BAD_REQUEST', 'title');
    expect((await teamRow(team.id))!.title).toBe('Via GraphQL');
  });

  it('DELETE (REST and GraphQL): 204 empty; the team is gone and members lose it from their count', async () => {
    const { admin, o, member, team } = await setup();
    const spare = expectOk(await admin.rest('PUT', teamsPath(o), { title: 'Spare', members: [member.userId] }), 201, 'createOrganizationTeam');
    expect((await counts(admin, o, spare.id, member.userId)).member).toBe(2);
    expectOk(await admin.rest('DELETE', teamPath(o, team.id)), 204, 'removeTeamFromOrganizationById');
    restError(await admin.rest('GET', teamPath(o, team.id)), 404);
    expect(await counts(admin, o, spare.id, member.userId)).toEqual({ team: 1, member: 1 });
    expect(expectOk(await admin.rest('GET', `/v1/orgs/${o}/members/${admin.userId}`), 200, 'getMemberInOrganizationById').teams).toBe(0);
    restError(await admin.rest('DELETE', teamPath(o, team.id)), 404);
    restError(await admin.raw('DELETE', teamPath(o, spare.id), '{'), 400);
    const m = 'mutation($o:String!,$t:String!){deleteOrganizationTeam(organizationId:$o,teamId:$t)}';
    expect(gqlData(await admin.gql(m, { o, t: spare.id }), 'deleteOrganizationTeam')).toBe(true);
    expect(await teamRow(spare.id)).toBeNull();
    gqlError(await admin.gql('mutation($o:String!){deleteOrganizationTeam(organizationId:$o)}', { o }), 'BAD_REQUEST', 'teamId');
  });
});

describe('GET /orgs/{o}/teams/{teamId}/members', () => {
  it('REST and GraphQL: {organization: Member, team: {role}} items', async () => {
    const { admin, o, member, team } = await setup();
    await admin.rest('PUT', `${teamPath(o, team.id)}/members/${member.userId}`, { role: 'owner' });
    const body = expectOk(await member.rest('GET', `${teamPath(o, team.id)}/members`), 200, 'listTeamMembersInOrganizationById');
    expect(body.count).toBe(2);
    const byId = Object.fromEntries(body.items.map((i: any) => [i.organization.id, i]));
    expect(byId[member.userId]).toEqual({
      organization: expect.objectContaining({ object: 'member', id: member.userId, role: 'create', teams: 1, user: expect.objectContaining({ email: member.email }) }),
      team: { role: 'owner' },
    });
    expect(byId[admin.userId]).toMatchObject({ organization: { role: 'admin' }, team: { role: 'member' } });
    const page = expectOk(await member.rest('GET', `${teamPath(o, team.id)}/members?limit=1`), 200, 'listTeamMembersInOrganizationById');
    const next = expectOk(await member.rest('GET', `${teamPath(o, team.id)}/members?limit=1&page=${encodeURIComponent(page.next.page)}`), 200, 'listTeamMembersInOrganizationById');
    expect([...page.items, ...next.items].map((i: any) => i.organization.id).sort()).toEqual([admin.userId, member.userId].sort());
    restError(await member.rest('GET', `${teamPath(o, team.id)}/members?limit=1001`), 400, 'limit');
    const q = `query($o:String!,$t:String!,$limit:Int){organizationTeamMembers(organizationId:$o,teamId:$t,limit:$limit){count items{organization{id role} team{role}}}}`;
    const g = gqlData(await member.gql(q, { o, t: team.id }), 'organizationTeamMembers');
    expect(g.count).toBe(2);
    expect(g.items).toEqual(expect.arrayContaining([{ organization: { id: member.userId, role: 'create' }, team: { role: 'owner' } }]));
    gqlError(await member.gql(q, { o, t: team.id, limit: 1001 }), 'BAD_REQUEST', 'limit');
  });
});

describe('PUT /orgs/{o}/teams/{teamId}/members (bulk)', () => {
  async function crew() {
    const { admin, organizationId: o } = await buildOrganization(h);
    const [a, b, c] = [await buildMember(h, o, 'read'), await buildMember(h, o, 'edit'), await buildMember(h, o, null)];
    const team = expectOk(await admin.rest('PUT', teamsPath(o), { title: 'Crew' }), 201, 'createOrganizationTeam');
    return { admin, o, a, b, c, team, path: `${teamPath(o, team.id)}/members` };
  }

  it('REST: adds by ID and e-mail with memberships roles, removes; add+remove ends removed; 204 empty', async () => {
    const { admin, o, a, b, c, team, path } = await crew();
    const first = await admin.rest('PUT', path, { add: [a.userId, b.email], memberships: { [b.email]: { role: 'owner' } } });
    expectOk(first, 204, 'updateMembersInOrganizationTeam');
    expect(await rolesIn(team.id)).toEqual({ [a.userId]: 'member', [b.userId]: 'owner' });
    expect(await counts(admin, o, team.id, b.userId)).toEqual({ team: 2, member: 1 });
    const second = await admin.rest('PUT', path, { add: [c.userId, a.email], remove: [a.userId, c.email], memberships: { [b.userId]: { role: 'member' } } });
    expectOk(second, 204, 'updateMembersInOrganizationTeam');
    expect(await rolesIn(team.id)).toEqual({ [b.userId]: 'member' });
    expect(await counts(admin, o, team.id, a.userId)).toEqual({ team: 1, member: 0 });
    expectOk(await admin.rest('PUT', path, {}), 204, 'updateMembersInOrganizationTeam');
    expect(await rolesIn(team.id)).toEqual({ [b.userId]: 'member' });
  });

  it('REST: 400 for an invalid memberships role or an unknown member; nothing changes', async () => {
    const { admin, a, team, path } = await crew();
    restError(await admin.rest('PUT', path, { add: [a.userId], memberships: { [a.userId]: { role: 'admin' } } }), 400, 'memberships');
    restError(await admin.rest('PUT', path, { add: [a.userId], memberships: { [a.userId]: 'owner' } }), 400, 'memberships');
    restError(await admin.rest('PUT', path, { add: [a.userId, 'nobody@example.com'] }), 400, 'add');
    restError(await admin.rest('PUT', path, { remove: [UNKNOWN_USER] }), 400, 'remove');
    restError(await admin.rest('PUT', path, { add: 'not-a-list-of-members' }), 400, 'add');
    expect(await rolesIn(team.id)).toEqual({});
  });

  it("a team owner who is not an organization admin manages their team's members", async () => {
    const { admin, a, b, c, team, path } = await crew();
    await admin.rest('PUT', path, { add: [a.userId], memberships: { [a.userId]: { role: 'owner' } } });
    expectOk(await a.rest('PUT', path, { add: [b.userId, c.email] }), 204, 'updateMembersInOrganizationTeam');
    expect(await a.rest('DELETE', `${path}/${c.userId}`)).toMatchObject({ status: 204, text: '' });
    expect(await a.rest('PUT', `${path}/${b.userId}`, { role: 'owner' })).toMatchObject({ status: 204, text: '' });
    expect(await rolesIn(team.id)).toEqual({ [a.userId]: 'owner', [b.userId]: 'owner' });
    restError(await c.rest('PUT', path, { add: [c.userId] }), 403);
  });

  it('GraphQL: same operation with the memberships map; validation', async () => {
    const { admin, o, a, b, team } = await crew();
    const m = `mutation($o:String!,$t:String!,$add:[String!],$remove:[String!],$memberships:JSON){
      updateOrganizationTeamMembers(organizationId:$o,teamId:$t,add:$add,remove:$remove,memberships:$memberships)}`;
    const vars = { o, t: team.id };
    expect(gqlData(await admin.gql(m, { ...vars, add: [a.email, b.userId], memberships: { [a.email]: { role: 'owner' } } }), 'updateOrganizationTeamMembers')).toBe(true);
    expect(await rolesIn(team.id)).toEqual({ [a.userId]: 'owner', [b.userId]: 'member' });
    expect(gqlData(await admin.gql(m, { ...vars, add: [b.userId], remove: [b.email] }), 'updateOrganizationTeamMembers')).toBe(true);
    expect(await rolesIn(team.id)).toEqual({ [a.userId]: 'owner' });
    gqlError(await admin.gql(m, { ...vars, memberships: { [a.userId]: { role: 'boss' } } }), 'BAD_REQUEST', 'memberships');
    gqlError(await admin.gql(m, { ...vars, add: ['ghost@example.com'] }), 'BAD_REQUEST', 'add');
    expect(await rolesIn(team.id)).toEqual({ [a.userId]: 'owner' });
  });
});

describe('PUT and DELETE /orgs/{o}/teams/{teamId}/members/{userId}', () => {
  it('REST: PUT adds (member by default) or updates the role, 204 empty; DELETE removes, 404 for non-members', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const [a, b] = [await buildMember(h, o, 'read'), await buildMember(h, o, 'read')];
    const team = expectOk(await admin.rest('PUT', teamsPath(o), { title: 'Solo' }), 201, 'createOrganizationTeam');
    const path = (u: string) => `${teamPath(o, team.id)}/members/${u}`;
    expectOk(await admin.rest('PUT', path(a.userId), { role: 'owner' }), 204, 'addMemberToOrganizationTeamById');
    expectOk(await admin.raw('PUT', path(b.userId), ''), 204, 'addMemberToOrganizationTeamById');
    expect(await rolesIn(team.id)).toEqual({ [a.userId]: 'owner', [b.userId]: 'member' });
    expectOk(await admin.rest('PUT', path(a.userId), { role: 'member' }), 204, 'addMemberToOrganizationTeamById');
    expectOk(await admin.rest('PUT', path(b.userId), {}), 204, 'addMemberToOrganizationTeamById');
    expect(await rolesIn(team.id)).toEqual({ [a.userId]: 'member', [b.userId]: 'member' });
    expect(await counts(admin, o, team.id, a.userId)).toEqual({ team: 2, member: 1 });
    restError(await admin.rest('PUT', path(a.userId), { role: 'admin' }), 400, 'role');
    restError(await admin.rest('PUT', path(UNKNOWN_USER), {}), 404);
    expectOk(await admin.rest('DELETE', path(a.userId)), 204, 'deleteMemberFromOrganizationTeamById');
    expect(await rolesIn(team.id)).toEqual({ [b.userId]: 'member' });
    expect(await counts(admin, o, team.id, a.userId)).toEqual({ team: 1, member: 0 });
    restError(await admin.rest('DELETE', path(a.userId)), 404);
    restError(await admin.rest('DELETE', path(UNKNOWN_USER)), 404);
  });

  it('GraphQL: add, update and remove a team member; validation and 404', async () => {
    const { admin, o, member, team } = await setup();
    const newcomer = await buildMember(h, o, 'read');
    const add = 'mutation($o:String!,$t:String!,$u:String!,$role:TeamRole){addOrganizationTeamMember(organizationId:$o,teamId:$t,userId:$u,role:$role)}';
    const remove = 'mutation($o:String!,$t:String!,$u:String!){removeOrganizationTeamMember(organizationId:$o,teamId:$t,userId:$u)}';
    const vars = { o, t: team.id };
    expect(gqlData(await admin.gql(add, { ...vars, u: newcomer.userId }), 'addOrganizationTeamMember')).toBe(true);
    expect(gqlData(await admin.gql(add, { ...vars, u: member.userId, role: 'owner' }), 'addOrganizationTeamMember')).toBe(true);
    expect(await rolesIn(team.id)).toEqual({ [admin.userId]: 'member', [member.userId]: 'owner', [newcomer.userId]: 'member' });
    gqlError(await admin.gql(add, { ...vars, u: member.userId, role: 'admin' }), 'BAD_REQUEST', 'role');
    expect(gqlData(await admin.gql(remove, { ...vars, u: newcomer.userId }), 'removeOrganizationTeamMember')).toBe(true);
    gqlError(await admin.gql(remove, { ...vars, u: newcomer.userId }), 'NOT_FOUND');
    gqlError(await admin.gql('mutation($o:String!,$t:String!){removeOrganizationTeamMember(organizationId:$o,teamId:$t)}', vars), 'BAD_REQUEST', 'userId');
    expect(await counts(admin, o, team.id, member.userId)).toEqual({ team: 2, member: 1 });
  });
});
