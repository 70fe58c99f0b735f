import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { Logger } from '../lib/logger.ts';

/**
 * Runs the jobs of the `Job` table (job-queue.ts), in every instance at once:
 * - claiming is one statement: the due jobs (queued with `runAt` passed, or running with their lease
 *   over: their runner died) are locked with FOR UPDATE SKIP LOCKED, so two runners never claim the
 *   same job, and marked running with this runner's ID and a lease;
 * - while a job runs its lease is renewed; a runner that dies stops renewing, and once the lease is over
 *   another runner claims the job again (a job is run at least once: handlers are idempotent);
 * - a failure is retried with exponential backoff until `maxAttempts`, then the job is `failed` with its
 *   last error; a handler may ask to run again later (`{ again }`): recurring work keeps one row;
 * - a runner polls every `pollMs` and whenever a job of its own finishes; `stop` stops claiming and
 *   aborts what runs (its handlers get an AbortSignal), leaving unfinished jobs to the lease.
 */
export interface JobContext {
  db: Db;
  config: Config;
  clock: Clock;
  logger: Logger;
  /** Aborted when the runner stops: a long handler gives up (its job is claimed again later). */
  signal: AbortSignal;
  job: { id: string; kind: string; attempts: number };
}

/** A job's work. It may answer `{ again }` to be run once more at that time (recurring work). */
export type JobHandler = (payload: any, ctx: JobContext) => Promise<void | { again: Date }>;

export interface JobRunnerOptions {
  db: Db;
  config: Config;
  clock: Clock;
  logger: Logger;
  handlers: Record<string, JobHandler>;
  /** Jobs run at once by this runner. */
  concurrency?: number;
  pollMs?: number;
  /** How long a claim holds without renewal. */
  leaseMs?: number;
  /** First retry delay; doubled for each further attempt, at most an hour. */
  backoffMs?: number;
  /** Names this runner in `lockedBy` (default: random). */
  id?: string;
}

interface Claimed {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

const MAX_BACKOFF_MS = 60 * 60 * 1000;
const MAX_ERROR_LENGTH = 2000;

export class JobRunner {
  readonly id: string;
  private readonly options: Required<Omit<JobRunnerOptions, 'id'>>;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private polling: Promise<void> | null = null;

  constructor(options: JobRunnerOptions) {
    this.id = options.id ?? `runner-${randomBytes(6).toString('hex')}`;
    this.options = { concurrency: 2, pollMs: 500, leaseMs: 60_000, backoffMs: 1000, ...options };
  }

  start(): this {
    if (this.running) return this;
    this.running = true;
    this.schedule(0);
    return this;
  }

