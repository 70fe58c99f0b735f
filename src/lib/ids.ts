import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Opaque, URL-safe, 20-character identifiers (≈119 bits), the same in REST and GraphQL. */
export function newId(length = 20): string {
  let id = '';
  while (id.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 62 * 4 = 248: rejecting bytes ≥ 248 keeps every character equally likely.
      if (byte < 248 && id.length < length) id += ALPHABET[byte % 62];
    }
  }
  return id;
}
