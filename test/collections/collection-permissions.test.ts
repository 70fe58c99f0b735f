// Who can access a collection (GitBook's collection-permissions operations): inviteToCollection, the
// user/team/aggregate lists, updating and removing grants — through both doors, validated against GitBook's
// schemas — and the rule they serve: a grant on a collection reaches every space inside it, at any depth,
// through every route at once (lists, the space, content, search, change requests); its removal closes them.
import { describe, expect, it } from 'vitest';
import { addMember, buildCollection, buildMember, buildOrganization, buildSpace, buildTeam } from '../factories.ts';
import { DOORS, dropNulls, expectFailure, expectGitBookShape, expectOk, restError, throughDoor } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller } from '../support/harness.ts';

const h = useHarness();

const UNKNOWN_COLLECTION = 'unknownCollection001';
const UNKNOWN_USER = 'unknownUser000000001';
const UNKNOWN_TEAM = 'unknownTeam000000001';

const perms = (c: string) => `/v1/collections/${c}/permissions`;
const USER = 'object id displayName email photoURL urls { location }';
const TEAM = 'object id title members spaces createdAt';

const gql = {
  users: `query($c:String!,$page:String,$limit:Int){collectionUserPermissions(collectionId:$c,page:$page,limit:$limit){count next{page} items{permission user{${USER}}}}}`,
  teams: `query($c:String!,$page:String,$limit:Int){collectionTeamPermissions(collectionId:$c,page:$page,limit:$limit){count next{page} items{permission team{${TEAM}}}}}`,
  aggregate: `query($c:String!,$page:String,$limit:Int,$role:Role){collectionPermissionsAggregate(collectionId:$c,page:$page,limit:$limit,role:$role){count next{page} items{permission user{${USER}} sources{kind level id teamId}}}}`,
  invite: `mutation($c:String!,$role:Role!,$users:[String!],$teams:[String!],$emails:[String!]){inviteToCollection(collectionId:$c,role:$role,users:$users,teams:$teams,emails:$emails)}`,
  updateUser: `mutation($c:String!,$u:String!,$role:Role){updateCollectionUserPermission(collectionId:$c,userId:$u,role:$role)}`,
  updateTeam: `mutation($c:String!,$t:String!,$role:Role){updateCollectionTeamPermission(collectionId:$c,teamId:$t,role:$role)}`,
  removeUser: `mutation($c:String!,$u:String!){removeCollectionUser(collectionId:$c,userId:$u)}`,
  removeTeam: `mutation($c:String!,$t:String!){removeCollectionTeam(collectionId:$c,teamId:$t)}`,
};

/** Publishes pages into a space through a merged change request (so search indexes them). */
async function publish(caller: Caller, spaceId: string, changes: object[]) {
  const cr = expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests`, {}), 201);
  expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { changes }));
  expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`));
}

/**
 * An organization with an admin, members with roles (read, edit, create), a guest, a team (holding the
 * guest and the reader), a collection "Guides" with a space and a nested collection "Deep" holding
 * another space, and outside it a second collection with a space and a space at the top level.
 */
