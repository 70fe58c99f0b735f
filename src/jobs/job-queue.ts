import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { Prisma } from '../generated/prisma/client.ts';

/**
 * The job queue is the `Job` table (schema.prisma): enqueueing is inserting a row, in the caller's
 * transaction when it passes one, so a job exists exactly when the write that asked for it committed.
 * A runner (job-runner.ts) claims rows with FOR UPDATE SKIP LOCKED. No library: the queue libraries
 * for PostgreSQL (graphile-worker, pg-boss) open connections of their own, which the embedded database
 * (PGlite, in-process, no listener) cannot give them.
 */
type Client = Db | Prisma.TransactionClient;

export interface NewJob {
  kind: string;
  payload?: Prisma.InputJsonValue;
  /** At most one queued or running job per key: enqueueing it again while one waits is a no-op. */
  key?: string;
  /** Not before (default: now). */
  runAt?: Date;
  maxAttempts?: number;
}

export const newJobId = () => randomBytes(12).toString('base64url');

/** Enqueues a job; answers false when one with its key already waits or runs. */
export async function enqueueJob(db: Client, job: NewJob, now: Date = new Date()): Promise<boolean> {
  const count = await db.$executeRaw`
    INSERT INTO "Job" ("id", "kind", "payload", "key", "runAt", "maxAttempts", "createdAt", "updatedAt")
    VALUES (${newJobId()}, ${job.kind}, ${JSON.stringify(job.payload ?? {})}::jsonb, ${job.key ?? null}, ${job.runAt ?? now}, ${job.maxAttempts ?? 5}, ${now}, ${now})
    ON CONFLICT ("key") WHERE "state" IN ('queued', 'running') DO NOTHING`;
  return count > 0;
}

/** Jobs waiting (queued, due or not) and running: what `/metrics` and tests look at. */
export async function queueDepth(db: Client): Promise<{ queued: number; running: number }> {
  const rows = await db.$queryRaw<{ state: string; n: number }[]>`
    SELECT "state"::text AS "state", count(*)::int AS "n" FROM "Job" WHERE "state" IN ('queued', 'running') GROUP BY "state"`;
  const of = (state: string) => rows.find((r) => r.state === state)?.n ?? 0;
  return { queued: of('queued'), running: of('running') };
}
