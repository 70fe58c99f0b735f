import { randomBytes } from 'node:crypto';
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
