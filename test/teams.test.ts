import { describe, expect, it } from 'vitest';
import { expectGitBookOk, gqlData, gqlError, masked, restError } from './support/assertions.ts';
import { anonymous, newMember, newOrganization, useHarness, type Caller, type HttpResult } from './support/harness.ts';

const h = useHarness();

const TEAM = 'object id title members spaces createdAt';
const UNKNOWN_ORG = 'unknownOrg0000000001';
const UNKNOWN_TEAM = 'unknownTeam000000001';
const UNKNOWN_USER = 'unknownUser000000001';
/** Properties GitBook requires but the description does not name. */
const IGNORE = ['sites', 'permissions'];

const ok = (operationId: string, res: HttpResult, status = 200) => expectGitBookOk(operationId, res, status, IGNORE);

const teamsPath = (o: string) => `/v1/orgs/${o}/teams`;
const teamPath = (o: string, t: string) => `/v1/orgs/${o}/teams/${t}`;

/** An organization with an admin, a plain member and one team holding the admin and the member. */
async function setup() {
  const { admin, organizationId: o } = await newOrganization(h);
  const member = await newMember(h, o, 'create', 'Plain Member');
  const team = ok('createOrganizationTeam', await admin.rest('PUT', teamsPath(o), { title: 'Core', members: [admin.userId, member.userId] }), 201);
  return { admin, o, member, team: team as { id: string; title: string } };
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

interface Op {
  name: string;
  rest: (o: string, t: string, u: string) => [string, string, unknown?];
  gql: (o: string, t: string, u: string) => [string, Record<string, unknown>];
  /** Who is refused with 403: 'admin' ops refuse non-admins, 'manage' ops refuse non-owners. */
  needs?: 'admin' | 'manage';
}
const q = (field: string, args: string, selection = '') => {
  const vars = args.split(',').map((a) => `$${a}:String!`).join(',');
  const params = args.split(',').map((a) => `${{ o: 'organizationId', t: 'teamId', u: 'userId' }[a]}:$${a}`).join(',');
  return (extra = '') => `${field.startsWith('m:') ? 'mutation' : 'query'}(${vars}){${field.replace('m:', '')}(${params}${extra})${selection}}`;
};
const OPS: Op[] = [
  { name: 'list teams', rest: (o) => ['GET', teamsPath(o)], gql: (o) => [q('organizationTeams', 'o', '{count}')(), { o }] },
  {
    name: 'create team', needs: 'admin',
    rest: (o) => ['PUT', teamsPath(o), { title: 'New' }],
    gql: (o) => [q('m:createOrganizationTeam', 'o', '{id}')(',title:"New"'), { o }],
  },
  { name: 'get team', rest: (o, t) => ['GET', teamPath(o, t)], gql: (o, t) => [q('organizationTeam', 'o,t', '{id}')(), { o, t }] },
  {
    name: 'rename team', needs: 'admin',
    rest: (o, t) => ['PATCH', teamPath(o, t), { title: 'Renamed' }],
    gql: (o, t) => [q('m:updateOrganizationTeam', 'o,t', '{id}')(',title:"Renamed"'), { o, t }],
  },
  {
    name: 'delete team', needs: 'admin',
    rest: (o, t) => ['DELETE', teamPath(o, t)],
    gql: (o, t) => [q('m:deleteOrganizationTeam', 'o,t')(), { o, t }],
  },
  {
    name: 'list team members',
    rest: (o, t) => ['GET', `${teamPath(o, t)}/members`],
    gql: (o, t) => [q('organizationTeamMembers', 'o,t', '{count}')(), { o, t }],
  },
  {
    name: 'update team members', needs: 'manage',
    rest: (o, t, u) => ['PUT', `${teamPath(o, t)}/members`, { remove: [u] }],
    gql: (o, t, u) => [q('m:updateOrganizationTeamMembers', 'o,t')(`,remove:["${u}"]`), { o, t }],
  },
  {
    name: 'put team member', needs: 'manage',
    rest: (o, t, u) => ['PUT', `${teamPath(o, t)}/members/${u}`, { role: 'owner' }],
    gql: (o, t, u) => [q('m:addOrganizationTeamMember', 'o,t,u')(',role:owner'), { o, t, u }],
  },
  {
    name: 'delete team member', needs: 'manage',
    rest: (o, t, u) => ['DELETE', `${teamPath(o, t)}/members/${u}`],
    gql: (o, t, u) => [q('m:removeOrganizationTeamMember', 'o,t,u')(), { o, t, u }],
  },
];

const restCall = (c: Caller, op: Op, o: string, t: string, u: string) => c.rest(...op.rest(o, t, u));
const gqlCall = (c: Caller, op: Op, o: string, t: string, u: string) => c.gql(...op.gql(o, t, u));

describe.each(OPS)('$name: refusals', (op) => {
  it('401 without a token (REST and GraphQL)', async () => {
    const { o, member, team } = await setup();
    const [method, path, body] = op.rest(o, team.id, member.userId);
    restError(await anonymous(h).rest(method, path, body), 401);
    const [query, variables] = op.gql(o, team.id, member.userId);
    const res = await anonymous(h).rest('POST', '/graphql', { query, variables });
    expect(res.status).toBe(401);
    gqlError(res, 'UNAUTHENTICATED');
  });

  it('a caller from another organization gets the same 404 as for unknown IDs, and changes nothing', async () => {
    const { o, member, team } = await setup();
    const { admin: outsider } = await newOrganization(h, 'Other');
    const unknown: [string, string, string] = [UNKNOWN_ORG, UNKNOWN_TEAM, UNKNOWN_USER];
    for (const call of [restCall, gqlCall]) {
      const refused = await call(outsider, op, o, team.id, member.userId);
      expect(refused.status === 404 || refused.body?.errors?.[0]?.extensions?.code === 'NOT_FOUND', refused.text).toBe(true);
      expect(masked(refused, [o, team.id, member.userId])).toEqual(masked(await call(outsider, op, ...unknown), unknown));
    }
    expect(await teamRow(team.id)).toMatchObject({ title: 'Core', members: [expect.anything(), expect.anything()] });
    expect(await h.db.team.count({ where: { organizationId: o } })).toBe(1);
  });

  if (op.rest('o', 't', 'u')[1].includes('/teams/t')) {
    it("a team of another organization, asked for through the caller's own organization, is an unknown team", async () => {
      const { admin, o } = await setup();
      const { o: other, team: foreign, member: foreignMember } = await setup();
      for (const call of [restCall, gqlCall]) {
        const res = await call(admin, op, o, foreign.id, foreignMember.userId);
        expect(res.text).toMatch(/404|NOT_FOUND/);
        expect(masked(res, [foreign.id, foreignMember.userId])).toEqual(masked(await call(admin, op, o, UNKNOWN_TEAM, UNKNOWN_USER), [UNKNOWN_TEAM, UNKNOWN_USER]));
      }
      expect(await teamRow(foreign.id)).toMatchObject({ organizationId: other, title: 'Core', members: [expect.anything(), expect.anything()] });
    });
  }

  if (op.needs) {
    it('403 for a member lacking the role (REST and GraphQL), nothing changes', async () => {
      const { admin, o, member, team } = await setup();
      // A team owner is not enough for admin operations, and owning another team is not enough either.
      const other = ok('createOrganizationTeam', await admin.rest('PUT', teamsPath(o), { title: 'Other' }), 201);
      const owner = await newMember(h, o, 'edit');
      expect((await admin.rest('PUT', `${teamPath(o, other.id)}/members/${owner.userId}`, { role: 'owner' })).status).toBe(204);
      for (const caller of [member, owner]) {
        restError(await restCall(caller, op, o, team.id, member.userId), 403);
        gqlError(await gqlCall(caller, op, o, team.id, member.userId), 'FORBIDDEN');
      }
      if (op.needs === 'admin') {
        await admin.rest('PUT', `${teamPath(o, team.id)}/members/${owner.userId}`, { role: 'owner' });
        restError(await restCall(owner, op, o, team.id, member.userId), 403);
      }
      expect(await h.db.team.count({ where: { organizationId: o } })).toBe(2);
      expect(await teamRow(team.id)).toMatchObject({ title: 'Core' });
      expect((await rolesIn(team.id))[member.userId]).toBe('member');
    });
  }
});

describe('GET /orgs/{o}/teams', () => {
  async function threeTeams() {
    const { admin, o, member, team: core } = await setup();
    const owner = await newMember(h, o, 'read');
    const create = async (title: string) => ok('createOrganizationTeam', await admin.rest('PUT', teamsPath(o), { title }), 201);
    const alpha = await create('Alpha Squad');
    const beta = await create('Beta Squad');
    expect((await admin.rest('PUT', `${teamPath(o, beta.id)}/members/${owner.userId}`, { role: 'owner' })).status).toBe(204);
    expect((await admin.rest('PUT', `${teamPath(o, alpha.id)}/members/${owner.userId}`, { role: 'member' })).status).toBe(204);
    return { admin, o, member, owner, core, alpha, beta };
  }

  it('REST: lists teams by title with real counts; title and owner filters', async () => {
    const { admin, o, member, owner, core, alpha, beta } = await threeTeams();
    const list = async (query = '') => ok('listTeamsInOrganizationById', await member.rest('GET', `${teamsPath(o)}?${query}`));
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
    const { admin, organizationId: o } = await newOrganization(h);
    const a = await newMember(h, o, 'read');
    const b = await newMember(h, o, null);
    h.clock.advance(1234);
    const team = ok('createOrganizationTeam', await admin.rest('PUT', teamsPath(o), { title: 'Platform', members: [a.userId, b.userId] }), 201);
    expect(team).toEqual({ object: 'team', id: expect.any(String), title: 'Platform', members: 2, spaces: 0, createdAt: h.clock.now().toISOString() });
    expect(await rolesIn(team.id)).toEqual({ [a.userId]: 'member', [b.userId]: 'member' });
    expect(await counts(admin, o, team.id, a.userId)).toEqual({ team: 2, member: 1 });
    const max = ok('createOrganizationTeam', await admin.rest('PUT', teamsPath(o), { title: 'x'.repeat(64) }), 201);
    expect(max).toMatchObject({ title: 'x'.repeat(64), members: 0 });
  });

  it('REST: 400 naming title (missing, 0 or 65 characters) and members (unknown or foreign IDs); nothing created', async () => {
    const { admin, organizationId: o } = await newOrganization(h);
    const { organizationId: other } = await newOrganization(h, 'Other');
    const foreigner = await newMember(h, other, 'read');
    restError(await admin.rest('PUT', teamsPath(o), {}), 400, 'title');
    restError(await admin.rest('PUT', teamsPath(o), { title: '' }), 400, 'title');
    restError(await admin.rest('PUT', teamsPath(o), { title: 'y'.repeat(65) }), 400, 'title');
    restError(await admin.rest('PUT', teamsPath(o), { title: 12 }), 400, 'title');
    restError(await admin.rest('PUT', teamsPath(o), { title: 'T', members: [UNKNOWN_USER] }), 400, 'members');
    restError(await admin.rest('PUT', teamsPath(o), { title: 'T', members: [admin.userId, foreigner.userId] }), 400, 'members');
    expect(await h.db.team.count({ where: { organizationId: o } })).toBe(0);
  });

  it('GraphQL: creates a team; validation errors', async () => {
    const { admin, organizationId: o } = await newOrganization(h);
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
    const body = ok('getTeamInOrganizationById', await member.rest('GET', teamPath(o, team.id)));
    expect(body).toEqual({ object: 'team', id: team.id, title: 'Core', members: 2, spaces: 0, createdAt: expect.any(String) });
    const g = gqlData(await member.gql(`query($o:String!,$t:String!){organizationTeam(organizationId:$o,teamId:$t){${TEAM}}}`, { o, t: team.id }), 'organizationTeam');
    expect(g).toEqual(body);
    restError(await member.rest('GET', teamPath(o, UNKNOWN_TEAM)), 404);
    gqlError(await member.gql('query($o:String!){organizationTeam(organizationId:$o){id}}', { o }), 'BAD_REQUEST', 'teamId');
  });

  it('PATCH (REST and GraphQL): renames; title is required and 1..64', async () => {
    const { admin, o, team } = await setup();
    const body = ok('updateTeamInOrganizationById', await admin.rest('PATCH', teamPath(o, team.id), { title: 'Core Renamed' }));
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
    const spare = ok('createOrganizationTeam', await admin.rest('PUT', teamsPath(o), { title: 'Spare', members: [member.userId] }), 201);
    expect((await counts(admin, o, spare.id, member.userId)).member).toBe(2);
    ok('removeTeamFromOrganizationById', await admin.rest('DELETE', teamPath(o, team.id)), 204);
    restError(await admin.rest('GET', teamPath(o, team.id)), 404);
    expect(await counts(admin, o, spare.id, member.userId)).toEqual({ team: 1, member: 1 });
    expect(ok('getMemberInOrganizationById', await admin.rest('GET', `/v1/orgs/${o}/members/${admin.userId}`)).teams).toBe(0);
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
    const body = ok('listTeamMembersInOrganizationById', await member.rest('GET', `${teamPath(o, team.id)}/members`));
    expect(body.count).toBe(2);
    const byId = Object.fromEntries(body.items.map((i: any) => [i.organization.id, i]));
    expect(byId[member.userId]).toEqual({
      organization: expect.objectContaining({ object: 'member', id: member.userId, role: 'create', teams: 1, user: expect.objectContaining({ email: member.email }) }),
      team: { role: 'owner' },
    });
    expect(byId[admin.userId]).toMatchObject({ organization: { role: 'admin' }, team: { role: 'member' } });
    const page = ok('listTeamMembersInOrganizationById', await member.rest('GET', `${teamPath(o, team.id)}/members?limit=1`));
    const next = ok('listTeamMembersInOrganizationById', await member.rest('GET', `${teamPath(o, team.id)}/members?limit=1&page=${encodeURIComponent(page.next.page)}`));
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
    const { admin, organizationId: o } = await newOrganization(h);
    const [a, b, c] = [await newMember(h, o, 'read'), await newMember(h, o, 'edit'), await newMember(h, o, null)];
    const team = ok('createOrganizationTeam', await admin.rest('PUT', teamsPath(o), { title: 'Crew' }), 201);
    return { admin, o, a, b, c, team, path: `${teamPath(o, team.id)}/members` };
  }

  it('REST: adds by ID and e-mail with memberships roles, removes; add+remove ends removed; 204 empty', async () => {
    const { admin, o, a, b, c, team, path } = await crew();
    const first = await admin.rest('PUT', path, { add: [a.userId, b.email], memberships: { [b.email]: { role: 'owner' } } });
    ok('updateMembersInOrganizationTeam', first, 204);
    expect(await rolesIn(team.id)).toEqual({ [a.userId]: 'member', [b.userId]: 'owner' });
    expect(await counts(admin, o, team.id, b.userId)).toEqual({ team: 2, member: 1 });
    const second = await admin.rest('PUT', path, { add: [c.userId, a.email], remove: [a.userId, c.email], memberships: { [b.userId]: { role: 'member' } } });
    ok('updateMembersInOrganizationTeam', second, 204);
    expect(await rolesIn(team.id)).toEqual({ [b.userId]: 'member' });
    expect(await counts(admin, o, team.id, a.userId)).toEqual({ team: 1, member: 0 });
    ok('updateMembersInOrganizationTeam', await admin.rest('PUT', path, {}), 204);
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
    ok('updateMembersInOrganizationTeam', await a.rest('PUT', path, { add: [b.userId, c.email] }), 204);
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
    const { admin, organizationId: o } = await newOrganization(h);
    const [a, b] = [await newMember(h, o, 'read'), await newMember(h, o, 'read')];
    const team = ok('createOrganizationTeam', await admin.rest('PUT', teamsPath(o), { title: 'Solo' }), 201);
    const path = (u: string) => `${teamPath(o, team.id)}/members/${u}`;
    ok('addMemberToOrganizationTeamById', await admin.rest('PUT', path(a.userId), { role: 'owner' }), 204);
    ok('addMemberToOrganizationTeamById', await admin.raw('PUT', path(b.userId), ''), 204);
    expect(await rolesIn(team.id)).toEqual({ [a.userId]: 'owner', [b.userId]: 'member' });
    ok('addMemberToOrganizationTeamById', await admin.rest('PUT', path(a.userId), { role: 'member' }), 204);
    ok('addMemberToOrganizationTeamById', await admin.rest('PUT', path(b.userId), {}), 204);
    expect(await rolesIn(team.id)).toEqual({ [a.userId]: 'member', [b.userId]: 'member' });
    expect(await counts(admin, o, team.id, a.userId)).toEqual({ team: 2, member: 1 });
    restError(await admin.rest('PUT', path(a.userId), { role: 'admin' }), 400, 'role');
    restError(await admin.rest('PUT', path(UNKNOWN_USER), {}), 404);
    ok('deleteMemberFromOrganizationTeamById', await admin.rest('DELETE', path(a.userId)), 204);
    expect(await rolesIn(team.id)).toEqual({ [b.userId]: 'member' });
    expect(await counts(admin, o, team.id, a.userId)).toEqual({ team: 1, member: 0 });
    restError(await admin.rest('DELETE', path(a.userId)), 404);
    restError(await admin.rest('DELETE', path(UNKNOWN_USER)), 404);
  });

  it('GraphQL: add, update and remove a team member; validation and 404', async () => {
    const { admin, o, member, team } = await setup();
    const newcomer = await newMember(h, o, 'read');
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
