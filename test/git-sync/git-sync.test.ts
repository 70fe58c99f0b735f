// Issue 40: Git Sync through both doors against a real Git server (git http-backend on 127.0.0.1, basic
// auth): a GitBook-shaped repository imported, exported back byte for byte, a push imported as what it
// changed, both sides changed → a change request the three-way merge reconciles, and the errors a
// person can act on.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRunner } from '../../src/jobs/job-runner.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { jobHandlers } from '../../src/schema.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';
import { useGitServer } from '../support/git-server.ts';
import { BASE, useHarness, type Caller } from '../support/harness.ts';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';

const h = useHarness({ fetch: { allowPrivate: true } });
const server = useGitServer();

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A repository laid out as GitBook's Git Sync writes one: nested SUMMARY, a group, an asset, front matter, blocks. */
const HANDBOOK: Record<string, string | Uint8Array> = {
  '.gitbook.yaml': 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n  setup/install: getting-started/install.md\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Getting started](getting-started/README.md)\n  * [Install](getting-started/install.md)\n\n## Reference\n\n* [API](reference/api.md)\n',
  'README.md': '# Welcome\n\nStart with [installing](getting-started/install.md).\n',
  'getting-started/README.md':
    '---\ndescription: What you need first\nicon: rocket\n---\n\n# Getting started\n\nThe big picture:\n\n![Diagram](../.gitbook/assets/diagram.png)\n',
  'getting-started/install.md':
    '# Install\n\n{% hint style="warning" %}\nNeeds Node 22.\n{% endhint %}\n\n{% code title="install.sh" %}\n```bash\nnpm install\n```\n{% endcode %}\n\n{% tabs %}\n{% tab title="npm" %}\nnpm start\n{% endtab %}\n\n{% tab title="yarn" %}\nyarn start\n{% endtab %}\n{% endtabs %}\n\nBack to [the start](../README.md).\n',
  'reference/api.md': '---\nhidden: true\n---\n\n# API\n\n| Method | Path |\n| ------ | ---- |\n| GET    | /v1  |\n\n$$\nE = mc^2\n$$\n',
  '.gitbook/assets/diagram.png': PNG,
};

let admin: Caller;
let organizationId: string;
let runner: JobRunner;
/** Runs the queued jobs, in order, one at a time (a run that waits for another's turn is due again 2 s later). */
async function drain() {
  for (let round = 0; round < 5; round++) {
    await runner.drain();
    if (!(await h.db.job.count({ where: { state: 'queued' } }))) return;
    h.clock.advance(3000);
  }
}

beforeAll(async () => {
  ({ admin, organizationId } = await buildOrganization(h));
  runner = new JobRunner({ db: h.db, config: h.config, clock: h.clock, logger: createLogger('silent'), handlers: jobHandlers, backoffMs: 10, concurrency: 1 });
});
afterAll(async () => runner?.stop());

const withCredentials = (url: string, password = server.password) => url.replace('http://', `http://${server.username}:${password}@`);

async function pagesOf(spaceId: string) {
  const content = expectOk(await admin.rest('GET', `/v1/spaces/${spaceId}/content`));
  const flat: { id: string; title: string; path: string; type: string }[] = [];
  const visit = (pages: any[]) => {
    for (const page of pages) {
      flat.push({ id: page.id, title: page.title, path: page.path ?? '', type: page.type });
      visit(page.pages ?? []);
    }
  };
  visit(content.pages);
  return { revision: content.id as string, pages: flat };
}