async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const reader = await buildMember(h, o, 'read', 'Reader');
  const editor = await buildMember(h, o, 'edit', 'Editor');
  const creator = await buildMember(h, o, 'create', 'Creator');
  const guest = await buildMember(h, o, null, 'Guest');
  const team = await buildTeam(admin, o, { title: 'Writers', members: [guest.userId, reader.userId] });
  const collection = await buildCollection(admin, o, { title: 'Guides' });
  const nested = await buildCollection(admin, o, { title: 'Deep', parent: collection.id });
  const elsewhere = await buildCollection(admin, o, { title: 'Elsewhere' });
  h.clock.advance(1000);
  const space = await buildSpace(admin, o, { title: 'Handbook', parent: collection.id });
  h.clock.advance(1000);
  const deep = await buildSpace(admin, o, { title: 'Deep dive', parent: nested.id });
  h.clock.advance(1000);
  const sibling = await buildSpace(admin, o, { title: 'Elsewhere space', parent: elsewhere.id });
  h.clock.advance(1000);
  const other = await buildSpace(admin, o, { title: 'Secret roadmap' });
  await publish(admin, space.id, [{ operation: 'insert_page', title: 'Zeppelin guide', document: { markdown: 'How to fly a zeppelin.' } }]);
  await publish(admin, deep.id, [{ operation: 'insert_page', title: 'Zeppelin engines', document: { markdown: 'The zeppelin engine room.' } }]);
  await publish(admin, other.id, [{ operation: 'insert_page', title: 'Zeppelin plans', document: { markdown: 'The secret zeppelin launch.' } }]);
  await publish(admin, sibling.id, [{ operation: 'insert_page', title: 'Zeppelin hangar', document: { markdown: 'Where the zeppelin sleeps.' } }]);
  return { admin, o, reader, editor, creator, guest, team, collection, nested, elsewhere, space, deep, sibling, other };
}
type World = Awaited<ReturnType<typeof setup>>;

const byKey = <T,>(key: keyof T) => (a: T, b: T) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0);

const grantsOf = async (collectionId: string) => ({
  users: (await h.db.collectionUserGrant.findMany({ where: { collectionId }, select: { userId: true, role: true } })).sort(byKey('userId')),
  teams: (await h.db.collectionTeamGrant.findMany({ where: { collectionId }, select: { teamId: true, role: true } })).sort(byKey('teamId')),
});

const invite = async (caller: Caller, collectionId: string, body: Record<string, unknown>) =>
  expectOk(await caller.rest('POST', perms(collectionId), body), 204, 'inviteToCollection');

