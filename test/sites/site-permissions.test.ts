// Who can access a site (GitBook's site-permissions operations): inviteToSite, the user/team/aggregate
// lists, updating and removing grants — through both doors, validated against GitBook's schemas — and the
// one access rule (site.policy.ts): a grant opens the site's management routes, `edit` changes it but does
// not delete it nor grant, removing the grant closes them again.
import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace, buildTeam } from '../factories.ts';
import { DOORS, expectFailure, expectGitBookShape, expectOk, restError, throughDoor } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller } from '../support/harness.ts';

const h = useHarness({ publishedUrl: 'https://docs.example.com' });

const UNKNOWN_SITE = 'unknownSite000000001';
const UNKNOWN_USER = 'unknownUser000000001';
const UNKNOWN_TEAM = 'unknownTeam000000001';

const sites = (o: string) => `/v1/orgs/${o}/sites`;
const perms = (o: string, s: string) => `${sites(o)}/${s}/permissions`;
const USER = 'object id displayName email photoURL urls { location }';
const TEAM = 'object id title members spaces createdAt';

const gql = {
  users: `query($o:String!,$s:String!,$page:String,$limit:Int){siteUserPermissions(organizationId:$o,siteId:$s,page:$page,limit:$limit){count next{page} items{permission user{${USER}}}}}`,
  teams: `query($o:String!,$s:String!,$page:String,$limit:Int){siteTeamPermissions(organizationId:$o,siteId:$s,page:$page,limit:$limit){count next{page} items{permission team{${TEAM}}}}}`,
  aggregate: `query($o:String!,$s:String!,$page:String,$limit:Int,$role:MemberRoleFilter,$sort:SitePermissionSort,$order:Order,$search:String,$team:String){sitePermissionsAggregate(organizationId:$o,siteId:$s,page:$page,limit:$limit,role:$role,sort:$sort,order:$order,search:$search,team:$team){count next{page} items{permission user{${USER}} origin{type organization site reason team} disabled lastSeenAt}}}`,
  invite: `mutation($o:String!,$s:String!,$role:Role!,$users:[String!],$teams:[String!],$emails:[String!]){inviteToSite(organizationId:$o,siteId:$s,role:$role,users:$users,teams:$teams,emails:$emails)}`,
  updateUser: `mutation($o:String!,$s:String!,$u:String!,$role:Role){updateSiteUserPermission(organizationId:$o,siteId:$s,userId:$u,role:$role)}`,
  updateTeam: `mutation($o:String!,$s:String!,$t:String!,$role:Role){updateSiteTeamPermission(organizationId:$o,siteId:$s,teamId:$t,role:$role)}`,
  removeUser: `mutation($o:String!,$s:String!,$u:String!){removeSiteUser(organizationId:$o,siteId:$s,userId:$u)}`,
  removeTeam: `mutation($o:String!,$s:String!,$t:String!){removeSiteTeam(organizationId:$o,siteId:$s,teamId:$t)}`,
};

/** An organization with an admin, members (read, edit, create), a guest, a team (the guest and the reader), two sites. */
async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const reader = await buildMember(h, o, 'read', 'Reader');
  const editor = await buildMember(h, o, 'edit', 'Editor');
  const creator = await buildMember(h, o, 'create', 'Creator');
  const guest = await buildMember(h, o, null, 'Guest');
  const team = await buildTeam(admin, o, { title: 'Writers', members: [guest.userId, reader.userId] });
  const guides = await buildSpace(admin, o, { title: 'Guides' });
  const site = expectOk(await admin.rest('POST', sites(o), { title: 'Developer docs', spaces: [guides.id] }), 201);
  const other = expectOk(await admin.rest('POST', sites(o), { title: 'Internal docs', spaces: [guides.id] }), 201);
  return { admin, o, reader, editor, creator, guest, team, guides, site, other };
}
type World = Awaited<ReturnType<typeof setup>>;

const byKey = (k: string) => (a: any, b: any) => (a[k] < b[k] ? -1 : a[k] > b[k] ? 1 : 0);
const grantsOf = async (siteId: string) => ({
  users: (await h.db.siteUserGrant.findMany({ where: { siteId }, select: { userId: true, role: true } })).sort(byKey('userId')),
  teams: (await h.db.siteTeamGrant.findMany({ where: { siteId }, select: { teamId: true, role: true } })).sort(byKey('teamId')),
});

