import type { Context } from '../../core/context.ts';
import { viewerOf } from '../../core/context.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import type { GitSync } from '../../generated/prisma/client.ts';
import { newId } from '../../lib/ids.ts';
import { spaceFor } from '../content-access/index.ts';
import { queueGitRun } from './git-sync.service.ts';

/**
 * GitBook's Git Sync installations, for a generic Git server (docs/git-sync.md, "Installations"): an
 * installation is a space's sync (the `GitSync` row; its ID is the installation's). Installing makes a
 * pending one; updating it with a repository URL and a branch (and credentials: a token, stored sealed,
 * never answered) activates it and queues the first sync in the direction `priority` says (`git`: an
 * import, `gitbook`: an export); uninstalling removes it. A space installation only: a site's is a 400.
 * Installing, updating and uninstalling need the `admin` level on the space; reading one `read`.
 */
export interface InstallationTarget {
  type: string;
  spaceId?: string | null;
  siteId?: string | null;
}

export interface InstallationUpdate {
  provider?: string | null;
  projectDirectory?: string | null;
  priority?: string | null;
  commitMessageTemplate?: string | null;
  providerConfiguration?: {
    repositoryUrl?: string | null;
    username?: string | null;
    accessToken?: string | null;
    branch?: string | null;
  } | null;
}

export const PROVIDERS = ['github', 'gitlab'] as const;

function spaceTarget(target: InstallationTarget): string {
  if (target.type !== 'space') throw new BadRequestError('"target.type" must be "space": site installations are not served (each space of a site is synced on its own)');
  if (!target.spaceId) throw new BadRequestError('"target.spaceId" is required for a space installation');
  return target.spaceId;
}

/** The installation and its space, the caller holding `action`'s level on it; 404 as for any unknown ID otherwise. */
async function installationFor(ctx: Context, installationId: string, action: 'read' | 'administer'): Promise<GitSync> {
  const sync = installationId.length <= 64 ? await ctx.db.gitSync.findUnique({ where: { id: installationId } }) : null;
  if (!sync) throw new NotFoundError(`Git Sync installation "${installationId.slice(0, 64)}" not found`);
  try {
    await spaceFor(ctx, sync.spaceId, action === 'read' ? 'read' : 'administer');
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError(`Git Sync installation "${installationId}" not found`);
    throw error;
  }
  return sync;
}

export async function installGitSync(ctx: Context, provider: string, target: InstallationTarget): Promise<GitSync> {
  const viewer = viewerOf(ctx);
  const { space } = await spaceFor(ctx, spaceTarget(target), 'administer');
  const now = ctx.clock.now();
  return ctx.db.$transaction(async (tx) => {
    if (await tx.gitSync.findUnique({ where: { spaceId: space.id }, select: { id: true } })) throw new ConflictError(`Space "${space.id}" already has a Git Sync installation`);
    // Pending until a repository and a branch are given (updateGitSyncInstallationById).
    return tx.gitSync.create({ data: { id: newId(), spaceId: space.id, url: '', ref: '', provider, createdById: viewer.user.id, createdAt: now, updatedAt: now } });
  }, TRANSACTION_OPTIONS);
}

export const getGitSyncInstallation = (ctx: Context, installationId: string) => installationFor(ctx, installationId, 'read');

export async function updateGitSyncInstallation(ctx: Context, installationId: string, update: InstallationUpdate): Promise<GitSync> {
  const sync = await installationFor(ctx, installationId, 'administer');
  const configuration = update.providerConfiguration ?? {};
  const url = configuration.repositoryUrl ?? (sync.url || null);
  const branch = configuration.branch ?? (sync.ref || null);
  if (!url) throw new BadRequestError('"providerConfiguration.repositoryUrl" is required: the Git repository (smart HTTP) to sync with');
  if (!branch) throw new BadRequestError('"providerConfiguration.branch" is required, as "refs/heads/main"');
  if (update.priority !== undefined && update.priority !== null && update.priority !== 'git' && update.priority !== 'gitbook') {
    throw new BadRequestError('"priority" must be "git" (first sync imports the repository) or "gitbook" (first sync exports the space)');
  }
  let withCredentials = url;
  if (configuration.accessToken) {
    try {
      const parsed = new URL(url);
      parsed.username = encodeURIComponent(configuration.username || 'oauth2');
      parsed.password = encodeURIComponent(configuration.accessToken);
      withCredentials = parsed.toString();
    } catch {
      throw new BadRequestError('"providerConfiguration.repositoryUrl" must be an absolute http or https URL of a Git repository');
    }
  }
  if (update.provider) await ctx.db.gitSync.update({ where: { id: sync.id }, data: { provider: update.provider } });
  const direction = (update.priority ?? 'git') === 'git' ? 'import' : 'export';
  await queueGitRun(ctx, sync.spaceId, direction, {
    url: withCredentials,
    ref: branch,
    repoProjectDirectory: update.projectDirectory ?? sync.projectDirectory,
    commitMessage: direction === 'export' ? update.commitMessageTemplate || 'Initial export from GitBook' : undefined,
  });
  return (await ctx.db.gitSync.findUnique({ where: { id: sync.id } }))!;
}

export async function uninstallGitSync(ctx: Context, installationId: string): Promise<boolean> {
  const sync = await installationFor(ctx, installationId, 'administer');
  await ctx.db.gitSync.deleteMany({ where: { id: sync.id } });
  return true;
}
