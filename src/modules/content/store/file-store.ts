import type { Prisma } from '../../../generated/prisma/client.ts';
import { contentHash } from './content-hash.ts';

type Db = Prisma.TransactionClient;

/**
 * Where file bytes live, addressed by their content hash. One seam, so that an S3-compatible store can
 * replace the default later without touching the services: they only ever `put` bytes (getting the
 * hash a File row points at) and `get` them back.
 */
export interface FileStore {
  /** Stores the bytes (once: the same bytes already stored are not written again); answers their hash. */
  put(db: Db, bytes: Uint8Array<ArrayBuffer>): Promise<{ hash: string; size: number }>;
  /** The bytes of a hash, or null when nothing is stored under it. */
  get(db: Db, hash: string): Promise<Uint8Array<ArrayBuffer> | null>;
}

/**
 * The default store: the database itself (FileBlob), so several instances behind a load balancer share
 * every file with no other service to run, and a file is written in the same transaction as the revision
 * that adds it.
 */
export const databaseFileStore: FileStore = {
  async put(db, bytes) {
    const hash = contentHash(bytes);
    await db.fileBlob.createMany({ data: [{ hash, bytes, size: bytes.byteLength }], skipDuplicates: true });
    return { hash, size: bytes.byteLength };
  },
  async get(db, hash) {
    const blob = await db.fileBlob.findUnique({ where: { hash }, select: { bytes: true } });
    return blob ? new Uint8Array(blob.bytes) : null;
  },
};
