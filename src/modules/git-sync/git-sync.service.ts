import type { Context } from '../../core/context.ts';
import { viewerOf } from '../../core/context.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { sealSecret } from '../../db/instance-secrets.ts';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { isPublicAddress } from '../../lib/safe-fetch.ts';
import type { DomainEvents } from '../../core/domain-events.ts';
import type { GitSync, Prisma } from '../../generated/prisma/client.ts';
import { newId } from '../../lib/ids.ts';
import { enqueueJob } from '../../jobs/job-queue.ts';
import { spaceFor } from '../content-access/index.ts';
import { CREDENTIALS_KEY, type RunOptions } from './git-sync-runs.ts';

/**
 * GitBook's Git Sync operations on a space (docs/git-sync.md): `importGitRepository` and
 * `exportToGitRepository` record the repository (its URL without credentials; the credentials sealed)
 * and queue a run — 204, the run happens in the background (git-sync.jobs.ts) — and `getSpaceGitInfo`
 * answers where the space syncs and how the last run went. Both runs need the `edit` level on the
 * space, reading the state `read`.
 */
export const MAX_URL = 2048;
export const MAX_REF = 256;
export const MAX_PROJECT_DIRECTORY = 512;
export const MAX_COMMIT_MESSAGE = 2000;

export const GIT_SYNC_JOB = 'git-sync.run';

export interface GitRunInput {
  url: string;
  ref: string;
  repoProjectDirectory?: string | null;
  repoTreeURL?: string | null;
  repoCommitURL?: string | null;
  commitMessage?: string | null;
  force?: boolean | null;
  standalone?: boolean | null;
}

export interface GitRunPayload {
  syncId: string;
  direction: 'import' | 'export';
  options: RunOptions;
}

/** The URL split from its credentials (`https://user:token@host/repo.git`). */
function repositoryUrl(value: string, allowPrivate: boolean): { url: string; username?: string; password?: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BadRequestError('"url" must be an absolute http or https URL of a Git repository');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new BadRequestError('"url" must be an http or https URL (Git over smart HTTP)');
  // An address written in the URL is checked now (a name is checked by the run, once resolved).
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && ((isIP(host) && !isPublicAddress(host)) || host === 'localhost' || host.endsWith('.localhost'))) {
    throw new BadRequestError('"url" points at a loopback, private, link-local or metadata address: refused (FETCH_ALLOW_PRIVATE=true allows it)');
  }
  const username = url.username ? decodeURIComponent(url.username) : undefined;
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  url.username = '';
  url.password = '';
  url.hash = '';
  return { url: url.toString(), username, password };
}

