// Who can access a space (GitBook's space-permissions operations): inviteToSpace, the user/team/aggregate
// lists, updating and removing grants — through both doors, validated against GitBook's schemas — and the
// one access rule: a grant opens every route at once (space, content, change requests, search), removing
// it closes them all.
import { describe, expect, it } from 'vitest';
import { addMember, buildCollection, buildMember, buildOrganization, buildSpace, buildTeam } from '../factories.ts';
import { DOORS, dropNulls, expectFailure, expectGitBookShape, expectOk, restError, throughDoor } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller } from '../support/harness.ts';

const h = useHarness();

const UNKNOWN_SPACE = 'unknownSpace00000001';
const UNKNOWN_USER = 'unknownUser000000001';
const UNKNOWN_TEAM = 'unknownTeam000000001';

const perms = (s: string) => `/v1/spaces/${s}/permissions`;
const USER = 'object id displayName email photoURL urls { location }';
const TEAM = 'object id title members spaces createdAt';

const gql = {
  users: `query($s:String!,$page:String,$limit:Int){spaceUserPermissions(spaceId:$s,page:$page,limit:$limit){count next{page} items{permission user{${USER}}}}}`,
  teams: `query($s:String!,$page:String,$limit:Int){spaceTeamPermissions(spaceId:$s,page:$page,limit:$limit){count next{page} items{permission team{${TEAM}}}}}`,
  aggregate: `query($s:String!,$page:String,$limit:Int,$role:Role){spacePermissionsAggregate(spaceId:$s,page:$page,limit:$limit,role:$role){count next{page} items{permission user{${USER}} sources{kind level id}}}}`,
  invite: `mutation($s:String!,$role:Role!,$users:[String!],$teams:[String!],$emails:[String!]){inviteToSpace(spaceId:$s,role:$role,users:$users,teams:$teams,emails:$emails)}`,
  updateUser: `mutation($s:String!,$u:String!,$role:Role){updateSpaceUserPermission(spaceId:$s,userId:$u,role:$role)}`,
  updateTeam: `mutation($s:String!,$t:String!,$role:Role){updateSpaceTeamPermission(spaceId:$s,teamId:$t,role:$role)}`,
  removeUser: `mutation($s:String!,$u:String!){removeSpaceUser(spaceId:$s,userId:$u)}`,
  removeTeam: `mutation($s:String!,$t:String!){removeSpaceTeam(spaceId:$s,teamId:$t)}`,
};

/** Publishes pages into a space through a merged change request (so search indexes them). */
async function publish(caller: Caller, spaceId: string, changes: object[]) {
  const cr = expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests`, {}), 201);
  expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { changes }));
  expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`));
}

/**
 * An organization with an admin, members with roles (read, edit, create), a guest, a team (holding the
 * guest), a collection with a space in it (with a page) and another space at the top level.
 */
async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const reader = await buildMember(h, o, 'read', 'Reader');
  const editor = await buildMember(h, o, 'edit', 'Editor');
  const creator = await buildMember(h, o, 'create', 'Creator');
  const guest = await buildMember(h, o, null, 'Guest');
  const team = await buildTeam(admin, o, { title: 'Writers', members: [guest.userId, reader.userId] });
  const collection = await buildCollection(admin, o, { title: 'Guides' });
  h.clock.advance(1000);
  const space = await buildSpace(admin, o, { title: 'Handbook', parent: collection.id });
  h.clock.advance(1000);
  const other = await buildSpace(admin, o, { title: 'Secret roadmap' });
  await publish(admin, space.id, [{ operation: 'insert_page', title: 'Zeppelin guide', document: { markdown: 'How to fly a zeppelin.' } }]);
  await publish(admin, other.id, [{ operation: 'insert_page', title: 'Zeppelin plans', document: { markdown: 'The secret zeppelin launch.' } }]);
  return { admin, o, reader, editor, creator, guest, team, collection, space, other };
}
type World = Awaited<ReturnType<typeof setup>>;

