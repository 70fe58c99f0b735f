import path from 'node:path';
import { z } from 'zod';

/** Environment → typed configuration, validated once at start-up. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
  /** postgres://… to use a real PostgreSQL server; unset → embedded PGlite in DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  /** Public base URL of this server (API URLs are `${PUBLIC_URL}/v1/...`). */
  PUBLIC_URL: z.string().url().optional(),
  /** Base URL of the web app, used for `urls.app` links. */
  APP_URL: z.string().url().optional(),
  /** Bearer token allowed to call the instance administration routes (`POST /v1/admin/users`). */
  ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Graceful-shutdown budget: in-flight requests get this long to finish on SIGTERM. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /** Origins allowed to call the API from a browser: comma-separated list, or `*`. Unset: none. */
  CORS_ORIGINS: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  publicUrl: string;
  apiUrl: string;
  appUrl: string;
  adminToken?: string;
  logLevel: string;
  shutdownTimeoutMs: number;
  /** Origins allowed by CORS; `'*'` for any (never with credentials); empty: no CORS headers at all. */
  corsOrigins: string[] | '*';
}

/** What `buildConfig` accepts: any subset. */
export type ConfigInput = Partial<Omit<Config, 'apiUrl'>>;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return buildConfig({
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    publicUrl: e.PUBLIC_URL,
    appUrl: e.APP_URL,
    adminToken: e.ADMIN_TOKEN,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    corsOrigins: parseCorsOrigins(e.CORS_ORIGINS),
  });
}

/** `*`, or a comma-separated list of origins (scheme://host[:port], as browsers send them in `Origin`). */
export function parseCorsOrigins(value: string | undefined): string[] | '*' {
  if (value === undefined || value.trim() === '') return [];
  if (value.trim() === '*') return '*';
  return value.split(',').map((item) => {
    const origin = item.trim();
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new Error(`Invalid configuration: CORS_ORIGINS: "${origin}" is not an origin`);
    }
    if (parsed.origin !== origin) {
      throw new Error(`Invalid configuration: CORS_ORIGINS: "${origin}" is not an origin (expected "${parsed.origin}")`);
    }
    return origin;
  });
}

/** Fills derived URLs; tests call this directly with partial settings. */
export function buildConfig(input: ConfigInput): Config {
  const port = input.port ?? 4000;
  const publicUrl = trimSlash(input.publicUrl ?? `http://localhost:${port}`);
  return {
    port,
    host: input.host ?? '0.0.0.0',
    databaseUrl: input.databaseUrl,
    dataDir: input.dataDir ?? path.resolve('./data'),
    publicUrl,
    apiUrl: `${publicUrl}/v1`,
    appUrl: trimSlash(input.appUrl ?? publicUrl),
    adminToken: input.adminToken,
    logLevel: input.logLevel ?? 'info',
    shutdownTimeoutMs: input.shutdownTimeoutMs ?? 10_000,
    corsOrigins: input.corsOrigins ?? [],
  };
}