describe('inviteToCollection, the lists, update and remove (both doors, GitBook shapes)', () => {
  it.each(DOORS)('%s: invite users and teams, list them, change their levels, remove them', async (door) => {
    const w = await setup();
    const c = w.collection.id;
    const call = (rest: [string, string, unknown?], q: [string, string, Record<string, unknown>]) => throughDoor(door, w.admin, rest, q, { dropNulls: true });

    h.clock.advance(1000);
    expectOk(await call(['POST', perms(c), { role: 'edit', users: [w.guest.userId, w.reader.userId] }], ['inviteToCollection', gql.invite, { c, role: 'edit', users: [w.guest.userId, w.reader.userId] }]), 204, 'inviteToCollection');
    h.clock.advance(1000);
    expectOk(await call(['POST', perms(c), { role: 'comment', teams: [w.team.id] }], ['inviteToCollection', gql.invite, { c, role: 'comment', teams: [w.team.id] }]), 204, 'inviteToCollection');
    expect(await grantsOf(c)).toEqual({
      users: [{ userId: w.guest.userId, role: 'edit' }, { userId: w.reader.userId, role: 'edit' }].sort(byKey('userId')),
      teams: [{ teamId: w.team.id, role: 'comment' }],
    });

    const first = expectOk(await call(['GET', `${perms(c)}/users?limit=1`], ['collectionUserPermissions', gql.users, { c, limit: 1 }]), 200, 'listUserPermissionsInCollection');
    expect(first.count).toBe(2);
    expect(first.items).toHaveLength(1);
    const second = expectOk(
      await call(['GET', `${perms(c)}/users?limit=1&page=${first.next.page}`], ['collectionUserPermissions', gql.users, { c, limit: 1, page: first.next.page }]),
      200,
      'listUserPermissionsInCollection',
    );
    expect(second.next).toBeUndefined();
    expect([...first.items, ...second.items].map((i: any) => [i.user.id, i.permission]).sort()).toEqual([[w.guest.userId, 'edit'], [w.reader.userId, 'edit']].sort());

    const teams = expectOk(await call(['GET', `${perms(c)}/teams`], ['collectionTeamPermissions', gql.teams, { c }]), 200, 'listTeamPermissionsInCollection');
    expect(teams).toMatchObject({ count: 1, items: [{ permission: 'comment', team: { object: 'team', id: w.team.id, title: 'Writers', members: 2 } }] });
    if (door === 'rest') expectGitBookShape('listTeamPermissionsInCollection', 200, teams);

    expectOk(await call(['PATCH', `${perms(c)}/users/${w.guest.userId}`, { role: 'review' }], ['updateCollectionUserPermission', gql.updateUser, { c, u: w.guest.userId, role: 'review' }]), 204, 'updateUserPermissionInCollection');
    expectOk(await call(['PATCH', `${perms(c)}/teams/${w.team.id}`, { role: 'read' }], ['updateCollectionTeamPermission', gql.updateTeam, { c, t: w.team.id, role: 'read' }]), 204, 'updateTeamPermissionInCollection');
    expectOk(await call(['PATCH', `${perms(c)}/users/${w.reader.userId}`, {}], ['updateCollectionUserPermission', gql.updateUser, { c, u: w.reader.userId }]), 204, 'updateUserPermissionInCollection');
    const after = await grantsOf(c);
    expect(after.users.find((g) => g.userId === w.guest.userId)?.role).toBe('review');
    expect(after.users.find((g) => g.userId === w.reader.userId)?.role).toBe('edit');
    expect(after.teams).toEqual([{ teamId: w.team.id, role: 'read' }]);

    const removed = await call(['DELETE', `${perms(c)}/users/${w.guest.userId}`], ['removeCollectionUser', gql.removeUser, { c, u: w.guest.userId }]);
    const again = await call(['DELETE', `${perms(c)}/users/${w.guest.userId}`], ['removeCollectionUser', gql.removeUser, { c, u: w.guest.userId }]);
    const team = await call(['DELETE', `${perms(c)}/teams/${w.team.id}`], ['removeCollectionTeam', gql.removeTeam, { c, t: w.team.id }]);
    if (door === 'rest') {
      expect(removed.raw.status).toBe(205);
      expectGitBookShape('removeUserFromCollection', 205, removed.raw.text);
      expect(again.raw.status).toBe(204);
      expectGitBookShape('removeUserFromCollection', 204, again.raw.text);
      expect(team.raw.status).toBe(205);
      expectGitBookShape('removeTeamFromCollection', 205, team.raw.text);
    } else {
      expect([removed.body, again.body, team.body]).toEqual([true, false, true]);
    }
    expect(await grantsOf(c)).toEqual({ users: [{ userId: w.reader.userId, role: 'edit' }], teams: [] });
  });

  it('REST and GraphQL answer the same lists', async () => {
    const w = await setup();
    const c = w.collection.id;
    await invite(w.admin, c, { role: 'edit', users: [w.guest.userId], teams: [w.team.id] });
    for (const [path, field, query] of [
      ['users', 'collectionUserPermissions', gql.users],
      ['teams', 'collectionTeamPermissions', gql.teams],
      ['aggregate', 'collectionPermissionsAggregate', gql.aggregate],
    ] as const) {
      const rest = expectOk(await w.admin.rest('GET', `${perms(c)}/${path}`));
      const graph = (await throughDoor('graphql', w.admin, ['GET', ''], [field, query, { c }], { dropNulls: true })).body;
      expect(dropNulls(graph), path).toEqual(rest);
    }
  });

  it('refuses: a malformed e-mail address (400 naming "emails"), nobody named, a role missing or null, unknown users and teams (404), all or nothing', async () => {
    const w = await setup();
    const c = w.collection.id;
    for (const door of DOORS) {
      const send = (body: Record<string, unknown>) => throughDoor(door, w.admin, ['POST', perms(c), body], ['inviteToCollection', gql.invite, { c, ...body }]);
      expectFailure(await send({ role: 'read', emails: ['not-an-address'] }), 400, 'emails');
      expectFailure(await send({ role: 'read', users: [w.guest.userId], emails: ['not-an-address'] }), 400, 'emails');
      expectFailure(await send({ role: 'read' }), 400, 'users');
      expectFailure(await send({ role: null, users: [w.guest.userId] }), 400, 'role');
      expectFailure(await send({ role: 'read', users: [w.guest.userId, UNKNOWN_USER] }), 404);
      expectFailure(await send({ role: 'read', users: [w.guest.userId], teams: [UNKNOWN_TEAM] }), 404);
      const elsewhere = await buildOrganization(h, 'Elsewhere');
      expectFailure(await send({ role: 'read', users: [elsewhere.admin.userId] }), 404);
    }
    expect(await grantsOf(c)).toEqual({ users: [], teams: [] });
    restError(await w.admin.rest('PATCH', `${perms(c)}/users/${w.guest.userId}`, { role: 'read' }), 404);
    restError(await w.admin.rest('PATCH', `${perms(c)}/teams/${w.team.id}`, { role: 'read' }), 404);
    expectOk(await w.admin.rest('DELETE', `${perms(c)}/users/${UNKNOWN_USER}`), 204, 'removeUserFromCollection');
    expectOk(await w.admin.rest('DELETE', `${perms(c)}/teams/${UNKNOWN_TEAM}`), 204, 'removeTeamFromCollection');
  });

  it('a collection admin by grant manages its access and that of collections inside it, not elsewhere', async () => {
    const w = await setup();
    await invite(w.admin, w.collection.id, { role: 'admin', users: [w.reader.userId] });
    await invite(w.reader, w.nested.id, { role: 'read', users: [w.guest.userId] });
    // The grant reaches the spaces inside: their access lists too.
    expectOk(await w.reader.rest('POST', `/v1/spaces/${w.deep.id}/permissions`, { role: 'read', users: [w.editor.userId] }), 204, 'inviteToSpace');
    restError(await w.reader.rest('POST', perms(w.elsewhere.id), { role: 'read', users: [w.guest.userId] }), 403);
    restError(await w.reader.rest('POST', `/v1/spaces/${w.other.id}/permissions`, { role: 'read', users: [w.guest.userId] }), 403);
    // Deleted, the collection's access list is gone for everyone.
    expectOk(await w.admin.rest('DELETE', `/v1/collections/${w.collection.id}`), 204);
    restError(await w.admin.rest('GET', `${perms(w.collection.id)}/users`), 404);
    restError(await w.admin.rest('POST', perms(w.collection.id), { role: 'read', users: [w.guest.userId] }), 404);
  });
});