/** Code-unit order: the same in JavaScript whatever the database's collation (PGlite's C, a server's en_US). */
const byKey = <T,>(key: keyof T) => (a: T, b: T) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0);

const grantsOf = async (spaceId: string) => ({
  users: (await h.db.spaceUserGrant.findMany({ where: { spaceId }, select: { userId: true, role: true } })).sort(byKey('userId')),
  teams: (await h.db.spaceTeamGrant.findMany({ where: { spaceId }, select: { teamId: true, role: true } })).sort(byKey('teamId')),
});

const invite = async (caller: Caller, spaceId: string, body: Record<string, unknown>) => expectOk(await caller.rest('POST', perms(spaceId), body), 204, 'inviteToSpace');

describe('inviteToSpace, the lists, update and remove (both doors, GitBook shapes)', () => {
  it.each(DOORS)('%s: invite users and teams, list them, change their levels, remove them', async (door) => {
    const w = await setup();
    const s = w.space.id;
    const call = (rest: [string, string, unknown?], q: [string, string, Record<string, unknown>]) => throughDoor(door, w.admin, rest, q, { dropNulls: true });

    // inviteToSpace: a guest and a member with a role, and a team, each at "edit" (204 / true).
    h.clock.advance(1000);
    expectOk(await call(['POST', perms(s), { role: 'edit', users: [w.guest.userId, w.reader.userId] }], ['inviteToSpace', gql.invite, { s, role: 'edit', users: [w.guest.userId, w.reader.userId] }]), 204, 'inviteToSpace');
    h.clock.advance(1000);
    expectOk(await call(['POST', perms(s), { role: 'comment', teams: [w.team.id] }], ['inviteToSpace', gql.invite, { s, role: 'comment', teams: [w.team.id] }]), 204, 'inviteToSpace');
    expect(await grantsOf(s)).toEqual({
      users: [{ userId: w.guest.userId, role: 'edit' }, { userId: w.reader.userId, role: 'edit' }].sort(byKey('userId')),
      teams: [{ teamId: w.team.id, role: 'comment' }],
    });

    // listUserPermissionsInSpace, paged by one.
    const first = expectOk(await call(['GET', `${perms(s)}/users?limit=1`], ['spaceUserPermissions', gql.users, { s, limit: 1 }]), 200, 'listUserPermissionsInSpace');
    expect(first.count).toBe(2);
    expect(first.items).toHaveLength(1);
    const second = expectOk(
      await call(['GET', `${perms(s)}/users?limit=1&page=${first.next.page}`], ['spaceUserPermissions', gql.users, { s, limit: 1, page: first.next.page }]),
      200,
      'listUserPermissionsInSpace',
    );
    expect(second.next).toBeUndefined();
    const users = [...first.items, ...second.items];
    expect(users.map((i: any) => [i.user.id, i.permission]).sort()).toEqual([[w.guest.userId, 'edit'], [w.reader.userId, 'edit']].sort());
    expect(users[0].user).toMatchObject({ object: 'user', displayName: expect.any(String), urls: { location: expect.stringContaining('/users/') } });

    // listTeamPermissionsInSpace: the team with its counts.
    const teams = expectOk(await call(['GET', `${perms(s)}/teams`], ['spaceTeamPermissions', gql.teams, { s }]), 200, 'listTeamPermissionsInSpace');
    expect(teams).toMatchObject({ count: 1, items: [{ permission: 'comment', team: { object: 'team', id: w.team.id, title: 'Writers', members: 2, spaces: 1 } }] });
    if (door === 'rest') expectGitBookShape('listTeamPermissionsInSpace', 200, teams);

    // Update: the user's and the team's levels (204 / true); a role left out changes nothing.
    expectOk(await call(['PATCH', `${perms(s)}/users/${w.guest.userId}`, { role: 'review' }], ['updateSpaceUserPermission', gql.updateUser, { s, u: w.guest.userId, role: 'review' }]), 204, 'updateUserPermissionInSpace');
    expectOk(await call(['PATCH', `${perms(s)}/teams/${w.team.id}`, { role: 'read' }], ['updateSpaceTeamPermission', gql.updateTeam, { s, t: w.team.id, role: 'read' }]), 204, 'updateTeamPermissionInSpace');
    expectOk(await call(['PATCH', `${perms(s)}/users/${w.reader.userId}`, {}], ['updateSpaceUserPermission', gql.updateUser, { s, u: w.reader.userId }]), 204, 'updateUserPermissionInSpace');
    expect((await grantsOf(s)).users.find((g) => g.userId === w.guest.userId)?.role).toBe('review');
    expect((await grantsOf(s)).users.find((g) => g.userId === w.reader.userId)?.role).toBe('edit');
    expect((await grantsOf(s)).teams).toEqual([{ teamId: w.team.id, role: 'read' }]);

    // Remove: 205 (true) when there was a grant, 204 (false) when there was none.
    const removed = await call(['DELETE', `${perms(s)}/users/${w.guest.userId}`], ['removeSpaceUser', gql.removeUser, { s, u: w.guest.userId }]);
    const again = await call(['DELETE', `${perms(s)}/users/${w.guest.userId}`], ['removeSpaceUser', gql.removeUser, { s, u: w.guest.userId }]);
    const team = await call(['DELETE', `${perms(s)}/teams/${w.team.id}`], ['removeSpaceTeam', gql.removeTeam, { s, t: w.team.id }]);
    if (door === 'rest') {
      expect(removed.raw.status).toBe(205);
      expectGitBookShape('removeUserFromSpace', 205, removed.raw.text);
      expect(again.raw.status).toBe(204);
      expectGitBookShape('removeUserFromSpace', 204, again.raw.text);
      expect(team.raw.status).toBe(205);
      expectGitBookShape('removeTeamFromSpace', 205, team.raw.text);
    } else {
      expect([removed.body, again.body, team.body]).toEqual([true, false, true]);
    }
    expect(await grantsOf(s)).toEqual({ users: [{ userId: w.reader.userId, role: 'edit' }], teams: [] });
  });

  it('REST and GraphQL answer the same lists', async () => {
    const w = await setup();
    const s = w.space.id;
    await invite(w.admin, s, { role: 'edit', users: [w.guest.userId], teams: [w.team.id] });
    for (const [path, field, query] of [
      ['users', 'spaceUserPermissions', gql.users],
      ['teams', 'spaceTeamPermissions', gql.teams],
      ['aggregate', 'spacePermissionsAggregate', gql.aggregate],
    ] as const) {
      const rest = expectOk(await w.admin.rest('GET', `${perms(s)}/${path}`));
      const graph = (await throughDoor('graphql', w.admin, ['GET', ''], [field, query, { s }], { dropNulls: true })).body;
      expect(dropNulls(graph), path).toEqual(rest);
    }
  });

  it('inviting again sets the new level; a user or team already granted is updated, not duplicated', async () => {
    const w = await setup();
    await invite(w.admin, w.space.id, { role: 'read', users: [w.guest.userId], teams: [w.team.id] });
    await invite(w.admin, w.space.id, { role: 'admin', users: [w.guest.userId, w.guest.userId], teams: [w.team.id] });
    expect(await grantsOf(w.space.id)).toEqual({ users: [{ userId: w.guest.userId, role: 'admin' }], teams: [{ teamId: w.team.id, role: 'admin' }] });
  });

  it('refuses: a malformed e-mail address (400 naming "emails"), nobody named, a role missing or null, unknown users and teams (404), all or nothing', async () => {
    const w = await setup();
    const s = w.space.id;
    for (const door of DOORS) {
      const send = (body: Record<string, unknown>) => throughDoor(door, w.admin, ['POST', perms(s), body], ['inviteToSpace', gql.invite, { s, ...body }]);
      expectFailure(await send({ role: 'read', emails: ['not-an-address'] }), 400, 'emails');
      expectFailure(await send({ role: 'read', users: [w.guest.userId], emails: ['not-an-address'] }), 400, 'emails');
      expectFailure(await send({ role: 'read' }), 400, 'users');
      expectFailure(await send({ role: null, users: [w.guest.userId] }), 400, 'role');
      expectFailure(await send({ role: 'owner', users: [w.guest.userId] }), 400, 'role');
      expectFailure(await send({ role: 'read', users: [w.guest.userId, UNKNOWN_USER] }), 404);
      expectFailure(await send({ role: 'read', users: [w.guest.userId], teams: [UNKNOWN_TEAM] }), 404);
      // A user and a team of another organization are unknown here.
      const elsewhere = await buildOrganization(h, 'Elsewhere');
      const foreignTeam = await buildTeam(elsewhere.admin, elsewhere.organizationId, { title: 'Theirs' });
      expectFailure(await send({ role: 'read', users: [elsewhere.admin.userId] }), 404);
      expectFailure(await send({ role: 'read', teams: [foreignTeam.id] }), 404);
    }
    restError(await w.admin.rest('POST', perms(s), { users: [w.guest.userId] }), 400, 'role');
    restError(await w.admin.rest('POST', perms(s), { role: 'read', users: [] }), 400, 'users');
    expect(await grantsOf(s)).toEqual({ users: [], teams: [] });
    // Update: null is refused; a user or team without a grant is a 404.
    restError(await w.admin.rest('PATCH', `${perms(s)}/users/${w.guest.userId}`, { role: 'read' }), 404);
    restError(await w.admin.rest('PATCH', `${perms(s)}/teams/${w.team.id}`, { role: 'read' }), 404);
    await invite(w.admin, s, { role: 'read', users: [w.guest.userId] });
    restError(await w.admin.rest('PATCH', `${perms(s)}/users/${w.guest.userId}`, { role: null }), 400, 'role');
    // Remove: nothing to remove is a 204, also for unknown IDs.
    expectOk(await w.admin.rest('DELETE', `${perms(s)}/users/${UNKNOWN_USER}`), 204, 'removeUserFromSpace');
    expectOk(await w.admin.rest('DELETE', `${perms(s)}/teams/${UNKNOWN_TEAM}`), 204, 'removeTeamFromSpace');
  });

  it('a space admin by grant (not by role) manages access; the space must not be deleted', async () => {
    const w = await setup();
    await invite(w.admin, w.space.id, { role: 'admin', users: [w.reader.userId] });
    await invite(w.reader, w.space.id, { role: 'admin', users: [w.guest.userId] });
    expectOk(await w.reader.rest('DELETE', `${perms(w.space.id)}/users/${w.guest.userId}`), 205);
    // Their grant is on this space only.
    restError(await w.reader.rest('POST', perms(w.other.id), { role: 'read', users: [w.guest.userId] }), 403);
    expectOk(await w.admin.rest('DELETE', `/v1/spaces/${w.space.id}`), 204);
    restError(await w.admin.rest('POST', perms(w.space.id), { role: 'read', users: [w.guest.userId] }), 404);
    restError(await w.admin.rest('GET', `${perms(w.space.id)}/users`), 404);
  });
});

