import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { enqueueJob, queueDepth } from '../../src/jobs/job-queue.ts';
import { JobRunner, type JobHandler } from '../../src/jobs/job-runner.ts';
import { scheduleRecurringJobs } from '../../src/jobs/recurring.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { jobHandlers } from '../../src/schema.ts';
import { PURGE_JOB } from '../../src/modules/spaces/space.lifecycle.ts';
import { createTestDatabase } from '../support/database.ts';
import { useHarness } from '../support/harness.ts';
import { POSTGRES_SERVER_URL, tempDir } from '../support/server-process.ts';

const logger = createLogger('silent');
const h = useHarness();

const runner = (db: Database['prisma'], handlers: Record<string, JobHandler>, extra: Partial<ConstructorParameters<typeof JobRunner>[0]> = {}) =>
  new JobRunner({ db, config: buildConfig({}), clock: systemClock, logger, handlers, pollMs: 20, backoffMs: 10, ...extra });

const jobsOf = (db: Database['prisma'], kind: string) => db.job.findMany({ where: { kind }, orderBy: { createdAt: 'asc' } });

describe('the job queue', () => {
  it('runs a job once; retries a failure with backoff; gives up after maxAttempts with the last error', async () => {
    const seen: unknown[] = [];
    let failures = 2;
    const handlers: Record<string, JobHandler> = {
      echo: async (payload) => void seen.push(payload),
      flaky: async () => {
        if (failures-- > 0) throw new Error('not yet');
      },
      broken: async () => {
        throw new Error('always broken');
      },
    };
    await enqueueJob(h.db, { kind: 'echo', payload: { n: 1 } });
    await enqueueJob(h.db, { kind: 'flaky' });
    await enqueueJob(h.db, { kind: 'broken', maxAttempts: 3 });
    await enqueueJob(h.db, { kind: 'unknown-kind' });
    const r = runner(h.db, handlers);
    for (let i = 0; i < 20 && (await queueDepth(h.db)).queued + (await queueDepth(h.db)).running > 0; i++) {
      await r.drain();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen).toEqual([{ n: 1 }]);
    expect((await jobsOf(h.db, 'echo'))[0]).toMatchObject({ state: 'done', attempts: 1, lockedBy: null });
    expect((await jobsOf(h.db, 'flaky'))[0]).toMatchObject({ state: 'done', attempts: 3, lastError: 'not yet' });
    expect((await jobsOf(h.db, 'broken'))[0]).toMatchObject({ state: 'failed', attempts: 3, lastError: 'always broken' });
    expect((await jobsOf(h.db, 'unknown-kind'))[0]).toMatchObject({ state: 'failed', lastError: expect.stringContaining('No handler') });
  });

  it('a key holds one waiting job at a time; a job may ask to run again (one row for recurring work)', async () => {
    expect(await enqueueJob(h.db, { kind: 'keyed', key: 'k1' })).toBe(true);
    expect(await enqueueJob(h.db, { kind: 'keyed', key: 'k1' })).toBe(false);
    let runs = 0;
    const later = new Date(Date.now() + 60_000);
    await runner(h.db, { keyed: async () => ((runs += 1), { again: later }) }).drain();
    expect(runs).toBe(1);
    const [row, ...others] = await jobsOf(h.db, 'keyed');
    expect(others).toEqual([]);
    expect(row).toMatchObject({ state: 'queued', runAt: later, attempts: 0 });
    // Not due yet: nothing runs.
    await runner(h.db, { keyed: async () => void (runs += 1) }).drain();
    expect(runs).toBe(1);
  });

  it('a job claimed by a runner that died is claimed again once its lease is over', async () => {
    await enqueueJob(h.db, { kind: 'orphan', key: 'orphan' });
    // A runner claims it and dies without finishing (its lease: 50 ms, never renewed).
    const dying = runner(h.db, { orphan: () => new Promise(() => {}) }, { leaseMs: 50, id: 'dead-runner' });
    void dying.drain();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await jobsOf(h.db, 'orphan'))[0]).toMatchObject({ state: 'running', lockedBy: 'dead-runner' });
    // Another runner does not take it while the lease holds, then does.
    let ran = 0;
    const survivor = runner(h.db, { orphan: async () => void (ran += 1) }, { id: 'survivor' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await survivor.drain();
    expect(ran).toBe(1);
    expect((await jobsOf(h.db, 'orphan'))[0]).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('a job survives a restart: enqueued in one process life, run in the next (embedded database on disk)', async () => {
    // The run's migrated template copy when there is one (a PGlite run), else a new data directory.
    const store = await createTestDatabase(null);
    let dataDir = store.dataDir;
    let first = store.database;
    if (!dataDir) {
      dataDir = tempDir('dp-jobs-');
      first = await openDatabase({ dataDir });
      await first.migrate();
    }
    try {
      await enqueueJob(first.prisma, { kind: 'durable', payload: { hello: 'world' } });
      await first.close();
      const restarted = await openDatabase({ dataDir });
      const seen: unknown[] = [];
      await runner(restarted.prisma, { durable: async (payload) => void seen.push(payload) }).drain();
      expect(seen).toEqual([{ hello: 'world' }]);
      await restarted.close();
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('the purge of deleted content is a recurring job: scheduled once whatever the number of starts, run, rescheduled', async () => {
    await scheduleRecurringJobs(h.db, new Date());
    await scheduleRecurringJobs(h.db, new Date());
    expect(await jobsOf(h.db, PURGE_JOB)).toHaveLength(1);
    await runner(h.db, jobHandlers).drain();
    const [job] = await jobsOf(h.db, PURGE_JOB);
    expect(job.state).toBe('queued');
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now() + 59 * 60 * 1000);
  });
});

describe('two runners on one PostgreSQL database', () => {
  it('never take the same job: 60 jobs, each run exactly once, by one runner or the other', async () => {
    const store = await createTestDatabase(POSTGRES_SERVER_URL);
    const second = await openDatabase({ databaseUrl: store.url! });
    try {
      for (let i = 0; i < 60; i++) await enqueueJob(store.database.prisma, { kind: 'count', payload: { i } });
      const runs: { i: number; by: string }[] = [];
      const handler = (by: string): JobHandler => async (payload: { i: number }) => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        runs.push({ i: payload.i, by });
      };
      const a = runner(store.database.prisma, { count: handler('a') }, { concurrency: 4 });
      const b = runner(second.prisma, { count: handler('b') }, { concurrency: 4 });
      await Promise.all([a.drain(), b.drain()]);
      expect(runs.map((r) => r.i).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i));
      expect(new Set(runs.map((r) => r.by)).size).toBe(2);
      expect(await store.database.prisma.job.count({ where: { state: 'done' } })).toBe(60);
    } finally {
      await second.close();
      await store.close();
    }
  });
});
