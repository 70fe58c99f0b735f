import type { Prisma, Role } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { viewerMayActIn, viewerOf } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, type ListArgs } from '../../core/pagination.ts';
import { rejectNull } from '../../core/validate.ts';
import { organizationForMember } from '../organizations/index.ts';
import { invitationPolicy, joinPolicy } from './invite.policy.ts';
import { usersForEmails } from '../users/index.ts';
import { grantPromisedLevels } from './content-invites.ts';
import { canUseSso, normalizeEmails } from './invite-emails.ts';

export { MAX_EMAILS_PER_CALL } from './invite-emails.ts';

export interface InvitationResult {
  users: string[];
  invited: number;
  failedSSOEmails: string[];
}

/** The organization, once the caller may `send` invitations or `manageLinks` there. */
async function organizationForInviter(ctx: Context, organizationId: string, action: 'send' | 'manageLinks') {
  const access = await organizationForMember(ctx, organizationId);
  authorize(invitationPolicy, access.actor, action, access.organization);
  return access;
}

/**
 * Invites people by e-mail, in one transaction. Unknown addresses get a pending user record; existing
 * members are left as they are and not counted; addresses that must use SSO (organization-wide, or
 * `sso: true`) but cannot are reported in `failedSSOEmails`.
 */
export async function inviteByEmail(
  ctx: Context,
  organizationId: string,
  input: { emails: string[]; role?: Role | null; sso?: boolean | null },
): Promise<InvitationResult> {
  const viewer = viewerOf(ctx);
  const { organization } = await organizationForInviter(ctx, organizationId, 'send');
  rejectNull('role', input.role);
  rejectNull('sso', input.sso);
  const emails = normalizeEmails(input.emails);
  const role = input.role === undefined ? organization.defaultRole : input.role;
  const ssoRequired = organization.sso || input.sso === true;
  const now = ctx.clock.now();
  return ctx.db.$transaction(async (tx) => {
    const hasSamlProvider = (await tx.samlProvider.count({ where: { organizationId } })) > 0;
    const failedSSOEmails = ssoRequired ? emails.filter((e) => !canUseSso(organization, hasSamlProvider, e)) : [];
    const failed = new Set(failedSSOEmails);
    const users = await usersForEmails(tx, emails.filter((e) => !failed.has(e)), now);
    const members = new Set(
      (await tx.member.findMany({ where: { organizationId, userId: { in: users.map((u) => u.id) } }, select: { userId: true } })).map(
        (m) => m.userId,
      ),
    );
    const invitees = users.filter((u) => !members.has(u.id));
    // One pending invitation per person (a partial unique index): someone invited before and since gone
    // gets a fresh one; an accepted invitation stays as it was.
    const created = await tx.invite.createMany({
      data: invitees.map((u) => ({ id: newId(), organizationId, userId: u.id, role, sso: ssoRequired, invitedById: viewer.user.id, createdAt: now })),
      skipDuplicates: true,
    });
    // A pending invitation sent again takes the newest role and SSO requirement.
    await tx.invite.updateMany({
      where: { organizationId, userId: { in: invitees.map((u) => u.id) }, acceptedAt: null },
      data: { role, sso: ssoRequired },
    });
    return { users: invitees.map((u) => u.id), invited: created.count, failedSSOEmails };
  });
}

/**
 * Joins an organization through an invitation ID: an e-mail invite addressed to the caller, or an invite
 * link (while invite links are enabled). Joining twice is harmless: an existing member is unchanged.
 */
