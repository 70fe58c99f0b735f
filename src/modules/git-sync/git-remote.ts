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
  /**
   * Keeps the working copy between runs under this key (a sync's ID), in this instance's temporary
   * folder: the next run fetches only the new commits and checks out only the files they changed. A
   * cache, not state: missing or broken, the run clones afresh.
   */
  cacheKey?: string;
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
  // Read only: nothing to keep a working copy for beyond the cache's own.
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
    const existing = head ? await readTree(dir, bounds) : [];
    const { write, remove, message, author } = await plan(existing, head);
    // Only what differs is written and staged: an export of a one-page change touches one file.
    const current = new Map(existing.map((file) => [file.path, file.bytes]));
    let changed = !head;
    for (const file of remove) {
      if (write.has(file) || !current.has(file)) continue;
      await rm(path.join(dir, file), { force: true });
      await git.remove({ fs, dir, filepath: file });
      changed = true;
    }
    const staged: string[] = [];
    for (const [file, bytes] of write) {
      const before = current.get(file);
      if (before && Buffer.from(before.buffer, before.byteOffset, before.byteLength).equals(bytes)) continue;
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), bytes);
      staged.push(file);
    }
    if (staged.length) {
      await git.add({ fs, dir, filepath: staged });
      changed = true;
    }
    if (!changed) return { commit: head!, changed: false };
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

/** Working copies kept (the most recently used); older ones are removed. */
const CACHED_COPIES = 16;
const CACHE_ROOT = path.join(os.tmpdir(), 'dp-git-cache');
/** One run at a time per working copy, within this instance. */
const copyLocks = new Map<string, Promise<unknown>>();

/**
 * A shallow clone of the branch for `work`: in a temporary folder removed afterwards, or, with a
 * `cacheKey`, the kept copy brought to the branch's head (fetching only what is new). A run that fails
 * leaves no copy behind: the next one clones afresh.
 */
async function withWorkingCopy<T>(remote: RemoteRepository, fetchConfig: FetchConfig, bounds: RepositoryBounds, work: (copy: WorkingCopy) => Promise<T>): Promise<T> {
  if (!remote.cacheKey) return inCopy(remote, fetchConfig, bounds, await mkdtemp(path.join(os.tmpdir(), 'dp-git-')), false, work);
  const dir = path.join(CACHE_ROOT, remote.cacheKey.replace(/[^A-Za-z0-9_-]/g, '_'));
  const previous = copyLocks.get(dir) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => inCopy(remote, fetchConfig, bounds, dir, true, work));
  copyLocks.set(dir, run);
  try {
    return await run;
  } finally {
    if (copyLocks.get(dir) === run) copyLocks.delete(dir);
  }
}

async function inCopy<T>(remote: RemoteRepository, fetchConfig: FetchConfig, bounds: RepositoryBounds, dir: string, keep: boolean, work: (copy: WorkingCopy) => Promise<T>): Promise<T> {
  const { fetcher, http, headers } = clientFor(remote, fetchConfig, bounds.maxBytes);
  // A kept copy is usable only if the run that left it ended well: the mark is taken away while a run
  // works in it (a process killed half-way leaves a copy without it, which is cloned afresh).
  const mark = path.join(dir, '.git', 'dp-complete');
  const usable = keep && (await rm(mark).then(() => true, () => false));
  let ok = false;
  try {
    const commit = (usable && (await refreshed(dir, remote, http, headers))) || (await cloned(dir, remote, http, headers));
    const result = await work({ dir, commit, http, headers });
    ok = true;
    return result;
  } finally {
    await fetcher.close();
    if (!ok || !keep) await rm(dir, { recursive: true, force: true });
    else {
      await writeFile(mark, '').catch(() => undefined);
      await evictOldCopies(dir);
    }
  }
}

/** A fresh shallow clone in `dir`; its head, or null for an empty repository or a branch not made yet. */
async function cloned(dir: string, remote: RemoteRepository, http: HttpClient, headers: Record<string, string>): Promise<string | null> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  try {
    await git.clone({ fs, http, dir, url: remote.url, ref: remote.ref ? branchName(remote.ref) : undefined, singleBranch: true, depth: 1, noTags: true, headers });
    return await git.resolveRef({ fs, dir, ref: 'HEAD' }).catch(() => null);
  } catch (error) {
    const missing = remoteError(error, remote.url);
    // An empty repository, or a branch not made yet: nothing to read, a first commit to make.
    if (!(missing.code === 'NOT_FOUND' && missing.message.startsWith('the branch'))) throw missing;
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    return null;
  }
}