const invite = async (caller: Caller, o: string, s: string, body: Record<string, unknown>) => expectOk(await caller.rest('POST', perms(o, s), body), 204, 'inviteToSite');

describe('inviteToSite, the lists, update and remove (both doors, GitBook shapes)', () => {
  it.each(DOORS)('%s: invite users and teams, list them, change their levels, remove them', async (door) => {
    const w = await setup();
    const { o } = w;
    const s = w.site.id;
    const call = (rest: [string, string, unknown?], q: [string, string, Record<string, unknown>]) => throughDoor(door, w.admin, rest, q, { dropNulls: true });

    h.clock.advance(1000);
    const body = { role: 'edit', users: [w.guest.userId, w.reader.userId] };
    expectOk(await call(['POST', perms(o, s), body], ['inviteToSite', gql.invite, { o, s, ...body }]), 204, 'inviteToSite');
    h.clock.advance(1000);
    expectOk(await call(['POST', perms(o, s), { role: 'read', teams: [w.team.id] }], ['inviteToSite', gql.invite, { o, s, role: 'read', teams: [w.team.id] }]), 204, 'inviteToSite');
    expect(await grantsOf(s)).toEqual({
      users: [{ userId: w.guest.userId, role: 'edit' }, { userId: w.reader.userId, role: 'edit' }].sort(byKey('userId')),
      teams: [{ teamId: w.team.id, role: 'read' }],
    });

    // listUserPermissionsInSite, paged by one.
    const first = expectOk(await call(['GET', `${perms(o, s)}/users?limit=1`], ['siteUserPermissions', gql.users, { o, s, limit: 1 }]), 200, 'listUserPermissionsInSite');
    expect(first).toMatchObject({ count: 2, items: [expect.anything()] });
    const second = expectOk(
      await call(['GET', `${perms(o, s)}/users?limit=1&page=${first.next.page}`], ['siteUserPermissions', gql.users, { o, s, limit: 1, page: first.next.page }]),
      200,
      'listUserPermissionsInSite',
    );
    expect(second.next).toBeUndefined();
    expect([...first.items, ...second.items].map((i: any) => [i.user.id, i.permission]).sort()).toEqual([[w.guest.userId, 'edit'], [w.reader.userId, 'edit']].sort());

    // listTeamPermissionsInSite.
    const teams = expectOk(await call(['GET', `${perms(o, s)}/teams`], ['siteTeamPermissions', gql.teams, { o, s }]), 200, 'listTeamPermissionsInSite');
    expect(teams).toMatchObject({ count: 1, items: [{ permission: 'read', team: { object: 'team', id: w.team.id, title: 'Writers', members: 2 } }] });

    // listPermissionsAggregateInSite: the admin (organization), the grants, the default read of members with a role.
    const all = expectOk(await call(['GET', `${perms(o, s)}/aggregate`], ['sitePermissionsAggregate', gql.aggregate, { o, s }]), 200, 'listPermissionsAggregateInSite');
    const levels = Object.fromEntries(all.items.map((i: any) => [i.user.id, [i.permission, i.origin]]));
    expect(all.count).toBe(5);
    expect(levels).toEqual({
      [w.admin.userId]: ['admin', { type: 'organization', organization: o }],
      [w.guest.userId]: ['edit', { type: 'site', site: s, reason: 'member' }],
      [w.reader.userId]: ['edit', { type: 'site', site: s, reason: 'member' }],
      [w.editor.userId]: ['read', { type: 'site', site: s, reason: 'default' }],
      [w.creator.userId]: ['read', { type: 'site', site: s, reason: 'default' }],
    });
    expect(all.items.every((i: any) => i.disabled === false)).toBe(true);

    // Update: the user's and the team's levels (204 / true); a role left out changes nothing.
    expectOk(await call(['PATCH', `${perms(o, s)}/users/${w.guest.userId}`, { role: 'read' }], ['updateSiteUserPermission', gql.updateUser, { o, s, u: w.guest.userId, role: 'read' }]), 204, 'updateUserPermissionInSite');
    expectOk(await call(['PATCH', `${perms(o, s)}/teams/${w.team.id}`, { role: 'admin' }], ['updateSiteTeamPermission', gql.updateTeam, { o, s, t: w.team.id, role: 'admin' }]), 204, 'updateTeamPermissionInSite');
    expectOk(await call(['PATCH', `${perms(o, s)}/users/${w.reader.userId}`, {}], ['updateSiteUserPermission', gql.updateUser, { o, s, u: w.reader.userId }]), 204, 'updateUserPermissionInSite');
    expect(await grantsOf(s)).toEqual({
      users: [{ userId: w.guest.userId, role: 'read' }, { userId: w.reader.userId, role: 'edit' }].sort(byKey('userId')),
      teams: [{ teamId: w.team.id, role: 'admin' }],
    });
    // The team's admin now outranks the guest's own grant: its origin names the team.
    const admins = expectOk(await call(['GET', `${perms(o, s)}/aggregate?role=admin&sort=name&order=asc`], ['sitePermissionsAggregate', gql.aggregate, { o, s, role: 'admin', sort: 'name', order: 'asc' }]), 200, 'listPermissionsAggregateInSite');
    expect(admins.items.map((i: any) => [i.user.id, i.permission, i.origin.type, i.origin.reason, i.origin.team]).sort()).toEqual(
      [
        [w.guest.userId, 'admin', 'site', 'team', w.team.id],
        [w.reader.userId, 'admin', 'site', 'team', w.team.id],
        [w.admin.userId, 'admin', 'organization', undefined, undefined],
      ].sort(),
    );
    expect(admins.items.map((i: any) => i.user.displayName)).toEqual([...admins.items.map((i: any) => i.user.displayName)].sort());

    // Remove: 205 (true) when there was a grant, 204 (false) when there was none.
    const removed = await call(['DELETE', `${perms(o, s)}/users/${w.guest.userId}`], ['removeSiteUser', gql.removeUser, { o, s, u: w.guest.userId }]);
    const again = await call(['DELETE', `${perms(o, s)}/users/${w.guest.userId}`], ['removeSiteUser', gql.removeUser, { o, s, u: w.guest.userId }]);
    const team = await call(['DELETE', `${perms(o, s)}/teams/${w.team.id}`], ['removeSiteTeam', gql.removeTeam, { o, s, t: w.team.id }]);
    if (door === 'rest') {
      expect([removed.raw.status, again.raw.status, team.raw.status]).toEqual([205, 204, 205]);
      expectGitBookShape('removeUserFromSite', 205, removed.raw.text);
      expectGitBookShape('removeUserFromSite', 204, again.raw.text);
      expectGitBookShape('removeTeamFromSite', 205, team.raw.text);
    } else {
      expect([removed.body, again.body, team.body]).toEqual([true, false, true]);
    }
    expect(await grantsOf(s)).toEqual({ users: [{ userId: w.reader.userId, role: 'edit' }], teams: [] });
  });

  it('the aggregate: role (a level, or guest), search, team, sort and paging', async () => {
    const w = await setup();
    const { o } = w;
    const s = w.site.id;
    await invite(w.admin, o, s, { role: 'edit', users: [w.guest.userId] });
    const ids = async (query: string) => {
      const res = expectOk(await w.admin.rest('GET', `${perms(o, s)}/aggregate${query}`), 200, 'listPermissionsAggregateInSite');
      return res.items.map((i: any) => i.user.id);
    };
    expect(await ids('?role=edit')).toEqual([w.guest.userId]);
    expect(await ids('?role=guest')).toEqual([w.guest.userId]);
    expect((await ids('?role=read')).sort()).toEqual([w.reader.userId, w.editor.userId, w.creator.userId].sort());
    expect(await ids('?role=admin')).toEqual([w.admin.userId]);
    expect(await ids('?role=comment')).toEqual([]);
    expect(await ids('?search=edit')).toEqual([w.editor.userId]);
    expect((await ids(`?team=${w.team.id}`)).sort()).toEqual([w.guest.userId, w.reader.userId].sort());
    // By name, ascending, one at a time: every page follows the last.
    const names: string[] = [];
    let page: string | undefined;
    do {
      const res = expectOk(await w.admin.rest('GET', `${perms(o, s)}/aggregate?sort=name&order=asc&limit=2${page ? `&page=${page}` : ''}`), 200, 'listPermissionsAggregateInSite');
      names.push(...res.items.map((i: any) => i.user.displayName));
      page = res.next?.page;
    } while (page);
    expect(names).toHaveLength(5);
    expect(names).toEqual([...names].sort());
    restError(await w.admin.rest('GET', `${perms(o, s)}/aggregate?role=owner`), 400);
    restError(await w.admin.rest('GET', `${perms(o, s)}/aggregate?sort=title`), 400);
  });

  it('validation: e-mails refused (as for spaces), at least one user or team, a role, known members and teams of this organization', async () => {
    const w = await setup();
    const { o } = w;
    const s = w.site.id;
    const elsewhere = await buildOrganization(h, 'Elsewhere');
    const foreignTeam = await buildTeam(elsewhere.admin, elsewhere.organizationId, { title: 'Foreign' });
    for (const door of DOORS) {
      const send = (body: Record<string, unknown>) => throughDoor(door, w.admin, ['POST', perms(o, s), body], ['inviteToSite', gql.invite, { o, s, ...body }]);
      expectFailure(await send({ role: 'read', emails: ['not-an-address'] }), 400, 'emails');
      expectFailure(await send({ role: 'read', users: [w.guest.userId], emails: ['not-an-address'] }), 400, 'emails');
      expectFailure(await send({ role: 'read' }), 400, 'users');
      expectFailure(await send({ role: null, users: [w.guest.userId] }), 400, 'role');
      expectFailure(await send({ role: 'owner', users: [w.guest.userId] }), 400, 'role');
      expectFailure(await send({ role: 'read', users: [w.guest.userId, UNKNOWN_USER] }), 404);
      expectFailure(await send({ role: 'read', users: [w.guest.userId], teams: [UNKNOWN_TEAM] }), 404);
      expectFailure(await send({ role: 'read', users: [elsewhere.admin.userId] }), 404);
      expectFailure(await send({ role: 'read', teams: [foreignTeam.id] }), 404);
      const update = (u: string, role: unknown) => throughDoor(door, w.admin, ['PATCH', `${perms(o, s)}/users/${u}`, { role }], ['updateSiteUserPermission', gql.updateUser, { o, s, u, role }]);
      expectFailure(await update(w.guest.userId, 'read'), 404);
      expectFailure(await update(w.guest.userId, null), 400, 'role');
    }
    expect(await grantsOf(s)).toEqual({ users: [], teams: [] });
  });
});

