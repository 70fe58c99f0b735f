// Issue 40: kill -9 in the middle of a Git Sync import. The space is as it was (no page of the
// repository, or all of them: never a part), and the run, claimed again once its lease is over, ends the
// import on the restarted server. On the embedded database (a DATA_DIR), against a real Git server.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { useGitServer } from '../support/git-server.ts';
import { killAll, randomToken, startServer, tempDir, type ServerProcess } from '../support/server-process.ts';

const git = useGitServer();
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  await killAll();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const PAGES = 600;

async function call(server: ServerProcess, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

function repository(): Record<string, string> {
  const files: Record<string, string> = { 'README.md': '# Handbook\n\nWelcome.\n' };
  const summary = ['* [Handbook](README.md)'];
  for (let i = 1; i < PAGES; i++) {
    files[`pages/page-${i}.md`] = `# Page ${i}\n\n${'Text. '.repeat(60)} (${i})\n`;
    summary.push(`* [Page ${i}](pages/page-${i}.md)`);
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  return files;
}

const pageCount = async (server: ServerProcess, token: string, spaceId: string) => {
  const content = await call(server, token, 'GET', `/v1/spaces/${spaceId}/content`);
  expect(content.status).toBe(200);
  return (content.body.pages as unknown[]).length;
};

describe('kill -9 in the middle of a Git Sync import', () => {
  it('leaves the space as it was, and the import ends once the restarted server claims the run again', { timeout: 240_000 }, async () => {
    const dataDir = tempDir('dp-git-crash-');
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const adminToken = randomToken();
    const env = { DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, RATE_LIMIT: 'false', LOG_LEVEL: 'warn', FETCH_ALLOW_PRIVATE: 'true', JOB_LEASE_MS: '3000', GIT_SYNC_POLL_SECONDS: '0' };
    const first = await startServer(env);
    const created = await call(first, adminToken, 'POST', '/v1/admin/users', { email: `git.crash.${Date.now()}@example.com`, displayName: 'Crash' });
    const token = created.body.token as string;
    const organizationId = (await call(first, token, 'POST', '/v1/orgs', { title: 'Crash' })).body.id as string;
    const spaceId = (await call(first, token, 'POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Handbook' })).body.id as string;
    const url = git.repository('crash', repository()).replace('http://', `http://${git.username}:${git.password}@`);

    expect((await call(first, token, 'POST', `/v1/spaces/${spaceId}/git/import`, { url, ref: 'main' })).status).toBe(204);
    // Killed while the run works: after it fetched (the server was asked for the pack), before it ended.
    while (!git.requests.some((r) => r.startsWith('POST /crash.git/git-upload-pack'))) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(Math.random() * 400)));
    const during = await call(first, token, 'GET', `/v1/spaces/${spaceId}/git/info`);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = await startServer(env);
    // All or nothing: the run's write is one transaction.
    const after = await pageCount(second, token, spaceId);
    expect([0, PAGES], `pages right after the restart (state then: ${JSON.stringify(during.body?.operation)})`).toContain(after);
    // The run is claimed again once its lease is over, and ends the import.
    let info;
    for (let i = 0; i < 600; i++) {
      info = (await call(second, token, 'GET', `/v1/spaces/${spaceId}/git/info`)).body;
      if (info?.operation?.state !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(info.operation).toMatchObject({ state: 'success', direction: 'import' });
    expect(await pageCount(second, token, spaceId)).toBe(PAGES);
    await second.stop();
  });
});
