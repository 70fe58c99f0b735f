import type { Prisma, User } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import { BadRequestError, ConflictError, isUniqueViolation } from '../../graphql/errors.ts';
import { newId } from '../../lib/ids.ts';
import { generateTokenSecret, hashToken } from '../../lib/tokens.ts';
import { checkLength, isEmail } from '../../lib/validate.ts';

export interface NewUser {
  email: string;
  displayName: string;
}

/**
 * Creates a user and a first personal access token in one transaction. The token secret is returned
 * once, here; only its hash is stored.
 */
export async function createUserWithToken(db: Db, input: NewUser, now = new Date()): Promise<{ user: User; token: string }> {
  const email = input.email.trim().toLowerCase();
  if (!isEmail(email)) throw new BadRequestError('Invalid "email": not an e-mail address');
  checkLength('displayName', input.displayName?.trim(), 1, 100);
  const token = generateTokenSecret();
  try {
    return await db.$transaction(async (tx) => {
      // Someone invited by e-mail before having an account exists as a pending user: claim that record,
      // so their invitations are theirs.
      const pending = await tx.user.findFirst({ where: { email, pending: true } });
      const displayName = input.displayName.trim();
      const user = pending
        ? await tx.user.update({ where: { id: pending.id }, data: { pending: false, displayName } })
        : await tx.user.create({ data: { id: newId(), email, displayName, createdAt: now } });
      await tx.accessToken.create({ data: { id: newId(), userId: user.id, tokenHash: hashToken(token), label: 'initial', createdAt: now } });
      return { user, token };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`A user with e-mail "${email}" already exists`);
    throw error;
  }
}

/** The user a bearer token belongs to (and the organization it is scoped to), or null for an unknown token. */
export async function userForToken(
  db: Db,
  token: string,
): Promise<{ user: User; tokenId: string; scopeOrganizationId: string | null } | null> {
  const row = await db.accessToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
  return row ? { user: row.user, tokenId: row.id, scopeOrganizationId: row.organizationId } : null;
}

/** Users for these (normalised) e-mail addresses, creating pending records for unknown ones. */
export async function usersForEmails(tx: Prisma.TransactionClient, emails: string[], now: Date): Promise<User[]> {
  const existing = await tx.user.findMany({ where: { email: { in: emails } } });
  const known = new Set(existing.map((u) => u.email));
  const missing = emails.filter((e) => !known.has(e));
  if (missing.length) {
    await tx.user.createMany({
      data: missing.map((email) => ({ id: newId(), email, displayName: email.split('@')[0], pending: true, createdAt: now })),
      skipDuplicates: true,
    });
  }
  return tx.user.findMany({ where: { email: { in: emails } } });
}
