import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildUser } from '../factories.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { useHarness } from '../support/harness.ts';

// GET /users/{userId} (GitBook's getUserById): where every User.urls.location points. A user is known to
// themselves and to whoever may list the members of an organization they belong to.
const h = useHarness();

describe('GET /users/{userId} (getUserById)', () => {
  it('the caller, and the users of organizations whose members they list; User.urls.location is this route', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const reader = await buildMember(h, o, 'read');
    const guest = await buildMember(h, o, null);

    const me = expectOk(await admin.rest('GET', `/v1/users/${admin.userId}`), 200, 'getUserById');
    expect(me).toEqual(expectOk(await admin.rest('GET', '/v1/user')));
    expect(me.urls.location).toBe(`${h.config.apiUrl}/users/${admin.userId}`);

    // A member with a role lists the members: they read each of them, as the list shows them.
    const seen = expectOk(await reader.rest('GET', `/v1/users/${admin.userId}`), 200, 'getUserById');
    expect(seen).toMatchObject({ object: 'user', id: admin.userId, email: admin.email });
    expect(expectOk(await admin.rest('GET', `/v1/users/${guest.userId}`), 200, 'getUserById').id).toBe(guest.userId);
    // Following the location a member answer holds.
    const members = expectOk(await admin.rest('GET', `/v1/orgs/${o}/members`)).items as { user: { id: string; urls: { location: string } } }[];
    const location = members.find((m) => m.user.id === reader.userId)!.user.urls.location;
    expect(expectOk(await admin.rest('GET', location.slice(location.indexOf('/v1/'))), 200, 'getUserById').id).toBe(reader.userId);

    const graph = gqlData(await reader.gql('query($u: String!) { userById(userId: $u) { id displayName } }', { u: admin.userId }), 'userById');
    expect(graph).toEqual({ id: admin.userId, displayName: me.displayName });
  });

  it('anyone else gets the 404 of an unknown ID: guests (who list no members), outsiders, removed members; a bad ID is a 400', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const guest = await buildMember(h, o, null);
    const outsider = await buildUser(h);
    const unknown = restError(await admin.rest('GET', '/v1/users/noSuchUser'), 404);
    expect(unknown).toBe('User "noSuchUser" not found');
    expect(restError(await guest.rest('GET', `/v1/users/${admin.userId}`), 404)).toBe(`User "${admin.userId}" not found`);
    restError(await outsider.rest('GET', `/v1/users/${admin.userId}`), 404);
    restError(await admin.rest('GET', `/v1/users/${outsider.userId}`), 404);

    const leaving = await buildMember(h, o, 'edit');
    expectOk(await admin.rest('GET', `/v1/users/${leaving.userId}`), 200);
    expectOk(await admin.rest('DELETE', `/v1/orgs/${o}/members/${leaving.userId}`), 204);
    restError(await admin.rest('GET', `/v1/users/${leaving.userId}`), 404);
    restError(await leaving.rest('GET', `/v1/users/${admin.userId}`), 404);

    restError(await admin.rest('GET', `/v1/users/${'x'.repeat(65)}`), 400, 'userId');
    expect((await h.app.fetch(`http://localhost/v1/users/${admin.userId}`)).status).toBe(401); // no token
  });
});
