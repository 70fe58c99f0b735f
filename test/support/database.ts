import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on the
 * PostgreSQL server of TEST_DATABASE_URL (created here, dropped on close).
 */
export interface TestDatabase {
  database: Database;
  /** SQL statements sent by Prisma since the last `resetQueryCount()`. */
  queries: string[];
  /** postgres://… of this database, for opening more connections to it (PostgreSQL only). */
  url?: string;
  /** The embedded database's data directory, for reopening it as a restarted process would (PGlite copies of the template only). */
  dataDir?: string;
  close(): Promise<void>;
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * `serverUrl` picks the database whatever the run: a PostgreSQL server's URL, or `null` for PGlite (tests
 * that compare the two drivers, or need two connections to one real server).
 */
export async function createTestDatabase(serverUrl: string | null | undefined = process.env.TEST_DATABASE_URL): Promise<TestDatabase> {
  const queries: string[] = [];
  const onQuery = (sql: string) => queries.push(sql);
  if (!serverUrl) {
    // A copy of the migrated data directory made once for the run (global-setup.ts): seconds faster than
    // an empty in-memory PGlite (initdb, then every migration). migrate() still runs: it finds nothing
    // to do, or applies what the template lacks.
    const template = pgliteTemplate();
    if (template) {
      const dir = mkdtempSync(path.join(path.dirname(template), 'dp-test-'));
      cpSync(template, dir, { recursive: true });
      const database = await openDatabase({ dataDir: dir, onQuery });
      await database.migrate();
      return {
        database,
        queries,
        dataDir: dir,
        close: async () => {
          await database.close().catch(() => undefined);
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    const database = await openDatabase({ dataDir: 'memory://', onQuery });
    await database.migrate();
    return { database, queries, close: () => database.close() };
  }
  const name = `dp_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), onQuery });
  await database.migrate();
  return {
    database,
    queries,
    url: url.toString(),
    close: async () => {
      await database.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

async function adminQuery(serverUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The template data directory of this run, when the global setup made one (not outside vitest). */
function pgliteTemplate(): string | null {
  try {
    return inject('pgliteTemplate') ?? null;
  } catch {
    return null;
  }
}