describe('grants follow the tree', () => {
  it('moving a space or collection out of a granted collection takes it out of the grant; a transfer drops the grants', async () => {
    const w = await setup();
    await invite(w.admin, w.collection.id, { role: 'read', users: [w.guest.userId] });
    await invite(w.admin, w.nested.id, { role: 'edit', teams: [w.team.id] });
    expectOk(await w.guest.rest('GET', `/v1/spaces/${w.deep.id}`), 200);
    expectOk(await w.admin.rest('POST', `/v1/spaces/${w.deep.id}/move`, { parent: w.elsewhere.id }), 200);
    restError(await w.guest.rest('GET', `/v1/spaces/${w.deep.id}`), 404);
    // Moved into the granted collection, a space comes under its grant.
    expectOk(await w.admin.rest('POST', `/v1/spaces/${w.other.id}/move`, { parent: w.collection.id }), 200);
    expectOk(await w.guest.rest('GET', `/v1/spaces/${w.other.id}`), 200);
    // A collection carried to another organization leaves its grants behind.
    const target = await buildOrganization(h, 'Target');
    await addMember(h, target.organizationId, w.admin, 'admin');
    expectOk(await w.admin.rest('POST', `/v1/collections/${w.nested.id}/transfer`, { organization: target.organizationId }), 200);
    expect(await grantsOf(w.nested.id)).toEqual({ users: [], teams: [] });
    expect((await grantsOf(w.collection.id)).users).toEqual([{ userId: w.guest.userId, role: 'read' }]);
  });
});