  /** Stops claiming, aborts the jobs that run and waits for them (at most `waitMs`). */
  async stop(waitMs = 5000): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.abort.abort();
    await Promise.race([Promise.allSettled([this.polling, ...this.inFlight.values()]), new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
  }

  /** Claims and runs what is due until nothing is (tests; the polling loop does the same). */
  async drain(): Promise<void> {
    for (;;) {
      const claimed = await this.claim(this.options.concurrency);
      if (!claimed.length) {
        if (!this.inFlight.size) return;
        await Promise.race(this.inFlight.values());
        continue;
      }
      await Promise.all(claimed.map((job) => this.run(job)));
    }
  }

  private schedule(ms: number) {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  private async poll() {
    if (this.polling || !this.running) return;
    this.polling = (async () => {
      try {
        const free = this.options.concurrency - this.inFlight.size;
        if (free > 0) for (const job of await this.claim(free)) void this.run(job).finally(() => this.schedule(0));
      } catch (err) {
        this.options.logger.error({ err }, 'claiming jobs failed');
      }
    })();
    await this.polling;
    this.polling = null;
    this.schedule(this.options.pollMs);
  }

  private async claim(limit: number): Promise<Claimed[]> {
    if (limit <= 0) return [];
    const now = this.options.clock.now();
    const leaseEnd = new Date(now.getTime() + this.options.leaseMs);
    return this.options.db.$queryRaw<Claimed[]>`
      UPDATE "Job" j
      SET "state" = 'running', "lockedBy" = ${this.id}, "lockedUntil" = ${leaseEnd}, "attempts" = j."attempts" + 1, "updatedAt" = ${now}
      FROM (
        SELECT "id" FROM "Job"
        WHERE ("state" = 'queued' AND "runAt" <= ${now}) OR ("state" = 'running' AND "lockedUntil" < ${now})
        ORDER BY "runAt", "id"
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      ) due
      WHERE j."id" = due."id"
      RETURNING j."id", j."kind", j."payload", j."attempts", j."maxAttempts"`;
  }

  private run(job: Claimed): Promise<void> {
    const done = this.execute(job).finally(() => this.inFlight.delete(job.id));
    this.inFlight.set(job.id, done);
    return done;
  }

  private async execute(job: Claimed) {
    const { db, config, clock, logger, handlers, leaseMs } = this.options;
    const handler = handlers[job.kind];
    // Renew the lease while the handler works.
    const heartbeat = setInterval(() => {
      const until = new Date(clock.now().getTime() + leaseMs);
      db.$executeRaw`UPDATE "Job" SET "lockedUntil" = ${until} WHERE "id" = ${job.id} AND "lockedBy" = ${this.id}`.catch((err) =>
        logger.warn({ err, jobId: job.id }, 'renewing a job lease failed'),
      );
    }, Math.max(1000, leaseMs / 3));
    heartbeat.unref();
    try {
      if (!handler) throw new Error(`No handler for jobs of kind "${job.kind}"`);
      if (job.attempts > job.maxAttempts) throw new Error(`Gave up after ${job.maxAttempts} attempts`);
      const outcome = await handler(job.payload, { db, config, clock, logger, signal: this.abort.signal, job: { id: job.id, kind: job.kind, attempts: job.attempts } });
      const now = clock.now();
      if (outcome && 'again' in outcome) {
        await db.$executeRaw`
          UPDATE "Job" SET "state" = 'queued', "runAt" = ${outcome.again}, "attempts" = 0, "lockedBy" = NULL, "lockedUntil" = NULL, "lastError" = NULL, "updatedAt" = ${now}
          WHERE "id" = ${job.id} AND "lockedBy" = ${this.id}`;
      } else {
        await db.$executeRaw`
          UPDATE "Job" SET "state" = 'done', "finishedAt" = ${now}, "lockedBy" = NULL, "lockedUntil" = NULL, "updatedAt" = ${now}
          WHERE "id" = ${job.id} AND "lockedBy" = ${this.id}`;
      }
      logger.debug({ jobId: job.id, kind: job.kind }, 'job done');
    } catch (err) {
      await this.failed(job, err);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async failed(job: Claimed, err: unknown) {
    const { db, clock, logger, backoffMs } = this.options;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, MAX_ERROR_LENGTH);
    const now = clock.now();
    const finalFailure = job.attempts >= job.maxAttempts || (err instanceof Error && err.message.startsWith('No handler'));
    if (finalFailure) {
      logger.error({ err, jobId: job.id, kind: job.kind, attempts: job.attempts }, 'job failed for good');
      await db.$executeRaw`
        UPDATE "Job" SET "state" = 'failed', "lastError" = ${message}, "finishedAt" = ${now}, "lockedBy" = NULL, "lockedUntil" = NULL, "updatedAt" = ${now}
        WHERE "id" = ${job.id} AND "lockedBy" = ${this.id}`;
      return;
    }
    const delay = Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** (job.attempts - 1));
    logger.warn({ err, jobId: job.id, kind: job.kind, attempts: job.attempts, retryInMs: delay }, 'job failed; retrying later');
    await db.$executeRaw`
      UPDATE "Job" SET "state" = 'queued', "runAt" = ${new Date(now.getTime() + delay)}, "lastError" = ${message}, "lockedBy" = NULL, "lockedUntil" = NULL, "updatedAt" = ${now}
      WHERE "id" = ${job.id} AND "lockedBy" = ${this.id}`;
  }
}
