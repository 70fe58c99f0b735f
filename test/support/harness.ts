import { afterAll, beforeAll } from 'vitest';
import { createApp, type App } from '../../src/app.ts';
import { buildConfig, type Config, type ConfigInput } from '../../src/config.ts';
import { openDatabase, type Database, type Db } from '../../src/db/client.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { OwnOpenApi } from './own-openapi.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const BASE = 'http://localhost:4000';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  private current = new Date('2026-01-01T00:00:00.000Z');
  now() {
    return new Date(this.current);
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface Harness {
  app: App;
  db: Db;
  config: Config;
  clock: TestClock;
  store: TestDatabase;
}

export interface HttpResult {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/**
 * Starts one app on a fresh database for the test file (beforeAll) and stops it afterwards; on the run's
 * database unless `serverUrl` names one (see createTestDatabase).
 */
export function useHarness(overrides: ConfigInput = {}, serverUrl?: string | null): Harness {
  const harness = {} as Harness;
  beforeAll(async () => {
    harness.store = await createTestDatabase(serverUrl);
    harness.config = buildConfig({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent', adminToken: ADMIN_TOKEN, ...overrides });
    harness.clock = new TestClock();
    harness.db = harness.store.database.prisma;
    harness.app = createApp({ database: harness.store.database, config: harness.config, clock: harness.clock });
    // What the app reads at start (the signed-URL key) is read before tests count statements.
    await harness.app.ready();
  });
  afterAll(async () => {
    await harness.store?.close();
  });
  return harness;
}

/** Two app instances on one PostgreSQL database, as behind a load balancer: `h.app` and `second.app`. */
export interface TwoInstances extends Harness {
  /** The second instance: its own app, database connection pool and Prisma client (same clock and config). */
  second: Harness;
}

export function useTwoInstances(serverUrl: string, overrides: ConfigInput = {}): TwoInstances {
  const h = useHarness(overrides, serverUrl) as TwoInstances;
  let database: Database | undefined;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: h.store.url! });
    const app = createApp({ database, config: h.config, clock: h.clock });
    await app.ready();
    h.second = { ...h, app, db: database.prisma };
  });
  afterAll(async () => {
    await database?.close();
  });
  return h;
}

/** Our OpenAPI document of each app, read once (see conformToDocument). */
const documents = new WeakMap<App, Promise<OwnOpenApi>>();

/**
 * Every REST response a test receives must be one our OpenAPI document describes: a documented status
 * and a body its schema accepts. A test fails on the first that is not, naming the route and the field.
 * OPENAPI_RESPONSE_CHECK=report appends the problems to the file OPENAPI_RESPONSE_REPORT instead.
 */
async function conformToDocument(h: Harness, method: string, path: string, result: HttpResult): Promise<void> {
  const url = new URL(path, BASE);
  if (!url.pathname.startsWith('/v1/') || url.pathname === '/v1/openapi.json') return;
  let document = documents.get(h.app);
  if (!document) {
    document = (async () => new OwnOpenApi(await (await h.app.fetch(`${BASE}/v1/openapi.json`)).json()))();
    documents.set(h.app, document);
  }
  const problems = (await document).check(method, url.pathname.slice('/v1'.length), result.status, result.body);
  if (problems.length === 0) return;
  if (process.env.OPENAPI_RESPONSE_CHECK === 'report') {
    const { appendFileSync } = await import('node:fs');
    appendFileSync(process.env.OPENAPI_RESPONSE_REPORT ?? 'openapi-report.txt', problems.map((p) => `${p}\n`).join(''));
    return;
  }
  throw new Error(`The response to ${method} ${path.slice(0, 300)} is not what /v1/openapi.json documents:\n${problems.join("\n")}`);
}

async function send(h: Harness, method: string, path: string, token: string | null, body?: unknown, rawBody?: string): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined || rawBody !== undefined) headers['content-type'] = 'application/json';
  const response = await h.app.fetch(`${BASE}${path}`, {
    method,
    headers,
    body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const result = { status: response.status, body: parsed, text, headers: response.headers };
  await conformToDocument(h, method, path, result);
  return result;
}

/** A caller with a token: `rest('GET', '/v1/orgs')`, `gql('{ user { id } }')`. */
export interface Caller {
  token: string;
  userId: string;
  email: string;
  rest(method: string, path: string, body?: unknown): Promise<HttpResult>;
  raw(method: string, path: string, rawBody: string): Promise<HttpResult>;
  gql(query: string, variables?: Record<string, unknown>): Promise<HttpResult>;
}

export function callerFor(h: Harness, token: string, userId = '', email = ''): Caller {
  return {
    token,
    userId,
    email,
    rest: (method, path, body) => send(h, method, path, token, body),
    raw: (method, path, rawBody) => send(h, method, path, token, undefined, rawBody),
    gql: (query, variables) => send(h, 'POST', '/graphql', token, { query, variables }),
  };
}

/** Requests without any Authorization header. */
export const anonymous = (h: Harness) => ({
  rest: (method: string, path: string, body?: unknown) => send(h, method, path, null, body),
  gql: (query: string) => send(h, 'POST', '/graphql', null, { query }),
});
