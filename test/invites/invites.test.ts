import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import type { Role } from '../../src/generated/prisma/client.ts';
import { expectOk, gqlData, gqlError, masked, restError } from '../support/assertions.ts';
import { buildInvite, buildLinkInvite, buildMember, buildOrganization, buildUser } from '../factories.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { ADMIN_TOKEN, anonymous, callerFor, useHarness } from '../support/harness.ts';

const h = useHarness();

const invitesPath = (o: string) => `/v1/orgs/${o}/invites`;
const linksPath = (o: string) => `/v1/orgs/${o}/link-invites`;

async function memberRole(o: string, userId: string) {
  return (await h.db.member.findUnique({ where: { organizationId_userId: { organizationId: o, userId } } }))?.role;
}

const UNKNOWN_ORG = 'unknownOrg0000000001';
const UNKNOWN_INVITE = 'unknownInvite0000001';

/** o: the organization, i: one of its invite links, e: an address nobody has invited yet. */
type Ids = { o: string; i: string; e: string };
/** Every role short of admin, and a guest: e-mail invitations and invite links are for admins. */
const NOT_ADMIN = 'members who are not admins (guests included)';
const NON_ADMIN_ROLES: (Role | null)[] = ['read', 'comment', 'edit', 'review', 'create', null];
const linkQ = (field: string, selection = '', extra = '') =>
  `${field.startsWith('m:') ? 'mutation' : 'query'}($o:String!,$i:String!){${field.replace('m:', '')}(organizationId:$o,inviteId:$i${extra})${selection}}`;

/** Every organization-scoped operation of this file, through both doors, for the cross-cutting refusals. */
const OPS: RefusalOp<Ids>[] = [
  {
    name: 'invite by e-mail', refuse: NOT_ADMIN,
    rest: ({ o, e }) => ['POST', invitesPath(o), { emails: [e], role: 'admin' }],
    gql: ({ o, e }) => ['mutation($o:String!,$e:[String!]!){inviteUsersToOrganization(organizationId:$o,emails:$e,role:admin){invited}}', { o, e: [e] }],
  },
  {
    name: 'list invite links', refuse: NOT_ADMIN,
    rest: ({ o }) => ['GET', linksPath(o)],
    gql: ({ o }) => ['query($o:String!){organizationLinkInvites(organizationId:$o){count}}', { o }],
  },
  {
    name: 'create invite link', refuse: NOT_ADMIN,
    rest: ({ o }) => ['POST', linksPath(o), { role: 'admin' }],
    gql: ({ o }) => ['mutation($o:String!){createOrganizationLinkInvite(organizationId:$o,role:admin){id}}', { o }],
  },
  {
    name: 'get invite link', refuse: NOT_ADMIN,
    rest: ({ o, i }) => ['GET', `${linksPath(o)}/${i}`],
    gql: ({ o, i }) => [linkQ('organizationLinkInvite', '{id}'), { o, i }],
  },
  {
    name: 'update invite link', refuse: NOT_ADMIN,
    rest: ({ o, i }) => ['PATCH', `${linksPath(o)}/${i}`, { role: 'admin' }],
    gql: ({ o, i }) => [linkQ('m:updateOrganizationLinkInvite', '{id}', ',role:admin'), { o, i }],
  },
  {
    name: 'delete invite link', refuse: NOT_ADMIN,
    rest: ({ o, i }) => ['DELETE', `${linksPath(o)}/${i}`],
    gql: ({ o, i }) => [linkQ('m:deleteOrganizationLinkInvite'), { o, i }],
  },
];

/** The organization's e-mail invitations and invite links, as rows. */
const inviteRows = async (o: string) => ({
  invites: await h.db.invite.findMany({ where: { organizationId: o }, orderBy: { id: 'asc' } }),
  links: await h.db.linkInvite.findMany({ where: { organizationId: o }, orderBy: { id: 'asc' } }),
});

