// Sharing content with people by e-mail (`inviteToSpace` with `emails`): members get the grant at once;
// anyone else is invited to the organization as a guest, and the level waits on the invitation until
// they accept it — then they read exactly what they were given, and nothing else.
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { buildCollection, buildMember, buildOrganization, buildSpace, buildUser } from '../factories.ts';
import { DOORS, expectFailure, expectOk, restError, throughDoor } from '../support/assertions.ts';
import { useHarness, type Caller } from '../support/harness.ts';

const h = useHarness();

const inviteGql = `mutation($s:String!,$role:Role!,$users:[String!],$emails:[String!]){inviteToSpace(spaceId:$s,role:$role,users:$users,emails:$emails)}`;

async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Mailshare');
  const space = await buildSpace(admin, o, { title: 'Shared handbook' });
  const other = await buildSpace(admin, o, { title: 'Not shared' });
  return { admin, o, space, other };
}

const pendingInvites = (o: string, userId: string) => h.db.invite.findMany({ where: { organizationId: o, userId, acceptedAt: null }, include: { grants: true } });
const spaceGrant = (spaceId: string, userId: string) => h.db.spaceUserGrant.findUnique({ where: { spaceId_userId: { spaceId, userId } }, select: { role: true } });

async function join(person: Caller, o: string) {
  const mine = expectOk(await person.rest('GET', '/v1/user/invitations'));
  const invitation = mine.items.find((i: { organization: { id: string } }) => i.organization.id === o);
  expect(invitation).toBeDefined();
  expectOk(await person.rest('POST', `/v1/orgs/${o}/invites/${invitation.id}`));
}