describe('the access rule, end to end', () => {
  it("a guest given one site reads that site's management reads, not another's; removing the grant closes it", async () => {
    const w = await setup();
    const { o, guest } = w;
    const base = `${sites(o)}/${w.site.id}`;
    const reads = ['', '/sections', '/section-groups', '/site-spaces', '/published', '/customization', '/redirects', '/structure'];
    for (const path of reads) restError(await guest.rest('GET', `${base}${path}`), 403);
    restError(await guest.rest('GET', `${base}/adaptive-schema`), 403);
    expect(expectOk(await guest.rest('GET', sites(o)))).toMatchObject({ count: 0, items: [] });

    await invite(w.admin, o, w.site.id, { role: 'read', users: [guest.userId] });
    for (const path of reads) expectOk(await guest.rest('GET', `${base}${path}`));
    // Past the rule: the site has no adaptive schema yet.
    restError(await guest.rest('GET', `${base}/adaptive-schema`), 404);
    expect(expectOk(await guest.rest('GET', base)).permissions).toMatchObject({ view: true, access: true, edit: false, admin: false });
    const listed = expectOk(await guest.rest('GET', sites(o)), 200, 'listSites');
    expect(listed.items.map((i: any) => i.id)).toEqual([w.site.id]);
    expect(listed.items[0].permissions).toMatchObject({ view: true, edit: false });
    // The other site stays closed; changing this one and seeing its share links' keys need "edit".
    for (const path of reads) restError(await guest.rest('GET', `${sites(o)}/${w.other.id}${path}`), 403);
    restError(await guest.rest('PATCH', base, { title: 'Mine' }), 403);
    restError(await guest.rest('GET', `${base}/share-links`), 403);
    // Nor who else can access it: that needs a role in the organization (or admin on the site).
    restError(await guest.rest('GET', `${perms(o, w.site.id)}/users`), 403);

    // Through a team as well: the team's grant opens the other site.
    await invite(w.admin, o, w.other.id, { role: 'read', teams: [w.team.id] });
    expectOk(await guest.rest('GET', `${sites(o)}/${w.other.id}`));
    expect(expectOk(await guest.rest('GET', sites(o))).count).toBe(2);

    expect((await guest.rest('DELETE', `${perms(o, w.site.id)}/users/${guest.userId}`)).status).toBe(403);
    expect((await w.admin.rest('DELETE', `${perms(o, w.site.id)}/users/${guest.userId}`)).status).toBe(205);
    for (const path of reads) restError(await guest.rest('GET', `${base}${path}`), 403);
    expect(expectOk(await guest.rest('GET', sites(o))).items.map((i: any) => i.id)).toEqual([w.other.id]);
  });

  it('a member granted edit changes the site, but neither deletes it nor grants; removing the grant closes it', async () => {
    const w = await setup();
    const { o, editor } = w;
    const base = `${sites(o)}/${w.site.id}`;
    restError(await editor.rest('PATCH', base, { title: 'Renamed' }), 403);
    await invite(w.admin, o, w.site.id, { role: 'edit', users: [editor.userId] });

    expect(expectOk(await editor.rest('GET', base)).permissions).toMatchObject({ view: true, edit: true, editAdaptiveSchema: true, admin: false });
    expect(expectOk(await editor.rest('PATCH', base, { title: 'Renamed' }), 200, 'updateSiteById')).toMatchObject({ title: 'Renamed', permissions: { edit: true, admin: false } });
    expectOk(await editor.rest('POST', `${base}/publish`));
    expectOk(await editor.rest('POST', `${base}/share-links`, { name: 'Partners' }), 201);
    expectOk(await editor.rest('GET', `${base}/share-links`));
    expectOk(await editor.rest('POST', `${base}/sections`, { spaceId: w.guides.id, title: 'Again' }), 201);

    restError(await editor.rest('DELETE', base), 403);
    restError(await editor.rest('POST', perms(o, w.site.id), { role: 'read', users: [w.reader.userId] }), 403);
    restError(await editor.rest('PATCH', `${perms(o, w.site.id)}/users/${editor.userId}`, { role: 'admin' }), 403);
    restError(await editor.rest('DELETE', `${perms(o, w.site.id)}/users/${editor.userId}`), 403);
    // The other site is not theirs to change.
    restError(await editor.rest('PATCH', `${sites(o)}/${w.other.id}`, { title: 'Nope' }), 403);

    expect((await w.admin.rest('DELETE', `${perms(o, w.site.id)}/users/${editor.userId}`)).status).toBe(205);
    restError(await editor.rest('PATCH', base, { title: 'Again' }), 403);
    expect(expectOk(await editor.rest('GET', base)).permissions).toMatchObject({ view: true, edit: false });
  });

  it("a member granted admin deletes the site and grants up to admin; the site's creator is its admin", async () => {
    const w = await setup();
    const { o } = w;
    await invite(w.admin, o, w.site.id, { role: 'admin', teams: [w.team.id] });
    await invite(w.reader, o, w.site.id, { role: 'edit', users: [w.editor.userId] });
    expectOk(await w.editor.rest('PATCH', `${sites(o)}/${w.site.id}`, { title: 'By the editor' }));
    expectOk(await w.reader.rest('DELETE', `${sites(o)}/${w.site.id}`), 204);

    const own = expectOk(await w.creator.rest('POST', sites(o), { title: 'Mine' }), 201);
    await invite(w.creator, o, own.id, { role: 'read', users: [w.guest.userId] });
    expectOk(await w.guest.rest('GET', `${sites(o)}/${own.id}`));
  });
});

