import path from 'node:path';
import { z } from 'zod';

export interface GraphqlLimits {
  /** Deepest field nesting of an operation (introspection excepted). */
  maxDepth: number;
  maxAliases: number;
  /** Lexical tokens of a document: bounds parsing work and memory. */
  maxTokens: number;
  maxDirectives: number;
  /** graphql-armor's static cost (objects 2, scalars 1, ×1.5 per level). */
  maxCost: number;
  /** List items an operation may return at most, from the `limit` of every list on its paths. */
  maxListItems: number;
}

export interface RequestLimits {
  maxBodyBytes: number;
  maxInputDepth: number;
  graphql: GraphqlLimits;
}

/** Defaults: far above what a real client of this API sends, far below what hurts the server. */
export const DEFAULT_LIMITS: RequestLimits = {
  maxBodyBytes: 1024 * 1024,
  maxInputDepth: 32,
  graphql: { maxDepth: 12, maxAliases: 15, maxTokens: 2000, maxDirectives: 50, maxCost: 5000, maxListItems: 2000 },
};

const booleanString = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');
const positiveInt = z.coerce.number().int().min(1);

/** Default rate limits. Whether limiting is on: RATE_LIMIT in `loadConfig` (on unless false); off in `buildConfig` unless given (tests). */
const DEFAULT_RATE_LIMITS: Omit<RateLimitConfig, 'enabled'> = {
  requests: { points: 600, windowSeconds: 60 },
  authFailures: { points: 20, windowSeconds: 900 },
  sso: { points: 30, windowSeconds: 60 },
  admin: { points: 10, windowSeconds: 60 },
};

/** How URLs that users give are fetched (src/lib/safe-fetch.ts). */
export interface FetchConfig {
  allowPrivate: boolean;
  /** Per request, redirect hops each on their own. */
  timeoutMs: number;
  /** Largest response body read. */
  maxBytes: number;
  maxRedirects: number;
}

/** Website import limits. */
export interface ImportConfig {
  maxPages: number;
  /** The whole crawl; what is not fetched by then is counted, not imported. */
  timeoutMs: number;
  /** Bytes downloaded in all (pages and images). */
  maxBytes: number;
}

const DEFAULT_FETCH: FetchConfig = { allowPrivate: false, timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 };
const DEFAULT_IMPORT: ImportConfig = { maxPages: 100, timeoutMs: 60_000, maxBytes: 50 * 1024 * 1024 };