/**
 * The kept copy at the branch's new head: the new commits fetched (shallow), the files they changed
 * checked out. Null when there is no usable copy (the caller clones); errors of the remote are thrown.
 */
async function refreshed(dir: string, remote: RemoteRepository, http: HttpClient, headers: Record<string, string>): Promise<string | null> {
  if (!remote.ref) return null;
  const branch = branchName(remote.ref);
  try {
    const [url] = await Promise.all([git.getConfig({ fs, dir, path: 'remote.origin.url' }), stat(path.join(dir, '.git'))]);
    if (url !== remote.url) return null;
    await git.resolveRef({ fs, dir, ref: 'HEAD' });
  } catch {
    return null;
  }
  try {
    const before = await git.resolveRef({ fs, dir, ref: 'HEAD' });
    const fetched = await git.fetch({ fs, http, dir, url: remote.url, ref: branch, remoteRef: branch, singleBranch: true, depth: 1, tags: false, headers });
    const head = fetched.fetchHead;
    if (!head) return null;
    if (head !== before) await checkOutChanges(dir, before, head);
    await git.writeRef({ fs, dir, ref: `refs/heads/${branch}`, value: head, force: true });
    return head;
  } catch (error) {
    const failure = remoteError(error, remote.url);
    if (failure.code === 'AUTH' || failure.code === 'REFUSED_ADDRESS' || failure.code === 'UNREACHABLE') throw failure;
    return null;
  }
}

/**
 * The working tree and index brought from commit `from` to `to`, file by file for what differs only:
 * the two trees are walked side by side, and a folder whose tree is the same in both is not entered.
 */
async function checkOutChanges(dir: string, from: string, to: string) {
  const written: string[] = [];
  const removed: string[] = [];
  await git.walk({
    fs,
    dir,
    trees: [git.TREE({ ref: from }), git.TREE({ ref: to })],
    map: async (file, [before, after]) => {
      if (file === '.') return true;
      const [beforeOid, afterOid] = await Promise.all([before?.oid(), after?.oid()]);
      if (beforeOid === afterOid) return null;
      const [beforeType, afterType] = await Promise.all([before?.type(), after?.type()]);
      if (afterType === 'blob') {
        await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await writeFile(path.join(dir, file), (await after!.content())!);
        written.push(file);
      } else if (beforeType === 'blob') {
        await rm(path.join(dir, file), { force: true });
        removed.push(file);
      }
      return true;
    },
  });
  for (const file of removed) await git.remove({ fs, dir, filepath: file });
  if (written.length) await git.add({ fs, dir, filepath: written });
}

/** Keeps the most recently used copies (this one included), removes the rest. */
async function evictOldCopies(used: string) {
  const now = new Date();
  await fs.promises.utimes(used, now, now).catch(() => undefined);
  const entries = await readdir(CACHE_ROOT, { withFileTypes: true }).catch(() => []);
  const copies = await Promise.all(
    entries.filter((e) => e.isDirectory()).map(async (e) => ({ dir: path.join(CACHE_ROOT, e.name), at: (await stat(path.join(CACHE_ROOT, e.name)).catch(() => null))?.mtimeMs ?? 0 })),
  );
  copies.sort((a, b) => b.at - a.at);
  await Promise.all(copies.slice(CACHED_COPIES).map((copy) => rm(copy.dir, { recursive: true, force: true })));
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

/** The working tree's files (not `.git`), in path order, within the bounds; read a batch at a time. */
async function readTree(root: string, bounds: RepositoryBounds): Promise<RepositoryFile[]> {
  const paths: string[] = [];
  const visit = async (folder: string) => {
    for (const entry of (await readdir(path.join(root, folder), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (folder === '' && entry.name === '.git') continue;
      const relative = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await visit(relative);
      else if (entry.isFile()) {
        if (paths.length >= bounds.maxFiles) throw new GitRemoteError('TOO_LARGE', `the repository holds more than ${bounds.maxFiles} files`);
        paths.push(relative);
      }
    }
  };
  await visit('');
  const files: RepositoryFile[] = [];
  let bytes = 0;
  for (let at = 0; at < paths.length; at += 64) {
    const batch = paths.slice(at, at + 64);
    const sizes = await Promise.all(batch.map(async (file) => (await stat(path.join(root, file))).size));
    bytes += sizes.reduce((sum, size) => sum + size, 0);
    if (bytes > bounds.maxBytes) throw new GitRemoteError('TOO_LARGE', `the repository's files are larger than ${bounds.maxBytes} bytes`);
    const read = await Promise.all(batch.map((file) => readFile(path.join(root, file))));
    batch.forEach((file, i) => files.push({ path: file, bytes: read[i] }));
  }
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
