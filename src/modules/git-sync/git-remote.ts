import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import type { FetchConfig } from '../../config.ts';
import { addressRule, SafeFetcher } from '../../lib/safe-fetch.ts';
import type { RepositoryFile } from './gitbook-repository.ts';

/**
 * A Git repository's files at a branch, fetched over Git's smart HTTP by isomorphic-git (a maintained
 * implementation that needs no git binary), every request through the safe fetcher: the address rule
 * (no loopback, private, link-local or metadata address unless FETCH_ALLOW_PRIVATE), a timeout per
 * request, bodies capped. Credentials (basic auth) go in a header, never in the URL or a log.
 * Cloned shallow (one commit, one branch) into a temporary folder, read within the bounds, removed.
 */
export interface RemoteRepository {
  url: string;
  /** A branch or tag; the remote's default branch when absent. */
  ref?: string;
  username?: string;
  password?: string;
}

export interface RepositoryBounds {
  /** Bytes of the repository fetched (the packfile) and read (the files), each. */
  maxBytes: number;
  maxFiles: number;
}

export class GitRemoteError extends Error {
  constructor(
    readonly code: 'AUTH' | 'NOT_FOUND' | 'TOO_LARGE' | 'UNREACHABLE' | 'REFUSED_ADDRESS' | 'PROTOCOL',
    message: string,
  ) {
    super(message);
  }
}

export async function fetchRepositoryFiles(remote: RemoteRepository, fetchConfig: FetchConfig, bounds: RepositoryBounds): Promise<{ commit: string; files: RepositoryFile[] }> {
  const fetcher = new SafeFetcher({ ...fetchConfig, maxBytes: bounds.maxBytes, allowsAddress: addressRule(fetchConfig.allowPrivate) });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dp-git-'));
  const headers: Record<string, string> = { 'user-agent': 'git/docs-platform' };
  if (remote.username !== undefined || remote.password !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${remote.username ?? ''}:${remote.password ?? ''}`).toString('base64')}`;
  }
  const http = {
    async request({ url, method, headers: requestHeaders, body }: { url: string; method?: string; headers?: Record<string, string>; body?: AsyncIterableIterator<Uint8Array> }) {
      const chunks: Uint8Array[] = [];
      if (body) for await (const chunk of body) chunks.push(chunk);
      const answer = await fetcher.request(url, { method: method ?? 'GET', headers: requestHeaders ?? {}, body: chunks.length ? Buffer.concat(chunks) : undefined });
      return {
        url: answer.url,
        method,
        statusCode: answer.status,
        statusMessage: answer.statusText,
        headers: answer.headers,
        body: (async function* () {
          yield answer.body;
        })(),
      };
    },
  };
  try {
    try {
      await git.clone({ fs, http, dir, url: remote.url, ref: remote.ref, singleBranch: true, depth: 1, noTags: true, headers });
    } catch (error) {
      throw remoteError(error, remote.url);
    }
    const commit = await git.resolveRef({ fs, dir, ref: 'HEAD' });
    return { commit, files: await readTree(dir, bounds) };
  } finally {
    await Promise.all([rm(dir, { recursive: true, force: true }), fetcher.close()]);
  }
}

/** The working tree's files (not `.git`), in path order, within the bounds. */
async function readTree(root: string, bounds: RepositoryBounds): Promise<RepositoryFile[]> {
  const files: RepositoryFile[] = [];
  let bytes = 0;
  const visit = async (folder: string) => {
    for (const entry of (await readdir(path.join(root, folder), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (folder === '' && entry.name === '.git') continue;
      const relative = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await visit(relative);
      else if (entry.isFile()) {
        if (files.length >= bounds.maxFiles) throw new GitRemoteError('TOO_LARGE', `the repository holds more than ${bounds.maxFiles} files`);
        bytes += (await stat(path.join(root, relative))).size;
        if (bytes > bounds.maxBytes) throw new GitRemoteError('TOO_LARGE', `the repository's files are larger than ${bounds.maxBytes} bytes`);
        files.push({ path: relative, bytes: await readFile(path.join(root, relative)) });
      }
    }
  };
  await visit('');
  return files;
}

/** What went wrong, in words a person can act on (never the credentials). */
function remoteError(error: unknown, url: string): GitRemoteError {
  const err = error as { code?: string; data?: { statusCode?: number }; message?: string; cause?: unknown };
  const safe = err?.code === 'BLOCKED_ADDRESS' || (err as { name?: string })?.name === 'SafeFetchError' ? err : (err?.cause as typeof err | undefined);
  if (safe && (safe as { code?: string }).code === 'BLOCKED_ADDRESS') return new GitRemoteError('REFUSED_ADDRESS', (safe as Error).message);
  if (safe && (safe as { code?: string }).code === 'TOO_LARGE') return new GitRemoteError('TOO_LARGE', (safe as Error).message);
  const status = err?.data?.statusCode;
  if (status === 401 || status === 403) return new GitRemoteError('AUTH', `${new URL(url).origin} refused the credentials (HTTP ${status})`);
  if (status === 404) return new GitRemoteError('NOT_FOUND', `no Git repository at ${url}`);
  if (err?.code === 'NotFoundError') return new GitRemoteError('NOT_FOUND', `the branch or tag was not found in ${url}`);
  if (typeof (err as { code?: string })?.code === 'string' && ['NETWORK', 'TIMEOUT'].includes((err as { code: string }).code)) return new GitRemoteError('UNREACHABLE', (err as Error).message);
  return new GitRemoteError('PROTOCOL', `${url} could not be read as a Git repository (${(err?.message ?? 'failed').slice(0, 200)})`);
}
