// The official client (`GitBookAPI` from @gitbook/api) walking who can access a space, on a real HTTP
// listener: inviteToSpace, the user/team/aggregate lists, updating and removing grants.
import { MemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { expectApiError, useClientServer } from '../support/client-server.ts';

const s = useClientServer();

describe('official GitBookAPI client: space permissions', () => {
  it('invites a guest and a team, lists them, changes and removes their levels', async () => {
    const ada = await s.newUser('Ada');
    const grace = await s.newUser('Grace');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Permissions Co' })).data;
    // Grace is a guest (no role): the membership row joining through an invitation writes (as test/factories.ts).
    await s.store.database.prisma.member.create({ data: { organizationId: org.id, userId: grace.id, role: null } });
    const team = (await api.orgs.createOrganizationTeam(org.id, { title: 'Writers', members: [grace.id] })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
    const other = (await api.orgs.createSpace(org.id, { title: 'Other' })).data;

    // Before: the guest cannot see the space.
    await expectApiError(grace.api.spaces.getSpaceById(space.id), 404);

    // inviteToSpace (204).
    const invited = await api.spaces.inviteToSpace(space.id, { role: MemberRole.Read, users: [grace.id] });
    expect(invited.status).toBe(204);
    expect((await api.spaces.inviteToSpace(space.id, { role: MemberRole.Comment, teams: [team.id] })).status).toBe(204);
    expect((await grace.api.spaces.getSpaceById(space.id)).data).toMatchObject({ id: space.id, permissions: { access: true, comment: true, edit: false } });
    await expectApiError(grace.api.spaces.getSpaceById(other.id), 404);

    // listUserPermissionsInSpace, listTeamPermissionsInSpace.
    const users = (await api.spaces.listUserPermissionsInSpace(space.id)).data;
    expect(users).toMatchObject({ count: 1, items: [{ permission: 'read', user: { id: grace.id, object: 'user' } }] });
    const teams = (await api.spaces.listTeamPermissionsInSpace(space.id, { limit: 10 })).data;
    expect(teams).toMatchObject({ count: 1, items: [{ permission: 'comment', team: { id: team.id, title: 'Writers', members: 1, spaces: 1 } }] });

    // listPermissionsAggregateInSpace: Ada (admin by role) and Grace (comment, through her team), and the role filter.
    const all = (await api.spaces.listPermissionsAggregateInSpace(space.id)).data;
    expect(all.items.map((i) => [i.user.id, i.permission]).sort()).toEqual([[ada.id, 'admin'], [grace.id, 'comment']].sort());
    const commenters = (await api.spaces.listPermissionsAggregateInSpace(space.id, { role: MemberRole.Comment })).data;
    expect(commenters.items.map((i) => i.user.id)).toEqual([grace.id]);

    // updateUserPermissionInSpace, updateTeamPermissionInSpace (204).
    expect((await api.spaces.updateUserPermissionInSpace(space.id, grace.id, { role: MemberRole.Edit })).status).toBe(204);
    expect((await api.spaces.updateTeamPermissionInSpace(space.id, team.id, { role: MemberRole.Read })).status).toBe(204);
    expect((await grace.api.spaces.getSpaceById(space.id)).data.permissions).toMatchObject({ edit: true });

    // The guest may not change who can access the space, nor see who else can.
    await expectApiError(grace.api.spaces.inviteToSpace(space.id, { role: MemberRole.Admin, users: [grace.id] }), 403);
    await expectApiError(grace.api.spaces.listUserPermissionsInSpace(space.id), 403);

    // removeUserFromSpace (205, then 204), removeTeamFromSpace (205): the guest is back to nothing.
    expect((await api.spaces.removeUserFromSpace(space.id, grace.id)).status).toBe(205);
    expect((await api.spaces.removeUserFromSpace(space.id, grace.id)).status).toBe(204);
    expect((await grace.api.spaces.getSpaceById(space.id)).data.permissions).toMatchObject({ access: true, edit: false });
    expect((await api.spaces.removeTeamFromSpace(space.id, team.id)).status).toBe(205);
    await expectApiError(grace.api.spaces.getSpaceById(space.id), 404);
    expect((await api.spaces.listTeamPermissionsInSpace(space.id)).data).toMatchObject({ count: 0, items: [] });
  });
});
