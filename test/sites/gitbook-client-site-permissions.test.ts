// The official client (`GitBookAPI` from @gitbook/api) walking who can access a site, on a real HTTP
// listener: inviteToSite, the user/team/aggregate lists, updating and removing grants — each answer
// validated against GitBook's response schema of its operation.
import { MemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { expectGitBookShape } from '../support/assertions.ts';
import { expectApiError, useClientServer } from '../support/client-server.ts';

const s = useClientServer();

describe('official GitBookAPI client: site permissions', () => {
  it('invites a guest and a team, lists them, changes and removes their levels', async () => {
    const ada = await s.newUser('Ada');
    const grace = await s.newUser('Grace');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Site permissions Co' })).data;
    // Grace is a guest (no role): the membership row joining through an invitation writes (as test/factories.ts).
    await s.store.database.prisma.member.create({ data: { organizationId: org.id, userId: grace.id, role: null } });
    const team = (await api.orgs.createOrganizationTeam(org.id, { title: 'Writers', members: [grace.id] })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
    const site = (await api.orgs.createSite(org.id, { title: 'Portal', spaces: [space.id] })).data;
    const other = (await api.orgs.createSite(org.id, { title: 'Other' })).data;

    // Before: the guest cannot see the site, and lists none.
    await expectApiError(grace.api.orgs.getSiteById(org.id, site.id), 403);
    expect((await grace.api.orgs.listSites(org.id)).data).toMatchObject({ count: 0, items: [] });

    // inviteToSite (204).
    const invited = await api.orgs.inviteToSite(org.id, site.id, { role: MemberRole.Read, users: [grace.id] });
    expect(invited.status).toBe(204);
    expect((await api.orgs.inviteToSite(org.id, site.id, { role: MemberRole.Edit, teams: [team.id] })).status).toBe(204);
    const seen = (await grace.api.orgs.getSiteById(org.id, site.id)).data;
    expect(seen).toMatchObject({ id: site.id, permissions: { view: true, edit: true, admin: false } });
    await expectApiError(grace.api.orgs.getSiteById(org.id, other.id), 403);
    expect((await grace.api.orgs.listSites(org.id)).data.items.map((i) => i.id)).toEqual([site.id]);

    // listUserPermissionsInSite, listTeamPermissionsInSite.
    const users = (await api.orgs.listUserPermissionsInSite(org.id, site.id)).data;
    expectGitBookShape('listUserPermissionsInSite', 200, users);
    expect(users).toMatchObject({ count: 1, items: [{ permission: 'read', user: { id: grace.id, object: 'user' } }] });
    const teams = (await api.orgs.listTeamPermissionsInSite(org.id, site.id, { limit: 10 })).data;
    expectGitBookShape('listTeamPermissionsInSite', 200, teams);
    expect(teams).toMatchObject({ count: 1, items: [{ permission: 'edit', team: { id: team.id, title: 'Writers', members: 1 } }] });

    // listPermissionsAggregateInSite: Ada (admin of the organization) and Grace (edit, through her team), and the filters.
    const all = (await api.orgs.listPermissionsAggregateInSite(org.id, site.id)).data;
    expectGitBookShape('listPermissionsAggregateInSite', 200, all);
    expect(all.items.map((i) => [i.user.id, i.permission, i.origin]).sort()).toEqual(
      [
        [ada.id, 'admin', { type: 'organization', organization: org.id }],
        [grace.id, 'edit', { type: 'site', site: site.id, reason: 'team', team: team.id }],
      ].sort(),
    );
    const editors = (await api.orgs.listPermissionsAggregateInSite(org.id, site.id, { role: MemberRole.Edit })).data;
    expect(editors.items.map((i) => i.user.id)).toEqual([grace.id]);
    const guests = (await api.orgs.listPermissionsAggregateInSite(org.id, site.id, { role: 'guest', sort: 'name', order: 'asc', search: 'grace' })).data;
    expect(guests.items.map((i) => i.user.id)).toEqual([grace.id]);
    const byTeam = (await api.orgs.listPermissionsAggregateInSite(org.id, site.id, { team: team.id })).data;
    expect(byTeam.items.map((i) => i.user.id)).toEqual([grace.id]);

    // updateUserPermissionInSite, updateTeamPermissionInSite (204).
    expect((await api.orgs.updateUserPermissionInSite(org.id, site.id, grace.id, { role: MemberRole.Admin })).status).toBe(204);
    expect((await api.orgs.updateTeamPermissionInSite(org.id, site.id, team.id, { role: MemberRole.Read })).status).toBe(204);
    expect((await grace.api.orgs.getSiteById(org.id, site.id)).data.permissions).toMatchObject({ admin: true });

    // A guest holding admin on the site grants on it (up to admin), but not on another site.
    expect((await grace.api.orgs.inviteToSite(org.id, site.id, { role: MemberRole.Read, users: [ada.id] })).status).toBe(204);
    await expectApiError(grace.api.orgs.inviteToSite(org.id, other.id, { role: MemberRole.Read, users: [grace.id] }), 403);
    await expectApiError(api.orgs.inviteToSite(org.id, site.id, { role: MemberRole.Read, users: ['unknownUser000000001'] }), 404);

    // removeUserFromSite (205, then 204), removeTeamFromSite (205): the guest is back to nothing.
    expect((await api.orgs.removeUserFromSite(org.id, site.id, grace.id)).status).toBe(205);
    expect((await api.orgs.removeUserFromSite(org.id, site.id, grace.id)).status).toBe(204);
    expect((await grace.api.orgs.getSiteById(org.id, site.id)).data.permissions).toMatchObject({ view: true, edit: false });
    expect((await api.orgs.removeTeamFromSite(org.id, site.id, team.id)).status).toBe(205);
    await expectApiError(grace.api.orgs.getSiteById(org.id, site.id), 403);
    expect((await api.orgs.listTeamPermissionsInSite(org.id, site.id)).data).toMatchObject({ count: 0, items: [] });
  });
});
