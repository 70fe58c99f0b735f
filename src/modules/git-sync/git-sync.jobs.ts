import type { JobHandler } from '../../jobs/job-runner.ts';
import { BadRequestError } from '../../core/errors.ts';
import { GitRemoteError, remoteHead } from './git-remote.ts';
import { RepositoryFormatError } from './gitbook-repository.ts';
import { ExportDeferred, exportRun, importRun, remoteOf } from './git-sync-runs.ts';
import { enqueueJob } from '../../jobs/job-queue.ts';
import { GIT_SYNC_JOB, type GitRunPayload } from './git-sync.service.ts';

/**
 * A Git Sync run as a job of the queue (src/jobs/). One run at a time per space: a run holds the sync
 * row (`lockedBy`, `lockedUntil`, renewed by the lease of the job) and a second one waits its turn.
 * What a person must fix (credentials, a missing branch, a repository that is not GitBook content) ends
 * the run as `failure` with that message; what may pass (the server unreachable, the branch moved
 * under an export, the database) is retried with back-off, the message kept meanwhile. A request that
 * came while the run ran (a push during an import) runs it once more.
 */
const HOLD_MS = 10 * 60 * 1000;
const WAIT_MS = 2000;

const PERMANENT: ReadonlySet<string> = new Set(['AUTH', 'NOT_FOUND', 'TOO_LARGE', 'REFUSED_ADDRESS']);

export const gitSyncJob: JobHandler = async (payload: GitRunPayload, { db, config, clock, logger, job }) => {
  const now = clock.now();
  // The sync is free, held by this job (run again after its instance died), or held by a job that no
  // longer runs (its claim expired: its instance died).
  const held = await db.$executeRaw`
    UPDATE "GitSync" g SET "lockedBy" = ${job.id}, "lockedUntil" = ${new Date(now.getTime() + HOLD_MS)}
    WHERE g."id" = ${payload.syncId}
      AND (g."lockedBy" IS NULL OR g."lockedUntil" < ${now} OR g."lockedBy" = ${job.id}
        OR NOT EXISTS (SELECT 1 FROM "Job" j WHERE j."id" = g."lockedBy" AND j."state" = 'running' AND j."lockedUntil" >= ${now}))`;
  if (!held) {
    const exists = await db.gitSync.findUnique({ where: { id: payload.syncId }, select: { id: true } });
    return exists ? { again: new Date(now.getTime() + WAIT_MS) } : undefined;
  }
  const sync = (await db.gitSync.findUnique({ where: { id: payload.syncId } }))!;
  const requestedAt = sync.startedAt;
  const finish = (data: { state: 'success' | 'failure'; error: string | null }) =>
    db.gitSync.update({ where: { id: sync.id }, data: { ...data, direction: payload.direction, endedAt: clock.now(), lockedBy: null, lockedUntil: null } });
  try {
    const services = { db, config, clock, logger };
    if (payload.direction === 'import') {
      const outcome = await importRun(services, sync, payload.options);
      logger.info({ spaceId: sync.spaceId, outcome }, 'Git Sync import done');
    } else {
      try {
        const outcome = await exportRun(services, sync, payload.options);
        logger.info({ spaceId: sync.spaceId, outcome }, 'Git Sync export done');
      } catch (error) {
        if (!(error instanceof ExportDeferred)) throw error;
        // The branch moved: its commits are imported first, and this export is that import's run.
        logger.info({ spaceId: sync.spaceId, head: error.head }, 'Git Sync export waits for an import');
        await db.gitSync.update({ where: { id: sync.id }, data: { lockedBy: null, lockedUntil: null } });
        const importing: GitRunPayload = { syncId: sync.id, direction: 'import', options: { userId: payload.options.userId ?? null } };
        await enqueueJob(db, { kind: GIT_SYNC_JOB, key: `git-sync:${sync.spaceId}:import`, payload: importing as never, maxAttempts: 4 }, clock.now());
        await db.gitSync.update({ where: { id: sync.id }, data: { direction: 'import', state: 'running', startedAt: clock.now(), endedAt: null, error: null } });
        return;
      }
    }
    const latest = await db.gitSync.findUnique({ where: { id: sync.id }, select: { startedAt: true } });
    if (latest?.startedAt && requestedAt && latest.startedAt > requestedAt) {
      await db.gitSync.update({ where: { id: sync.id }, data: { lockedBy: null, lockedUntil: null } });
      return { again: clock.now() };
    }
    await finish({ state: 'success', error: null });
  } catch (error) {
    const message = messageOf(error);
    const permanent =
      error instanceof RepositoryFormatError || error instanceof BadRequestError || (error instanceof GitRemoteError && PERMANENT.has(error.code));
    await finish({ state: 'failure', error: message }).catch(() => undefined);
    if (permanent) {
      logger.warn({ spaceId: sync.spaceId, direction: payload.direction, error: message }, 'Git Sync run failed');
      return;
    }
    throw error;
  }
};

/** What went wrong, for a person: the file and the rule for content, the server's answer for Git. */
function messageOf(error: unknown): string {
  if (error instanceof RepositoryFormatError) return `The repository is not GitBook content: ${error.message}`;
  if (error instanceof GitRemoteError) return error.message;
  if (error instanceof BadRequestError) return `The repository's content was refused: ${error.message}`;
  return `The sync failed: ${error instanceof Error ? error.message.slice(0, 500) : String(error)}`;
}

export const GIT_SYNC_POLL_JOB = 'git-sync.poll';
const POLL_BATCH = 50;

/**
 * Where no webhook can reach us: every `GIT_SYNC_POLL_SECONDS`, each space synced with Git that has no
 * push webhook asks its branch for its head (one small request, no clone) and imports it when it is a
 * commit the space has not taken in. Recurring (src/jobs/recurring.ts); one job row for the instance.
 */
export const gitSyncPollJob: JobHandler = async (_payload, { db, config, clock, logger, signal }) => {
  const every = config.gitSyncPollSeconds;
  if (!every) return { again: new Date(clock.now().getTime() + 60 * 60 * 1000) };
  let after = '';
  let queued = 0;
  for (;;) {
    const batch = await db.gitSync.findMany({ where: { id: { gt: after }, webhookSecret: null, url: { not: '' } }, orderBy: { id: 'asc' }, take: POLL_BATCH });
    if (!batch.length || signal.aborted) break;
    for (const sync of batch) {
      if (sync.state === 'running' || signal.aborted) continue;
      try {
        const head = await remoteHead(await remoteOf({ db }, sync), config.fetch);
        // Already taken in, or already failed to import (a new commit is tried again).
        if (!head || head === sync.syncedCommit || head === sync.changeRequestCommit || (sync.state === 'failure' && head === sync.fetchedCommit)) continue;
        const now = clock.now();
        await db.$transaction(async (tx) => {
          await tx.gitSync.update({ where: { id: sync.id }, data: { direction: 'import', state: 'running', startedAt: now, endedAt: null, error: null, updatedAt: now } });
          const payload: GitRunPayload = { syncId: sync.id, direction: 'import', options: { userId: sync.createdById } };
          await enqueueJob(tx, { kind: GIT_SYNC_JOB, key: `git-sync:${sync.spaceId}:import`, payload: payload as never, maxAttempts: 4 }, now);
        });
        queued++;
      } catch (error) {
        logger.warn({ spaceId: sync.spaceId, error: messageOf(error) }, 'Git Sync poll could not read the branch');
      }
    }
    after = batch[batch.length - 1].id;
  }
  if (queued) logger.info({ queued }, 'Git Sync poll queued imports');
  return { again: new Date(clock.now().getTime() + every * 1000) };
};