const OPS: RefusalOp<{ o: string; s: string; u: string; t: string }>[] = [
  { name: 'inviteToSite', refuse: 'non-admins', rest: ({ o, s, u }) => ['POST', perms(o, s), { role: 'read', users: [u] }], gql: ({ o, s, u }) => [gql.invite, { o, s, role: 'read', users: [u] }] },
  { name: 'listUserPermissionsInSite', refuse: 'guests', rest: ({ o, s }) => ['GET', `${perms(o, s)}/users`], gql: ({ o, s }) => [gql.users, { o, s }] },
  { name: 'listTeamPermissionsInSite', refuse: 'guests', rest: ({ o, s }) => ['GET', `${perms(o, s)}/teams`], gql: ({ o, s }) => [gql.teams, { o, s }] },
  { name: 'listPermissionsAggregateInSite', refuse: 'guests', rest: ({ o, s }) => ['GET', `${perms(o, s)}/aggregate`], gql: ({ o, s }) => [gql.aggregate, { o, s }] },
  {
    name: 'updateUserPermissionInSite',
    refuse: 'non-admins',
    rest: ({ o, s, u }) => ['PATCH', `${perms(o, s)}/users/${u}`, { role: 'admin' }],
    gql: ({ o, s, u }) => [gql.updateUser, { o, s, u, role: 'admin' }],
  },
  {
    name: 'updateTeamPermissionInSite',
    refuse: 'non-admins',
    rest: ({ o, s, t }) => ['PATCH', `${perms(o, s)}/teams/${t}`, { role: 'admin' }],
    gql: ({ o, s, t }) => [gql.updateTeam, { o, s, t, role: 'admin' }],
  },
  { name: 'removeUserFromSite', refuse: 'non-admins', rest: ({ o, s, u }) => ['DELETE', `${perms(o, s)}/users/${u}`], gql: ({ o, s, u }) => [gql.removeUser, { o, s, u }] },
  { name: 'removeTeamFromSite', refuse: 'non-admins', rest: ({ o, s, t }) => ['DELETE', `${perms(o, s)}/teams/${t}`], gql: ({ o, s, t }) => [gql.removeTeam, { o, s, t }] },
];

