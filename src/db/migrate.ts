// Migration runner: applies prisma/migrations/<timestamp>_<name>/migration.sql in order and records them in
// `_prisma_migrations` exactly as `prisma migrate deploy` does. We cannot use Prisma's own runner: it needs the
// native schema engine, which cannot be downloaded offline (see /work/shared/notes/toolchain.md). Because the
// bookkeeping is identical, a database migrated here is accepted later by the real `prisma migrate deploy`.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/** One database connection. Session-level state (advisory lock, BEGIN/COMMIT) must stay on it, so no pools. */
export interface SqlSession {
  query(sql: string, params?: unknown[]): Promise<{ rows: any[] }>;
  /** Runs a multi-statement script. */
  exec(sql: string): Promise<void>;
}

/** The same key Prisma Migrate locks on, so this runner and a real `prisma migrate deploy` also exclude each other. */
const ADVISORY_LOCK_KEY = '72707369';

// Same DDL as the schema engine's postgres flavour; IF NOT EXISTS because we create it on every start.
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

const DEFAULT_MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../prisma/migrations');

/** Applies pending migrations; returns the names of those applied by this call (empty when up to date). */
export async function applyMigrations(session: SqlSession, migrationsDir = DEFAULT_MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(migrationsDir);

  // Lock first, even before CREATE TABLE IF NOT EXISTS: two sessions creating the table at the same moment can
  // still collide on the catalog. A second instance starting concurrently waits here, then finds nothing to do.
  await session.query(`SELECT pg_advisory_lock(${ADVISORY_LOCK_KEY})`);
  try {
    await session.exec(CREATE_MIGRATIONS_TABLE);
    const { rows } = await session.query(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const applied = new Map<string, string>();
    for (const row of rows) {
      // A row that never finished is a migration Prisma itself failed to apply (P3009); Prisma refuses to go on
      // until someone runs `prisma migrate resolve`, and so do we rather than guess what state the DB is in.
      if (row.finished_at == null) {
        throw new Error(`Migration ${row.migration_name} is recorded as failed in _prisma_migrations; resolve it first`);
      }
      applied.set(row.migration_name, row.checksum);
    }

    const appliedNow: string[] = [];
    for (const { name, script, checksum } of migrations) {
      const recorded = applied.get(name);
      if (recorded !== undefined) {
        // Editing an applied migration would make databases diverge silently: fail loudly instead.
        if (recorded !== checksum) throw new Error(`Migration ${name} was modified after it was applied (checksum mismatch)`);
        continue;
      }
      // One transaction per migration: the script and its history row commit together or not at all, so a failed
      // migration leaves neither half-applied DDL (PostgreSQL DDL is transactional) nor a record behind.
      try {
        await session.exec('BEGIN');
        await session.exec(script);
        await session.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), 1)`,
          [randomUUID(), checksum, name],
        );
        await session.exec('COMMIT');
      } catch (err) {
        await session.exec('ROLLBACK').catch(() => {}); // keep the original error, not a rollback failure
        throw new Error(`Migration ${name} failed: ${(err as Error).message}`, { cause: err });
      }
      appliedNow.push(name);
    }
    return appliedNow;
  } finally {
    // Session-level lock: released explicitly, because the caller may keep using this connection.
    await session.query(`SELECT pg_advisory_unlock(${ADVISORY_LOCK_KEY})`).catch(() => {});
  }
}

interface Migration { name: string; script: string; checksum: string }

// Same layout Prisma reads: every sub-folder is a migration holding migration.sql, applied in name order
// (the timestamp prefix makes name order chronological). A missing folder simply means no migrations yet.
async function readMigrations(dir: string): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(path.join(dir, name, 'migration.sql'));
      // Prisma's checksum: hex sha256 of the file's bytes.
      return { name, script: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    }),
  );
}

/** PGlite session. Uses PGlite's own exec, not pglite-prisma-adapter's executeScript, which drops script errors. */
export function pgliteSession(db: PGlite): SqlSession {
  return {
    query: (sql, params) => db.query(sql, params),
    exec: async (sql) => {
      await db.exec(sql);
    },
  };
}

/** node-postgres session on one dedicated Client (not a Pool: the lock and the transaction are per connection). */
export function pgSession(client: pg.Client): SqlSession {
  return {
    query: (sql, params) => client.query(sql, params),
    // No parameters → simple query protocol, which accepts several statements in one string.
    exec: async (sql) => {
      await client.query(sql);
    },
  };
}
