import type { Space } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import type { Context } from '../../core/context.ts';
import { ConflictError, NotFoundError } from '../../core/errors.ts';
import type { JobHandler } from '../../jobs/job-runner.ts';
import { spaceFor } from '../content-access/index.ts';
import { publishDomainEvent } from '../../core/domain-events.ts';
import { lockOrganization, positionKey, restoredPositionKey } from './hierarchy.ts';

/** Deleted spaces (and collections) stay restorable, and stored, for this long. */
export const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

const expired = (deletedAt: Date, now: Date) => now.getTime() - deletedAt.getTime() > RETENTION_MS;

/**
 * Soft delete: the space leaves lists and counts; its admins can still read and restore it for 7 days.
 * Sites stop publishing it at once (its site spaces go; a restore does not bring them back).
 */
export async function deleteSpace(ctx: Context, spaceId: string): Promise<boolean> {
  await spaceFor(ctx, spaceId, 'delete');
  const now = ctx.clock.now();
  await ctx.db.$transaction(async (tx) => {
    await tx.space.update({ where: { id: spaceId }, data: { deletedAt: now, updatedAt: now } });
    await publishDomainEvent(tx, 'spaces.removed', { spaceIds: [spaceId] });
  });
  return true;
}

/**
 * Brings a deleted space back whole: into its parent — its collection if that still exists, else the top
 * level — at its old place when no sibling took that key meanwhile, else at the end. After the retention
 * window the space is gone (404), whether or not the purge job ran. A space that is not deleted, or was
 * restored by a concurrent request meanwhile, cannot be restored: 409.
 */
export async function restoreSpace(ctx: Context, spaceId: string): Promise<Space> {
  const { space } = await spaceFor(ctx, spaceId, 'restore');
  const notDeleted = new ConflictError(`Space "${spaceId}" is not deleted: there is nothing to restore`);
  if (!space.deletedAt) throw notDeleted;
  const now = ctx.clock.now();
  if (expired(space.deletedAt, now)) throw new NotFoundError(`Space "${spaceId}" not found`);
  return ctx.db.$transaction(async (tx) => {
    await lockOrganization(tx, space.organizationId);
    // Every writer of the tree holds this lock: a restore that got here first has finished.
    const current = await tx.space.findUnique({ where: { id: space.id }, select: { deletedAt: true } });
    if (!current?.deletedAt) throw notDeleted;
    const collection = space.collectionId ? await tx.collection.findUnique({ where: { id: space.collectionId } }) : null;
    const keepsParent =
      space.collectionId === null || (collection !== null && collection.deletedAt === null && collection.organizationId === space.organizationId);
    const ref = { type: 'space' as const, id: space.id };
    return tx.space.update({
      where: { id: space.id },
      data: keepsParent
        ? { deletedAt: null, updatedAt: now, position: await restoredPositionKey(tx, space.organizationId, space.collectionId, space.position, ref) }
        : {
            deletedAt: null,
            updatedAt: now,
            collectionId: null,
            position: await positionKey(tx, space.organizationId, null, null, ref),
            visibility: space.visibility === 'in_collection' ? 'private' : undefined,
          },
    });
  });
}

/** Permanently removes spaces and collections deleted more than 7 days ago (content goes by cascade). */
export async function purgeExpired(db: Db, now: Date): Promise<{ spaces: number; collections: number }> {
  const cutoff = new Date(now.getTime() - RETENTION_MS);
  const spaces = await db.space.deleteMany({ where: { deletedAt: { lt: cutoff } } });
  const collections = await db.collection.deleteMany({ where: { deletedAt: { lt: cutoff } } });
  return { spaces: spaces.count, collections: collections.count };
}

/** The purge's job (src/jobs/): at start-up and then every hour, in whichever instance claims it. */
export const PURGE_JOB = 'content.purge';
const PURGE_EVERY_MS = 60 * 60 * 1000;
/** Finished jobs are kept this long (what ran, and why one failed), then purged too. */
const FINISHED_JOBS_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Purges deleted content and old finished jobs, then asks to run again in an hour. One row of the job
 * table holds the schedule (its key makes enqueueing it at every start a no-op while it waits), so it
 * survives restarts and runs in one instance at a time; purging is idempotent anyway.
 */
export const purgeJob: JobHandler = async (_payload, { db, clock, logger }) => {
  const now = clock.now();
  const purged = await purgeExpired(db, now);
  const jobs = await db.job.deleteMany({ where: { finishedAt: { lt: new Date(now.getTime() - FINISHED_JOBS_KEPT_MS) } } });
  if (purged.spaces || purged.collections || jobs.count) logger.info({ purged, finishedJobs: jobs.count }, 'purged deleted content');
  return { again: new Date(now.getTime() + PURGE_EVERY_MS) };
};
