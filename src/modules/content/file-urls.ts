import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { instanceSecret } from '../../db/instance-secrets.ts';

/** Where downloads are served, outside /v1: a signed URL is the credential, no bearer token. */
export const FILES_BASE_PATH = '/files';
const SECRET_NAME = 'file-download-urls';
/** A URL is valid for one to two hours: expiries fall on the hour, so URLs are stable within one. */
const HOUR = 3600;

/**
 * The signing key, shared by every instance (an instance secret in the database), read once per
 * process and database: URLs are built on list routes, which must not pay a statement for it.
 */
const keys = new WeakMap<Db, Promise<Uint8Array>>();
export function fileUrlKey(db: Db): Promise<Uint8Array> {
  let key = keys.get(db);
  if (!key) {
    key = instanceSecret(db, SECRET_NAME);
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

export interface DownloadTarget {
  hash: string;
  name: string;
  contentType: string;
}

const signatureOf = (key: Uint8Array, target: DownloadTarget, expires: number) =>
  createHmac('sha256', key).update(`${target.hash}\n${target.name}\n${target.contentType}\n${expires}`).digest('base64url');

/**
 * An absolute URL that serves these bytes under this name and type until it expires, to anyone holding
 * it: the signature covers the content hash, the name, the type and the expiry, so none can be changed.
 */
export async function signedFileUrl(db: Db, publicUrl: string, target: DownloadTarget, now: Date): Promise<string> {
  const expires = (Math.floor(now.getTime() / 1000 / HOUR) + 2) * HOUR;
  const signature = signatureOf(await fileUrlKey(db), target, expires);
  const query = new URLSearchParams({ type: target.contentType, expires: String(expires), signature });
  return `${publicUrl}${FILES_BASE_PATH}/${target.hash}/${encodeURIComponent(target.name)}?${query}`;
}

/** The target of a download URL when its signature holds and it has not expired; else why not. */
export async function verifyFileUrl(db: Db, url: URL, now: Date): Promise<DownloadTarget | 'invalid' | 'expired'> {
  const match = /^\/files\/([0-9a-f]{64})\/([^/]+)$/.exec(url.pathname);
  const type = url.searchParams.get('type');
  const expires = Number(url.searchParams.get('expires'));
  const signature = url.searchParams.get('signature') ?? '';
  if (!match || type === null || !Number.isSafeInteger(expires)) return 'invalid';
  let name: string;
  try {
    name = decodeURIComponent(match[2]);
  } catch {
    return 'invalid';
  }
  const target = { hash: match[1], name, contentType: type };
  const expected = Buffer.from(signatureOf(await fileUrlKey(db), target, expires));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return expires * 1000 < now.getTime() ? 'expired' : target;
}
