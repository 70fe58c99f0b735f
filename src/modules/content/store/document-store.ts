import type { Prisma } from '../../../generated/prisma/client.ts';
import type { Db } from '../../../db/client.ts';
import { TRANSACTION_OPTIONS } from '../../../db/client.ts';
import { contentHash } from './content-hash.ts';
import { documentLinks } from '../markdown/document-links.ts';

type Tx = Prisma.TransactionClient;

/**
 * Stores page bodies by their content hash and answers the hashes, in the order given. A body some
 * revision already holds is not written again (ON CONFLICT DO NOTHING): storage grows with what changed,
 * and two writers storing the same text at once cannot conflict. The links of the bodies it does insert
 * are extracted and stored with them (`DocumentLink`), in the same transaction — the caller's when it
 * passes one, else its own — so a document is never visible without its links: a concurrent writer of
 * the same text waits on the row until that transaction ends, then skips it. A body already stored is
 * not parsed again (same text, same links). Two statements for any number of bodies.
 */
export async function putDocuments(db: Db | Tx, markdowns: readonly string[]): Promise<string[]> {
  const hashes = markdowns.map((markdown) => contentHash(markdown));
  const unique = new Map(hashes.map((hash, i) => [hash, markdowns[i]]));
  if (unique.size === 0) return hashes;
  const store = async (tx: Tx) => {
    const inserted = await tx.document.createManyAndReturn({
      data: [...unique].map(([hash, markdown]) => ({ hash, markdown })),
      skipDuplicates: true,
      select: { hash: true },
    });
    const links = inserted.flatMap(({ hash }) => documentLinks(unique.get(hash)!).map((link) => ({ documentHash: hash, ...link })));
    if (links.length) await tx.documentLink.createMany({ data: links, skipDuplicates: true });
  };
  // A transaction client has no `$connect` (Prisma's ITXClientDenyList, also in its type): then the
  // caller's transaction holds both statements.
  if ('$connect' in db) await db.$transaction(store, TRANSACTION_OPTIONS);
  else await store(db);
  return hashes;
}

/**
 * Page bodies (markdown) by content hash — the store's read seam, as `putDocuments` is its write seam:
 * every reader of bodies asks here. The bodies stored among `hashes`, in one statement (none for none).
 */
export async function getDocuments(db: Db | Tx, hashes: Iterable<string | null | undefined>): Promise<Map<string, string>> {
  const unique = [...new Set([...hashes].filter((hash): hash is string => typeof hash === 'string'))];
  if (unique.length === 0) return new Map();
  const rows = await db.document.findMany({ where: { hash: { in: unique } }, select: { hash: true, markdown: true } });
  return new Map(rows.map((row) => [row.hash, row.markdown]));
}
