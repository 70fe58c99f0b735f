import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Db } from './client.ts';

/**
 * Secrets shared by every app instance on the same database (instances are stateless, so a key made
 * in memory would differ between them). The first instance to need one creates it; a concurrent
 * creator loses the insert race harmlessly and reads the winner's value.
 */
export async function instanceSecret(db: Db, name: string): Promise<Uint8Array> {
  await db.instanceSecret.createMany({
    data: [{ name, value: randomBytes(32).toString('base64') }],
    skipDuplicates: true,
  });
  const row = await db.instanceSecret.findUniqueOrThrow({ where: { name } });
  return new Uint8Array(Buffer.from(row.value, 'base64'));
}

/**
 * A secret value sealed for storage (AES-256-GCM under the instance secret `keyName`), as
 * `iv.tag.ciphertext` in base64url: integration secrets and Git Sync credentials are stored this way
 * and never answered.
 */
export async function sealSecret(db: Db, keyName: string, value: string): Promise<string> {
  const key = await instanceSecret(db, keyName);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
}

export async function openSecret(db: Db, keyName: string, sealed: string): Promise<string> {
  const key = await instanceSecret(db, keyName);
  const [iv, tag, ciphertext] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}
