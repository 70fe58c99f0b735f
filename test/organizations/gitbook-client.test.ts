// The official client (`GitBookAPI` from @gitbook/api) pointed at this server on a real HTTP listener.
// Everything goes over the wire: the client's own URL building, headers, JSON parsing and error handling.
import { GitBookAPI, TeamMemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { expectGitBookShape } from '../support/assertions.ts';
import { expectApiError, useClientServer } from '../support/client-server.ts';

const s = useClientServer({ realClock: true });
const newUser = (displayName: string) => s.newUser(displayName);

describe('official GitBookAPI client against a live server', () => {
  it('drives users, organizations, members and teams end to end', async () => {
    const ada = await newUser('Ada Lovelace');
    const grace = await newUser('Grace Hopper');
    const api = ada.api;

    // getAuthenticatedUser
    const me = await api.user.getAuthenticatedUser();
    expect(me.status).toBe(200);
    expect(me.data).toMatchObject({ object: 'user', id: ada.id, displayName: 'Ada Lovelace', email: ada.email });
    expect(me.data.urls.location).toBe(`${s.endpoint}/v1/users/${ada.id}`);
    // getUserById: that location answers (the caller); another user outside the caller's organizations is a 404.
    const userById = await api.users.getUserById(ada.id);
    expectGitBookShape('getUserById', userById.status, userById.data);
    expect(userById.data).toEqual(me.data);
    await expectApiError(api.users.getUserById(grace.id), 404);

    // createOrganization: 201 + Location, the caller is its admin.
    const created = await api.orgs.createOrganization({ title: 'Analytical Engines', emailDomains: ['engines.example'] });
    expect(created.status).toBe(201);
    const org = created.data;
    expect(org).toMatchObject({ object: 'organization', title: 'Analytical Engines', emailDomains: ['engines.example'] });
    expect(org.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(org.urls.location).toBe(`${s.endpoint}/v1/orgs/${org.id}`);
    expect(created.headers.get('location')).toBe(`${s.endpoint}/v1/orgs/${org.id}`);
    expect(org.permissions.admin).toBe(true);
    expect(org.permissions.createContent).toBe(true);
    const second = await api.orgs.createOrganization({ title: 'Difference Engines' });
    expect(second.status).toBe(201);
    expect(second.data.id).not.toBe(org.id);

    // listOrganizationsForAuthenticatedUser: exactly Ada's two organizations.
    const list = await api.orgs.listOrganizationsForAuthenticatedUser();
    expect(list.status).toBe(200);
    expect(list.data.count).toBe(2);
    expect(list.data.items.map((o) => o.id).sort()).toEqual([org.id, second.data.id].sort());
    expect(list.data.items.map((o) => o.title).sort()).toEqual(['Analytical Engines', 'Difference Engines']);
    expect(list.data.next).toBeUndefined();
    // Paging through the client: limit 1 gives a cursor; the next page has the other organization.
    const page1 = await api.orgs.listOrganizationsForAuthenticatedUser({ limit: 1 });
    expect(page1.data.items).toHaveLength(1);
    expect(page1.data.next?.page).toEqual(expect.any(String));
    const page2 = await api.orgs.listOrganizationsForAuthenticatedUser({ limit: 1, page: page1.data.next!.page });
    expect(page2.data.items).toHaveLength(1);
    expect(page2.data.next).toBeUndefined();
    expect([page1.data.items[0]!.id, page2.data.items[0]!.id].sort()).toEqual([org.id, second.data.id].sort());

    // getOrganizationById
    const fetched = await api.orgs.getOrganizationById(org.id);
    expect(fetched.data).toMatchObject({ id: org.id, title: 'Analytical Engines', emailDomains: ['engines.example'] });

    // updateOrganizationById, then read it back.
    const updated = await api.orgs.updateOrganizationById(org.id, { title: 'Analytical Engines Ltd', emailDomains: ['ae.example'] });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ id: org.id, title: 'Analytical Engines Ltd', emailDomains: ['ae.example'] });
    expect((await api.orgs.getOrganizationById(org.id)).data.title).toBe('Analytical Engines Ltd');

    // Grace joins (joining goes through invites, a later issue: insert the membership directly).
    await s.store.database.prisma.member.create({ data: { organizationId: org.id, userId: grace.id, role: 'edit' } });

    // listMembersInOrganizationById
    const members = await api.orgs.listMembersInOrganizationById(org.id);
    expect(members.data.count).toBe(2);
    const byId = new Map(members.data.items.map((m) => [m.id, m]));
    expect(byId.get(ada.id)).toMatchObject({ object: 'member', role: 'admin', user: { id: ada.id, displayName: 'Ada Lovelace' } });
    expect(byId.get(grace.id)).toMatchObject({ object: 'member', role: 'edit', user: { id: grace.id, displayName: 'Grace Hopper' } });
    const searched = await api.orgs.listMembersInOrganizationById(org.id, { search: 'grace' });
    expect(searched.data.items.map((m) => m.id)).toEqual([grace.id]);

    // updateOrganizationMemberLastSeenAt: JSON body (the client parses it), and lastSeenAt appears.
    expect(byId.get(ada.id)!.lastSeenAt).toBeUndefined();
    const ping = await api.orgs.updateOrganizationMemberLastSeenAt(org.id);
    expect(ping.status).toBe(200);
    expect(typeof ping.data).toBe('object');
    const seen = await api.orgs.listMembersInOrganizationById(org.id, { sort: 'lastSeenAt' });
    expect(seen.data.items.map((m) => m.id)).toEqual([ada.id]);
    expect(Date.parse(seen.data.items[0]!.lastSeenAt!)).toBeGreaterThan(Date.now() - 60_000);

    // createOrganizationTeam (PUT, 201) with Ada as an initial member.
    const team = await api.orgs.createOrganizationTeam(org.id, { title: 'Engineers', members: [ada.id] });
    expect(team.status).toBe(201);
    expect(team.data).toMatchObject({ object: 'team', title: 'Engineers', members: 1 });
    const teamId = team.data.id;
    const other = await api.orgs.createOrganizationTeam(org.id, { title: 'Writers' });
    expect(other.data.members).toBe(0);

    // listTeamsInOrganizationById
    const teams = await api.orgs.listTeamsInOrganizationById(org.id);
    expect(teams.data.count).toBe(2);
    expect(teams.data.items.map((t) => t.title).sort()).toEqual(['Engineers', 'Writers']);
    const filtered = await api.orgs.listTeamsInOrganizationById(org.id, { title: 'engin' });
    expect(filtered.data.items.map((t) => t.id)).toEqual([teamId]);

    // addMemberToOrganizationTeamById: PUT with an empty JSON body from the client.
    // (The typings want a body argument; leaving it out is what makes the client send an empty one.)
    const added = await api.orgs.addMemberToOrganizationTeamById(org.id, teamId, grace.id, undefined as never);
    expect(added.status).toBe(204);
    expect((await api.orgs.getTeamInOrganizationById(org.id, teamId)).data.members).toBe(2);
    const teamMembers = await api.orgs.listTeamMembersInOrganizationById(org.id, teamId);
    expect(teamMembers.data.items.map((m) => m.organization.id).sort()).toEqual([ada.id, grace.id].sort());

    // updateMembersInOrganizationTeam: remove Grace by e-mail, add her to Writers by ID as owner.
    const bulkRemove = await api.orgs.updateMembersInOrganizationTeam(org.id, teamId, { remove: [grace.email] });
    expect(bulkRemove.status).toBe(204);
    expect((await api.orgs.getTeamInOrganizationById(org.id, teamId)).data.members).toBe(1);
    const bulkAdd = await api.orgs.updateMembersInOrganizationTeam(org.id, other.data.id, {
      add: [grace.id],
      memberships: { [grace.id]: { role: TeamMemberRole.Owner } },
    });
    expect(bulkAdd.status).toBe(204);
    const writers = await api.orgs.listTeamMembersInOrganizationById(org.id, other.data.id);
    expect(writers.data.items).toHaveLength(1);
    expect(writers.data.items[0]).toMatchObject({ organization: { id: grace.id }, team: { role: 'owner' } });

    // getTeamInOrganizationById
    const got = await api.orgs.getTeamInOrganizationById(org.id, other.data.id);
    expect(got.data).toMatchObject({ id: other.data.id, title: 'Writers', members: 1 });

    // removeTeamFromOrganizationById: "No Content" in the description (GitBook's document also allows 205),
    // then the team is gone (404) and the count drops.
    const removed = await api.orgs.removeTeamFromOrganizationById(org.id, other.data.id);
    expect([204, 205]).toContain(removed.status);
    expect(removed.data).toBeNull();
    await expectApiError(api.orgs.getTeamInOrganizationById(org.id, other.data.id), 404);
    const remaining = await api.orgs.listTeamsInOrganizationById(org.id);
    expect(remaining.data.count).toBe(1);
    expect(remaining.data.items.map((t) => t.id)).toEqual([teamId]);
    expect((await api.orgs.getOrganizationById(org.id)).data).toMatchObject({ id: org.id });

    // Grace (an `edit` member) sees the organization but may not change it: 403.
    expect((await grace.api.orgs.getOrganizationById(org.id)).data.title).toBe('Analytical Engines Ltd');
    await expectApiError(grace.api.orgs.updateOrganizationById(org.id, { title: 'Hijacked' }), 403);
  });

  it('throws GitBookAPIError 401 for a bad token and for no token', async () => {
    const bad = new GitBookAPI({ endpoint: s.endpoint, authToken: 'not-a-real-token-000000000000000000' });
    const error = await expectApiError(bad.user.getAuthenticatedUser(), 401);
    expect(error.message).toContain('[401]');
    await expectApiError(bad.orgs.listOrganizationsForAuthenticatedUser(), 401);
    await expectApiError(new GitBookAPI({ endpoint: s.endpoint }).orgs.listOrganizationsForAuthenticatedUser(), 401);
  });

  it('throws GitBookAPIError 404 for an unknown organization and for one the caller is not in', async () => {
    const owner = await newUser('Owner');
    const outsider = await newUser('Outsider');
    await expectApiError(owner.api.orgs.getOrganizationById('doesNotExist123'), 404);
    const org = (await owner.api.orgs.createOrganization({ title: 'Private Co' })).data;
    await expectApiError(outsider.api.orgs.getOrganizationById(org.id), 404);
    await expectApiError(outsider.api.orgs.listMembersInOrganizationById(org.id), 404);
  });
});