/** Environment → typed configuration, validated once at start-up. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
  /** postgres://… to use a real PostgreSQL server; unset → embedded PGlite in DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /**
   * Keep statements prepared on each pooled connection (PostgreSQL server only; on by default). Turn off
   * behind a pooler that cannot carry prepared statements (PgBouncer in transaction mode before 1.21).
   */
  DATABASE_PREPARED_STATEMENTS: booleanString.default(true),
  DATA_DIR: z.string().default('./data'),
  /** Public base URL of this server (API URLs are `${PUBLIC_URL}/v1/...`). */
  PUBLIC_URL: z.string().url().optional(),
  /** Base URL of the web app, used for `urls.app` links. */
  APP_URL: z.string().url().optional(),
  /** Base of published sites' URLs (`urls.published`): `<PUBLISHED_URL>/<organization>/<basename or site ID>`. */
  PUBLISHED_URL: z.string().url().optional(),
  /** Bearer token allowed to call the instance administration routes (`POST /v1/admin/users`). */
  ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Graceful-shutdown budget: in-flight requests get this long to finish on SIGTERM. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /** Largest request body read (REST, GraphQL, SAML); larger ones get 413 without being read whole. */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(DEFAULT_LIMITS.maxBodyBytes),
  /** Deepest nesting of JSON input: REST bodies, GraphQL variables and literals. */
  MAX_INPUT_DEPTH: z.coerce.number().int().min(4).max(256).default(DEFAULT_LIMITS.maxInputDepth),
  /** GraphQL operation limits (graphql-armor, plus our estimate of the list items a query may return). */
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).max(64).default(DEFAULT_LIMITS.graphql.maxDepth),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(DEFAULT_LIMITS.graphql.maxAliases),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).max(100_000).default(DEFAULT_LIMITS.graphql.maxTokens),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).default(DEFAULT_LIMITS.graphql.maxDirectives),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(DEFAULT_LIMITS.graphql.maxCost),
  GRAPHQL_MAX_LIST_ITEMS: z.coerce.number().int().min(100).default(DEFAULT_LIMITS.graphql.maxListItems),
  /** Rate limiting (see docs/operations.md, "Limits and security"): on unless set to false. */
  RATE_LIMIT: booleanString.default(true),
  /** Requests per window per access token (per client IP without a token). */
  RATE_LIMIT_POINTS: positiveInt.default(DEFAULT_RATE_LIMITS.requests.points),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(DEFAULT_RATE_LIMITS.requests.windowSeconds),
  /** Failed authentications (401s to requests with credentials) per client IP per window; then every request from that IP gets 429. */
  RATE_LIMIT_AUTH_FAILURES: positiveInt.default(DEFAULT_RATE_LIMITS.authFailures.points),
  RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS: positiveInt.default(DEFAULT_RATE_LIMITS.authFailures.windowSeconds),
  /** Requests to the SAML sign-in routes (/sso/saml/…) per client IP per window. */
  RATE_LIMIT_SSO_POINTS: positiveInt.default(DEFAULT_RATE_LIMITS.sso.points),
  RATE_LIMIT_SSO_WINDOW_SECONDS: positiveInt.default(DEFAULT_RATE_LIMITS.sso.windowSeconds),
  /** Requests to the instance administration route (POST /v1/admin/users) per client IP per window. */
  RATE_LIMIT_ADMIN_POINTS: positiveInt.default(DEFAULT_RATE_LIMITS.admin.points),
  RATE_LIMIT_ADMIN_WINDOW_SECONDS: positiveInt.default(DEFAULT_RATE_LIMITS.admin.windowSeconds),
  /** redis://… to keep rate-limit counters in Redis (shared by all instances). */
  REDIS_URL: z.string().url().optional(),
  /**
   * Behind a reverse proxy: how many proxies (hops) append to X-Forwarded-For; the client IP is taken
   * that many entries from its right end. `true` = 1, `false`/0 = ignore the header (the default).
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2})$/, 'TRUST_PROXY must be true, false or a number of proxies')
    .default('false')
    .transform((value) => (value === 'true' ? 1 : value === 'false' ? 0 : Number(value))),
  /** Origins allowed to call the API from a browser: comma-separated list, or `*`. Unset: none. */
  CORS_ORIGINS: z.string().optional(),
  /** Bearer token that opens GET /metrics (Prometheus); unset, there are no metrics. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /** Fetching URLs users give (website import): private, loopback and link-local addresses are refused unless true. */
  FETCH_ALLOW_PRIVATE: booleanString.default(false),
  FETCH_TIMEOUT_MS: positiveInt.default(DEFAULT_FETCH.timeoutMs),
  FETCH_MAX_BYTES: positiveInt.default(DEFAULT_FETCH.maxBytes),
  FETCH_MAX_REDIRECTS: z.coerce.number().int().min(0).max(20).default(DEFAULT_FETCH.maxRedirects),
  /** Website import: pages fetched at most, the time the whole import may take, the bytes it may download. */
  IMPORT_MAX_PAGES: positiveInt.default(DEFAULT_IMPORT.maxPages),
  IMPORT_TIMEOUT_MS: positiveInt.default(DEFAULT_IMPORT.timeoutMs),
  IMPORT_MAX_BYTES: positiveInt.default(DEFAULT_IMPORT.maxBytes),
  /** Pages and files of revisions kept in memory, read whole once (0: none kept). */
  CONTENT_CACHE_ENTRIES: z.coerce.number().int().min(0).max(100_000_000).optional(),
  /** How often spaces synced with Git (and no push webhook) ask their branch for new commits; 0: never. */
  GIT_SYNC_POLL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** How long a job's claim holds without renewal: a job whose instance died is run again after it. */
  JOB_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  /** Statements prepared once per pooled connection (db/client.ts); PostgreSQL server only. */
  databasePreparedStatements: boolean;
  dataDir: string;
  publicUrl: string;
  apiUrl: string;
  appUrl: string;
  /** Base of published sites' URLs. */
  publishedUrl: string;
  adminToken?: string;
  logLevel: string;
  shutdownTimeoutMs: number;
  limits: RequestLimits;
  rateLimit: RateLimitConfig;
  /** Number of reverse proxies whose X-Forwarded-For entries are trusted (0: use the socket address). */
  trustProxy: number;
  redisUrl?: string;
  /** Origins allowed by CORS; `'*'` for any (never with credentials); empty: no CORS headers at all. */
  corsOrigins: string[] | '*';
  fetch: FetchConfig;
  imports: ImportConfig;
  /** Pages and files of whole revisions kept in memory (src/modules/content/store/revision-content.ts); unset: its default. */
  contentCacheEntries?: number;
  /** Opens GET /metrics; unset: no metrics. */
  metricsToken?: string;
  /** Seconds between two polls of the branches of spaces synced with Git without a webhook; 0: no polling. */
  gitSyncPollSeconds: number;
  /** How long a job's claim holds without renewal (src/jobs/job-runner.ts). */
  jobLeaseMs: number;
}

