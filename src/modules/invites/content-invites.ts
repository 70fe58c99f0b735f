import { Prisma, type Organization, type Role } from '../../generated/prisma/client.ts';
import { BadRequestError } from '../../core/errors.ts';
import { newId } from '../../lib/ids.ts';
import { usersForEmails } from '../users/index.ts';
import { canUseSso, normalizeEmails } from './invite-emails.ts';

type Tx = Prisma.TransactionClient;

/** What an e-mail invitation to content gives a level on: one space, collection or site. */
export type GrantTarget = { spaceId: string } | { collectionId: string } | { siteId: string };

/**
 * The grant table of each kind of target, and its key column. Written as SQL (not Prisma's delegates)
 * so one statement inserts many rows with ON CONFLICT, as `inviteToSpace` does.
 */
const USER_GRANT_TABLES = {
  spaceId: Prisma.sql`"SpaceUserGrant"`,
  collectionId: Prisma.sql`"CollectionUserGrant"`,
  siteId: Prisma.sql`"SiteUserGrant"`,
} as const;

const keyOf = (target: GrantTarget) => Object.keys(target)[0] as keyof typeof USER_GRANT_TABLES;
const idOf = (target: GrantTarget) => Object.values(target)[0] as string;

export interface ContentInvitation {
  organization: Pick<Organization, 'id' | 'sso' | 'emailDomains'>;
  target: GrantTarget;
  role: Role;
  emails: string[];
  invitedById: string;
  now: Date;
}

/**
 * Shares a space, collection or site with people by e-mail (`inviteToSpace` … with `emails`), in the
 * caller's transaction:
 * - an address of someone who is already a member (guests included) gets the grant at once;
 * - anyone else is invited to the organization as a guest (a pending user record is made for an unknown
 *   address, as `inviteByEmail` does) and the level is promised to that invitation: it becomes their grant
 *   when they accept it (`joinOrganization`). A pending invitation they already had keeps its role (a
 *   member invitation is not turned into a guest one) and gains the promise.
 * Where the organization enforces SSO, an address that cannot sign in through its provider is refused
 * (400 naming it) and nothing is written.
 */
export async function inviteEmailsToContent(tx: Tx, invitation: ContentInvitation): Promise<void> {
  const { organization, target, role, invitedById, now } = invitation;
  const emails = normalizeEmails(invitation.emails);
  if (organization.sso) {
    const hasSamlProvider = (await tx.samlProvider.count({ where: { organizationId: organization.id } })) > 0;
    const refused = emails.find((e) => !canUseSso(organization, hasSamlProvider, e));
    if (refused) throw new BadRequestError(`Invalid "emails": "${refused}" cannot sign in through this organization's SSO`);
  }
  const users = await usersForEmails(tx, emails, now);
  const members = new Set(
    (await tx.member.findMany({ where: { organizationId: organization.id, userId: { in: users.map((u) => u.id) } }, select: { userId: true } })).map(
      (m) => m.userId,
    ),
  );
  const memberIds = users.filter((u) => members.has(u.id)).map((u) => u.id);
  const invitees = users.filter((u) => !members.has(u.id)).map((u) => u.id);
  if (memberIds.length) await grantToMembers(tx, organization.id, target, role, memberIds, now);
  if (!invitees.length) return;
  // One pending invitation per person (a partial unique index): an existing one is kept as it is.
  await tx.invite.createMany({
    data: invitees.map((userId) => ({ id: newId(), organizationId: organization.id, userId, role: null, sso: organization.sso, invitedById, createdAt: now })),
    skipDuplicates: true,
  });
  const pending = await tx.invite.findMany({ where: { organizationId: organization.id, userId: { in: invitees }, acceptedAt: null }, select: { id: true } });
  const key = keyOf(target);
  const conflictTarget = Prisma.raw(`("inviteId", "${key}") WHERE "${key}" IS NOT NULL`);
  await tx.$executeRaw`
    INSERT INTO "InviteGrant" ("id", "inviteId", ${Prisma.raw(`"${key}"`)}, "role", "createdAt")
    VALUES ${Prisma.join(pending.map((invite) => Prisma.sql`(${newId()}, ${invite.id}, ${idOf(target)}, ${role}::"Role", ${now})`))}
    ON CONFLICT ${conflictTarget} DO UPDATE SET "role" = EXCLUDED."role"`;
}

/** Grants `role` on the target to members of the organization (a grant they already had takes the new level). */
async function grantToMembers(tx: Tx, organizationId: string, target: GrantTarget, role: Role, userIds: string[], now: Date) {
  const key = keyOf(target);
  const column = Prisma.raw(`"${key}"`);
  await tx.$executeRaw`
    INSERT INTO ${USER_GRANT_TABLES[key]} (${column}, "organizationId", "userId", "role", "createdAt")
    VALUES ${Prisma.join(userIds.map((userId) => Prisma.sql`(${idOf(target)}, ${organizationId}, ${userId}, ${role}::"Role", ${now})`))}
    ON CONFLICT (${column}, "userId") DO UPDATE SET "role" = EXCLUDED."role"`;
}

/**
 * Turns the levels promised to an accepted invitation into grants of the new member, in the caller's
 * transaction (the member row exists already). A grant they hold already is left as it is: it was given
 * since, by someone who knew them as a member.
 */
export async function grantPromisedLevels(tx: Tx, inviteId: string, organizationId: string, userId: string, now: Date): Promise<void> {
  const promised = await tx.inviteGrant.findMany({ where: { inviteId } });
  for (const grant of promised) {
    const target: GrantTarget = grant.spaceId ? { spaceId: grant.spaceId } : grant.collectionId ? { collectionId: grant.collectionId } : { siteId: grant.siteId! };
    const key = keyOf(target);
    const column = Prisma.raw(`"${key}"`);
    await tx.$executeRaw`
      INSERT INTO ${USER_GRANT_TABLES[key]} (${column}, "organizationId", "userId", "role", "createdAt")
      VALUES (${idOf(target)}, ${organizationId}, ${userId}, ${grant.role}::"Role", ${now})
      ON CONFLICT (${column}, "userId") DO NOTHING`;
  }
  if (promised.length) await tx.inviteGrant.deleteMany({ where: { inviteId } });
}
