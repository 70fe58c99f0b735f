import type { User } from '../../generated/prisma/client.ts';
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
  const userId = newId();
  try {
    const [user] = await db.$transaction([
      db.user.create({ data: { id: userId, email, displayName: input.displayName.trim(), createdAt: now } }),
      db.accessToken.create({ data: { id: newId(), userId, tokenHash: hashToken(token), label: 'initial', createdAt: now } }),
    ]);
    return { user, token };
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`A user with e-mail "${email}" already exists`);
    throw error;
  }
}

/** The user a bearer token belongs to, or null for an unknown token. */
export async function userForToken(db: Db, token: string): Promise<{ user: User; tokenId: string } | null> {
  const row = await db.accessToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
  return row ? { user: row.user, tokenId: row.id } : null;
}
