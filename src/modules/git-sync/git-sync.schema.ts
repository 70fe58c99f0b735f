import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import type { GitSync } from '../../generated/prisma/client.ts';
import { providerOf, statusOf } from './git-sync-installations.schema.ts';
import { createGitSyncWebhook, MAX_COMMIT_MESSAGE, MAX_PROJECT_DIRECTORY, MAX_REF, MAX_URL, queueGitRun, spaceGitInfo, type GitSyncWebhook } from './git-sync.service.ts';

const GitSyncOperationStateEnum = builder.enumType('GitSyncOperationState', {
  description: '`running`, `success`, `failure` (see `error`), or `timeout`',
  values: ['running', 'success', 'failure', 'timeout'] as const,
});
const GitSyncOperationDirectionEnum = builder.enumType('GitSyncOperationDirection', {
  description: '`import` (the repository into the space) or `export` (the space into the repository)',
  values: ['import', 'export'] as const,
});

const GitSyncOperationRef = builder.objectRef<GitSync>('GitSyncOperation').implement({
  description: 'The last Git Sync run of a space',
  fields: (t) => ({
    state: t.field({ type: GitSyncOperationStateEnum, resolve: (s) => s.state ?? 'running' }),
    direction: t.field({ type: GitSyncOperationDirectionEnum, resolve: (s) => s.direction ?? 'import' }),
    startedAt: t.field({ type: 'DateTime', resolve: (s) => s.startedAt ?? s.createdAt }),
    endedAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => (s.state === 'running' ? null : s.endedAt) }),
    error: t.string({ nullable: true, description: 'Why the run failed, in words a person can act on', resolve: (s) => (s.state === 'failure' ? s.error : null) }),
  }),
});

/** The repository's name as its URL path gives it (`org/docs`). */
const repoNameOf = (url: string) => {
  try {
    return new URL(url).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  } catch {
    return url;
  }
};

const GitSyncStateRef = builder.objectRef<GitSync>('GitSyncState').implement({
  description: "GitBook's GitSyncState: the repository a space is kept in step with, and its last run",
  fields: (t) => ({
    installationId: t.exposeString('id', { description: 'ID of the Git Sync installation (one per space)' }),
    installationProvider: t.string({
      description: '`github` for github.com, `gitlab` for any other Git server (GitBook names no generic one)',
      extensions: constrained({ enum: ['github', 'gitlab', 'github-legacy'] }),
      resolve: (s) => providerOf(s),
    }),
    installationStatus: t.string({ description: '`pending` until a repository is set, then `active`', extensions: constrained({ enum: ['unauthenticated', 'active', 'pending'] }), resolve: (s) => statusOf(s) }),
    repoName: t.string({ description: 'The repository, as its URL path names it', resolve: (s) => repoNameOf(s.url) }),
    url: t.string({ description: "The repository's tree URL (repoTreeURL) when given, else its URL (never with credentials)", resolve: (s) => s.treeUrl ?? s.url }),
    operation: t.field({ type: GitSyncOperationRef, nullable: true, resolve: (s) => (s.state ? s : null) }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => s.updatedAt }),
  }),
});

const runArgs = builder.args((t) => ({
  spaceId: t.string({ required: true, description: 'ID of the space' }),
  url: t.string({
    required: true,
    description: 'The Git repository (smart HTTP), optionally with basic-auth credentials (`https://user:token@host/repo.git`): stored sealed, never answered',
    extensions: constrained({ maxLength: MAX_URL }),
  }),
  ref: t.string({ required: true, description: 'The branch, as `refs/heads/main` (or `main`)', extensions: constrained({ maxLength: MAX_REF }) }),
  repoProjectDirectory: t.string({ description: 'The folder of a monorepo the content is in', extensions: constrained({ maxLength: MAX_PROJECT_DIRECTORY }) }),
  repoTreeURL: t.string({ description: 'Prefix for links to the repository\'s files (answered as the sync\'s `url`)', extensions: constrained({ maxLength: MAX_URL }) }),
  repoCommitURL: t.string({ description: "Prefix for links to the repository's commits", extensions: constrained({ maxLength: MAX_URL }) }),
  repoCacheID: t.string({ description: 'Ignored (deprecated by GitBook)', extensions: constrained({ maxLength: 256 }) }),
  timestamp: t.string({ description: 'When the event that asked for this run happened (accepted; runs are ordered by the queue)', extensions: constrained({ maxLength: 64 }) }),
  force: t.boolean({ description: 'Import: write the repository to the space even when the space changed since the last sync. Export: push even when nothing changed since the last sync' }),
  standalone: t.boolean({ description: 'Accepted as GitBook does; the run still records the sync' }),
}));

const GitSyncWebhookRef = builder.objectRef<GitSyncWebhook>('GitSyncWebhook').implement({
  description: "Where a Git server sends its push events for a space, and the secret they are signed with (shown once)",
  fields: (t) => ({
    url: t.exposeString('url', { description: 'The webhook URL to give the Git server (content type application/json, push events)' }),
    secret: t.exposeString('secret', {
      description: 'The secret: HMAC-SHA256 signing key for GitHub, Gitea and Forgejo, the token for GitLab. Shown once; making a new one replaces it',
    }),
  }),
});

builder.queryFields((t) => ({
  spaceGitInfo: t.field({
    type: GitSyncStateRef,
    description: "Where the space's content is synced in Git, and how the last run went; 404 when it never was",
    args: { spaceId: t.arg.string({ required: true, description: 'ID of the space' }) },
    resolve: (_root, { spaceId }, ctx) => spaceGitInfo(ctx, spaceId),
  }),
}));

builder.mutationFields((t) => ({
  importGitRepository: t.boolean({
    description:
      "Queues an import of a Git repository's branch (GitBook's format: SUMMARY.md, README.md, .gitbook.yaml) into the space: a new revision of the space, or a change request when the space also changed since the last sync. Answers at once; `spaceGitInfo` tells how it went",
    args: runArgs,
    resolve: (_root, args, ctx) => queueGitRun(ctx, args.spaceId, 'import', args),
  }),
  exportToGitRepository: t.boolean({
    description: "Queues an export of the space's content to a Git repository's branch: one commit, by the caller, in GitBook's format",
    args: {
      ...runArgs,
      commitMessage: t.arg.string({ required: true, description: "The commit's message", extensions: constrained({ minLength: 1, maxLength: MAX_COMMIT_MESSAGE }) }),
    },
    resolve: (_root, args, ctx) => queueGitRun(ctx, args.spaceId, 'export', args),
  }),
  createGitSyncWebhook: t.field({
    type: GitSyncWebhookRef,
    description: "Makes (or replaces) the secret of the space's push webhook, for a Git server to import every push to the synced branch",
    args: { spaceId: t.arg.string({ required: true, description: 'ID of the space' }) },
    resolve: (_root, { spaceId }, ctx) => createGitSyncWebhook(ctx, spaceId),
  }),
}));