describe('listPermissionsAggregateInSpace: everyone with access, and where their level comes from', () => {
  it('members with a role (role, space and collection defaults, grants), guests only through grants; the role filter', async () => {
    const w = await setup();
    const s = w.space.id;
    const outsiderGuest = await buildMember(h, w.o, null, 'Ungranted guest');
    const disabled = await buildMember(h, w.o, 'edit', 'Disabled');
    await h.db.member.update({ where: { organizationId_userId: { organizationId: w.o, userId: disabled.userId } }, data: { disabled: true } });
    expectOk(await w.admin.rest('PATCH', `/v1/collections/${w.collection.id}`, { defaultLevel: 'comment' }), 200);
    await invite(w.admin, s, { role: 'review', users: [w.reader.userId] });
    await invite(w.admin, s, { role: 'edit', teams: [w.team.id] });

    const all = expectOk(await w.admin.rest('GET', `${perms(s)}/aggregate`), 200, 'listPermissionsAggregateInSpace');
    const byUser = Object.fromEntries(all.items.map((i: any) => [i.user.id, i]));
    expect(all.count).toBe(5);
    expect(Object.keys(byUser).sort()).toEqual([w.admin, w.reader, w.editor, w.creator, w.guest].map((c) => c.userId).sort());
    expect(byUser[outsiderGuest.userId]).toBeUndefined();
    expect(byUser[disabled.userId]).toBeUndefined();
    expect(byUser[w.admin.userId].permission).toBe('admin');
    expect(byUser[w.editor.userId]).toMatchObject({
      permission: 'edit',
      sources: [
        { kind: 'organization-role', level: 'edit' },
        { kind: 'space-default', level: 'read' },
        { kind: 'collection-default', level: 'comment', id: w.collection.id },
      ],
    });
    // The reader: role read, the collection's comment, a user grant review, the team's edit → review.
    expect(byUser[w.reader.userId]).toMatchObject({ permission: 'review' });
    expect(byUser[w.reader.userId].sources).toEqual(
      expect.arrayContaining([{ kind: 'user-grant', level: 'review' }, { kind: 'team-grant', level: 'edit', id: w.team.id }]),
    );
    // The guest: only the team's grant (no role, no defaults).
    expect(byUser[w.guest.userId]).toMatchObject({ permission: 'edit', sources: [{ kind: 'team-grant', level: 'edit', id: w.team.id }] });
    expect(byUser[w.creator.userId].permission).toBe('create');

    // Each item's permission is what the space's own `permissions` say for that person.
    const viaSpace = expectOk(await w.guest.rest('GET', `/v1/spaces/${s}`), 200, 'getSpaceById');
    expect(viaSpace.permissions).toMatchObject({ access: true, edit: true, review: false });

    // The role filter: exactly that effective level.
    const level = async (role: string) =>
      expectOk(await w.admin.rest('GET', `${perms(s)}/aggregate?role=${role}`), 200, 'listPermissionsAggregateInSpace').items.map((i: any) => i.user.id).sort();
    expect(await level('edit')).toEqual([w.editor.userId, w.guest.userId].sort());
    expect(await level('review')).toEqual([w.reader.userId]);
    expect(await level('admin')).toEqual([w.admin.userId]);
    expect(await level('create')).toEqual([w.creator.userId]);
    expect(await level('comment')).toEqual([]);
    expect(await level('read')).toEqual([]);
    const counted = expectOk(await w.admin.rest('GET', `${perms(s)}/aggregate?role=edit&limit=1`));
    expect(counted.count).toBe(2);
    expect(counted.next).toBeDefined();
    // Defaults stronger than the filter: no member with a role is at "read" when the collection gives "comment".
    expect(await level('read')).toEqual([]);
    // Every level each role filter finds agrees with the unfiltered list.
    for (const role of ['read', 'comment', 'edit', 'review', 'create', 'admin']) {
      expect(await level(role), role).toEqual(all.items.filter((i: any) => i.permission === role).map((i: any) => i.user.id).sort());
    }
  });
});

