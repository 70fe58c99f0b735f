// Helpers for tests that run the real entry points (src/server.ts, the CLIs) as child processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../src/lib/runtime-tuning.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The PostgreSQL server for process tests: TEST_DATABASE_URL, else the local default. */
export const POSTGRES_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** process.env without anything that would point a child at another database. */
export function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'TEST_DATABASE_URL', 'DATA_DIR', 'PORT', 'PUBLIC_URL', 'APP_URL', 'ADMIN_TOKEN', 'LOG_LEVEL', 'NODE_OPTIONS', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID']) {
    delete env[key];
  }
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

export function tempDir(prefix = 'dp-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const randomToken = () => `admin-${randomBytes(16).toString('hex')}`;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Child output quoted so that test reporters do not mistake its stack traces for the test's own. */
export const quote = (text: string) => text.split('\n').map((line) => `| ${line}`).join('\n');

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** stdout parsed as JSON lines (a line that is not JSON throws: logs must be structured). */
  logs: () => any[];
  exited: Promise<ExitInfo>;
  /** SIGTERM, then wait for the exit. */
  stop: () => Promise<ExitInfo>;
}

const live = new Set<ChildProcess>();

/** Kills (SIGKILL) every child this module started that is still running. For afterAll. */
export async function killAll(): Promise<void> {
  await Promise.all(
    [...live].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
  live.clear();
}

/**
 * Spawns the server (`node --import tsx src/server.ts`, or the built one) and waits until /healthz
 * answers 200. The wait is generous: these tests check what a server does once it is up, not how fast
 * it comes up on a machine shared with other work (the start-up time is measured by `npm run bench`).
 */
export async function startServer(
  env: Record<string, string | undefined>,
  timeoutMs = 120_000,
  /**
   * built: run dist/server.js with the flags `npm start` gives it (after `npm run build`) instead of the
   * sources through tsx. npmStart: run `npm start` itself (the child is npm, as `$!` is in a shell).
   */
  options: { built?: boolean; npmStart?: boolean } = {},
): Promise<ServerProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const [command, args] = options.npmStart
    ? ['npm', ['start']]
    : [process.execPath, options.built ? [...SERVER_NODE_FLAGS, 'dist/server.js'] : ['--import', 'tsx', 'src/server.ts']];
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: baseEnv({ HOST: '127.0.0.1', LOG_LEVEL: 'info', ...(options.built ? SERVER_ENV : {}), ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<ExitInfo>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  let exitedEarly: ExitInfo | null = null;
  void exited.then((info) => (exitedEarly = info));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitedEarly) throw new Error(`server exited during start-up (${JSON.stringify(exitedEarly)}):\n${quote(err)}\n${quote(out)}`);
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy within ${timeoutMs} ms:\n${quote(err)}\n${quote(out)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    child,
    port,
    url,
    stdout: () => out,
    stderr: () => err,
    logs: () =>
      out
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => {
          try {
            return JSON.parse(line);
          } catch {
            throw new Error(`stdout line is not JSON: ${line}`);
          }
        }),
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (e.g. `npx tsx src/cli/admin.ts …`). */
export function run(command: string, args: string[], env: Record<string, string | undefined>, timeoutMs = 60_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} timed out:\n${quote(stderr)}\n${quote(stdout)}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      live.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** True when a PostgreSQL server answers at `url` within a second. */
export async function postgresReachable(url = POSTGRES_SERVER_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function postgresQuery(url: string, sql: string): Promise<any[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Creates a fresh database on the server; returns its URL and a function that drops it. */
export async function createPostgresDatabase(prefix: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await postgresQuery(POSTGRES_SERVER_URL, `CREATE DATABASE "${name}"`);
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => postgresQuery(POSTGRES_SERVER_URL, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).then(() => undefined),
  };
}

/** The migrations in the repository, in the order they apply. */
export const MIGRATIONS: string[] = readdirSync(path.join(REPO_ROOT, 'prisma', 'migrations'))
  .filter((name) => /^\d{14}_\w+$/.test(name))
  .sort();