describe('listPermissionsAggregateInCollection, and collection grants in the spaces aggregate', () => {
  it('members with a role, guests through grants on the collection or around it; sources and the role filter', async () => {
    const w = await setup();
    const outsiderGuest = await buildMember(h, w.o, null, 'Ungranted guest');
    expectOk(await w.admin.rest('PATCH', `/v1/collections/${w.collection.id}`, { defaultLevel: 'comment' }), 200);
    await invite(w.admin, w.collection.id, { role: 'review', users: [w.reader.userId] });
    await invite(w.admin, w.nested.id, { role: 'edit', teams: [w.team.id] });

    const all = expectOk(await w.admin.rest('GET', `${perms(w.nested.id)}/aggregate`), 200, 'listPermissionsAggregateInCollection');
    const byUser = Object.fromEntries(all.items.map((i: any) => [i.user.id, i]));
    expect(Object.keys(byUser).sort()).toEqual([w.admin, w.reader, w.editor, w.creator, w.guest].map((c) => c.userId).sort());
    expect(byUser[outsiderGuest.userId]).toBeUndefined();
    expect(byUser[w.editor.userId]).toMatchObject({
      permission: 'edit',
      sources: [
        { kind: 'organization-role', level: 'edit' },
        { kind: 'collection-default', level: 'read', id: w.nested.id },
        { kind: 'collection-default', level: 'comment', id: w.collection.id },
      ],
    });
    expect(byUser[w.reader.userId].permission).toBe('review');
    expect(byUser[w.reader.userId].sources).toEqual(
      expect.arrayContaining([
        { kind: 'collection-user-grant', level: 'review', id: w.collection.id },
        { kind: 'collection-team-grant', level: 'edit', id: w.nested.id, teamId: w.team.id },
      ]),
    );
    expect(byUser[w.guest.userId]).toMatchObject({ permission: 'edit', sources: [{ kind: 'collection-team-grant', level: 'edit', id: w.nested.id, teamId: w.team.id }] });

    const level = async (path: string, role: string) =>
      expectOk(await w.admin.rest('GET', `${path}/aggregate?role=${role}`)).items.map((i: any) => i.user.id).sort();
    for (const role of ['read', 'comment', 'edit', 'review', 'create', 'admin']) {
      expect(await level(perms(w.nested.id), role), role).toEqual(all.items.filter((i: any) => i.permission === role).map((i: any) => i.user.id).sort());
    }

    // The space inside the nested collection: the same people, the same levels, as its own `permissions` say.
    const space = expectOk(await w.admin.rest('GET', `/v1/spaces/${w.deep.id}/permissions/aggregate`), 200, 'listPermissionsAggregateInSpace');
    expect(Object.fromEntries(space.items.map((i: any) => [i.user.id, i.permission]))).toEqual(Object.fromEntries(all.items.map((i: any) => [i.user.id, i.permission])));
    for (const role of ['read', 'comment', 'edit', 'review', 'create', 'admin']) {
      expect(await level(`/v1/spaces/${w.deep.id}/permissions`, role), role).toEqual(space.items.filter((i: any) => i.permission === role).map((i: any) => i.user.id).sort());
    }
    expect(expectOk(await w.guest.rest('GET', `/v1/spaces/${w.deep.id}`)).permissions).toMatchObject({ access: true, edit: true, review: false });
    expect(expectOk(await w.reader.rest('GET', `/v1/spaces/${w.deep.id}`)).permissions).toMatchObject({ edit: true, review: true, admin: false });
  });
});

