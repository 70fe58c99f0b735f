import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { instanceSecret } from '../../db/instance-secrets.ts';

/**
 * Integration secrets are stored encrypted (AES-256-GCM under a key every instance shares through the
 * database, made on first use) and never answered: `iv.tag.ciphertext`, base64url.
 */
const KEY_NAME = 'integration-secrets';

export async function encryptSecrets(db: Db, secrets: Record<string, string>): Promise<string> {
  const key = await instanceSecret(db, KEY_NAME);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
}

export async function decryptSecrets(db: Db, sealed: string): Promise<Record<string, string>> {
  const key = await instanceSecret(db, KEY_NAME);
  const [iv, tag, ciphertext] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return JSON.parse(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8'));
}