describe('the one access rule: a grant opens every route at once, its removal closes them all', () => {
  it('a guest given one space through the API reads exactly that space, and nothing else', async () => {
    const w = await setup();
    const { guest, o } = w;
    const s = w.space.id;
    const closed = async () => {
      restError(await guest.rest('GET', `/v1/spaces/${s}`), 404);
      restError(await guest.rest('GET', `/v1/spaces/${s}/content`), 404);
      restError(await guest.rest('GET', `/v1/spaces/${s}/content/pages`), 404);
      restError(await guest.rest('GET', `/v1/spaces/${s}/search?query=zeppelin`), 404);
      restError(await guest.rest('GET', `/v1/spaces/${s}/change-requests`), 404);
      expect(expectOk(await guest.rest('GET', `/v1/orgs/${o}/search?query=zeppelin`)).items).toEqual([]);
      expect(expectOk(await guest.rest('GET', `/v1/orgs/${o}/spaces`)).items).toEqual([]);
      expect((await guest.gql('query($s:String!){space(spaceId:$s){id}}', { s })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    };
    await closed();

    await invite(w.admin, s, { role: 'read', users: [guest.userId] });
    // The space, its content, its change requests, search in it and across the organization.
    const got = expectOk(await guest.rest('GET', `/v1/spaces/${s}`), 200, 'getSpaceById');
    expect(got.permissions).toMatchObject({ access: true, edit: false, admin: false });
    expectOk(await guest.rest('GET', `/v1/spaces/${s}/content`), 200);
    const pages = expectOk(await guest.rest('GET', `/v1/spaces/${s}/content/pages`), 200);
    expect(pages.pages.map((p: any) => p.title)).toEqual(['Zeppelin guide']);
    expect(expectOk(await guest.rest('GET', `/v1/spaces/${s}/search?query=zeppelin`)).items.map((p: any) => p.title)).toEqual(['Zeppelin guide']);
    expectOk(await guest.rest('GET', `/v1/spaces/${s}/change-requests`), 200);
    const orgSearch = expectOk(await guest.rest('GET', `/v1/orgs/${o}/search?query=zeppelin`));
    expect(orgSearch.items.map((i: any) => i.id)).toEqual([s]);
    expect(expectOk(await guest.rest('GET', `/v1/orgs/${o}/spaces`)).items.map((i: any) => i.id)).toEqual([s]);
    expect((await guest.gql('query($s:String!){space(spaceId:$s){id}}', { s })).body.data.space.id).toBe(s);
    // Reading is not writing.
    restError(await guest.rest('POST', `/v1/spaces/${s}/change-requests`, {}), 403);

    // Nothing else: the other space is a 404, the organization's lists stay refused.
    restError(await guest.rest('GET', `/v1/spaces/${w.other.id}`), 404);
    restError(await guest.rest('GET', `/v1/spaces/${w.other.id}/content`), 404);
    restError(await guest.rest('GET', `/v1/spaces/${w.other.id}/search?query=zeppelin`), 404);
    restError(await guest.rest('GET', `/v1/orgs/${o}/members`), 403);
    restError(await guest.rest('GET', `/v1/orgs/${o}/teams`), 403);
    // (The collections list answers guests an empty page, as it always has: the space's collection stays unseen.)
    expect(expectOk(await guest.rest('GET', `/v1/orgs/${o}/collections`), 200, 'listCollectionsInOrganizationById')).toMatchObject({ count: 0, items: [] });
    restError(await guest.rest('GET', `${perms(s)}/users`), 403);

    // Raised to "edit": writing opens everywhere at once.
    expectOk(await w.admin.rest('PATCH', `${perms(s)}/users/${guest.userId}`, { role: 'edit' }), 204);
    expect(expectOk(await guest.rest('GET', `/v1/spaces/${s}`)).permissions).toMatchObject({ edit: true });
    expectOk(await guest.rest('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Mine' }), 201);
    expectOk(await guest.rest('PATCH', `/v1/spaces/${s}`, { title: 'Handbook (edited)' }), 200);

    // Removed: every route closes.
    expectOk(await w.admin.rest('DELETE', `${perms(s)}/users/${guest.userId}`), 205);
    await closed();
  });

  it('a team grant works the same for its members, and removing the team (or the member from it) closes it', async () => {
    const w = await setup();
    const s = w.space.id;
    await invite(w.admin, s, { role: 'comment', teams: [w.team.id] });
    expect(expectOk(await w.guest.rest('GET', `/v1/spaces/${s}`)).permissions).toMatchObject({ access: true, comment: true, edit: false });
    expect(expectOk(await w.guest.rest('GET', `/v1/orgs/${w.o}/search?query=zeppelin`)).items.map((i: any) => i.id)).toEqual([s]);
    expectOk(await w.admin.rest('DELETE', `${perms(s)}/teams/${w.team.id}`), 205);
    restError(await w.guest.rest('GET', `/v1/spaces/${s}`), 404);
    restError(await w.guest.rest('GET', `/v1/spaces/${s}/search?query=zeppelin`), 404);
  });

  it('a member with a role is raised by a grant above their role, and back when it goes', async () => {
    const w = await setup();
    const s = w.space.id;
    restError(await w.reader.rest('PATCH', `/v1/spaces/${s}`, { title: 'Nope' }), 403);
    await invite(w.admin, s, { role: 'edit', users: [w.reader.userId] });
    expectOk(await w.reader.rest('PATCH', `/v1/spaces/${s}`, { title: 'Edited by a grant' }), 200);
    expectOk(await w.reader.rest('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Mine' }), 201);
    expectOk(await w.admin.rest('DELETE', `${perms(s)}/users/${w.reader.userId}`), 205);
    restError(await w.reader.rest('PATCH', `/v1/spaces/${s}`, { title: 'Nope' }), 403);
    restError(await w.reader.rest('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Nope' }), 403);
    // Still a reader through their role.
    expectOk(await w.reader.rest('GET', `/v1/spaces/${s}/content`), 200);
  });
});