const markdownOf = async (spaceId: string, pageId: string) => expectOk(await admin.rest('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).markdown as string;

async function gitInfo(spaceId: string) {
  const res = await admin.rest('GET', `/v1/spaces/${spaceId}/git/info`);
  return res;
}

describe('Git Sync against a real Git server', () => {
  let spaceId: string;
  let url: string;

  it('imports a GitBook repository: the tree from SUMMARY.md, groups, front matter, assets, links between pages', async () => {
    spaceId = (await buildSpace(admin, organizationId)).id;
    url = server.repository('handbook', HANDBOOK);
    expect((await gitInfo(spaceId)).status).toBe(404);
    const queued = await admin.rest('POST', `/v1/spaces/${spaceId}/git/import`, { url: withCredentials(url), ref: 'refs/heads/main' });
    expect(queued.status).toBe(204);
    const running = expectOk(await gitInfo(spaceId));
    expect(running.operation).toMatchObject({ state: 'running', direction: 'import' });
    expect(JSON.stringify(running)).not.toContain(server.password);
    validateGitBookResponse('getSpaceGitInfo', 200, running);
    await drain();
    const done = expectOk(await gitInfo(spaceId));
    expect(done.operation).toMatchObject({ state: 'success', direction: 'import' });
    expect(done).toMatchObject({ installationProvider: 'gitlab', installationStatus: 'active', repoName: 'handbook' });
    validateGitBookResponse('getSpaceGitInfo', 200, done);

    const { pages } = await pagesOf(spaceId);
    expect(pages.map((p) => [p.type, p.title])).toEqual([
      ['document', 'Welcome'],
      ['document', 'Getting started'],
      ['document', 'Install'],
      ['group', 'Reference'],
      ['document', 'API'],
    ]);
    const install = pages.find((p) => p.title === 'Install')!;
    const welcome = pages.find((p) => p.title === 'Welcome')!;
    expect(await markdownOf(spaceId, welcome.id)).toContain(`[installing](`);
    const page = expectOk(await admin.rest('GET', `/v1/spaces/${spaceId}/content/page/${pages.find((p) => p.title === 'Getting started')!.id}`));
    expect(page).toMatchObject({ description: 'What you need first' });
    const api = expectOk(await admin.rest('GET', `/v1/spaces/${spaceId}/content/page/${pages.find((p) => p.title === 'API')!.id}`));
    expect(api.hidden).toBe(true);
    expect(await markdownOf(spaceId, install.id)).toContain('{% hint style="warning" %}');
    // .gitbook.yaml's redirect: the old path leads to the page its file is now.
    expect(await h.db.pagePathRedirect.findMany({ where: { spaceId }, select: { path: true, pageId: true } })).toEqual([{ path: 'setup/install', pageId: install.id }]);
    const files = expectOk(await admin.rest('GET', `/v1/spaces/${spaceId}/content/files`));
    expect(files.items.map((f: any) => f.name)).toEqual(['diagram.png']);
  });

  it('exports the space back: the same files, byte for byte; an export that changes nothing makes no commit', async () => {
    const mirror = server.repository('mirror', { LICENSE: 'MIT\n' });
    const queued = await admin.rest('POST', `/v1/spaces/${spaceId}/git/export`, { url: withCredentials(mirror), ref: 'refs/heads/main', commitMessage: 'Docs from the platform' });
    expect(queued.status).toBe(204);
    await drain();
    expect(expectOk(await gitInfo(spaceId)).operation).toMatchObject({ state: 'success', direction: 'export' });
    const exported = server.files('mirror');
    for (const [file, content] of Object.entries(HANDBOOK)) {
      if (file === '.gitbook.yaml') continue;
      expect(exported.get(file)?.toString('latin1'), file).toBe(Buffer.from(content).toString('latin1'));
    }
    expect(exported.get('LICENSE')?.toString()).toBe('MIT\n');
    expect([...exported.keys()].sort()).toEqual(['.gitbook/assets/diagram.png', 'LICENSE', 'README.md', 'SUMMARY.md', 'getting-started/README.md', 'getting-started/install.md', 'reference/api.md']);
    const head = server.head('mirror');
    expect(head.message).toBe('Docs from the platform');
    expect(head.author).toContain(admin.email);

    // Back to the repository it came from: nothing differs, no commit.
    const before = server.head('handbook').id;
    expect((await admin.rest('POST', `/v1/spaces/${spaceId}/git/export`, { url: withCredentials(url), ref: 'main', commitMessage: 'Nothing' })).status).toBe(204);
    await drain();
    expect(expectOk(await gitInfo(spaceId)).operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(server.head('handbook').id).toBe(before);
  });

  it('a push imports what it changed: the same pages (IDs) with the new body', async () => {
    const before = await pagesOf(spaceId);
    server.commit('handbook', { 'getting-started/install.md': String(HANDBOOK['getting-started/install.md']).replace('Needs Node 22.', 'Needs Node 24.') });
    expect((await admin.rest('POST', `/v1/spaces/${spaceId}/git/import`, { url, ref: 'refs/heads/main' })).status).toBe(204);
    await drain();
    expect(expectOk(await gitInfo(spaceId)).operation).toMatchObject({ state: 'success' });
    const after = await pagesOf(spaceId);
    expect(after.revision).not.toBe(before.revision);
    expect(after.pages).toEqual(before.pages);
    const install = after.pages.find((p) => p.title === 'Install')!;
    expect(await markdownOf(spaceId, install.id)).toContain('Needs Node 24.');
  });

  it('both sides changed since the last sync: the Git side arrives as a change request, merged three-way', async () => {
    const { pages } = await pagesOf(spaceId);
    const welcome = pages.find((p) => p.title === 'Welcome')!;
    const install = pages.find((p) => p.title === 'Install')!;
    // Our side: a change request merged into the space, on the Welcome page.
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit welcome' }), 201);
    expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes: [{ operation: 'update_page', page: welcome.id, document: { markdown: 'Welcome, edited here.\n' } }] }));
    expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`));
    const main = (await pagesOf(spaceId)).revision;
    // The Git side: the Install page.
    server.commit('handbook', { 'getting-started/install.md': String(HANDBOOK['getting-started/install.md']).replace('Needs Node 22.', 'Needs Node 26.') });
    expect((await admin.rest('POST', `/v1/spaces/${spaceId}/git/import`, { url, ref: 'main' })).status).toBe(204);
    await drain();
    expect((await pagesOf(spaceId)).revision).toBe(main);
    const open = expectOk(await admin.rest('GET', `/v1/spaces/${spaceId}/change-requests?status=open`));
    const fromGit = open.items.find((c: any) => c.subject.startsWith('Changes from Git'));
    expect(fromGit).toBeDefined();
    // Meanwhile the branch is not written: the export our merge asked for waits for the repository's side.
    expect(String(server.files('handbook').get('getting-started/install.md'))).toContain('Needs Node 26.');
    expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests/${fromGit.id}/merge`));
    expect(await markdownOf(spaceId, install.id)).toContain('Needs Node 26.');
    expect(await markdownOf(spaceId, welcome.id)).toContain('Welcome, edited here.');
    // Merged: both sides' changes go to the branch, one commit.
    await drain();
    const files = server.files('handbook');
    expect(String(files.get('README.md'))).toBe('# Welcome\n\nWelcome, edited here.\n');
    expect(String(files.get('getting-started/install.md'))).toContain('Needs Node 26.');
    expect(expectOk(await gitInfo(spaceId)).operation).toMatchObject({ state: 'success', direction: 'export' });
  });

  it('a conflict: the same line changed on both sides shows on the repository\'s change request, resolved as any; the resolution goes to the branch', async () => {
    const space = (await buildSpace(admin, organizationId)).id;
    const repo = server.repository('conflict', { 'README.md': '# Guide\n\nInstall with npm.\n\nThen run it.\n', 'SUMMARY.md': '* [Guide](README.md)\n' });
    expect((await admin.rest('POST', `/v1/spaces/${space}/git/import`, { url: withCredentials(repo), ref: 'main' })).status).toBe(204);
    await drain();
    const [guide] = (await pagesOf(space)).pages;
    // Here: the line changed and merged (its export waits for the branch's new commit, imported first).
    const ours = expectOk(await admin.rest('POST', `/v1/spaces/${space}/change-requests`, { subject: 'Use pnpm' }), 201);
    expectOk(await admin.rest('POST', `/v1/spaces/${space}/change-requests/${ours.id}/content`, { changes: [{ operation: 'update_page', page: guide.id, document: { markdown: 'Install with pnpm.\n\nThen run it.\n' } }] }));
    expectOk(await admin.rest('POST', `/v1/spaces/${space}/change-requests/${ours.id}/merge`));
    // There: the same line.
    server.commit('conflict', { 'README.md': '# Guide\n\nInstall with yarn.\n\nThen run it.\n' });
    expect((await admin.rest('POST', `/v1/spaces/${space}/git/import`, { url: repo, ref: 'main' })).status).toBe(204);
    await drain();
    expect(String(server.files('conflict').get('README.md'))).toContain('yarn');
    const fromGit = expectOk(await admin.rest('GET', `/v1/spaces/${space}/change-requests?status=open`)).items.find((c: any) => c.subject.startsWith('Changes from Git'));
    const path = `/v1/spaces/${space}/change-requests/${fromGit.id}`;
    expect(restError(await admin.rest('POST', `${path}/merge`), 409)).toContain(guide.id);
    const updated = expectOk(await admin.rest('POST', `${path}/update`));
    expect(updated).toMatchObject({ result: 'conflicts', conflicts: [expect.objectContaining({ page: guide.id })] });
    // Resolved in the change request, merged: the branch gets the resolution.
    expectOk(await admin.rest('POST', `${path}/content`, { changes: [{ operation: 'update_page', page: guide.id, document: { markdown: 'Install with pnpm or yarn.\n\nThen run it.\n' } }] }));
    expectOk(await admin.rest('POST', `${path}/merge`));
    await drain();
    expect(String(server.files('conflict').get('README.md'))).toBe('# Guide\n\nInstall with pnpm or yarn.\n\nThen run it.\n');
    expect(expectOk(await gitInfo(space)).operation).toMatchObject({ state: 'success', direction: 'export' });
  });

  it('bounded: an asset past 1 MB fails the run naming the file; nothing is written', async () => {
    const space = (await buildSpace(admin, organizationId)).id;
    const repo = server.repository('heavy', { 'README.md': '# Heavy\n\n![big](.gitbook/assets/big.png)\n', '.gitbook/assets/big.png': Buffer.concat([PNG, Buffer.alloc(1_100_000)]) });
    expect((await admin.rest('POST', `/v1/spaces/${space}/git/import`, { url: withCredentials(repo), ref: 'main' })).status).toBe(204);
    await drain();
    const info = expectOk(await gitInfo(space));
    expect(info.operation.state).toBe('failure');
    expect(info.operation.error).toContain('.gitbook/assets/big.png');
    expect((await pagesOf(space)).pages).toEqual([]);
  });

  it('a push webhook (GitHub, Gitea/Forgejo, GitLab), signed with the space\'s secret, imports the branch; a merge on our side exports', async () => {
    const hook = expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/git/webhook`), 201);
    expect(hook.url).toMatch(/\/git-sync\/[^/]+\/webhook$/);
    const path = new URL(hook.url).pathname;
    const post = (headers: Record<string, string>, body: string) =>
      h.app.fetch(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const hmac = (body: string, secret = hook.secret) => createHmac('sha256', secret).update(body).digest('hex');
    const push = JSON.stringify({ ref: 'refs/heads/main', after: '0'.repeat(40) });

    // Refused: no signature, a wrong one, an unknown installation.
    expect((await post({ 'x-github-event': 'push' }, push)).status).toBe(401);
    const wrong = await post({ 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(push, 'not-the-secret')}` }, push);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: { code: 401, message: expect.stringContaining('secret') } });
    expect((await h.app.fetch(`${BASE}/git-sync/nope/webhook`, { method: 'POST', body: push })).status).toBe(404);

    // GitHub: a push to the synced branch imports it.
    server.commit('handbook', { 'reference/api.md': String(HANDBOOK['reference/api.md']).replace('| GET    | /v1  |', '| POST   | /v2  |') });
    const github = await post({ 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmac(push)}` }, push);
    expect(github.status).toBe(202);
    expect(await github.json()).toEqual({ queued: true });
    await drain();
    const api = (await pagesOf(spaceId)).pages.find((p) => p.title === 'API')!;
    expect(await markdownOf(spaceId, api.id)).toContain('/v2');

    // Gitea/Forgejo: a push to another branch runs nothing; a ping neither.
    const other = JSON.stringify({ ref: 'refs/heads/feature' });
    const gitea = await post({ 'x-gitea-event': 'push', 'x-gitea-signature': hmac(other) }, other);
    expect(await gitea.json()).toMatchObject({ queued: false, reason: expect.stringContaining('refs/heads/feature') });
    expect((await post({ 'x-forgejo-event': 'ping', 'x-forgejo-signature': hmac(other) }, other)).status).toBe(202);
    // GitLab: the secret as a token.
    server.commit('handbook', { 'reference/api.md': String(HANDBOOK['reference/api.md']).replace('| GET    | /v1  |', '| PUT    | /v3  |') });
    expect((await post({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'wrong' }, push)).status).toBe(401);
    expect(await (await post({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': hook.secret }, push)).json()).toEqual({ queued: true });
    await drain();
    expect(await markdownOf(spaceId, api.id)).toContain('/v3');

    // A merge on our side: one commit on the branch, named after the change request, by who merged it.
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Say hello' }), 201);
    expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes: [{ operation: 'update_page', page: api.id, document: { markdown: '# API\n\nHello from the platform.\n' } }] }));
    expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`));
    await drain();
    expect(server.head('handbook')).toMatchObject({ message: `Say hello (#${cr.number})`, author: expect.stringContaining(admin.email) });
    expect(server.files('handbook').get('reference/api.md')?.toString()).toBe('---\nhidden: true\n---\n\n# API\n\nHello from the platform.\n');
    expect(expectOk(await gitInfo(spaceId)).operation).toMatchObject({ state: 'success', direction: 'export' });
  });

  it('polling: a space without a webhook takes in new commits of its branch, asking only for its head', async () => {
    const polled = (await buildSpace(admin, organizationId)).id;
    const repo = server.repository('polled', { 'README.md': '# Polled\n\nFirst.\n' });
    expect((await admin.rest('POST', `/v1/spaces/${polled}/git/import`, { url: withCredentials(repo), ref: 'main' })).status).toBe(204);
    await drain();
    const poll = jobHandlers['git-sync.poll'];
    const jobContext = { db: h.db, config: h.config, clock: h.clock, logger: createLogger('silent'), signal: new AbortController().signal, job: { id: 'poll', kind: 'git-sync.poll', attempts: 1 } };
    // Nothing new: no clone, no run.
    const before = server.requests.length;
    expect(await poll({}, jobContext)).toEqual({ again: new Date(h.clock.now().getTime() + h.config.gitSyncPollSeconds * 1000) });
    expect(server.requests.slice(before).filter((r) => r.includes('/polled.git/')).map((r) => r.split('?')[0])).toEqual(['GET /polled.git/info/refs']);
    expect(await h.db.job.count({ where: { state: 'queued' } })).toBe(0);
    // A new commit: imported.
    server.commit('polled', { 'README.md': '# Polled\n\nSecond.\n' });
    await poll({}, jobContext);
    await drain();
    const [page] = (await pagesOf(polled)).pages;
    expect(await markdownOf(polled, page.id)).toContain('Second.');
  });

  it('refuses what cannot be a repository or a branch (400 naming the field), unknown spaces (404), readers (403)', async () => {
    restError(await admin.rest('POST', `/v1/spaces/${spaceId}/git/import`, { url: 'ftp://example.com/repo.git', ref: 'main' }), 400, 'url');
    restError(await admin.rest('POST', `/v1/spaces/${spaceId}/git/import`, { url, ref: 'refs/heads/../x' }), 400, 'ref');
    restError(await admin.rest('POST', `/v1/spaces/${spaceId}/git/import`, { url, ref: 'main', repoProjectDirectory: '../up' }), 400, 'repoProjectDirectory');
    restError(await admin.rest('POST', `/v1/spaces/${spaceId}/git/export`, { url, ref: 'main' }), 400, 'commitMessage');
    restError(await admin.rest('POST', `/v1/spaces/${spaceId}/git/import`, { url: `${url}${'x'.repeat(3000)}`, ref: 'main' }), 400, 'url');
    restError(await admin.rest('POST', '/v1/spaces/nope/git/import', { url, ref: 'main' }), 404);
    restError(await admin.rest('GET', '/v1/spaces/nope/git/info'), 404);
    const reader = await buildMember(h, organizationId, 'read');
    restError(await reader.rest('POST', `/v1/spaces/${spaceId}/git/import`, { url, ref: 'main' }), 403);
    expect(expectOk(await reader.rest('GET', `/v1/spaces/${spaceId}/git/info`)).installationId).toBeTruthy();
  });

  it('wrong credentials and a repository that is not GitBook content fail the run with a message a person can act on', async () => {
    const other = (await buildSpace(admin, organizationId)).id;
    expect((await admin.rest('POST', `/v1/spaces/${other}/git/import`, { url: withCredentials(url, 'wrong'), ref: 'main' })).status).toBe(204);
    await drain();
    const failed = expectOk(await gitInfo(other));
    expect(failed.operation.state).toBe('failure');
    expect(failed.operation.error).toMatch(/refused the credentials/);
    expect(failed.operation.error).not.toContain('wrong');
    validateGitBookResponse('getSpaceGitInfo', 200, failed);

    const twice = server.repository('twice', { 'SUMMARY.md': '* [A](a.md)\n* [Again](a.md)\n', 'a.md': '# A\n' });
    expect((await admin.rest('POST', `/v1/spaces/${other}/git/import`, { url: withCredentials(twice), ref: 'main' })).status).toBe(204);
    await drain();
    const refused = expectOk(await gitInfo(other));
    expect(refused.operation.state).toBe('failure');
    expect(refused.operation.error).toContain('a.md');

    expect((await admin.rest('POST', `/v1/spaces/${other}/git/import`, { url: withCredentials(url), ref: 'refs/heads/nope' })).status).toBe(204);
    await drain();
    expect(expectOk(await gitInfo(other)).operation.error).toMatch(/branch/);
  });

  it('installations (GitBook\'s installGitSync…, get, update, uninstall) with a generic Git server: pending, then a repository, a branch and a token', async () => {
    const target = (await buildSpace(admin, organizationId)).id;
    const repo = server.repository('installed', { 'README.md': '# Installed\n\nHi.\n', 'SUMMARY.md': '* [Installed](README.md)\n* [More](more.md)\n', 'more.md': '# More\n' });
    const created = await admin.rest('POST', '/v1/git/installations', { provider: 'gitlab', target: { type: 'space', spaceId: target } });
    const installation = expectOk(created, 201);
    expect(installation).toMatchObject({ object: 'git-sync-installation', status: 'pending', target: { type: 'space', spaceId: target }, createdBy: admin.userId });
    validateGitBookResponse('installGitSyncProviderOnTarget', 201, installation);
    restError(await admin.rest('POST', '/v1/git/installations', { provider: 'gitlab', target: { type: 'space', spaceId: target } }), 409);
    restError(await admin.rest('POST', '/v1/git/installations', { provider: 'github', target: { type: 'site', siteId: 'x' } }), 400, 'target.type');
    restError(await admin.rest('POST', '/v1/git/installations', { provider: 'github', target: { type: 'space', spaceId: 'nope' } }), 404);
    expect(expectOk(await gitInfo(target)).installationStatus).toBe('pending');

    const path = `/v1/git/installations/${installation.id}`;
    const reader = await buildMember(h, organizationId, 'read');
    expect(expectOk(await reader.rest('GET', path)).id).toBe(installation.id);
    restError(await reader.rest('PATCH', path, { priority: 'git' }), 403);
    const outsider = await buildOrganization(h, 'Elsewhere');
    restError(await outsider.admin.rest('GET', path), 404);
    restError(await admin.rest('PATCH', path, { priority: 'git' }), 400, 'providerConfiguration.repositoryUrl');

    const updated = expectOk(
      await admin.rest('PATCH', path, { priority: 'git', providerConfiguration: { repositoryUrl: repo, branch: 'refs/heads/main', username: server.username, accessToken: server.password } }),
    );
    expect(updated).toMatchObject({ status: 'active', providerConfiguration: { repositoryUrl: repo, branch: 'refs/heads/main' } });
    expect(JSON.stringify(updated)).not.toContain(server.password);
    validateGitBookResponse('updateGitSyncInstallationById', 200, updated);
    await drain();
    expect(expectOk(await gitInfo(target)).operation).toMatchObject({ state: 'success', direction: 'import' });
    expect((await pagesOf(target)).pages.map((p) => p.title)).toEqual(['Installed', 'More']);
    validateGitBookResponse('getGitSyncInstallationById', 200, expectOk(await admin.rest('GET', path)));

    const removed = await admin.rest('DELETE', path);
    expect(removed.status).toBe(205);
    restError(await admin.rest('GET', path), 404);
    expect((await gitInfo(target)).status).toBe(404);
  });

  it('through GraphQL: the same operations and state', async () => {
    const res = await admin.gql(`mutation($s: String!, $u: String!) { importGitRepository(spaceId: $s, url: $u, ref: "main") }`, { s: spaceId, u: url });
    expect(gqlData(res, 'importGitRepository')).toBe(true);
    await drain();
    const info = await admin.gql(`query($s: String!) { spaceGitInfo(spaceId: $s) { installationId repoName operation { state direction error } } }`, { s: spaceId });
    expect(gqlData(info, 'spaceGitInfo')).toMatchObject({ repoName: 'handbook', operation: { state: 'success', direction: 'import', error: null } });
  });
});
