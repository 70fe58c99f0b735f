import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../../db/client.ts';
import { instanceSecret } from '../../../db/instance-secrets.ts';

/**
 * URLs that are their own credential (file downloads, PDF exports): served outside /v1 without a bearer
 * token to whoever holds them, until they expire. The signature covers the whole path (decoded
 * segments, the first naming what is served, so a signature made for one kind of URL is worthless on
 * another) and every query parameter with the expiry: change, add or drop any and the URL is refused.
 */
const SECRET_NAME = 'file-download-urls';
/** A URL is valid for one to two hours: expiries fall on the hour, so URLs are stable within one. */
const HOUR = 3600;

/**
 * The signing key, shared by every instance (an instance secret in the database), read once per
 * process and database: URLs are built on list routes, which must not pay a statement for it.
 */
const keys = new WeakMap<Db, Promise<Uint8Array>>();
export function urlSigningKey(db: Db): Promise<Uint8Array> {
  let key = keys.get(db);
  if (!key) {
    key = instanceSecret(db, SECRET_NAME);
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

export interface SignedTarget {
  /** Decoded path segments, e.g. `['files', hash, name]`. */
  segments: string[];
  /** Query parameters besides `expires` and `signature`. */
  params: Record<string, string>;
}

const RESERVED = new Set(['expires', 'signature']);

/** One unambiguous string for the signed fields (JSON: no separator inside a value can shift them). */
const signatureOf = (key: Uint8Array, target: SignedTarget, expires: number) =>
  createHmac('sha256', key)
    .update(JSON.stringify([target.segments, Object.entries(target.params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), expires]))
    .digest('base64url');

/** `<publicUrl>/<segments>?<params>&expires&signature`, valid until the top of the hour after next. */
export async function signUrl(db: Db, publicUrl: string, target: SignedTarget, now: Date): Promise<string> {
  const expires = (Math.floor(now.getTime() / 1000 / HOUR) + 2) * HOUR;
  const signature = signatureOf(await urlSigningKey(db), target, expires);
  const query = new URLSearchParams({ ...target.params, expires: String(expires), signature });
  return `${publicUrl}/${target.segments.map(encodeURIComponent).join('/')}?${query}`;
}

/** What a URL names when its signature holds and it has not expired; else why not. */
export async function verifySignedUrl(db: Db, url: URL, now: Date): Promise<SignedTarget | 'invalid' | 'expired'> {
  const expires = Number(url.searchParams.get('expires') ?? '');
  const signature = url.searchParams.get('signature') ?? '';
  if (!url.searchParams.has('expires') || !Number.isSafeInteger(expires)) return 'invalid';
  let segments: string[];
  try {
    segments = url.pathname.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return 'invalid';
  }
  const params: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (RESERVED.has(name)) continue;
    if (name in params) return 'invalid';
    params[name] = value;
  }
  const target = { segments, params };
  const expected = Buffer.from(signatureOf(await urlSigningKey(db), target, expires));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return expires * 1000 < now.getTime() ? 'expired' : target;
}