describe('inviteToSpace with e-mails', () => {
  it.each(DOORS)('%s: a person who is not a member is invited as a guest; on joining they read exactly that space, at that level', async (door) => {
    const w = await setup();
    const person = await buildUser(h, 'Outside Writer');
    const s = w.space.id;
    const send = (body: Record<string, unknown>) => throughDoor(door, w.admin, ['POST', `/v1/spaces/${s}/permissions`, body], ['inviteToSpace', inviteGql, { s, ...body }]);
    // Spelled differently from the account's address: addresses compare case-insensitively.
    expectOk(await send({ role: 'edit', emails: [`  ${person.email.toUpperCase()} `] }), door === 'rest' ? 204 : 200);

    // Not a member yet: no grant, no access; a pending guest invitation carrying the promised level.
    expect(await h.db.member.findUnique({ where: { organizationId_userId: { organizationId: w.o, userId: person.userId } } })).toBeNull();
    expect(await spaceGrant(s, person.userId)).toBeNull();
    const [pending] = await pendingInvites(w.o, person.userId);
    expect(pending).toMatchObject({ role: null, invitedById: w.admin.userId, grants: [{ spaceId: s, role: 'edit' }] });
    expect((await person.rest('GET', `/v1/spaces/${s}`)).status).toBe(404);

    await join(person, w.o);
    expect(await h.db.member.findUnique({ where: { organizationId_userId: { organizationId: w.o, userId: person.userId } }, select: { role: true } })).toEqual({ role: null });
    expect(await spaceGrant(s, person.userId)).toEqual({ role: 'edit' });
    expect(await h.db.inviteGrant.count({ where: { inviteId: pending.id } })).toBe(0);

    // They read and edit that space, see only it in lists, and nothing else.
    expect(expectOk(await person.rest('GET', `/v1/spaces/${s}`)).permissions).toMatchObject({ access: true, edit: true, admin: false });
    expect(expectOk(await person.rest('GET', `/v1/orgs/${w.o}/spaces`)).items.map((x: { id: string }) => x.id)).toEqual([s]);
    expect((await person.rest('GET', `/v1/spaces/${w.other.id}`)).status).toBe(404);
    expectOk(await person.rest('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Their first edit' }), 201);
  });

  it('a member named by e-mail gets the grant at once; a pending member invitation keeps its role and gains the level', async () => {
    const w = await setup();
    const guest = await buildMember(h, w.o, null, 'Known Guest');
    const invitee = await buildUser(h, 'Invited Reviewer');
    // Already invited to the organization as a reviewer, not joined yet.
    expectOk(await w.admin.rest('POST', `/v1/orgs/${w.o}/invites`, { emails: [invitee.email], role: 'review' }));

    expectOk(await w.admin.rest('POST', `/v1/spaces/${w.space.id}/permissions`, { role: 'comment', emails: [guest.email, invitee.email] }), 204);
    expect(await spaceGrant(w.space.id, guest.userId)).toEqual({ role: 'comment' });
    expect((await guest.rest('GET', `/v1/spaces/${w.space.id}`)).status).toBe(200);
    const pending = await pendingInvites(w.o, invitee.userId);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ role: 'review', grants: [{ spaceId: w.space.id, role: 'comment' }] });

    // Invited again at another level: the promise takes the newest level, still one invitation.
    expectOk(await w.admin.rest('POST', `/v1/spaces/${w.space.id}/permissions`, { role: 'edit', emails: [invitee.email] }), 204);
    expect((await pendingInvites(w.o, invitee.userId))[0].grants).toMatchObject([{ spaceId: w.space.id, role: 'edit' }]);

    await join(invitee, w.o);
    expect(await h.db.member.findUnique({ where: { organizationId_userId: { organizationId: w.o, userId: invitee.userId } }, select: { role: true } })).toEqual({ role: 'review' });
    expect(await spaceGrant(w.space.id, invitee.userId)).toEqual({ role: 'edit' });
  });

  it('an unknown address gets a pending account; users and e-mails go together in one call', async () => {
    const w = await setup();
    const member = await buildMember(h, w.o, 'read', 'Plain Reader');
    expectOk(await w.admin.rest('POST', `/v1/spaces/${w.space.id}/permissions`, { role: 'read', users: [member.userId], emails: ['brand.new@example.com'] }), 204);
    expect(await spaceGrant(w.space.id, member.userId)).toEqual({ role: 'read' });
    const pendingUser = await h.db.user.findUniqueOrThrow({ where: { email: 'brand.new@example.com' } });
    expect(pendingUser.pending).toBe(true);
    expect((await pendingInvites(w.o, pendingUser.id))[0]).toMatchObject({ role: null, grants: [{ spaceId: w.space.id, role: 'read' }] });
  });

  it('refuses bad addresses, too many, and addresses that cannot use the organization’s SSO — writing nothing', async () => {
    const w = await setup();
    for (const door of DOORS) {
      const send = (body: Record<string, unknown>) => throughDoor(door, w.admin, ['POST', `/v1/spaces/${w.space.id}/permissions`, body], ['inviteToSpace', inviteGql, { s: w.space.id, ...body }]);
      expectFailure(await send({ role: 'read', emails: ['not-an-address'] }), 400, 'emails');
      expectFailure(await send({ role: 'read', emails: [] }), 400);
      expectFailure(await send({ role: 'read', emails: Array.from({ length: 101 }, (_, i) => `p${i}@example.com`) }), 400, 'emails');
      expectFailure(await send({ role: 'read', emails: ['x'.repeat(100_000)] }), 400, 'emails');
    }
    await w.admin.rest('PATCH', `/v1/orgs/${w.o}`, { emailDomains: ['corp.example'] });
    await h.db.samlProvider.create({ data: { id: newId(), organizationId: w.o, label: 'IdP' } });
    await w.admin.rest('PATCH', `/v1/orgs/${w.o}`, { sso: true });
    restError(await w.admin.rest('POST', `/v1/spaces/${w.space.id}/permissions`, { role: 'read', emails: ['ann@corp.example', 'bob@elsewhere.example'] }), 400, 'bob@elsewhere.example');
    expect(await h.db.invite.count({ where: { organizationId: w.o } })).toBe(0);
    expect(await h.db.inviteGrant.count({ where: { invite: { organizationId: w.o } } })).toBe(0);
    // An address on the organization's domain is invited (as an SSO guest).
    expectOk(await w.admin.rest('POST', `/v1/spaces/${w.space.id}/permissions`, { role: 'read', emails: ['ann@corp.example'] }), 204);
    const ann = await h.db.user.findUniqueOrThrow({ where: { email: 'ann@corp.example' } });
    expect((await pendingInvites(w.o, ann.id))[0]).toMatchObject({ role: null, sso: true });
  });

  it('only the space’s admins invite, by e-mail as by ID', async () => {
    const w = await setup();
    const editor = await buildMember(h, w.o, 'edit', 'Editor');
    restError(await editor.rest('POST', `/v1/spaces/${w.space.id}/permissions`, { role: 'read', emails: ['someone@example.com'] }), 403);
    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    restError(await outsider.rest('POST', `/v1/spaces/${w.space.id}/permissions`, { role: 'read', emails: ['someone@example.com'] }), 404);
    expect(await h.db.user.count({ where: { email: 'someone@example.com' } })).toBe(0);
  });

  it('collections and sites take e-mails the same way: on joining, the guest reads what is inside the collection, and the site', async () => {
    const w = await setup();
    const collection = await buildCollection(w.admin, w.o, { title: 'Shared shelf' });
    const inside = await buildSpace(w.admin, w.o, { title: 'On the shelf', parent: collection.id });
    const site = expectOk(await w.admin.rest('POST', `/v1/orgs/${w.o}/sites`, { title: 'Partner docs' }), 201);
    const person = await buildUser(h, 'Partner');
    expectOk(await w.admin.rest('POST', `/v1/collections/${collection.id}/permissions`, { role: 'read', emails: [person.email] }), 204);
    expectOk(await w.admin.rest('POST', `/v1/orgs/${w.o}/sites/${site.id}/permissions`, { role: 'read', emails: [person.email] }), 204);
    const [pending] = await pendingInvites(w.o, person.userId);
    expect(pending.grants.map((g) => ({ collectionId: g.collectionId, siteId: g.siteId, role: g.role })).sort((a, b) => (a.siteId ?? '').localeCompare(b.siteId ?? ''))).toEqual([
      { collectionId: collection.id, siteId: null, role: 'read' },
      { collectionId: null, siteId: site.id, role: 'read' },
    ]);
    expect((await person.rest('GET', `/v1/spaces/${inside.id}`)).status).toBe(404);

    await join(person, w.o);
    expect((await person.rest('GET', `/v1/spaces/${inside.id}`)).status).toBe(200);
    expect((await person.rest('GET', `/v1/orgs/${w.o}/sites/${site.id}`)).status).toBe(200);
    expect((await person.rest('GET', `/v1/spaces/${w.space.id}`)).status).toBe(404);
    expect(expectOk(await person.rest('GET', `/v1/orgs/${w.o}/spaces`)).items.map((x: { id: string }) => x.id)).toEqual([inside.id]);
  });
});
