import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import { applyMigrations, pgliteSession, pgSession } from './migrate.ts';

export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  kind: 'pglite' | 'postgres';
  /**
   * The pg Pool Prisma uses (PostgreSQL only; null on PGlite), for the few things that share the
   * database without Prisma (rate-limit counters), so they need no pool of their own.
   */
  pool: pg.Pool | null;
  /** Applies pending migrations (under an advisory lock: safe with several instances starting at once). */
  migrate(): Promise<string[]>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * Follows a notification channel (LISTEN): `onNotify` for each notification, at its writer's commit,
   * and `onListening(true | false)` when following starts and when it stops (a lost connection, which is
   * re-established). Returns the function that stops following.
   */
  listen(channel: string, handlers: ChannelHandlers): () => Promise<void>;
  close(): Promise<void>;
}

export interface ChannelHandlers {
  onNotify: () => void;
  onListening: (listening: boolean) => void;
}

/** Waits between attempts to listen again after the connection was lost: 0.5 s, doubling up to 10 s. */
const relistenDelay = (attempt: number) => Math.min(10_000, 500 * 2 ** attempt);

const channelName = (channel: string) => {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`Invalid channel name "${channel}"`);
  return channel;
};

export interface DatabaseOptions {
  /** postgres://… for a real server; otherwise embedded PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; `memory://` (or undefined with `inMemory`) keeps everything in memory. */
  dataDir?: string;
  /** Called with every SQL statement Prisma sends (tests count them to catch N+1 queries). */
  onQuery?: (sql: string) => void;
  /** PostgreSQL server: keep statements prepared per connection (default true; see preparedStatementNames). */
  preparedStatements?: boolean;
}

/**
 * How long a transaction may wait for a connection, and run. Prisma's defaults (2 s, 5 s) are short
 * for a burst of writes: PGlite has one connection, so 50 concurrent writes queue behind each other,
 * and a loaded pool does the same. A request that still waits longer is answered 503 (see
 * core/errors.ts), not 500.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 };

function createPrisma(adapter: SqlDriverAdapterFactory, onQuery?: (sql: string) => void): PrismaClient {
  if (!onQuery) return new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
  const prisma = new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS, log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query', (event: { query: string }) => onQuery(event.query));
  return prisma;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.onQuery, options.preparedStatements ?? true) : openPglite(options.dataDir, options.onQuery);
}

async function openPglite(dataDir: string | undefined, onQuery?: (sql: string) => void): Promise<Database> {
  // PGlite is PostgreSQL compiled to WASM, in-process: one process owns the data directory at a time.
  if (dataDir && !dataDir.startsWith('memory://')) fs.mkdirSync(dataDir, { recursive: true });
  // Loaded only for the embedded database: a server on PostgreSQL starts without reading PGlite's modules.
  const [{ createPglite }, { PrismaPGlite }] = await Promise.all([import('./pglite.ts'), import('pglite-prisma-adapter')]);
  const pglite = await createPglite(dataDir ?? 'memory://');
  const prisma = createPrisma(new PrismaPGlite(pglite), onQuery);
  return {
    prisma,
    kind: 'pglite',
    pool: null,
    migrate: () => applyMigrations(pgliteSession(pglite)),
    // One process owns an embedded database: notifications come from this process's own writes.
    listen: (channel, { onNotify, onListening }) => {
      const stop = pglite.listen(channelName(channel), () => onNotify()).then((unlisten) => {
        onListening(true);
        return unlisten;
      });
      return async () => {
        onListening(false);
        await (await stop)();
      };
    },
    ping: async () => {
      try {
        await pglite.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

async function openPostgres(databaseUrl: string, onQuery: ((sql: string) => void) | undefined, preparedStatements: boolean): Promise<Database> {
  // JIT compilation off for this pool's sessions: every statement here is a short read or write, and a
  // plan estimated past jit_above_cost (ranking thousands of search matches) would compile on every run
  // (docs/operations.md).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, options: '-c jit=off' });
  const prisma = createPrisma(new PrismaPg(pool, preparedStatements ? { statementNameGenerator: preparedStatementNames() } : {}), onQuery);
  return {
    prisma,
    kind: 'postgres',
    pool,
    migrate: async () => {
      // Migrations need one session for the advisory lock and their transactions: a dedicated client.
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return await applyMigrations(pgSession(client));
      } finally {
        await client.end();
      }
    },
    listen: (channel, handlers) => listenOnPostgres(databaseUrl, channelName(channel), handlers),
    ping: async () => {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      await prisma.$disconnect();
      // $disconnect removes the adapter's error listener; a connection ended by the server while the
      // pool closes (e.g. DROP DATABASE … WITH (FORCE) in tests) must not become an unhandled error.
      pool.on('error', () => {});
      await pool.end();
    },
  };
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other work): when it is lost, the
 * listener is told, and a new connection listens again after a growing delay.
 */