describe('the access rule: a grant on a collection reaches every space inside it, through every route', () => {
  it('a guest given one collection reads exactly the spaces in it (at any depth), and nothing else; removing the grant closes all', async () => {
    const w = await setup();
    const { guest, o } = w;
    const inside = [w.space.id, w.deep.id];
    const outside = [w.other.id, w.sibling.id];
    const ids = (items: any[]) => items.map((i) => i.id).sort();
    const closed = async () => {
      for (const s of [...inside, ...outside]) {
        restError(await guest.rest('GET', `/v1/spaces/${s}`), 404);
        restError(await guest.rest('GET', `/v1/spaces/${s}/content`), 404);
        restError(await guest.rest('GET', `/v1/spaces/${s}/search?query=zeppelin`), 404);
        restError(await guest.rest('GET', `/v1/spaces/${s}/change-requests`), 404);
      }
      restError(await guest.rest('GET', `/v1/collections/${w.collection.id}`), 404);
      restError(await guest.rest('GET', `/v1/collections/${w.collection.id}/spaces`), 404);
      expect(expectOk(await guest.rest('GET', `/v1/orgs/${o}/search?query=zeppelin`)).items).toEqual([]);
      expect(expectOk(await guest.rest('GET', `/v1/orgs/${o}/spaces`)).items).toEqual([]);
      expect(expectOk(await guest.rest('GET', `/v1/orgs/${o}/collections`)).items).toEqual([]);
      expect((await guest.gql('query($o:String!){organization(organizationId:$o){spaces{items{id}} collections{items{id}}}}', { o })).body.data.organization).toEqual({
        spaces: { items: [] },
        collections: { items: [] },
      });
      expect(expectOk(await guest.rest('GET', `/v1/orgs/${o}/members/${guest.userId}/spaces`)).items).toEqual([]);
      expect(expectOk(await w.admin.rest('GET', `/v1/orgs/${o}/members/${guest.userId}/spaces`)).items).toEqual([]);
    };
    await closed();

    await invite(w.admin, w.collection.id, { role: 'read', users: [guest.userId] });
    for (const s of inside) {
      expect(expectOk(await guest.rest('GET', `/v1/spaces/${s}`), 200, 'getSpaceById').permissions).toMatchObject({ access: true, edit: false, admin: false });
      expectOk(await guest.rest('GET', `/v1/spaces/${s}/content`), 200);
      expect(expectOk(await guest.rest('GET', `/v1/spaces/${s}/search?query=zeppelin`)).items).toHaveLength(1);
      expectOk(await guest.rest('GET', `/v1/spaces/${s}/change-requests`), 200);
      restError(await guest.rest('POST', `/v1/spaces/${s}/change-requests`, {}), 403);
    }
    expect(expectOk(await guest.rest('GET', `/v1/spaces/${w.deep.id}/content/pages`)).pages.map((p: any) => p.title)).toEqual(['Zeppelin engines']);
    expect(ids(expectOk(await guest.rest('GET', `/v1/orgs/${o}/spaces`), 200, 'listSpacesInOrganizationById').items)).toEqual([...inside].sort());
    expect(ids(expectOk(await guest.rest('GET', `/v1/orgs/${o}/search?query=zeppelin`)).items)).toEqual([...inside].sort());
    expect(ids(expectOk(await guest.rest('GET', `/v1/collections/${w.collection.id}/spaces`), 200, 'listSpacesInCollectionById').items)).toEqual([w.space.id]);
    expect(ids(expectOk(await guest.rest('GET', `/v1/collections/${w.nested.id}/spaces`)).items)).toEqual([w.deep.id]);
    expect(ids(expectOk(await guest.rest('GET', `/v1/orgs/${o}/collections`), 200, 'listCollectionsInOrganizationById').items)).toEqual([w.collection.id, w.nested.id].sort());
    const mine = expectOk(await w.admin.rest('GET', `/v1/orgs/${o}/members/${guest.userId}/spaces`)).items;
    expect(mine.map((i: any) => [i.space.id, i.permission]).sort()).toEqual(inside.map((s) => [s, 'read']).sort());
    expect(ids(expectOk(await guest.rest('GET', `/v1/orgs/${o}/members/${guest.userId}/spaces`)).items.map((i: any) => i.space))).toEqual([...inside].sort());
    const graph = await guest.gql('query($o:String!){organization(organizationId:$o){spaces{items{id}}}}', { o });
    expect(ids(graph.body.data.organization.spaces.items)).toEqual([...inside].sort());
    const graphCollections = await guest.gql('query($o:String!){organization(organizationId:$o){collections{items{id}}}}', { o });
    expect(ids(graphCollections.body.data.organization.collections.items)).toEqual([w.collection.id, w.nested.id].sort());
    // Nothing else.
    for (const s of outside) {
      restError(await guest.rest('GET', `/v1/spaces/${s}`), 404);
      restError(await guest.rest('GET', `/v1/spaces/${s}/content`), 404);
    }
    restError(await guest.rest('GET', `/v1/collections/${w.elsewhere.id}`), 404);
    restError(await guest.rest('GET', `${perms(w.collection.id)}/users`), 403);

    // Raised to "edit" on the collection: writing opens in every space inside at once.
    expectOk(await w.admin.rest('PATCH', `${perms(w.collection.id)}/users/${guest.userId}`, { role: 'edit' }), 204);
    for (const s of inside) expectOk(await guest.rest('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Mine' }), 201);
    restError(await guest.rest('POST', `/v1/spaces/${w.other.id}/change-requests`, { subject: 'Nope' }), 404);

    // Removed: every route closes.
    expectOk(await w.admin.rest('DELETE', `${perms(w.collection.id)}/users/${guest.userId}`), 205);
    await closed();
  });

  it('a team grant on a nested collection reaches its members, and only the spaces under it', async () => {
    const w = await setup();
    await invite(w.admin, w.nested.id, { role: 'comment', teams: [w.team.id] });
    expect(expectOk(await w.guest.rest('GET', `/v1/spaces/${w.deep.id}`)).permissions).toMatchObject({ access: true, comment: true, edit: false });
    restError(await w.guest.rest('GET', `/v1/spaces/${w.space.id}`), 404);
    restError(await w.guest.rest('GET', `/v1/collections/${w.collection.id}`), 404);
    expect(expectOk(await w.guest.rest('GET', `/v1/orgs/${w.o}/spaces`)).items.map((i: any) => i.id)).toEqual([w.deep.id]);
    expectOk(await w.admin.rest('DELETE', `${perms(w.nested.id)}/teams/${w.team.id}`), 205);
    restError(await w.guest.rest('GET', `/v1/spaces/${w.deep.id}`), 404);
  });

  it('a member with a role is raised by a collection grant in every space inside, and back when it goes', async () => {
    const w = await setup();
    restError(await w.reader.rest('PATCH', `/v1/spaces/${w.deep.id}`, { title: 'Nope' }), 403);
    await invite(w.admin, w.collection.id, { role: 'edit', users: [w.reader.userId] });
    expectOk(await w.reader.rest('PATCH', `/v1/spaces/${w.deep.id}`, { title: 'Edited by a collection grant' }), 200);
    restError(await w.reader.rest('PATCH', `/v1/spaces/${w.other.id}`, { title: 'Nope' }), 403);
    expectOk(await w.admin.rest('DELETE', `${perms(w.collection.id)}/users/${w.reader.userId}`), 205);
    restError(await w.reader.rest('PATCH', `/v1/spaces/${w.deep.id}`, { title: 'Nope' }), 403);
  });
});

