import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import git, { type HttpClient } from 'isomorphic-git';
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
    readonly code: 'AUTH' | 'NOT_FOUND' | 'TOO_LARGE' | 'UNREACHABLE' | 'REFUSED_ADDRESS' | 'PROTOCOL' | 'CONFLICT',
    message: string,
  ) {
    super(message);
  }
}

export async function fetchRepositoryFiles(remote: RemoteRepository, fetchConfig: FetchConfig, bounds: RepositoryBounds): Promise<{ commit: string; files: RepositoryFile[] }> {
  return withWorkingCopy(remote, fetchConfig, bounds, async ({ dir, commit }) => {
    if (!commit) throw new GitRemoteError('NOT_FOUND', `the branch ${remote.ref ?? ''} was not found in ${remote.url}`.replace('  ', ' '));
    return { commit, files: await readTree(dir, bounds) };
  });
}

/** What an export writes: the files to put (path → bytes) and those to take out, one commit. */
export interface CommitPlan {
  write: Map<string, Uint8Array>;
  remove: string[];
  message: string;
  author: { name: string; email: string };
}

/**
 * One commit on the branch, pushed: `plan` sees the branch's files (none for a new branch or an empty
 * repository) and says what to write and remove. Answers the new commit, or the branch's head with
 * `changed: false` when the plan changes nothing (no empty commit is pushed). A push the remote refuses
 * because the branch moved meanwhile is a CONFLICT: the caller runs again on the new head.
 */
export async function pushCommit(
  remote: RemoteRepository & { ref: string },
  fetchConfig: FetchConfig,
  bounds: RepositoryBounds,
  plan: (files: RepositoryFile[], head: string | null) => CommitPlan | Promise<CommitPlan>,
): Promise<{ commit: string; changed: boolean }> {
  return withWorkingCopy(remote, fetchConfig, bounds, async ({ dir, commit: head, http, headers }) => {
    const branch = branchName(remote.ref);
    if (!head) {
      await git.init({ fs, dir, defaultBranch: branch });
      await git.addRemote({ fs, dir, remote: 'origin', url: remote.url, force: true });
    }
    const { write, remove, message, author } = await plan(head ? await readTree(dir, bounds) : [], head);
    for (const file of remove) {
      if (write.has(file)) continue;
      await rm(path.join(dir, file), { force: true });
      await git.remove({ fs, dir, filepath: file });
    }
    for (const [file, bytes] of write) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), bytes);
      await git.add({ fs, dir, filepath: file });
    }
    const changed = !head || (await git.statusMatrix({ fs, dir })).some(([, headStatus, , stage]) => headStatus !== stage);
    if (!changed) return { commit: head, changed: false };
    const now = Math.floor(Date.now() / 1000);
    const commit = await git.commit({ fs, dir, message, author: { ...author, timestamp: now, timezoneOffset: 0 }, ref: `refs/heads/${branch}` });
    try {
      const pushed = await git.push({ fs, http, dir, url: remote.url, ref: branch, remoteRef: `refs/heads/${branch}`, headers });
      if (!pushed.ok) throw new GitRemoteError('CONFLICT', `${remote.url} refused the push: ${pushed.error ?? 'unknown reason'}`);
    } catch (error) {
      if (error instanceof GitRemoteError) throw error;
      const err = error as { code?: string };
      if (err?.code === 'PushRejectedError') throw new GitRemoteError('CONFLICT', `the branch ${branch} moved while the export ran`);
      throw remoteError(error, remote.url);
    }
    return { commit, changed: true };
  });
}

/** `refs/heads/main` → `main` (a bare name as is). */
export const branchName = (ref: string) => ref.replace(/^refs\/heads\//, '');

interface WorkingCopy {
  dir: string;
  /** The branch's head, or null when the branch (or the whole repository) has no commit yet. */
  commit: string | null;
  http: HttpClient;
  headers: Record<string, string>;
}

/** A shallow clone of the branch in a temporary folder, for `work`; removed afterwards. */
async function withWorkingCopy<T>(remote: RemoteRepository, fetchConfig: FetchConfig, bounds: RepositoryBounds, work: (copy: WorkingCopy) => Promise<T>): Promise<T> {
  const { fetcher, http, headers } = clientFor(remote, fetchConfig, bounds.maxBytes);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dp-git-'));
  try {
    let commit: string | null = null;
    try {
      await git.clone({ fs, http, dir, url: remote.url, ref: remote.ref ? branchName(remote.ref) : undefined, singleBranch: true, depth: 1, noTags: true, headers });
      commit = await git.resolveRef({ fs, dir, ref: 'HEAD' }).catch(() => null);
    } catch (error) {
      const missing = remoteError(error, remote.url);
      // An empty repository, or a branch not made yet: nothing to read, a first commit to make.
      if (!(missing.code === 'NOT_FOUND' && missing.message.startsWith('the branch'))) throw missing;
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
    }
    return await work({ dir, commit, http, headers });
  } finally {
    await Promise.all([rm(dir, { recursive: true, force: true }), fetcher.close()]);
  }
}

/**
 * The branch's head as the server advertises it (one small request, no clone): what polling compares
 * with the last sync. Null when the branch does not exist.
 */
export async function remoteHead(remote: RemoteRepository & { ref: string }, fetchConfig: FetchConfig): Promise<string | null> {
  const { fetcher, http, headers } = clientFor(remote, fetchConfig, 1024 * 1024);
  try {
    const refs = await git.listServerRefs({ http, url: remote.url, prefix: remote.ref, headers, protocolVersion: 1 });
    return refs.find((ref) => ref.ref === remote.ref)?.oid ?? null;
  } catch (error) {
    throw remoteError(error, remote.url);
  } finally {
    await fetcher.close();
  }
}

/** isomorphic-git's HTTP client over the safe fetcher, and the headers of every request (basic auth). */
function clientFor(remote: RemoteRepository, fetchConfig: FetchConfig, maxBytes: number) {
  const fetcher = new SafeFetcher({ ...fetchConfig, maxBytes, allowsAddress: addressRule(fetchConfig.allowPrivate) });
  const headers: Record<string, string> = { 'user-agent': 'git/docs-platform' };
  if (remote.username !== undefined || remote.password !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${remote.username ?? ''}:${remote.password ?? ''}`).toString('base64')}`;
  }
  const http: HttpClient = {
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
  return { fetcher, http, headers };
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