describe('statements: the lists do not grow with their length', () => {
  async function statements(action: () => Promise<unknown>) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    const before = h.store.queries.length;
    await action();
    await new Promise((resolve) => setTimeout(resolve, 30));
    return h.store.queries.length - before;
  }

  it('users, teams and aggregate cost the same for 1 and 12 grantees (REST and GraphQL)', async () => {
    const w = await setup();
    const s = w.space.id;
    await invite(w.admin, s, { role: 'edit', users: [w.guest.userId], teams: [w.team.id] });
    const measure = () =>
      Promise.all([]).then(async () => [
        await statements(() => w.admin.rest('GET', `${perms(s)}/users?limit=100`)),
        await statements(() => w.admin.rest('GET', `${perms(s)}/teams?limit=100`)),
        await statements(() => w.admin.rest('GET', `${perms(s)}/aggregate?limit=100`)),
        await statements(() => w.admin.rest('GET', `${perms(s)}/aggregate?limit=100&role=edit`)),
        await statements(() => w.admin.gql(gql.teams, { s, limit: 100 })),
        await statements(() => w.admin.gql(gql.aggregate, { s, limit: 100 })),
      ]);
    const few = await measure();
    const guests: string[] = [];
    for (let i = 0; i < 11; i++) guests.push((await buildMember(h, w.o, null)).userId);
    const teams: string[] = [];
    for (let i = 0; i < 11; i++) teams.push((await buildTeam(w.admin, w.o, { title: `T${i}`, members: [guests[i]] })).id);
    await invite(w.admin, s, { role: 'read', users: guests, teams });
    const many = await measure();
    expect(expectOk(await w.admin.rest('GET', `${perms(s)}/users?limit=100`)).items).toHaveLength(12);
    expect(many).toEqual(few);
    for (const count of few.slice(0, 4)) expect(count).toBeLessThanOrEqual(4);
  });
});