let fresh = 0;
refusalMatrix(OPS, {
  h,
  // An organization with one invite link ('edit') and one pending e-mail invitation ('comment').
  setup: async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Inviting');
    const link = await buildLinkInvite(admin, o, 'edit');
    await buildInvite(admin, o, { emails: [`pending.${Date.now()}.${++fresh}@example.com`], role: 'comment' });
    const rows = await inviteRows(o);
    expect(rows.invites).toHaveLength(1);
    expect(rows.links).toEqual([expect.objectContaining({ id: link.id, role: 'edit' })]);
    return { admin, o, link, rows, email: `nobody.yet.${Date.now()}.${++fresh}@example.com` };
  },
  ids: (w) => ({ o: w.o, i: w.link.id, e: w.email }),
  unknown: { o: UNKNOWN_ORG, i: UNKNOWN_INVITE },
  forbidden: async (w) => ({ callers: await Promise.all(NON_ADMIN_ROLES.map((role) => buildMember(h, w.o, role))) }),
  unchanged: async (w, { e }) => {
    expect(await inviteRows(w.o)).toEqual(w.rows);
    // Nobody was invited: the address did not become a pending user.
    expect(await h.db.user.findUnique({ where: { email: e } })).toBeNull();
  },
});

describe.each(OPS.filter((op) => op.rest({ o: 'o', i: 'i', e: 'e' })[1].endsWith('/link-invites/i')))('$name: invite links of other organizations', (op) => {
  it("a link of another organization, asked for through the admin's own organization, is an unknown link", async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const other = await buildOrganization(h, 'Other');
    const foreign = await buildLinkInvite(other.admin, other.organizationId, 'edit');
    for (const call of [(i: string) => admin.rest(...op.rest({ o, i, e: '' })), (i: string) => admin.gql(...op.gql({ o, i, e: '' }))]) {
      const res = await call(foreign.id);
      expect(res.text).toMatch(/404|NOT_FOUND/);
      expect(masked(res, [foreign.id])).toEqual(masked(await call(UNKNOWN_INVITE), [UNKNOWN_INVITE]));
    }
    expect(await h.db.linkInvite.findMany({ where: { organizationId: other.organizationId } })).toEqual([
      expect.objectContaining({ id: foreign.id, role: 'edit' }),
    ]);
  });
});

