import type { Prisma } from '../../generated/prisma/client.ts';
import { contentHash } from './content-hash.ts';

type Db = Prisma.TransactionClient;

/**
 * Stores page bodies by their content hash and answers the hashes, in the order given. A body some
 * revision already holds is not written again (ON CONFLICT DO NOTHING): storage grows with what changed,
 * and two writers storing the same text at once cannot conflict. One statement for any number of bodies.
 */
export async function putDocuments(db: Db, markdowns: readonly string[]): Promise<string[]> {
  const hashes = markdowns.map((markdown) => contentHash(markdown));
  const unique = new Map(hashes.map((hash, i) => [hash, markdowns[i]]));
  if (unique.size) {
    await db.document.createMany({ data: [...unique].map(([hash, markdown]) => ({ hash, markdown })), skipDuplicates: true });
  }
  return hashes;
}