/** One limit: `points` requests per `windowSeconds`. */
export interface Limit {
  points: number;
  windowSeconds: number;
}

export interface RateLimitConfig {
  enabled: boolean;
  /** Per access token, or per client IP for requests without one. */
  requests: Limit;
  /** 401s to requests with credentials, per client IP; reaching it locks the IP out until the window ends. */
  authFailures: Limit;
  /** SAML sign-in routes, per client IP. */
  sso: Limit;
  /** Instance administration route, per client IP. */
  admin: Limit;
}

/** What `buildConfig` accepts: any subset, rate limits field by field. */
export type ConfigInput = Partial<Omit<Config, 'rateLimit' | 'apiUrl' | 'fetch' | 'imports'>> & {
  rateLimit?: Partial<RateLimitConfig>;
  fetch?: Partial<FetchConfig>;
  imports?: Partial<ImportConfig>;
};

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
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    dataDir: path.resolve(e.DATA_DIR),
    publicUrl: e.PUBLIC_URL,
    appUrl: e.APP_URL,
    publishedUrl: e.PUBLISHED_URL,
    adminToken: e.ADMIN_TOKEN,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    limits: {
      maxBodyBytes: e.MAX_BODY_BYTES,
      maxInputDepth: e.MAX_INPUT_DEPTH,
      graphql: {
        maxDepth: e.GRAPHQL_MAX_DEPTH,
        maxAliases: e.GRAPHQL_MAX_ALIASES,
        maxTokens: e.GRAPHQL_MAX_TOKENS,
        maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
        maxCost: e.GRAPHQL_MAX_COST,
        maxListItems: e.GRAPHQL_MAX_LIST_ITEMS,
      },
    },
    rateLimit: {
      enabled: e.RATE_LIMIT,
      requests: { points: e.RATE_LIMIT_POINTS, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS },
      authFailures: { points: e.RATE_LIMIT_AUTH_FAILURES, windowSeconds: e.RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS },
      sso: { points: e.RATE_LIMIT_SSO_POINTS, windowSeconds: e.RATE_LIMIT_SSO_WINDOW_SECONDS },
      admin: { points: e.RATE_LIMIT_ADMIN_POINTS, windowSeconds: e.RATE_LIMIT_ADMIN_WINDOW_SECONDS },
    },
    redisUrl: e.REDIS_URL,
    trustProxy: e.TRUST_PROXY,
    corsOrigins: parseCorsOrigins(e.CORS_ORIGINS),
    fetch: { allowPrivate: e.FETCH_ALLOW_PRIVATE, timeoutMs: e.FETCH_TIMEOUT_MS, maxBytes: e.FETCH_MAX_BYTES, maxRedirects: e.FETCH_MAX_REDIRECTS },
    imports: { maxPages: e.IMPORT_MAX_PAGES, timeoutMs: e.IMPORT_TIMEOUT_MS, maxBytes: e.IMPORT_MAX_BYTES },
    contentCacheEntries: e.CONTENT_CACHE_ENTRIES,
    metricsToken: e.METRICS_TOKEN,
    gitSyncPollSeconds: e.GIT_SYNC_POLL_SECONDS,
    jobLeaseMs: e.JOB_LEASE_MS,
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
    databasePreparedStatements: input.databasePreparedStatements ?? true,
    dataDir: input.dataDir ?? path.resolve('./data'),
    publicUrl,
    apiUrl: `${publicUrl}/v1`,
    appUrl: trimSlash(input.appUrl ?? publicUrl),
    publishedUrl: trimSlash(input.publishedUrl ?? `${publicUrl}/s`),
    adminToken: input.adminToken,
    logLevel: input.logLevel ?? 'info',
    shutdownTimeoutMs: input.shutdownTimeoutMs ?? 10_000,
    limits: input.limits ?? DEFAULT_LIMITS,
    rateLimit: { enabled: false, ...DEFAULT_RATE_LIMITS, ...input.rateLimit },
    trustProxy: input.trustProxy ?? 0,
    redisUrl: input.redisUrl,
    corsOrigins: input.corsOrigins ?? [],
    fetch: { ...DEFAULT_FETCH, ...input.fetch },
    imports: { ...DEFAULT_IMPORT, ...input.imports },
    contentCacheEntries: input.contentCacheEntries,
    metricsToken: input.metricsToken,
    gitSyncPollSeconds: input.gitSyncPollSeconds ?? 300,
    jobLeaseMs: input.jobLeaseMs ?? 60_000,
  };
}
