import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import type { GitSync } from '../../generated/prisma/client.ts';
import { MAX_PROJECT_DIRECTORY, MAX_REF, MAX_URL } from './git-sync.service.ts';
import { getGitSyncInstallation, installGitSync, PROVIDERS, uninstallGitSync, updateGitSyncInstallation } from './git-sync-installations.service.ts';

/** GitBook's provider of a sync: the one stored, else `github` for github.com and `gitlab` for any other server. */
export const providerOf = (sync: Pick<GitSync, 'provider' | 'url'>) => sync.provider ?? (/^https?:\/\/(www\.)?github\.com\//i.test(sync.url) ? 'github' : 'gitlab');
export const statusOf = (sync: Pick<GitSync, 'url'>) => (sync.url ? 'active' : 'pending');

const GitSyncInstallationTargetRef = builder.objectRef<GitSync>('GitSyncInstallationTarget').implement({
  description: 'What a Git Sync installation syncs: a space',
  fields: (t) => ({
    type: t.string({ extensions: constrained({ enum: ['space'] }), resolve: () => 'space' }),
    spaceId: t.exposeString('spaceId'),
  }),
});

const GitSyncProviderConfigurationRef = builder.objectRef<GitSync>('GitSyncProviderConfiguration').implement({
  description: 'Where the installation syncs: the repository (without credentials) and the branch',
  fields: (t) => ({
    repositoryUrl: t.string({ nullable: true, resolve: (s) => s.url || null }),
    branch: t.string({ nullable: true, resolve: (s) => s.ref || null }),
  }),
});

const GitSyncInstallationUrls = builder.simpleObject('GitSyncInstallationUrls', {
  fields: (t) => ({ location: t.string({ extensions: constrained({ format: 'uri' }) }) }),
});

const GitSyncInstallationRef = builder.objectRef<GitSync>('GitSyncInstallation').implement({
  description: "GitBook's GitSyncInstallation, for a generic Git server: a space's sync; the credentials are never answered",
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['git-sync-installation'] }), resolve: () => 'git-sync-installation' }),
    id: t.exposeString('id'),
    provider: t.string({ extensions: constrained({ enum: [...PROVIDERS] }), resolve: (s) => providerOf(s) }),
    providerConfiguration: t.field({ type: GitSyncProviderConfigurationRef, resolve: (s) => s }),
    projectDirectory: t.string({ nullable: true, resolve: (s) => s.projectDirectory || null }),
    target: t.field({ type: GitSyncInstallationTargetRef, resolve: (s) => s }),
    status: t.string({ description: '`pending` until a repository and a branch are set, then `active`', extensions: constrained({ enum: ['unauthenticated', 'active', 'pending'] }), resolve: (s) => statusOf(s) }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.createdAt }),
    createdBy: t.string({ description: 'ID of the user who installed it', resolve: (s) => s.createdById ?? '' }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => s.updatedAt }),
    urls: t.field({ type: GitSyncInstallationUrls, resolve: (s, _args, ctx) => ({ location: `${ctx.config.apiUrl}/git/installations/${s.id}` }) }),
  }),
});

const GitSyncInstallationTargetInput = builder.inputType('GitSyncInstallationTargetInput', {
  description: '`{ type: "space", spaceId }` (site installations are not served)',
  fields: (t) => ({
    type: t.string({ required: true, extensions: constrained({ enum: ['space', 'site'] }) }),
    spaceId: t.string({ extensions: constrained({ maxLength: 64 }) }),
    siteId: t.string({ extensions: constrained({ maxLength: 64 }) }),
  }),
});

const GitSyncProviderConfigurationInput = builder.inputType('GitSyncProviderConfigurationInput', {
  description: 'A generic Git server: the repository URL, the branch, and a token (stored sealed, never answered)',
  fields: (t) => ({
    repositoryUrl: t.string({ description: 'The repository, over smart HTTP', extensions: constrained({ maxLength: MAX_URL }) }),
    branch: t.string({ description: 'As `refs/heads/main`', extensions: constrained({ maxLength: MAX_REF }) }),
    username: t.string({ description: 'For basic auth with the token (default `oauth2`)', extensions: constrained({ maxLength: 256 }) }),
    accessToken: t.string({ description: 'A token with read and write access to the repository', extensions: constrained({ maxLength: 1024 }) }),
    repositoryId: t.float({ description: "GitHub's repository ID: accepted, unused (give `repositoryUrl`)" }),
    projectId: t.float({ description: "GitLab's project ID: accepted, unused (give `repositoryUrl`)" }),
    customInstanceURL: t.string({ description: 'A self-hosted GitLab: accepted, unused (give `repositoryUrl`)', extensions: constrained({ maxLength: MAX_URL }) }),
  }),
});

builder.queryFields((t) => ({
  gitSyncInstallation: t.field({
    type: GitSyncInstallationRef,
    description: 'A Git Sync installation by ID',
    args: { installationId: t.arg.string({ required: true, description: 'ID of the installation' }) },
    resolve: (_root, args, ctx) => getGitSyncInstallation(ctx, args.installationId),
  }),
}));

builder.mutationFields((t) => ({
  installGitSyncProviderOnTarget: t.field({
    type: GitSyncInstallationRef,
    description: 'Installs Git Sync on a space: pending until updated with a repository and a branch',
    args: {
      provider: t.arg.string({ required: true, description: '`github` or `gitlab` (any Git server works: the URL decides)', extensions: constrained({ enum: [...PROVIDERS] }) }),
      target: t.arg({ type: GitSyncInstallationTargetInput, required: true, description: 'The space to sync: `{ type: "space", spaceId }`' }),
    },
    resolve: (_root, args, ctx) => installGitSync(ctx, args.provider, args.target),
  }),
  updateGitSyncInstallation: t.field({
    type: GitSyncInstallationRef,
    description: 'Sets where the installation syncs and queues a sync: `priority: git` imports the repository, `gitbook` exports the space',
    args: {
      installationId: t.arg.string({ required: true, description: 'ID of the installation' }),
      provider: t.arg.string({ description: '`github` or `gitlab` (answered as the provider; the URL decides how to sync)', extensions: constrained({ enum: [...PROVIDERS] }) }),
      providerConfiguration: t.arg({ type: GitSyncProviderConfigurationInput, description: 'The repository URL, the branch and a token' }),
      projectDirectory: t.arg.string({ description: 'The folder of a monorepo the content is in', extensions: constrained({ maxLength: MAX_PROJECT_DIRECTORY }) }),
      priority: t.arg.string({ description: '`git` (default) or `gitbook`: which side the first sync takes', extensions: constrained({ enum: ['git', 'gitbook'] }) }),
      commitMessageTemplate: t.arg.string({ description: "The first export's commit message", extensions: constrained({ maxLength: 2000 }) }),
      previewExternalBranches: t.arg.boolean({ description: 'Accepted, unused' }),
    },
    resolve: (_root, args, ctx) => updateGitSyncInstallation(ctx, args.installationId, args),
  }),
  uninstallGitSyncInstallation: t.boolean({
    description: "Removes a space's Git Sync (the repository is left as it is)",
    args: { installationId: t.arg.string({ required: true, description: 'ID of the installation' }) },
    resolve: (_root, args, ctx) => uninstallGitSync(ctx, args.installationId),
  }),
}));
