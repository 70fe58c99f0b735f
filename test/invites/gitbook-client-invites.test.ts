import { MemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { expectApiError, useClientServer } from '../support/client-server.ts';

const s = useClientServer();

describe('official GitBookAPI client: invites and invite links', () => {
  it('drives the invite-link operations and joining', async () => {
    const admin = await s.newUser('Admin');
    const org = (await admin.api.orgs.createOrganization({ title: 'Invite Co' })).data;

    const created = await admin.api.orgs.createOrganizationInvite(org.id, { role: MemberRole.Edit });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ object: 'invite', role: 'edit' });
    const inviteId = (created.data as { id: string }).id;

    const list = (await admin.api.orgs.listOrganizationInviteLinks(org.id)).data;
    expect(list.count).toBe(1);
    expect(list.items.map((i) => i.id)).toEqual([inviteId]);
    expect((await admin.api.orgs.getOrganizationInviteLink(org.id, inviteId)).data).toMatchObject({ id: inviteId, role: 'edit' });
    const updated = await admin.api.orgs.updateOrganizationInviteById(org.id, inviteId, { role: MemberRole.Comment });
    expect(updated.data).toMatchObject({ role: 'comment' });

    const joiner = await s.newUser('Joiner');
    const joined = await joiner.api.orgs.joinOrganizationWithInvite(org.id, inviteId);
    expect(joined.data).toEqual({});
    const member = (await admin.api.orgs.getMemberInOrganizationById(org.id, joiner.id)).data;
    expect(member.role).toBe('comment');

    await admin.api.orgs.deleteOrganizationInviteById(org.id, inviteId);
    await expectApiError(admin.api.orgs.getOrganizationInviteLink(org.id, inviteId), 404);
    const late = await s.newUser('Late');
    await expectApiError(late.api.orgs.joinOrganizationWithInvite(org.id, inviteId), 404);
    await expectApiError(joiner.api.orgs.createOrganizationInvite(org.id, { role: MemberRole.Admin }), 403);
  });

  it('drives e-mail invitations', async () => {
    const admin = await s.newUser('Admin');
    const org = (await admin.api.orgs.createOrganization({ title: 'Mail Co' })).data;
    const invitee = await s.newUser('Invitee');
    const result = (await admin.api.orgs.inviteUsersToOrganization(org.id, { emails: [invitee.email], role: MemberRole.Review })).data;
    expect(result).toMatchObject({ users: [invitee.id], invited: 1 });
    const invitation = await s.store.database.prisma.invite.findFirstOrThrow({ where: { organizationId: org.id, userId: invitee.id } });
    expect((await invitee.api.orgs.joinOrganizationWithInvite(org.id, invitation.id)).data).toEqual({});
    expect((await admin.api.orgs.getMemberInOrganizationById(org.id, invitee.id)).data.role).toBe('review');
    await expectApiError(admin.api.orgs.inviteUsersToOrganization(org.id, { emails: ['not-an-email'] }), 400);
  });
});