// ---- Refusal matrix: every new route ----

/** s: the space, u: a user with a grant on it, t: a team with a grant on it. */
type Ids = { s: string; u: string; t: string };

const OPS: RefusalOp<Ids>[] = [
  {
    name: 'inviteToSpace', refuse: 'non-admins',
    rest: ({ s, u }) => ['POST', perms(s), { role: 'read', users: [u] }],
    gql: ({ s, u }) => [gql.invite, { s, role: 'read', users: [u] }],
  },
  {
    name: 'listUserPermissionsInSpace', refuse: 'guests',
    rest: ({ s }) => ['GET', `${perms(s)}/users`],
    gql: ({ s }) => [gql.users, { s }],
  },
  {
    name: 'listTeamPermissionsInSpace', refuse: 'guests',
    rest: ({ s }) => ['GET', `${perms(s)}/teams`],
    gql: ({ s }) => [gql.teams, { s }],
  },
  {
    name: 'listPermissionsAggregateInSpace', refuse: 'guests',
    rest: ({ s }) => ['GET', `${perms(s)}/aggregate`],
    gql: ({ s }) => [gql.aggregate, { s }],
  },
  {
    name: 'updateUserPermissionInSpace', refuse: 'non-admins',
    rest: ({ s, u }) => ['PATCH', `${perms(s)}/users/${u}`, { role: 'admin' }],
    gql: ({ s, u }) => [gql.updateUser, { s, u, role: 'admin' }],
  },
  {
    name: 'updateTeamPermissionInSpace', refuse: 'non-admins',
    rest: ({ s, t }) => ['PATCH', `${perms(s)}/teams/${t}`, { role: 'admin' }],
    gql: ({ s, t }) => [gql.updateTeam, { s, t, role: 'admin' }],
  },
  {
    name: 'removeUserFromSpace', refuse: 'non-admins',
    rest: ({ s, u }) => ['DELETE', `${perms(s)}/users/${u}`],
    gql: ({ s, u }) => [gql.removeUser, { s, u }],
  },
  {
    name: 'removeTeamFromSpace', refuse: 'non-admins',
    rest: ({ s, t }) => ['DELETE', `${perms(s)}/teams/${t}`],
    gql: ({ s, t }) => [gql.removeTeam, { s, t }],
  },
];

