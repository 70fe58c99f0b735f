import type { Db } from '../db/client.ts';
import { enqueueJob } from './job-queue.ts';

/**
 * Recurring work the server schedules at start: one job row each, under its kind as key, that re-queues
 * itself (`{ again }`). Enqueueing at every start of every instance is a no-op while the row waits.
 */
export const RECURRING_JOBS = ['content.purge', 'git-sync.poll'];

export async function scheduleRecurringJobs(db: Db, now: Date): Promise<void> {
  for (const kind of RECURRING_JOBS) await enqueueJob(db, { kind, key: kind }, now);
}
