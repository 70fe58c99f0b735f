// The official client (`GitBookAPI` from @gitbook/api) walking who can access a collection, on a real
// HTTP listener: inviteToCollection, the user/team/aggregate lists, updating and removing grants — each
// answer validated against GitBook's schemas — and what a grant on a collection opens: the spaces inside.
import { MemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { expectGitBookShape } from '../support/assertions.ts';
import { expectApiError, useClientServer } from '../support/client-server.ts';

const s = useClientServer();

describe('official GitBookAPI client: collection permissions', () => {
  it('invites a guest and a team, lists them, changes and removes their levels; the spaces inside follow', async () => {
    const ada = await s.newUser('Ada');
    const grace = await s.newUser('Grace');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Collection Permissions Co' })).data;
    // Grace is a guest (no role): the membership row joining through an invitation writes (as test/factories.ts).
    await s.store.database.prisma.member.create({ data: { organizationId: org.id, userId: grace.id, role: null } });
    const team = (await api.orgs.createOrganizationTeam(org.id, { title: 'Writers', members: [grace.id] })).data;
    const collection = (await api.orgs.createCollection(org.id, { title: 'Guides' })).data;
    const nested = (await api.orgs.createCollection(org.id, { title: 'Deep', parent: collection.id })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Handbook', parent: nested.id })).data;
    const other = (await api.orgs.createSpace(org.id, { title: 'Other' })).data;

    await expectApiError(grace.api.spaces.getSpaceById(space.id), 404);
    await expectApiError(grace.api.collections.getCollectionById(collection.id), 404);

    // inviteToCollection (204).
    const invited = await api.collections.inviteToCollection(collection.id, { role: MemberRole.Read, users: [grace.id] });
    expect(invited.status).toBe(204);
    expect((await api.collections.inviteToCollection(collection.id, { role: MemberRole.Comment, teams: [team.id] })).status).toBe(204);
    // The grant reaches the space two levels down, and the collections on the way.
    const got = (await grace.api.spaces.getSpaceById(space.id)).data;
    expectGitBookShape('getSpaceById', 200, got);
    expect(got).toMatchObject({ id: space.id, permissions: { access: true, comment: true, edit: false } });
    expect((await grace.api.collections.getCollectionById(nested.id)).data.id).toBe(nested.id);
    const spaces = (await grace.api.orgs.listSpacesInOrganizationById(org.id)).data;
    expect(spaces.items.map((i) => i.id)).toEqual([space.id]);
    await expectApiError(grace.api.spaces.getSpaceById(other.id), 404);

    // listUserPermissionsInCollection, listTeamPermissionsInCollection.
    const users = (await api.collections.listUserPermissionsInCollection(collection.id)).data;
    expectGitBookShape('listUserPermissionsInCollection', 200, users);
    expect(users).toMatchObject({ count: 1, items: [{ permission: 'read', user: { id: grace.id, object: 'user' } }] });
    const teams = (await api.collections.listTeamPermissionsInCollection(collection.id, { limit: 10 })).data;
    expectGitBookShape('listTeamPermissionsInCollection', 200, teams);
    expect(teams).toMatchObject({ count: 1, items: [{ permission: 'comment', team: { id: team.id, title: 'Writers', members: 1 } }] });

    // listPermissionsAggregateInCollection (of the nested collection: the grants around it count), and the role filter.
    const all = (await api.collections.listPermissionsAggregateInCollection(nested.id)).data;
    expectGitBookShape('listPermissionsAggregateInCollection', 200, all);
    expect(all.items.map((i) => [i.user.id, i.permission]).sort()).toEqual([[ada.id, 'admin'], [grace.id, 'comment']].sort());
    const commenters = (await api.collections.listPermissionsAggregateInCollection(nested.id, { role: MemberRole.Comment })).data;
    expect(commenters.items.map((i) => i.user.id)).toEqual([grace.id]);
    const inSpace = (await api.spaces.listPermissionsAggregateInSpace(space.id, { role: MemberRole.Comment })).data;
    expectGitBookShape('listPermissionsAggregateInSpace', 200, inSpace);
    expect(inSpace.items.map((i) => i.user.id)).toEqual([grace.id]);

    // updateUserPermissionInCollection, updateTeamPermissionInCollection (204).
    expect((await api.collections.updateUserPermissionInCollection(collection.id, grace.id, { role: MemberRole.Edit })).status).toBe(204);
    expect((await api.collections.updateTeamPermissionInCollection(collection.id, team.id, { role: MemberRole.Read })).status).toBe(204);
    expect((await grace.api.spaces.getSpaceById(space.id)).data.permissions).toMatchObject({ edit: true });

    // The guest may not change who can access the collection, nor see who else can.
    await expectApiError(grace.api.collections.inviteToCollection(collection.id, { role: MemberRole.Admin, users: [grace.id] }), 403);
    await expectApiError(grace.api.collections.listUserPermissionsInCollection(collection.id), 403);

    // removeUserFromCollection (205, then 204), removeTeamFromCollection (205): the guest is back to nothing.
    expect((await api.collections.removeUserFromCollection(collection.id, grace.id)).status).toBe(205);
    expect((await api.collections.removeUserFromCollection(collection.id, grace.id)).status).toBe(204);
    expect((await grace.api.spaces.getSpaceById(space.id)).data.permissions).toMatchObject({ access: true, edit: false });
    expect((await api.collections.removeTeamFromCollection(collection.id, team.id)).status).toBe(205);
    await expectApiError(grace.api.spaces.getSpaceById(space.id), 404);
    expect((await grace.api.orgs.listSpacesInOrganizationById(org.id)).data.items).toEqual([]);
    expect((await api.collections.listTeamPermissionsInCollection(collection.id)).data).toMatchObject({ count: 0, items: [] });
  });
});