/** The matrix's world: the guest holds "edit" on the site (so they see it), the team "read". */
async function matrixWorld() {
  const w = await setup();
  await invite(w.admin, w.o, w.site.id, { role: 'edit', users: [w.guest.userId] });
  await invite(w.admin, w.o, w.site.id, { role: 'read', teams: [w.team.id] });
  return w;
}

refusalMatrix(OPS, {
  h,
  setup: matrixWorld,
  ids: (w: World) => ({ o: w.o, s: w.site.id, u: w.guest.userId, t: w.team.id }),
  unknown: { o: 'unknownOrganization1', s: UNKNOWN_SITE },
  // Guests see the site (their grant) but not who else can; members with a role, and a guest holding
  // "edit" by a grant, are not the site's admins.
  forbidden: async (w, refuse) => ({ callers: refuse === 'guests' ? [w.guest] : [w.reader, w.editor, w.creator, w.guest] }),
  unchanged: async (w) => {
    expect(await grantsOf(w.site.id)).toEqual({ users: [{ userId: w.guest.userId, role: 'edit' }], teams: [{ teamId: w.team.id, role: 'read' }] });
  },
});

describe('refusals beyond the matrix', () => {
  it('a guest without a grant gets 403, a disabled member 404 (as an outsider)', async () => {
    const w = await setup();
    const disabled = await buildMember(h, w.o, 'admin', 'Disabled admin');
    await h.db.member.update({ where: { organizationId_userId: { organizationId: w.o, userId: disabled.userId } }, data: { disabled: true } });
    restError(await w.guest.rest('GET', `${perms(w.o, w.site.id)}/aggregate`), 403);
    restError(await w.guest.rest('POST', perms(w.o, w.site.id), { role: 'read', users: [w.guest.userId] }), 403);
    restError(await disabled.rest('GET', `${perms(w.o, w.site.id)}/aggregate`), 404);
    restError(await disabled.rest('POST', perms(w.o, w.site.id), { role: 'read', users: [disabled.userId] }), 404);
    expect(await grantsOf(w.site.id)).toEqual({ users: [], teams: [] });
  });

  it('members with a role see the lists (403 only for guests); unknown sites are 404 for members', async () => {
    const w = await matrixWorld();
    for (const caller of [w.reader, w.editor, w.creator]) {
      expectOk(await caller.rest('GET', `${perms(w.o, w.site.id)}/users`), 200, 'listUserPermissionsInSite');
      expectOk(await caller.rest('GET', `${perms(w.o, w.site.id)}/aggregate`), 200, 'listPermissionsAggregateInSite');
    }
    restError(await w.reader.rest('GET', `${perms(w.o, UNKNOWN_SITE)}/users`), 404);
    restError(await w.admin.rest('POST', perms(w.o, UNKNOWN_SITE), { role: 'read', users: [w.reader.userId] }), 404);
  });
});