// ---- Refusal matrix: every new route ----

/** c: the collection, u: a user with a grant on it, t: a team with a grant on it. */
type Ids = { c: string; u: string; t: string };

const OPS: RefusalOp<Ids>[] = [
  { name: 'inviteToCollection', refuse: 'non-admins', rest: ({ c, u }) => ['POST', perms(c), { role: 'read', users: [u] }], gql: ({ c, u }) => [gql.invite, { c, role: 'read', users: [u] }] },
  { name: 'listUserPermissionsInCollection', refuse: 'guests', rest: ({ c }) => ['GET', `${perms(c)}/users`], gql: ({ c }) => [gql.users, { c }] },
  { name: 'listTeamPermissionsInCollection', refuse: 'guests', rest: ({ c }) => ['GET', `${perms(c)}/teams`], gql: ({ c }) => [gql.teams, { c }] },
  { name: 'listPermissionsAggregateInCollection', refuse: 'guests', rest: ({ c }) => ['GET', `${perms(c)}/aggregate`], gql: ({ c }) => [gql.aggregate, { c }] },
  { name: 'updateUserPermissionInCollection', refuse: 'non-admins', rest: ({ c, u }) => ['PATCH', `${perms(c)}/users/${u}`, { role: 'admin' }], gql: ({ c, u }) => [gql.updateUser, { c, u, role: 'admin' }] },
  { name: 'updateTeamPermissionInCollection', refuse: 'non-admins', rest: ({ c, t }) => ['PATCH', `${perms(c)}/teams/${t}`, { role: 'admin' }], gql: ({ c, t }) => [gql.updateTeam, { c, t, role: 'admin' }] },
  { name: 'removeUserFromCollection', refuse: 'non-admins', rest: ({ c, u }) => ['DELETE', `${perms(c)}/users/${u}`], gql: ({ c, u }) => [gql.removeUser, { c, u }] },
  { name: 'removeTeamFromCollection', refuse: 'non-admins', rest: ({ c, t }) => ['DELETE', `${perms(c)}/teams/${t}`], gql: ({ c, t }) => [gql.removeTeam, { c, t }] },
];