describe('POST /orgs/{o}/invites (e-mail invites)', () => {
  it('invites known and unknown addresses, de-duplicated, with the default role; members are not re-invited', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const known = await buildUser(h, 'Known');
    const member = await buildMember(h, o, 'edit');
    const res = await admin.rest('POST', invitesPath(o), {
      emails: [known.email, known.email.toUpperCase(), 'Stranger@Example.org', member.email],
    });
    expectOk(res, 200, 'inviteUsersToOrganization');
    expect(res.body.invited).toBe(2);
    expect(res.body.failedSSOEmails).toEqual([]);
    const pending = await h.db.user.findUnique({ where: { email: 'stranger@example.org' } });
    expect(pending?.pending).toBe(true);
    expect(res.body.users.sort()).toEqual([known.userId, pending!.id].sort());
    expect(await memberRole(o, member.userId)).toBe('edit');
    const invite = await h.db.invite.findFirst({ where: { organizationId: o, userId: known.userId } });
    expect(invite?.role).toBe('read'); // the organization's defaultRole

    // Inviting again is not a new invitation.
    const again = await admin.rest('POST', invitesPath(o), { emails: [known.email], role: 'comment' });
    expect(again.body).toMatchObject({ invited: 0, users: [known.userId] });
  });

  it('validates emails and role, naming the field', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    restError(await admin.rest('POST', invitesPath(o), {}), 400, 'emails');
    restError(await admin.rest('POST', invitesPath(o), { emails: [] }), 400, 'emails');
    restError(await admin.rest('POST', invitesPath(o), { emails: ['not-an-address'] }), 400, 'emails');
    restError(await admin.rest('POST', invitesPath(o), { emails: 'a@example.com' }), 400, 'emails');
    const many = Array.from({ length: 101 }, (_, i) => `p${i}@example.com`);
    restError(await admin.rest('POST', invitesPath(o), { emails: many }), 400, 'emails');
    expect((await admin.rest('POST', invitesPath(o), { emails: many.slice(0, 100) })).body.invited).toBe(100);
    restError(await admin.rest('POST', invitesPath(o), { emails: ['a@example.com'], role: 'owner' }), 400, 'role');
    restError(await admin.rest('POST', invitesPath(o), { emails: ['a@example.com'], role: null }), 400, 'role');
    restError(await admin.rest('POST', invitesPath(o), { emails: ['a@example.com'], sso: 'yes' }), 400, 'sso');
  });

  it('reports addresses that must use SSO but cannot', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    await admin.rest('PATCH', `/v1/orgs/${o}`, { emailDomains: ['corp.example'] });
    const emails = ['ann@corp.example', 'bob@elsewhere.example'];
    // sso: true but no SAML provider: nobody can use SSO.
    const noProvider = await admin.rest('POST', invitesPath(o), { emails, sso: true });
    expect(noProvider.body).toMatchObject({ invited: 0, users: [], failedSSOEmails: emails });
    await h.db.samlProvider.create({ data: { id: newId(), organizationId: o, label: 'IdP' } });
    const withProvider = await admin.rest('POST', invitesPath(o), { emails, sso: true });
    expect(withProvider.body).toMatchObject({ invited: 1, failedSSOEmails: ['bob@elsewhere.example'] });
    // Organization-wide SSO applies without sso: true.
    await admin.rest('PATCH', `/v1/orgs/${o}`, { sso: true });
    const enforced = await admin.rest('POST', invitesPath(o), { emails: ['carl@elsewhere.example', 'dan@corp.example'] });
    expect(enforced.body).toMatchObject({ invited: 1, failedSSOEmails: ['carl@elsewhere.example'] });
  });

  it('works through GraphQL, naming the invalid field', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const q = `mutation($o: String!, $e: [String!]!) { inviteUsersToOrganization(organizationId: $o, emails: $e, role: edit) { users invited failedSSOEmails } }`;
    const ok = gqlData(await admin.gql(q, { o, e: ['gql-invitee@example.com'] }), 'inviteUsersToOrganization');
    expect(ok.invited).toBe(1);
    gqlError(await admin.gql(q, { o, e: ['nope'] }), 'BAD_REQUEST', 'emails');
  });
});

