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
  limits: RequestLimits;
}

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
  });
}

/** Fills derived URLs; tests call this directly with partial settings. */
export function buildConfig(input: Partial<Config> & { publicUrl?: string; appUrl?: string }): Config {
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
    limits: input.limits ?? DEFAULT_LIMITS,
  };
}
