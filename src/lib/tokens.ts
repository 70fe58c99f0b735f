import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'dp_';

/** A new personal access token secret: 256 random bits. Shown to the user once; only its hash is stored. */
export function generateTokenSecret(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

export function hashToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Extracts the token from `Authorization: Bearer <token>`; null when the header is missing or malformed. */
export function bearerToken(header: string | null): string | null {
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{8,512})\s*$/i.exec(header);
  return match ? match[1] : null;
}