describe('joining with an e-mail invitation', () => {
  it('the invited user sees the invitation and joins with the invited role (REST), once', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Joinable');
    const invitee = await buildUser(h, 'Invitee');
    await admin.rest('POST', invitesPath(o), { emails: [invitee.email], role: 'review' });
    const mine = await invitee.rest('GET', '/v1/user/invitations');
    expect(mine.status).toBe(200);
    expect(mine.body.count).toBe(1);
    expect(mine.body.items[0]).toMatchObject({ object: 'invitation', role: 'review', sso: false, organization: { id: o, title: 'Joinable' } });
    const inviteId = mine.body.items[0].id;

    // Someone else cannot use it, and it does not reveal anything.
    const other = await buildUser(h);
    expect(masked(await other.rest('POST', `${invitesPath(o)}/${inviteId}`), [inviteId])).toEqual(
      masked(await other.rest('POST', `${invitesPath(o)}/unknownInvite0000001`), ['unknownInvite0000001']),
    );

    const joined = await invitee.rest('POST', `${invitesPath(o)}/${inviteId}`);
    expect(expectOk(joined, 200, 'joinOrganizationWithInvite')).toEqual({});
    expect(await memberRole(o, invitee.userId)).toBe('review');
    expect((await invitee.rest('GET', `/v1/orgs/${o}`)).status).toBe(200);
    expect((await invitee.rest('GET', '/v1/user/invitations')).body.count).toBe(0);
    // Joining twice is harmless, and an admin changing the role meanwhile is kept.
    await admin.rest('PATCH', `/v1/orgs/${o}/members/${invitee.userId}`, { role: 'edit' });
    expect((await invitee.rest('POST', `${invitesPath(o)}/${inviteId}`)).body).toEqual({});
    expect(await memberRole(o, invitee.userId)).toBe('edit');
  });

  it('someone who joined and left is invited afresh, with the new role (REST)', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Rejoin');
    const person = await buildUser(h, 'Returning');
    await admin.rest('POST', invitesPath(o), { emails: [person.email], role: 'read' });
    const [first] = (await person.rest('GET', '/v1/user/invitations')).body.items;
    expect((await person.rest('POST', `${invitesPath(o)}/${first.id}`)).status).toBe(200);
    expect((await person.rest('DELETE', `/v1/orgs/${o}/members/${person.userId}`)).status).toBe(204);

    h.clock.advance(1000);
    const again = await admin.rest('POST', invitesPath(o), { emails: [person.email], role: 'edit' });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({ users: [person.userId], invited: 1, failedSSOEmails: [] });
    const pending = await person.rest('GET', '/v1/user/invitations');
    expect(pending.body.count).toBe(1);
    expect(pending.body.items[0]).toMatchObject({ role: 'edit', organization: { id: o } });
    expect(pending.body.items[0].id).not.toBe(first.id);
    expect((await person.rest('POST', `${invitesPath(o)}/${pending.body.items[0].id}`)).status).toBe(200);
    expect(await memberRole(o, person.userId)).toBe('edit');
    expect((await person.rest('GET', '/v1/user/invitations')).body.count).toBe(0);
    // Sending the pending invitation again still counts nothing new; members are still not invited.
    expect((await admin.rest('POST', invitesPath(o), { emails: [person.email] })).body).toMatchObject({ invited: 0, users: [] });
  });

  it('someone who joined and left is invited afresh, with the new role (GraphQL)', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Rejoin GraphQL');
    const person = await buildUser(h, 'Returning Graph');
    const invite = `mutation($o: String!, $e: [String!]!, $r: Role) { inviteUsersToOrganization(organizationId: $o, emails: $e, role: $r) { users invited failedSSOEmails } }`;
    const invitations = `{ userInvitations { count items { id role organization { id } } } }`;
    const join = `mutation($o: String!, $i: String!) { joinOrganization(organizationId: $o, inviteId: $i) }`;
    expect(gqlData(await admin.gql(invite, { o, e: [person.email], r: 'read' }), 'inviteUsersToOrganization').invited).toBe(1);
    const first = gqlData(await person.gql(invitations), 'userInvitations').items[0];
    gqlData(await person.gql(join, { o, i: first.id }), 'joinOrganization');
    gqlData(await person.gql(`mutation($o: String!, $u: String!) { removeOrganizationMember(organizationId: $o, userId: $u) }`, { o, u: person.userId }), 'removeOrganizationMember');

    const again = gqlData(await admin.gql(invite, { o, e: [person.email], r: 'edit' }), 'inviteUsersToOrganization');
    expect(again).toEqual({ users: [person.userId], invited: 1, failedSSOEmails: [] });
    const list = gqlData(await person.gql(invitations), 'userInvitations');
    expect(list.count).toBe(1);
    expect(list.items[0]).toMatchObject({ role: 'edit', organization: { id: o } });
    gqlData(await person.gql(join, { o, i: list.items[0].id }), 'joinOrganization');
    expect(await memberRole(o, person.userId)).toBe('edit');
  });

  it('a pending user created later claims the invitation, and joins through GraphQL', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    await admin.rest('POST', invitesPath(o), { emails: ['later.person@example.com'], role: 'comment' });
    const created = await callerFor(h, ADMIN_TOKEN).rest('POST', '/v1/admin/users', { email: 'later.person@example.com', displayName: 'Later' });
    expect(created.status).toBe(201);
    const later = callerFor(h, created.body.token, created.body.user.id);
    const list = gqlData(await later.gql('{ userInvitations { count items { id role organization { id } } } }'), 'userInvitations');
    expect(list.count).toBe(1);
    const join = await later.gql(`mutation($o: String!, $i: String!) { joinOrganization(organizationId: $o, inviteId: $i) }`, {
      o,
      i: list.items[0].id,
    });
    expect(gqlData(join, 'joinOrganization')).toEqual({});
    expect(await memberRole(o, later.userId)).toBe('comment');
    restError(await anonymous(h).rest('POST', `${invitesPath(o)}/${list.items[0].id}`), 401);
  });

  it('an SSO invitation accepted with the invitee\'s own token makes a non-SSO member, kept out while SSO is enforced', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const invitee = await buildUser(h);
    await admin.rest('PATCH', `/v1/orgs/${o}`, { emailDomains: [invitee.email.split('@')[1]], sso: true });
    await h.db.samlProvider.create({ data: { id: newId(), organizationId: o, label: 'IdP' } });
    await admin.rest('POST', invitesPath(o), { emails: [invitee.email] });
    const [invitation] = (await invitee.rest('GET', '/v1/user/invitations')).body.items;
    expect(invitation.sso).toBe(true);
    expect((await invitee.rest('POST', `${invitesPath(o)}/${invitation.id}`)).status).toBe(200);
    expect(await memberRole(o, invitee.userId)).toBe('read');
    expect((await h.db.member.findFirst({ where: { organizationId: o, userId: invitee.userId } }))?.sso).toBe(false);
    // Until they sign in through the organization's identity provider, SSO enforcement keeps them out.
    restError(await invitee.rest('GET', `/v1/orgs/${o}`), 403);
  });
});