/** `refs/heads/<branch>`, from that or a bare branch name; refused when it cannot be a branch. */
export function branchRef(value: string): string {
  const branch = value.replace(/^refs\/heads\//, '');
  if (!branch || value.startsWith('refs/') && !value.startsWith('refs/heads/') || /(^|\/)\.|\.\.|[\s~^:?*[\\\x00-\x1f\x7f]|\/$|\.lock$|@\{/.test(branch)) {
    throw new BadRequestError('"ref" must be a branch, as "refs/heads/main" or "main"');
  }
  return `refs/heads/${branch}`;
}

function projectDirectoryOf(value: string | null | undefined): string {
  const folder = (value ?? '').replace(/^\.?\/+|\/+$/g, '');
  if (folder.split('/').some((part) => part === '..' || part === '.') || folder.includes('\0')) {
    throw new BadRequestError('"repoProjectDirectory" must be a folder inside the repository');
  }
  return folder;
}

function optionalUrl(field: string, value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.toString();
  } catch {
    // answered below
  }
  throw new BadRequestError(`"${field}" must be an absolute http or https URL`);
}

/** Records the repository and queues one run; the space must exist and the caller may edit it. */
export async function queueGitRun(ctx: Context, spaceId: string, direction: 'import' | 'export', input: GitRunInput): Promise<boolean> {
  const viewer = viewerOf(ctx);
  const { space } = await spaceFor(ctx, spaceId, 'edit');
  const remote = repositoryUrl(input.url, ctx.config.fetch.allowPrivate);
  const ref = branchRef(input.ref);
  const projectDirectory = projectDirectoryOf(input.repoProjectDirectory);
  const treeUrl = optionalUrl('repoTreeURL', input.repoTreeURL);
  const commitUrl = optionalUrl('repoCommitURL', input.repoCommitURL);
  if (direction === 'export' && !input.commitMessage?.trim()) throw new BadRequestError('"commitMessage" must not be empty');
  const credentials =
    remote.username !== undefined || remote.password !== undefined
      ? await sealSecret(ctx.db, CREDENTIALS_KEY, JSON.stringify({ username: remote.username ?? '', password: remote.password ?? '' }))
      : undefined;
  const now = ctx.clock.now();
  const options: RunOptions = {
    force: input.force ?? false,
    standalone: input.standalone ?? false,
    ...(input.commitMessage ? { commitMessage: input.commitMessage } : {}),
    userId: viewer.user.id,
  };
  await ctx.db.$transaction(async (tx) => {
    const existing = await tx.gitSync.findUnique({ where: { spaceId: space.id } });
    // Another repository (or branch) than the one synced: its history is not ours, start afresh.
    const sameRepository = existing && existing.url === remote.url && existing.ref === ref && existing.projectDirectory === projectDirectory;
    const connection = {
      url: remote.url,
      ref,
      projectDirectory,
      treeUrl,
      commitUrl,
      // Credentials given replace the stored ones; none given keep them for the same repository URL.
      ...(credentials !== undefined ? { credentials } : existing?.url === remote.url ? {} : { credentials: null }),
      ...(sameRepository ? {} : { syncedCommit: null, syncedRevisionId: null, paths: {} }),
    };
    const run = { direction, state: 'running' as const, startedAt: now, endedAt: null, error: null, updatedAt: now };
    const sync = existing
      ? await tx.gitSync.update({ where: { id: existing.id }, data: { ...connection, ...run } })
      : await tx.gitSync.create({ data: { id: newId(), spaceId: space.id, createdById: viewer.user.id, createdAt: now, ...connection, ...run } });
    const payload: GitRunPayload = { syncId: sync.id, direction, options };
    await enqueueJob(tx, { kind: GIT_SYNC_JOB, key: `git-sync:${space.id}:${direction}`, payload: payload as never, maxAttempts: 4 }, now);
  }, TRANSACTION_OPTIONS);
  return true;
}

/** GitBook's GitSyncState of a space: 404 when the space has never been synced. */
export async function spaceGitInfo(ctx: Context, spaceId: string): Promise<GitSync> {
  const { space } = await spaceFor(ctx, spaceId, 'read');
  const sync = await ctx.db.gitSync.findUnique({ where: { spaceId: space.id } });
  if (!sync) throw new NotFoundError(`Space "${spaceId}" has no Git repository set up`);
  return sync;
}

/** A merge on our side exports the space (the run makes no commit when nothing differs). */
export async function exportAfterMerge(tx: Prisma.TransactionClient, event: DomainEvents['changeRequest.merged']): Promise<void> {
  const sync = await tx.gitSync.findUnique({ where: { spaceId: event.spaceId }, select: { id: true, changeRequestId: true, changeRequestCommit: true } });
  if (!sync) return;
  // The repository's own change request merged: its commit is now taken in.
  const takenIn = sync.changeRequestId === event.changeRequestId ? { syncedCommit: sync.changeRequestCommit, changeRequestId: null, changeRequestCommit: null } : {};
  await tx.gitSync.update({ where: { id: sync.id }, data: { ...takenIn, direction: 'export', state: 'running', startedAt: event.at, endedAt: null, error: null, updatedAt: event.at } });
  const payload: GitRunPayload = {
    syncId: sync.id,
    direction: 'export',
    options: { userId: event.mergedById, commitMessage: `${event.subject.trim() || 'Change request'} (#${event.number})` },
  };
  await enqueueJob(tx, { kind: GIT_SYNC_JOB, key: `git-sync:${event.spaceId}:export`, payload: payload as never, maxAttempts: 4 }, event.at);
}

export const WEBHOOK_SECRET_KEY = 'git-sync-webhooks';

/** Where a Git server sends its push events for this space, and the secret they are signed with. */
export interface GitSyncWebhook {
  url: string;
  secret: string;
}

/**
 * Makes (or replaces) the space's webhook secret and answers it, once: the Git server signs its push
 * events with it (GitHub, Gitea, Forgejo: HMAC-SHA256 of the body) or sends it as a token (GitLab).
 */
export async function createGitSyncWebhook(ctx: Context, spaceId: string): Promise<GitSyncWebhook> {
  const { space } = await spaceFor(ctx, spaceId, 'edit');
  const sync = await ctx.db.gitSync.findUnique({ where: { spaceId: space.id }, select: { id: true } });
  if (!sync) throw new NotFoundError(`Space "${spaceId}" has no Git repository set up: import or export it first`);
  const secret = randomBytes(32).toString('base64url');
  await ctx.db.gitSync.update({ where: { id: sync.id }, data: { webhookSecret: await sealSecret(ctx.db, WEBHOOK_SECRET_KEY, secret), updatedAt: ctx.clock.now() } });
  return { url: webhookUrl(ctx.config.publicUrl, sync.id), secret };
}

export const WEBHOOK_PATH = '/git-sync/{installationId}/webhook';
export const webhookUrl = (publicUrl: string, installationId: string) => `${publicUrl.replace(/\/+$/, '')}${WEBHOOK_PATH.replace('{installationId}', installationId)}`;
