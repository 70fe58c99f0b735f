// Issue 40: GitBook's official client (`GitBookAPI` from @gitbook/api) drives Git Sync over a real HTTP
// listener against a real Git server: importGitRepository, getSpaceGitInfo, exportToGitRepository and the
// installation operations, each answer checked against GitBook's OpenAPI schemas.
import { describe, expect, it } from 'vitest';
import { JobRunner } from '../../src/jobs/job-runner.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { jobHandlers } from '../../src/schema.ts';
import { expectGitBookShape } from '../support/assertions.ts';
import { expectApiError, useClientServer } from '../support/client-server.ts';
import { useGitServer } from '../support/git-server.ts';

const s = useClientServer({ config: { fetch: { allowPrivate: true } } });
const git = useGitServer();

describe('official GitBookAPI client: Git Sync', () => {
  it('drives importGitRepository, getSpaceGitInfo, exportToGitRepository and the installation operations', async () => {
    const ada = await s.newUser('Ada');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Docs as code' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
    const runner = new JobRunner({ db: s.store.database.prisma, config: s.config, clock: s.clock, logger: createLogger('silent'), handlers: jobHandlers, concurrency: 1 });
    await expectApiError(api.spaces.getSpaceGitInfo(space.id), 404);

    const repository = git.repository('client', { 'README.md': '# Welcome\n\nHello.\n', 'SUMMARY.md': '* [Welcome](README.md)\n* [Guide](guide.md)\n', 'guide.md': '# Guide\n\nSteps.\n' });
    const url = repository.replace('http://', `http://${git.username}:${git.password}@`);
    const queued = await api.spaces.importGitRepository(space.id, { url, ref: 'refs/heads/main' });
    expect(queued.status).toBe(204);
    expect(await queued.text()).toBe('');
    await runner.drain();
    const info = await api.spaces.getSpaceGitInfo(space.id);
    expect(info.data).toMatchObject({ installationStatus: 'active', repoName: 'client', operation: { state: 'success', direction: 'import' } });
    expectGitBookShape('getSpaceGitInfo', 200, info.data);
    const pages = (await api.spaces.listPages(space.id)).data.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Welcome', 'Guide']);

    const exported = await api.spaces.exportToGitRepository(space.id, { url: repository, ref: 'refs/heads/export', commitMessage: 'From the client' });
    expect(exported.status).toBe(204);
    await runner.drain();
    expect((await api.spaces.getSpaceGitInfo(space.id)).data.operation).toMatchObject({ state: 'success', direction: 'export' });
    await expectApiError(api.spaces.importGitRepository(space.id, { url: 'file:///etc/passwd', ref: 'main' }), 400);

    // Installations: install, read, set the repository (the first sync imports it), uninstall.
    const other = (await api.orgs.createSpace(org.id, { title: 'Installed' })).data;
    const installed = await api.git.installGitSyncProviderOnTarget({ provider: 'gitlab' as never, target: { type: 'space', spaceId: other.id } });
    expect(installed.status).toBe(201);
    expectGitBookShape('installGitSyncProviderOnTarget', 201, installed.data);
    expect((await api.git.getGitSyncInstallationById(installed.data.id)).data).toMatchObject({ status: 'pending' });
    const configured = await api.git.updateGitSyncInstallationById(installed.data.id, {
      provider: 'gitlab',
      priority: 'git',
      providerConfiguration: { repositoryUrl: repository, branch: 'refs/heads/main', username: git.username, accessToken: git.password },
    } as never);
    expect(configured.data).toMatchObject({ status: 'active', providerConfiguration: { branch: 'refs/heads/main' } });
    expectGitBookShape('updateGitSyncInstallationById', 200, configured.data);
    await runner.drain();
    expect((await api.spaces.listPages(other.id)).data.pages.map((p: { title: string }) => p.title)).toEqual(['Welcome', 'Guide']);
    const removed = await api.git.uninstallGitSyncInstallation(installed.data.id);
    expect(removed.status).toBe(205);
    await expectApiError(api.git.getGitSyncInstallationById(installed.data.id), 404);
    await runner.stop();
  });
});
