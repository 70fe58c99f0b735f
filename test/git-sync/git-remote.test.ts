// Issue 40: a repository fetched from a real Git server (git http-backend on 127.0.0.1, basic auth)
// by isomorphic-git through the safe fetcher, then read in GitBook's format.
import { describe, expect, it } from 'vitest';
import { buildConfig } from '../../src/config.ts';
import { fetchRepositoryFiles, GitRemoteError } from '../../src/modules/git-sync/git-remote.ts';
import { readGitBookRepository } from '../../src/modules/git-sync/gitbook-repository.ts';
import { useGitServer } from '../support/git-server.ts';

const server = useGitServer();
const allowPrivate = { ...buildConfig({}).fetch, allowPrivate: true };
const bounds = { maxBytes: 10 * 1024 * 1024, maxFiles: 1000 };

describe('a repository from a real Git server', () => {
  it('clones the branch with basic auth, shallow, and reads its files in GitBook format', async () => {
    const url = server.repository('docs', {
      'README.md': '# Welcome\n\nSee [install](install.md).\n',
      'SUMMARY.md': '* [Welcome](README.md)\n* [Install](install.md)\n',
      'install.md': '# Install\n\nRun it.\n',
    });
    const { commit, files } = await fetchRepositoryFiles({ url, ref: 'main', username: server.username, password: server.password }, allowPrivate, bounds);
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(files.map((f) => f.path)).toEqual(['README.md', 'SUMMARY.md', 'install.md']);
    const read = readGitBookRepository(files);
    expect(read.pages).toBe(2);
    // Smart HTTP: the ref advertisement, then one upload-pack.
    expect(server.requests.filter((r) => r.includes('/docs.git/')).map((r) => r.split('?')[0])).toEqual(expect.arrayContaining(['GET /docs.git/info/refs', 'POST /docs.git/git-upload-pack']));
  });

  it('wrong credentials, an unknown repository, a private address without FETCH_ALLOW_PRIVATE: errors a person can act on', async () => {
    const url = server.repository('private', { 'README.md': '# Hi\n' });
    const failure = async (promise: Promise<unknown>) => {
      try {
        await promise;
      } catch (error) {
        expect(error).toBeInstanceOf(GitRemoteError);
        return [(error as GitRemoteError).code, (error as Error).message];
      }
      throw new Error('no error');
    };
    const [code, message] = await failure(fetchRepositoryFiles({ url, username: server.username, password: 'wrong' }, allowPrivate, bounds));
    expect(code).toBe('AUTH');
    expect(message).not.toContain('wrong');
    expect((await failure(fetchRepositoryFiles({ url: `${server.origin}/nope.git`, username: server.username, password: server.password }, allowPrivate, bounds)))[0]).toMatch(/NOT_FOUND|PROTOCOL/);
    expect((await failure(fetchRepositoryFiles({ url, username: server.username, password: server.password }, { ...allowPrivate, allowPrivate: false }, bounds)))[0]).toBe('REFUSED_ADDRESS');
    expect((await failure(fetchRepositoryFiles({ url, username: server.username, password: server.password }, allowPrivate, { maxBytes: 10 * 1024 * 1024, maxFiles: 0 })))[0]).toBe('TOO_LARGE');
  });
});
