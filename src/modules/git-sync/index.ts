import './git-sync.schema.ts';
import './git-sync-installations.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { GIT_SYNC_POLL_JOB, gitSyncJob, gitSyncPollJob } from './git-sync.jobs.ts';
import { gitSyncRoutes } from './git-sync.rest.ts';
import { exportAfterMerge, GIT_SYNC_JOB } from './git-sync.service.ts';
import { gitSyncWebhookRoutes } from './git-sync-webhook.http.ts';

/** Git Sync: a space's content kept in step with a Git repository, both ways (docs/git-sync.md). */
export const gitSyncModule: DomainModule = {
  name: 'git-sync',
  routes: gitSyncRoutes,
  httpRoutes: gitSyncWebhookRoutes,
  jobs: { [GIT_SYNC_JOB]: gitSyncJob, [GIT_SYNC_POLL_JOB]: gitSyncPollJob },
  events: { 'changeRequest.merged': exportAfterMerge },
};