/** The matrix's world: the guest holds "edit" on the space (so they see it), the team "comment". */
async function matrixWorld() {
  const w = await setup();
  await invite(w.admin, w.space.id, { role: 'edit', users: [w.guest.userId] });
  await invite(w.admin, w.space.id, { role: 'comment', teams: [w.team.id] });
  return w;
}

refusalMatrix(OPS, {
  h,
  setup: matrixWorld,
  ids: (w: World) => ({ s: w.space.id, u: w.guest.userId, t: w.team.id }),
  unknown: { s: UNKNOWN_SPACE },
  // Guests see the space (their grant) but not who else can; read, edit and create members, and a guest
  // holding "edit" by a grant, are not the space's admins.
  forbidden: async (w, refuse) => ({ callers: refuse === 'guests' ? [w.guest] : [w.reader, w.editor, w.creator, w.guest] }),
  unchanged: async (w) => {
    expect(await grantsOf(w.space.id)).toEqual({ users: [{ userId: w.guest.userId, role: 'edit' }], teams: [{ teamId: w.team.id, role: 'comment' }] });
  },
});

describe('refusals beyond the matrix', () => {
  it('a guest without a grant, and a disabled member, get 404 for the space (as an unknown one)', async () => {
    const w = await setup();
    const stranger = await buildMember(h, w.o, null, 'Ungranted');
    const disabled = await buildMember(h, w.o, 'admin', 'Disabled admin');
    await h.db.member.update({ where: { organizationId_userId: { organizationId: w.o, userId: disabled.userId } }, data: { disabled: true } });
    for (const caller of [stranger, disabled]) {
      restError(await caller.rest('GET', `${perms(w.space.id)}/aggregate`), 404);
      restError(await caller.rest('POST', perms(w.space.id), { role: 'read', users: [caller.userId] }), 404);
    }
    expect(await grantsOf(w.space.id)).toEqual({ users: [], teams: [] });
  });

  it('members with a role who read the space see its lists (403 only for guests)', async () => {
    const w = await matrixWorld();
    for (const caller of [w.reader, w.editor, w.creator]) {
      expectOk(await caller.rest('GET', `${perms(w.space.id)}/users`), 200, 'listUserPermissionsInSpace');
      expectOk(await caller.rest('GET', `${perms(w.space.id)}/aggregate`), 200, 'listPermissionsAggregateInSpace');
    }
    // An organization admin who is also the space admin by role: invites into a space of their organization.
    const admin2 = await buildMember(h, w.o, 'admin', 'Second admin');
    await addMember(h, (await buildOrganization(h, 'Elsewhere')).organizationId, admin2, 'read');
    await invite(admin2, w.space.id, { role: 'read', users: [w.editor.userId] });
  });
});
