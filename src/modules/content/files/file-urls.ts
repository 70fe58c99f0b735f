import type { Db } from '../../../db/client.ts';
import { signUrl, verifySignedUrl } from './signed-urls.ts';

/** Where downloads are served, outside /v1: a signed URL is the credential, no bearer token. */
export const FILES_BASE_PATH = '/files';
const FILES_SEGMENT = FILES_BASE_PATH.slice(1);
const HASH = /^[0-9a-f]{64}$/;

export interface DownloadTarget {
  hash: string;
  name: string;
  contentType: string;
}

/**
 * An absolute URL that serves these bytes under this name and type until it expires, to anyone holding
 * it: the signature covers the content hash, the name, the type and the expiry, so none can be changed.
 */
export function signedFileUrl(db: Db, publicUrl: string, target: DownloadTarget, now: Date): Promise<string> {
  return signUrl(db, publicUrl, { segments: [FILES_SEGMENT, target.hash, target.name], params: { type: target.contentType } }, now);
}

/** The target of a download URL when its signature holds and it has not expired; else why not. */
export async function verifyFileUrl(db: Db, url: URL, now: Date): Promise<DownloadTarget | 'invalid' | 'expired'> {
  const verified = await verifySignedUrl(db, url, now);
  if (typeof verified === 'string') return verified;
  const [prefix, hash, name, ...rest] = verified.segments;
  const { type, ...others } = verified.params;
  if (prefix !== FILES_SEGMENT || !HASH.test(hash ?? '') || !name || rest.length || type === undefined || Object.keys(others).length) {
    return 'invalid';
  }
  return { hash, name, contentType: type };
}
