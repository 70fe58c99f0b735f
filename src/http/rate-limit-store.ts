import { Redis } from 'ioredis';
import type pg from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Limit } from '../config.ts';
import type { Logger } from '../lib/logger.ts';

/**
 * Where rate-limit counters live. They must be shared by every instance serving the API, or N instances
 * would allow N times the limit:
 * - `redis` when REDIS_URL is set;
 * - `postgres`, the app's own database (table "RateLimitCounter", created by a migration), when it is a
 *   PostgreSQL server — one upsert per counted request, on the app's existing pg Pool;
 * - `memory` on embedded PGlite: only one process can open that database, so there is only one
 *   instance, and process memory is the shared state.
 */
export interface RateLimitStore {
  kind: 'memory' | 'postgres' | 'redis';
  limiter(name: string, limit: Limit): RateLimiterAbstract;
  /** Resolves once the store answers (at once for memory and PostgreSQL; when Redis is connected). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface RateLimitStoreOptions {
  redisUrl?: string;
  /** The database's pg Pool when it is a PostgreSQL server. */
  pool: pg.Pool | null;
  logger: Logger;
}

export function openRateLimitStore(options: RateLimitStoreOptions): RateLimitStore {
  if (options.redisUrl) return redisStore(options.redisUrl, options.logger);
  if (options.pool) return postgresStore(options.pool);
  return memoryStore();
}

function memoryOptions(name: string, limit: Limit) {
  return { keyPrefix: `rl:${name}`, points: limit.points, duration: limit.windowSeconds };
}

/**
 * Options every shared limiter gets:
 * - `inMemoryBlockOnConsumed: points`: once the store says a key used its last point, this instance
 *   refuses that key from memory until the window ends, without asking the store again (a flood costs
 *   the store nothing more);
 * - `insuranceLimiter`: if the store fails (database or Redis down), count in memory rather than either
 *   refuse everything or stop limiting.
 */
function sharedOptions(name: string, limit: Limit) {
  return {
    ...memoryOptions(name, limit),
    inMemoryBlockOnConsumed: limit.points,
    insuranceLimiter: new RateLimiterMemory(memoryOptions(name, limit)),
  };
}

function memoryStore(): RateLimitStore {
  return {
    kind: 'memory',
    limiter: (name, limit) => new RateLimiterMemory(memoryOptions(name, limit)),
    ready: async () => {},
    close: async () => {},
  };
}

function postgresStore(pool: pg.Pool): RateLimitStore {
  let sweeping = false;
  return {
    kind: 'postgres',
    limiter: (name, limit) => {
      // One limiter per instance deletes rows expired for an hour (every 5 minutes); the others need not
      // repeat that table-wide DELETE.
      const clearExpiredByTimeout = !sweeping;
      sweeping = true;
      return new RateLimiterPostgres({
        ...sharedOptions(name, limit),
        storeClient: pool,
        storeType: 'pool',
        tableName: 'RateLimitCounter',
        tableCreated: true, // by our migration: no CREATE TABLE at run time
        clearExpiredByTimeout,
      } as ConstructorParameters<typeof RateLimiterPostgres>[0]);
    },
    ready: async () => {},
    close: async () => {}, // the pool belongs to the database
  };
}

function redisStore(url: string, logger: Logger): RateLimitStore {
  // rejectIfRedisNotReady (below): while Redis is unreachable, requests are counted by the insurance
  // limiter at once instead of waiting in ioredis' offline queue.
  const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: false });
  let lastError = '';
  client.on('error', (error: Error) => {
    if (error.message !== lastError) logger.warn({ err: error }, 'rate limiting: Redis unavailable, counting in memory');
    lastError = error.message;
  });
  client.on('ready', () => {
    lastError = '';
  });
  return {
    kind: 'redis',
    limiter: (name, limit) =>
      new RateLimiterRedis({ ...sharedOptions(name, limit), storeClient: client, rejectIfRedisNotReady: true } as ConstructorParameters<typeof RateLimiterRedis>[0]),
    ready: () =>
      client.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            client.once('ready', () => resolve());
          }),
    close: async () => {
      client.disconnect();
    },
  };
}