function listenOnPostgres(databaseUrl: string, channel: string, { onNotify, onListening }: ChannelHandlers): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (attempt: number) => {
    const connection = new pg.Client({ connectionString: databaseUrl });
    client = connection;
    const lost = () => {
      if (client !== connection) return;
      client = null;
      onListening(false);
      connection.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect(attempt + 1), relistenDelay(attempt)).unref();
    };
    connection.on('error', lost);
    connection.on('end', lost);
    connection.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${channel}`);
      if (stopped) return void connection.end().catch(() => {});
      onListening(true);
      attempt = 0;
    } catch {
      lost();
    }
  };
  void connect(0);
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const connection = client;
    client = null;
    onListening(false);
    if (connection) await connection.end().catch(() => {});
  };
}

/** Statements longer than this, or with more parameters (long `IN` lists), are not kept prepared. */
const MAX_PREPARED_SQL = 16_384;
const MAX_PREPARED_PARAMETERS = 64;
/**
 * Statement texts kept prepared, per process: each pooled connection prepares each of them once, and
 * both pg (the text, per connection) and PostgreSQL (the plan, per session) keep them for as long as the
 * connection lives. Without a bound, traffic that reaches many rare query shapes (a hostile probe sends
 * thousands) made every connection keep thousands of them.
 */
const MAX_PREPARED_TEXTS = 256;
/** A text is prepared from its second run on: a shape that runs once is not worth keeping. */
const RUNS_BEFORE_PREPARING = 2;
/** Texts counted while not yet prepared (their hashes); the count starts over when it is full. */
const MAX_COUNTED_TEXTS = 4096;

/**
 * Names statements by their text, so that each pooled connection prepares a statement once and runs it
 * again without parsing and planning it (PostgreSQL plans Prisma's nested queries in about a
 * millisecond: more than they take to run). Only texts that run again are named, at most
 * MAX_PREPARED_TEXTS of them, and long texts and long parameter lists (`IN` lists of varying length)
 * never: what a connection keeps prepared stays bounded whatever the traffic, and the shapes that run
 * all the time (the token, the access check, the lists) are the ones kept.
 */
export function preparedStatementNames(): (query: { sql: string; args: unknown[] }) => string {
  const names = new Map<string, string>();
  const runs = new Map<string, number>();
  const unnamed = undefined as unknown as string;
  return (query) => {
    const known = names.get(query.sql);
    if (known) return known;
    if (names.size >= MAX_PREPARED_TEXTS || query.sql.length > MAX_PREPARED_SQL || query.args.length > MAX_PREPARED_PARAMETERS) return unnamed;
    const name = `q${createHash('sha1').update(query.sql).digest('base64url')}`;
    const count = (runs.get(name) ?? 0) + 1;
    if (count < RUNS_BEFORE_PREPARING) {
      if (runs.size >= MAX_COUNTED_TEXTS) runs.clear();
      runs.set(name, count);
      return unnamed;
    }
    runs.delete(name);
    names.set(query.sql, name);
    return name;
  };
}
