import type { Db } from './client.ts';

/**
 * Facts about the instance that are no secret, shared through the database by every app instance and
 * the offline CLIs. `public-url`: the PUBLIC_URL the server last started with (or the one it derived
 * from PORT), so `npm run admin` prints the URLs the server answers even when run without its settings.
 */
export const PUBLIC_URL_SETTING = 'public-url';

export async function recordInstanceSetting(db: Db, name: string, value: string): Promise<void> {
  await db.instanceSetting.upsert({ where: { name }, create: { name, value }, update: { value } });
}

export async function readInstanceSetting(db: Db, name: string): Promise<string | null> {
  return (await db.instanceSetting.findUnique({ where: { name } }))?.value ?? null;
}
