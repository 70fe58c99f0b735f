import type { Db } from '../../db/client.ts';
import { openSecret, sealSecret } from '../../db/instance-secrets.ts';

/**
 * Integration secrets are stored encrypted (AES-256-GCM under a key every instance shares through the
 * database, made on first use) and never answered: `iv.tag.ciphertext`, base64url.
 */
const KEY_NAME = 'integration-secrets';

export const encryptSecrets = (db: Db, secrets: Record<string, string>): Promise<string> => sealSecret(db, KEY_NAME, JSON.stringify(secrets));

export const decryptSecrets = async (db: Db, sealed: string): Promise<Record<string, string>> => JSON.parse(await openSecret(db, KEY_NAME, sealed));
