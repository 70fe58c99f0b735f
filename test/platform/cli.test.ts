// The offline command-line tools: `npm run admin -- create-user …` and `npm run db:migrate`, run as real
// processes on a fresh embedded database (DATA_DIR, no server running), and on PostgreSQL when available
// (TEST_DATABASE_URL, or a server answering on postgres://postgres@127.0.0.1:5432).
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createPostgresDatabase,
  killAll,
  MIGRATIONS,
  postgresQuery,
  postgresReachable,
  quote,
  run,
  startServer,
  tempDir,
  type RunResult,
} from '../support/server-process.ts';

const runPostgres = Boolean(process.env.TEST_DATABASE_URL) || (await postgresReachable());
if (!runPostgres) console.warn('cli.test.ts: no PostgreSQL reachable and TEST_DATABASE_URL unset: DATABASE_URL cases not run');

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  await killAll();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function scratchDir(prefix: string): string {
  const dir = tempDir(prefix);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `npm run --silent <script> -- args` (the documented commands; --silent keeps npm's banner off stdout). */
const npmRun = (script: string, args: string[], env: Record<string, string | undefined>) =>
  run('npm', ['run', '--silent', script, '--', ...args], env);

/** The admin CLI without npm in front (faster; same entry point as `npm run admin`). */
const admin = (args: string[], env: Record<string, string | undefined>) =>
  run(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], env);

const explain = (r: RunResult) => `exit ${r.code}\nstdout:\n${quote(r.stdout)}\nstderr:\n${quote(r.stderr)}`;

function parseCreated(r: RunResult) {
  expect(r.code, explain(r)).toBe(0);
  return JSON.parse(r.stdout) as { user: Record<string, any>; token: string };
}

describe('npm run admin -- create-user (embedded database)', { timeout: 120_000 }, () => {
  const dataDir = scratchDir('dp-cli-');
  const env = { DATA_DIR: dataDir };

  it('creates a user on a fresh DATA_DIR, prints { user, token }, and the token works on a server started there', async () => {
    const result = await npmRun('admin', ['create-user', '--email', 'Ada@Example.com', '--name', 'Ada Lovelace'], env);
    const created = parseCreated(result);
    expect(Object.keys(created).sort()).toEqual(['token', 'user']);
    expect(created.user).toMatchObject({ object: 'user', displayName: 'Ada Lovelace', email: 'ada@example.com' });
    expect(created.user.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(created.token).toEqual(expect.any(String));
    expect(created.token.length).toBeGreaterThanOrEqual(22);

    // Duplicate e-mail (case-insensitively): non-zero exit, a message, nothing on stdout.
    const duplicate = await admin(['create-user', '--email', 'ADA@example.com', '--name', 'Someone Else'], env);
    expect(duplicate.code, explain(duplicate)).not.toBe(0);
    expect(duplicate.stderr).toMatch(/already exists/i);
    expect(duplicate.stdout.trim()).toBe('');

    // A second, different user is fine.
    const grace = parseCreated(await admin(['create-user', '--email', 'grace@example.com', '--name', 'Grace Hopper'], env));
    expect(grace.user.id).not.toBe(created.user.id);
    expect(grace.token).not.toBe(created.token);

    // The CLI has exited; the server now owns the data directory.
    const server = await startServer({ DATA_DIR: dataDir });
    try {
      const me = await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${created.token}` } });
      expect(me.status).toBe(200);
      const user = await me.json();
      expect(user).toMatchObject({ id: created.user.id, email: 'ada@example.com', displayName: 'Ada Lovelace' });
      // The CLI prints the user as the API answers it (GitBook's User JSON, the users module's presenter);
      // only the origin of urls.location differs (the CLI's API_URL is the default, the server's its port).
      expect(created.user).toEqual({ ...user, urls: { location: expect.stringMatching(new RegExp(`/v1/users/${created.user.id}$`)) } });
      const other = await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${grace.token}` } });
      expect((await other.json()).id).toBe(grace.user.id);
      const wrong = await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${created.token}x` } });
      expect(wrong.status).toBe(401);
      // The CLI already migrated the directory: the server found nothing to apply.
      expect(server.logs().find((l) => l.msg === 'database ready')).toMatchObject({ database: 'pglite', migrationsApplied: [] });
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it('rejects an invalid e-mail with a non-zero exit and a message naming the field', async () => {
    const result = await admin(['create-user', '--email', 'not-an-email', '--name', 'Nobody'], env);
    expect(result.code, explain(result)).not.toBe(0);
    expect(result.stderr).toMatch(/email/i);
    expect(result.stdout.trim()).toBe('');
  });

  // Argument errors are found before the database is opened: these run side by side.
  it.concurrent.each([
    ['no command', []],
    ['an unknown command', ['delete-user', '--email', 'a@example.com', '--name', 'A']],
    ['a missing --name', ['create-user', '--email', 'a@example.com']],
    ['a missing --email', ['create-user', '--name', 'A']],
    ['--email without a value', ['create-user', '--name', 'A', '--email']],
    ['an unknown option', ['create-user', '--email', 'a@example.com', '--name', 'A', '--role', 'admin']],
  ])('exits non-zero with the usage message on %s', async (_label, args) => {
    const dataDir = scratchDir('dp-cli-usage-');
    const result = await admin(args, { DATA_DIR: dataDir });
    expect(result.code, explain(result)).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stderr, explain(result)).toContain('Usage: npm run admin -- create-user --email <email> --name <display name>');
    expect(result.stdout.trim()).toBe('');
  });
});

describe('npm run db:migrate', { timeout: 120_000 }, () => {
  it('applies every migration on a fresh DATA_DIR, then reports it up to date', async () => {
    const env = { DATA_DIR: scratchDir('dp-migrate-') };
    const first = await npmRun('db:migrate', [], env);
    expect(first.code, explain(first)).toBe(0);
    expect(first.stdout.trim()).toBe(`Applied: ${MIGRATIONS.join(', ')}`);
    const second = await npmRun('db:migrate', [], env);
    expect(second.code, explain(second)).toBe(0);
    expect(second.stdout.trim()).toBe('Database is up to date');
  });
});

if (runPostgres) {
  describe('CLIs on PostgreSQL (DATABASE_URL)', { timeout: 120_000 }, () => {
    it('db:migrate then create-user on a fresh database; duplicates refused', async () => {
      const db = await createPostgresDatabase('dp_cli');
      cleanups.push(db.drop);
      const env = { DATABASE_URL: db.url };
      const first = await npmRun('db:migrate', [], env);
      expect(first.code, explain(first)).toBe(0);
      expect(first.stdout.trim()).toBe(`Applied: ${MIGRATIONS.join(', ')}`);
      const second = await npmRun('db:migrate', [], env);
      expect(second.stdout.trim()).toBe('Database is up to date');

      const created = parseCreated(await admin(['create-user', '--email', 'pg.cli@example.com', '--name', 'Pg Cli'], env));
      expect(created.user).toMatchObject({ object: 'user', email: 'pg.cli@example.com', displayName: 'Pg Cli' });
      const duplicate = await admin(['create-user', '--email', 'pg.cli@example.com', '--name', 'Again'], env);
      expect(duplicate.code, explain(duplicate)).not.toBe(0);
      expect(duplicate.stderr).toMatch(/already exists/i);

      const migrations = await postgresQuery(db.url, `SELECT migration_name FROM "_prisma_migrations"`);
      expect(migrations.map((m) => m.migration_name).sort()).toEqual(MIGRATIONS);
      // Only a hash of the token is stored: the secret itself appears nowhere in the token table.
      const tables = await postgresQuery(
        db.url,
        `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name IN ('tokenHash', 'token_hash')`,
      );
      expect(tables).toHaveLength(1);
      const rows = await postgresQuery(db.url, `SELECT * FROM "${tables[0].table_name}"`);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(created.token);
    });
  });
}