/** The matrix's world: the guest holds "edit" on the collection (so they see it), the team "comment". */
async function matrixWorld() {
  const w = await setup();
  await invite(w.admin, w.collection.id, { role: 'edit', users: [w.guest.userId] });
  await invite(w.admin, w.collection.id, { role: 'comment', teams: [w.team.id] });
  return w;
}

refusalMatrix(OPS, {
  h,
  setup: matrixWorld,
  ids: (w: World) => ({ c: w.collection.id, u: w.guest.userId, t: w.team.id }),
  unknown: { c: UNKNOWN_COLLECTION },
  forbidden: async (w, refuse) => ({ callers: refuse === 'guests' ? [w.guest] : [w.reader, w.editor, w.creator, w.guest] }),
  unchanged: async (w) => {
    expect(await grantsOf(w.collection.id)).toEqual({ users: [{ userId: w.guest.userId, role: 'edit' }], teams: [{ teamId: w.team.id, role: 'comment' }] });
  },
});

describe('refusals beyond the matrix', () => {
  it('a guest without a grant, and a disabled member, get 404 for the collection (as an unknown one)', async () => {
    const w = await setup();
    const stranger = await buildMember(h, w.o, null, 'Ungranted');
    const disabled = await buildMember(h, w.o, 'admin', 'Disabled admin');
    await h.db.member.update({ where: { organizationId_userId: { organizationId: w.o, userId: disabled.userId } }, data: { disabled: true } });
    for (const caller of [stranger, disabled]) {
      restError(await caller.rest('GET', `${perms(w.collection.id)}/aggregate`), 404);
      restError(await caller.rest('POST', perms(w.collection.id), { role: 'read', users: [caller.userId] }), 404);
    }
    // A guest granted a space inside (not the collection) does not see the collection's access list either.
    expectOk(await w.admin.rest('POST', `/v1/spaces/${w.space.id}/permissions`, { role: 'admin', users: [stranger.userId] }), 204);
    restError(await stranger.rest('GET', `${perms(w.collection.id)}/users`), 404);
    expect(await grantsOf(w.collection.id)).toEqual({ users: [], teams: [] });
  });

  it('members with a role who read the collection see its lists (403 only for guests)', async () => {
    const w = await matrixWorld();
    for (const caller of [w.reader, w.editor, w.creator]) {
      expectOk(await caller.rest('GET', `${perms(w.collection.id)}/users`), 200, 'listUserPermissionsInCollection');
      expectOk(await caller.rest('GET', `${perms(w.collection.id)}/aggregate`), 200, 'listPermissionsAggregateInCollection');
    }
  });
});