export async function joinOrganization(ctx: Context, organizationId: string, inviteId: string): Promise<Record<string, never>> {
  const viewer = viewerOf(ctx);
  const [invite, link, organization] = await Promise.all([
    ctx.db.invite.findFirst({ where: { id: inviteId, organizationId } }),
    ctx.db.linkInvite.findFirst({ where: { id: inviteId, organizationId } }),
    ctx.loaders.organization.load(organizationId),
  ]);
  // A scoped token is an outsider to every other organization: it cannot join one either.
  authorize(joinPolicy, { userId: viewer.user.id, mayActIn: viewerMayActIn(viewer, organizationId) }, 'join', { inviteId, organization, invite, link });
  // An SSO invitation accepted with the invitee's own token is how an existing account proves that it
  // wants to join: SAML sign-in never links an account of other organizations on its own (see
  // saml-sign-in.service.ts). The member is not an SSO member until they sign in through the provider,
  // so an organization that enforces SSO stays closed to them until then.
  const role: Role | null = invite ? invite.role : link!.role;
  const now = ctx.clock.now();
  await ctx.db.$transaction(async (tx) => {
    await tx.member.createMany({
      data: [{ organizationId, userId: viewer.user.id, role, joinedAt: now }],
      skipDuplicates: true,
    });
    // updateMany: a concurrent join with the same invite may have accepted it already; the first time counts.
    if (invite) {
      const { count } = await tx.invite.updateMany({ where: { id: invite.id, acceptedAt: null }, data: { acceptedAt: now } });
      // Levels on spaces, collections or sites the invitation was sent with become the new member's grants.
      if (count) await grantPromisedLevels(tx, invite.id, organizationId, viewer.user.id, now);
    }
  });
  return {};
}

/** Pending e-mail invitations of the caller, newest first (where an invited user finds invitation IDs). */
export async function listViewerInvitations(ctx: Context, args: ListArgs) {
  const viewer = viewerOf(ctx);
  return paginate({
    args,
    keys: [
      { field: 'createdAt', direction: 'desc', type: 'date' },
      { field: 'id', direction: 'desc' },
    ],
    where: {
      userId: viewer.user.id,
      acceptedAt: null,
      ...(viewer.scopeOrganizationId ? { organizationId: viewer.scopeOrganizationId } : {}),
    },
    findMany: (q) => ctx.db.invite.findMany({ ...(q as Prisma.InviteFindManyArgs), include: { organization: true } }),
    count: (q) => ctx.db.invite.count(q as Prisma.InviteCountArgs),
  });
}

// ---- Invite links ----

export async function listLinkInvites(ctx: Context, organizationId: string, args: ListArgs) {
  await organizationForInviter(ctx, organizationId, 'manageLinks');
  return paginate({
    args,
    keys: [
      { field: 'createdAt', direction: 'asc', type: 'date' },
      { field: 'id', direction: 'asc' },
    ],
    where: { organizationId },
    model: ctx.db.linkInvite,
  });
}

async function findLinkInvite(ctx: Context, organizationId: string, inviteId: string) {
  const link = await ctx.db.linkInvite.findFirst({ where: { id: inviteId, organizationId } });
  if (!link) throw new NotFoundError(`Invite "${inviteId}" not found`);
  return link;
}

export async function createLinkInvite(ctx: Context, organizationId: string, role: Role) {
  const viewer = viewerOf(ctx);
  await organizationForInviter(ctx, organizationId, 'manageLinks');
  rejectNull('role', role);
  return ctx.db.linkInvite.create({
    data: { id: newId(), organizationId, role, createdById: viewer.user.id, createdAt: ctx.clock.now() },
  });
}

export async function getLinkInvite(ctx: Context, organizationId: string, inviteId: string) {
  await organizationForInviter(ctx, organizationId, 'manageLinks');
  return findLinkInvite(ctx, organizationId, inviteId);
}

export async function updateLinkInvite(ctx: Context, organizationId: string, inviteId: string, role: Role | null | undefined) {
  await organizationForInviter(ctx, organizationId, 'manageLinks');
  rejectNull('role', role);
  const link = await findLinkInvite(ctx, organizationId, inviteId);
  if (role === undefined) return link;
  return ctx.db.linkInvite.update({ where: { id: link.id }, data: { role } });
}

export async function deleteLinkInvite(ctx: Context, organizationId: string, inviteId: string): Promise<boolean> {
  await organizationForInviter(ctx, organizationId, 'manageLinks');
  // deleteMany: of two concurrent deletes, the second finds nothing (404) instead of failing.
  const { count } = await ctx.db.linkInvite.deleteMany({ where: { id: inviteId, organizationId } });
  if (count === 0) throw new NotFoundError(`Invite "${inviteId}" not found`);
  return true;
}
