import type { Prisma, User } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import { BadRequestError, rethrowDatabaseError } from '../../core/errors.ts';
import { newId } from '../../lib/ids.ts';
import { generateTokenSecret, hashToken } from '../../lib/tokens.ts';
import { checkLength, isEmail } from '../../core/validate.ts';

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
    rethrowDatabaseError(error, { unique: `A user with e-mail "${email}" already exists` });
  }
}

/** A token's `lastUsedAt` is written at most this often: within it, a request writes nothing. */
export const TOKEN_LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The user a bearer token belongs to (and the organization it is scoped to), or null for an unknown token.
 * The same single statement records the use (`lastUsedAt = now`) when the last recorded one is older than
 * a minute: no statement is added to a request, and a write happens at most once a minute per token
 * (concurrent requests re-check the condition on the locked row, so only one of them writes).
 */
export async function userForToken(
  db: Db,
  token: string,
  now = new Date(),
): Promise<{ user: User; tokenId: string; scopeOrganizationId: string | null } | null> {
  const tokenHash = hashToken(token);
  const staleBefore = new Date(now.getTime() - TOKEN_LAST_USED_RESOLUTION_MS);
  const rows = await db.$queryRaw<(User & { tokenId: string; scopeOrganizationId: string | null })[]>`
    WITH "touched" AS (
      UPDATE "AccessToken" SET "lastUsedAt" = ${now}
      WHERE "tokenHash" = ${tokenHash} AND ("lastUsedAt" IS NULL OR "lastUsedAt" <= ${staleBefore})
      RETURNING "id"
    )
    SELECT t."id" AS "tokenId", t."organizationId" AS "scopeOrganizationId", u.*
    FROM "AccessToken" t JOIN "User" u ON u."id" = t."userId"
    WHERE t."tokenHash" = ${tokenHash}`;
  if (rows.length === 0) return null;
  const { tokenId, scopeOrganizationId, ...user } = rows[0];
  return { user, tokenId, scopeOrganizationId };
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