describe('invite links', () => {
  it('create, list, get, update and delete (REST), admins only', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const created = await admin.rest('POST', linksPath(o), { role: 'edit' });
    expect(expectOk(created, 201, 'createOrganizationInvite')).toEqual({ object: 'invite', id: expect.any(String), role: 'edit' });
    const id = created.body.id;
    const list = await admin.rest('GET', linksPath(o));
    expect(expectOk(list, 200, 'listOrganizationInviteLinks')).toMatchObject({ count: 1, items: [{ id, role: 'edit' }] });
    expect((await admin.rest('GET', `${linksPath(o)}/${id}`)).body).toEqual(created.body);
    const patched = await admin.rest('PATCH', `${linksPath(o)}/${id}`, { role: 'read' });
    expect(patched.body.role).toBe('read');
    const deleted = await admin.rest('DELETE', `${linksPath(o)}/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    restError(await admin.rest('GET', `${linksPath(o)}/${id}`), 404);
    restError(await admin.rest('DELETE', `${linksPath(o)}/${id}`), 404);
  });

  it('validates role and limit, naming the field', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    restError(await admin.rest('POST', linksPath(o), {}), 400, 'role');
    restError(await admin.rest('POST', linksPath(o), { role: 'owner' }), 400, 'role');
    restError(await admin.rest('POST', linksPath(o), { role: null }), 400, 'role');
    const id = (await admin.rest('POST', linksPath(o), { role: 'read' })).body.id;
    restError(await admin.rest('PATCH', `${linksPath(o)}/${id}`, { role: 'superuser' }), 400, 'role');
    restError(await admin.rest('PATCH', `${linksPath(o)}/${id}`, { role: null }), 400, 'role');
    restError(await admin.rest('GET', `${linksPath(o)}?limit=1001`), 400, 'limit');
  });

  it('works through GraphQL: create, list, get, update and delete; an invalid role is refused', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const created = gqlData(await admin.gql(`mutation($o: String!) { createOrganizationLinkInvite(organizationId: $o, role: comment) { id role } }`, { o }), 'createOrganizationLinkInvite');
    expect(created.role).toBe('comment');
    const listed = gqlData(await admin.gql(`query($o: String!) { organizationLinkInvites(organizationId: $o) { count items { id } } }`, { o }), 'organizationLinkInvites');
    expect(listed).toEqual({ count: 1, items: [{ id: created.id }] });
    const got = gqlData(await admin.gql(`query($o: String!, $i: String!) { organizationLinkInvite(organizationId: $o, inviteId: $i) { role } }`, { o, i: created.id }), 'organizationLinkInvite');
    expect(got.role).toBe('comment');
    const updated = gqlData(await admin.gql(`mutation($o: String!, $i: String!) { updateOrganizationLinkInvite(organizationId: $o, inviteId: $i, role: admin) { role } }`, { o, i: created.id }), 'updateOrganizationLinkInvite');
    expect(updated.role).toBe('admin');
    gqlError(await admin.gql(`mutation($o: String!) { createOrganizationLinkInvite(organizationId: $o, role: owner) { id } }`, { o }), 'BAD_REQUEST');
    expect(gqlData(await admin.gql(`mutation($o: String!, $i: String!) { deleteOrganizationLinkInvite(organizationId: $o, inviteId: $i) }`, { o, i: created.id }), 'deleteOrganizationLinkInvite')).toBe(true);
  });

  it('anyone holding the link joins with its role, while links are enabled and the link exists', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const link = (await admin.rest('POST', linksPath(o), { role: 'comment' })).body;
    const joiner = await buildUser(h);
    const joined = await joiner.rest('POST', `${invitesPath(o)}/${link.id}`);
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual({});
    expect(await memberRole(o, joiner.userId)).toBe('comment');
    expect((await joiner.rest('POST', `${invitesPath(o)}/${link.id}`)).status).toBe(200); // twice: harmless
    expect(await h.db.member.count({ where: { organizationId: o, userId: joiner.userId } })).toBe(1);

    await admin.rest('PATCH', `/v1/orgs/${o}`, { inviteLinks: false });
    const late = await buildUser(h);
    restError(await late.rest('POST', `${invitesPath(o)}/${link.id}`), 403);
    expect(await memberRole(o, late.userId)).toBeUndefined();
    await admin.rest('PATCH', `/v1/orgs/${o}`, { inviteLinks: true });
    await admin.rest('DELETE', `${linksPath(o)}/${link.id}`);
    restError(await late.rest('POST', `${invitesPath(o)}/${link.id}`), 404);
    // A link of another organization does not open this one.
    const other = await buildOrganization(h);
    const otherLink = (await other.admin.rest('POST', linksPath(other.organizationId), { role: 'admin' })).body;
    restError(await late.rest('POST', `${invitesPath(o)}/${otherLink.id}`), 404);
  });
});

describe('organization-wide SSO enforcement', () => {
  it('blocks members who are not SSO members, except admins', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const reader = await buildMember(h, o, 'read');
    const ssoReader = await buildMember(h, o, 'read');
    await admin.rest('POST', `/v1/orgs/${o}/members/${ssoReader.userId}/sso`);
    const space = (await admin.rest('POST', `/v1/orgs/${o}/spaces`, { title: 'Docs' })).body;
    await admin.rest('PATCH', `/v1/orgs/${o}`, { sso: true });

    restError(await reader.rest('GET', `/v1/orgs/${o}`), 403);
    restError(await reader.rest('GET', `/v1/orgs/${o}/members`), 403);
    restError(await reader.rest('GET', `/v1/spaces/${space.id}`), 403);
    gqlError(await reader.gql(`query($o: String!) { organization(organizationId: $o) { id } }`, { o }), 'FORBIDDEN');
    expect((await ssoReader.rest('GET', `/v1/orgs/${o}`)).status).toBe(200);
    expect((await ssoReader.rest('GET', `/v1/spaces/${space.id}`)).status).toBe(200);
    expect((await admin.rest('GET', `/v1/orgs/${o}/members`)).status).toBe(200);
    // Turning enforcement off lifts the block.
    await admin.rest('PATCH', `/v1/orgs/${o}`, { sso: false });
    expect((await reader.rest('GET', `/v1/orgs/${o}`)).status).toBe(200);
  });
});
