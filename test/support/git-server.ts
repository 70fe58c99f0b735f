import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A real Git server on 127.0.0.1 for the Git Sync tests: git's own `git http-backend` (from Debian's
 * `git`, as GitHub, GitLab and Gitea speak the same smart HTTP), behind a small HTTP server that asks
 * for basic auth. Repositories are bare ones in a temporary folder, filled by `git push` from a working
 * copy (`commit`).
 */
export interface GitServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  username: string;
  password: string;
  /** A new bare repository `<name>.git` with `files` committed on `main`: its URL. */
  repository(name: string, files: Record<string, string | Uint8Array>): string;
  /** One more commit on `main` of a repository: files written (null: removed). Answers the commit. */
  commit(name: string, files: Record<string, string | Uint8Array | null>, message?: string): string;
  /** The files of `main` as the server holds them (path → bytes). */
  files(name: string): Map<string, Buffer>;
  /** The last commit of `main`: its ID, author and message. */
  head(name: string): { id: string; author: string; message: string };
  /** Every request the server received (method and path), to prove what a client did. */
  requests: string[];
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.com' } });

/** A Git server for the test file: started before its tests, stopped after. */
export function useGitServer(): GitServer {
  const server = {} as GitServer & { close(): Promise<void> };
  beforeAll(async () => {
    Object.assign(server, await startGitServer());
  });
  afterAll(async () => server.close?.());
  return server;
}

/** Starts a Git server (the benchmark's, and useGitServer's); `close` stops it and removes its repositories. */
export async function startGitServer(): Promise<GitServer & { close(): Promise<void> }> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'dp-git-server-'));
  const server: GitServer = {
    origin: '',
    username: 'writer',
    password: `secret-${Math.random().toString(36).slice(2)}`,
    requests: [],
    repository(name, files) {
      const bare = path.join(root, `${name}.git`);
      git(root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
      const work = mkdtempSync(path.join(os.tmpdir(), 'dp-git-work-'));
      try {
        git(work, 'init', '--quiet', '--initial-branch=main');
        for (const [file, content] of Object.entries(files)) {
          mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
          writeFileSync(path.join(work, file), content);
        }
        git(work, 'add', '-A');
        git(work, 'commit', '--quiet', '-m', 'Docs');
        git(work, 'push', '--quiet', bare, 'main');
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
      return `${server.origin}/${name}.git`;
    },
    commit(name, files, message = 'Edit') {
      const bare = path.join(root, `${name}.git`);
      const work = mkdtempSync(path.join(os.tmpdir(), 'dp-git-work-'));
      try {
        git(work, 'clone', '--quiet', '--branch', 'main', bare, '.');
        for (const [file, content] of Object.entries(files)) {
          if (content === null) rmSync(path.join(work, file), { force: true });
          else {
            mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
            writeFileSync(path.join(work, file), content);
          }
        }
        git(work, 'add', '-A');
        git(work, 'commit', '--quiet', '-m', message);
        git(work, 'push', '--quiet', 'origin', 'main');
        return git(work, 'rev-parse', 'HEAD').toString().trim();
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    files(name) {
      const bare = path.join(root, `${name}.git`);
      const listed = git(bare, 'ls-tree', '-r', '-z', '--name-only', 'main').toString().split('\0').filter(Boolean);
      return new Map(listed.map((file) => [file, git(bare, 'show', `main:${file}`)]));
    },
    head(name) {
      const bare = path.join(root, `${name}.git`);
      const [id, author, ...message] = git(bare, 'log', '-1', '--format=%H%n%an <%ae>%n%B', 'main').toString().split('\n');
      return { id, author, message: message.join('\n').trim() };
    },
  };
  const http: Server = createServer((req, res) => {
      server.requests.push(`${req.method} ${req.url}`);
      const expected = `Basic ${Buffer.from(`${server.username}:${server.password}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('Unauthorized');
      const url = new URL(req.url ?? '/', 'http://git.local');
      const cgi = spawn('git', ['http-backend'], {
        env: {
          ...process.env,
          GIT_PROJECT_ROOT: root,
          GIT_HTTP_EXPORT_ALL: '1',
          PATH_INFO: decodeURIComponent(url.pathname),
          QUERY_STRING: url.search.slice(1),
          REQUEST_METHOD: req.method ?? 'GET',
          CONTENT_TYPE: req.headers['content-type'] ?? '',
          REMOTE_USER: server.username,
          REMOTE_ADDR: '127.0.0.1',
        },
      });
      req.pipe(cgi.stdin);
      const chunks: Buffer[] = [];
      cgi.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      cgi.on('close', () => {
        const output = Buffer.concat(chunks);
        const split = output.indexOf('\r\n\r\n');
        const head = output.subarray(0, split).toString('latin1');
        const headers: Record<string, string> = {};
        let status = 200;
        for (const line of head.split('\r\n')) {
          const at = line.indexOf(':');
          const name = line.slice(0, at).trim();
          const value = line.slice(at + 1).trim();
          if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
          else headers[name] = value;
        }
        res.writeHead(status, headers).end(output.subarray(split + 4));
      });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server.origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return Object.assign(server, {
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  });
}
