import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.ts';
import { buildConfig, loadConfig, type ConfigInput } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { clientIp, normalizeIp } from '../../src/http/client-ip.ts';
import { createUserWithToken } from '../../src/modules/users/user.service.ts';
import { buildOrganization, buildSpace, buildUser } from '../factories.ts';
import { ADMIN_TOKEN, BASE, useHarness } from '../support/harness.ts';
import { createPostgresDatabase, postgresQuery } from '../support/server-process.ts';

const LIMITS = {
  enabled: true,
  requests: { points: 5, windowSeconds: 60 },
  authFailures: { points: 3, windowSeconds: 600 },
  sso: { points: 2, windowSeconds: 60 },
  admin: { points: 2, windowSeconds: 60 },
};

// Behind one trusted proxy, each test speaks from its own address (X-Forwarded-For), so the per-IP
// counters of one test do not leak into another.
const h = useHarness({ rateLimit: LIMITS, trustProxy: 1 });

let ipCounter = 0;
const newIp = () => `198.51.100.${++ipCounter}`;

function send(ip: string, method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = { 'x-forwarded-for': ip };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return h.app.fetch(`${BASE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}
const gql = (ip: string, token: string, query: string) => send(ip, 'POST', '/graphql', token, { query });

function expectRateLimitHeaders(response: Response, limit: number, remaining: number) {
  expect(response.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(response.headers.get('ratelimit-remaining')).toBe(String(remaining));
  const reset = Number(response.headers.get('ratelimit-reset'));
  expect(reset).toBeGreaterThan(0);
  expect(reset).toBeLessThanOrEqual(LIMITS.requests.windowSeconds);
}

async function expect429(response: Response, door: 'rest' | 'graphql') {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(response.headers.get('ratelimit-remaining')).toBe('0');
  const body = await response.json();
  if (door === 'rest') expect(body).toEqual({ error: { code: 429, message: expect.any(String) } });
  else expect(body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'RATE_LIMITED' } }] });
  return body;
}

describe('configuration', () => {
  it('is on by default in production (loadConfig) and off in tests (buildConfig) unless turned on', () => {
    expect(loadConfig({}).rateLimit.enabled).toBe(true);
    expect(loadConfig({ RATE_LIMIT: 'false' }).rateLimit.enabled).toBe(false);
    expect(buildConfig({}).rateLimit.enabled).toBe(false);
    const config = loadConfig({
      RATE_LIMIT_POINTS: '100',
      RATE_LIMIT_WINDOW_SECONDS: '10',
      RATE_LIMIT_AUTH_FAILURES: '7',
      RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS: '300',
      RATE_LIMIT_SSO_POINTS: '9',
      RATE_LIMIT_SSO_WINDOW_SECONDS: '30',
      RATE_LIMIT_ADMIN_POINTS: '3',
      RATE_LIMIT_ADMIN_WINDOW_SECONDS: '120',
      TRUST_PROXY: 'true',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(config.rateLimit).toEqual({
      enabled: true,
      requests: { points: 100, windowSeconds: 10 },
      authFailures: { points: 7, windowSeconds: 300 },
      sso: { points: 9, windowSeconds: 30 },
      admin: { points: 3, windowSeconds: 120 },
    });
    expect(config.trustProxy).toBe(1);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(() => loadConfig({ RATE_LIMIT_POINTS: '0' })).toThrow(/RATE_LIMIT_POINTS/);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
  });
});

describe('client IP', () => {
  const request = (forwardedFor?: string) =>
    new Request(BASE, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
  const socket = (remoteAddress: string) => ({ req: { socket: { remoteAddress } } });

  it('is the socket address unless proxies are trusted; then the entry the last trusted proxy added', () => {
    expect(clientIp(request('203.0.113.9'), socket('192.0.2.1'), 0)).toBe('192.0.2.1');
    expect(clientIp(request('203.0.113.9'), socket('192.0.2.1'), 1)).toBe('203.0.113.9');
    // A client-written entry on the left is ignored: one proxy appended exactly one entry.
    expect(clientIp(request('1.1.1.1, 203.0.113.9'), socket('192.0.2.1'), 1)).toBe('203.0.113.9');
    expect(clientIp(request('1.1.1.1, 203.0.113.9, 10.0.0.2'), socket('192.0.2.1'), 2)).toBe('203.0.113.9');
    expect(clientIp(request(), socket('192.0.2.1'), 1)).toBe('192.0.2.1');
    expect(clientIp(request('not-an-ip'), socket('192.0.2.1'), 1)).toBe('unknown');
    // No socket (app.fetch called directly): one shared bucket.
    expect(clientIp(request(), {}, 0)).toBe('unknown');
  });

  it('keys IPv6 clients by their /64 and unwraps IPv4-mapped addresses', () => {
    expect(normalizeIp('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(normalizeIp('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(normalizeIp('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(normalizeIp('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(normalizeIp('::1')).toBe('0:0:0:0::/64');
    expect(normalizeIp('example.com')).toBeUndefined();
  });
});

describe('request limit (per token; per IP without one)', () => {
  it('REST: RateLimit headers on each answer, then 429 with Retry-After; other tokens unaffected', async () => {
    const user = await buildUser(h);
    const ip = newIp();
    for (let i = 1; i <= LIMITS.requests.points; i++) {
      const response = await send(ip, 'GET', '/v1/user', user.token);
      expect(response.status).toBe(200);
      expectRateLimitHeaders(response, LIMITS.requests.points, LIMITS.requests.points - i);
    }
    const refused = await send(ip, 'GET', '/v1/user', user.token);
    await expect429(refused, 'rest');
    expect(refused.headers.get('ratelimit-limit')).toBe(String(LIMITS.requests.points));
    // Per token, not per IP: another user behind the same address still gets through.
    const other = await buildUser(h);
    expect((await send(ip, 'GET', '/v1/user', other.token)).status).toBe(200);
    // And the first token stays limited from any address.
    await expect429(await send(newIp(), 'GET', '/v1/user', user.token), 'rest');
  });

  it('GraphQL: the same budget, refused with code RATE_LIMITED and status 429', async () => {
    const user = await buildUser(h);
    const ip = newIp();
    for (let i = 1; i <= LIMITS.requests.points; i++) {
      const response = await gql(ip, user.token, '{ user { id } }');
      expect(response.status).toBe(200);
      expectRateLimitHeaders(response, LIMITS.requests.points, LIMITS.requests.points - i);
    }
    const refused = await gql(ip, user.token, '{ user { id } }');
    await expect429(refused, 'graphql');
  });

  it('REST and GraphQL share one budget per token', async () => {
    const user = await buildUser(h);
    const ip = newIp();
    for (let i = 0; i < 3; i++) expect((await send(ip, 'GET', '/v1/user', user.token)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await gql(ip, user.token, '{ user { id } }')).status).toBe(200);
    await expect429(await gql(ip, user.token, '{ user { id } }'), 'graphql');
  });

  it('without a token, counts per client IP', async () => {
    const ip = newIp();
    for (let i = 0; i < LIMITS.requests.points; i++) expect((await send(ip, 'GET', '/v1/openapi.json')).status).toBe(200);
    await expect429(await send(ip, 'GET', '/v1/openapi.json'), 'rest');
    expect((await send(newIp(), 'GET', '/v1/openapi.json')).status).toBe(200);
  });

  it('the URL lookup of published sites (POST /v1/urls/published, no token): per client IP, then 429', async () => {
    // Four requests of the admin's token (its own budget): organization, space, site, publish.
    const { admin, organizationId: o } = await buildOrganization(h, 'Lookup');
    const space = await buildSpace(admin, o, { title: 'Docs' });
    const site = await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs', spaces: [space.id] });
    expect(site.status, site.text).toBe(201);
    expect((await admin.rest('POST', `/v1/orgs/${o}/sites/${site.body.id}/publish`)).status).toBe(200);
    const url = `${h.config.publishedUrl}/${o}/${site.body.id}/`;
    const ip = newIp();
    for (let i = 1; i <= LIMITS.requests.points; i++) {
      const response = await send(ip, 'POST', '/v1/urls/published', undefined, { url });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ site: site.body.id, space: space.id });
      expectRateLimitHeaders(response, LIMITS.requests.points, LIMITS.requests.points - i);
    }
    const body = await expect429(await send(ip, 'POST', '/v1/urls/published', undefined, { url }), 'rest');
    expect(body.error.message).not.toBe('');
    // Unknown URLs count too, and the GET form shares the budget; another address is not affected.
    await expect429(await send(ip, 'POST', '/v1/urls/published', undefined, { url: `${h.config.publishedUrl}/${o}/nope/` }), 'rest');
    await expect429(await send(ip, 'GET', `/v1/urls/published?url=${encodeURIComponent(url)}`), 'rest');
    expect((await send(newIp(), 'POST', '/v1/urls/published', undefined, { url })).status).toBe(200);
  });

  it('leaves /healthz alone', async () => {
    const ip = newIp();
    for (let i = 0; i < LIMITS.requests.points + 3; i++) expect((await send(ip, 'GET', '/healthz')).status).toBe(200);
  });
});

describe('failed authentication lockout (per IP)', () => {
  it('after too many 401s from an IP, refuses its requests with 429 before looking up any token', async () => {
    const ip = newIp();
    const user = await buildUser(h);
    for (let i = 0; i < LIMITS.authFailures.points; i++) {
      const guess = await send(ip, 'GET', '/v1/user', `dp_guessed_token_${i}_0000000000000000`);
      expect(guess.status).toBe(401);
    }
    // Locked out: even a valid token is refused, and no SQL runs (the token is not even looked up).
    const before = h.store.queries.length;
    const refused = await send(ip, 'GET', '/v1/user', user.token);
    expect(h.store.queries.length).toBe(before);
    const body = await expect429(refused, 'rest');
    expect(body.error.message).toMatch(/failed authentication/i);
    expect(refused.headers.get('ratelimit-limit')).toBe(String(LIMITS.authFailures.points));
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(LIMITS.requests.windowSeconds);
    await expect429(await gql(ip, user.token, '{ user { id } }'), 'graphql');
    // Other addresses are not affected.
    const other = newIp();
    expect((await send(other, 'GET', '/v1/user', user.token)).status).toBe(200);
  });

  it('counts guessed admin tokens and other credentials as failures', async () => {
    const ip = newIp();
    const body = { email: 'x@y.example', displayName: 'X' };
    expect((await send(ip, 'POST', '/v1/admin/users', 'guessed-admin-token-000000', body)).status).toBe(401);
    expect((await send(ip, 'POST', '/v1/admin/users', 'guessed-admin-token-000001', body)).status).toBe(401);
    const basic = await h.app.fetch(`${BASE}/graphql`, {
      method: 'POST',
      headers: { 'x-forwarded-for': ip, authorization: 'Basic dXNlcjpwYXNz', 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ user { id } }' }),
    });
    expect(basic.status).toBe(401);
    await expect429(await send(ip, 'GET', '/v1/orgs'), 'rest');
  });

  it('does not count requests without credentials as failures (they guess nothing), but limits them per IP', async () => {
    const ip = newIp();
    const user = await buildUser(h);
    for (let i = 1; i <= LIMITS.authFailures.points + 1; i++) {
      const response = await send(ip, 'POST', '/graphql', undefined, { query: '{ user { id } }' });
      expect(response.status).toBe(401);
      expectRateLimitHeaders(response, LIMITS.requests.points, LIMITS.requests.points - i);
    }
    // Not locked out: a token from the same address works.
    expect((await send(ip, 'GET', '/v1/user', user.token)).status).toBe(200);
    // Still limited: the IP's budget for requests without a token runs out.
    expect((await send(ip, 'GET', '/v1/orgs')).status).toBe(401);
    await expect429(await send(ip, 'GET', '/v1/orgs'), 'rest');
  });
});

describe('stricter limits: SAML routes and the admin route (per IP)', () => {
  it('SAML sign-in routes', async () => {
    const ip = newIp();
    for (let i = 0; i < LIMITS.sso.points; i++) {
      const response = await send(ip, 'GET', '/sso/saml/unknown-provider/start');
      expect(response.status).toBe(404);
      expect(response.headers.get('ratelimit-limit')).toBe(String(LIMITS.sso.points));
    }
    const refused = await send(ip, 'GET', '/sso/saml/unknown-provider/start');
    await expect429(refused, 'rest');
    expect(refused.headers.get('ratelimit-limit')).toBe(String(LIMITS.sso.points));
    expect((await send(newIp(), 'GET', '/sso/saml/unknown-provider/start')).status).toBe(404);
  });

  it('POST /v1/admin/users', async () => {
    const ip = newIp();
    const created = await send(ip, 'POST', '/v1/admin/users', ADMIN_TOKEN, { email: 'limited.admin@example.com', displayName: 'A' });
    expect(created.status).toBe(201);
    expect(created.headers.get('ratelimit-limit')).toBe(String(LIMITS.admin.points));
    expect(created.headers.get('ratelimit-remaining')).toBe(String(LIMITS.admin.points - 1));
    expect((await send(ip, 'POST', '/v1/admin/users', ADMIN_TOKEN, { email: 'bad' })).status).toBe(400);
    await expect429(await send(ip, 'POST', '/v1/admin/users', ADMIN_TOKEN, { email: 'late@example.com', displayName: 'L' }), 'rest');
  });

  it('the admin token on /graphql shares the admin route budget of its IP', async () => {
    const ip = newIp();
    const create = (email: string) => gql(ip, ADMIN_TOKEN, `mutation { adminCreateUser(email: "${email}", displayName: "G") { token } }`);
    expect((await send(ip, 'POST', '/v1/admin/users', ADMIN_TOKEN, { email: 'limited.rest@example.com', displayName: 'R' })).status).toBe(201);
    const created = await create('limited.graph@example.com');
    expect(created.status).toBe(200);
    expect(created.headers.get('ratelimit-limit')).toBe(String(LIMITS.admin.points));
    expect(created.headers.get('ratelimit-remaining')).toBe('0');
    await expect429(await create('late.graph@example.com'), 'graphql');
    await expect429(await send(ip, 'POST', '/v1/admin/users', ADMIN_TOKEN, { email: 'late.rest@example.com', displayName: 'R' }), 'rest');
  });
});

describe('behind node:http', () => {
  let server: Server | undefined;
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('counts unauthenticated requests by the socket address; X-Forwarded-For is ignored unless trusted', async () => {
    const app = createApp({ database: h.store.database, config: buildConfig({ logLevel: 'silent', rateLimit: LIMITS }) });
    server = createServer(app.yoga);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/openapi.json`;
    for (let i = 0; i < LIMITS.requests.points; i++) {
      // A client rotating X-Forwarded-For gains nothing: it is one socket address.
      const response = await fetch(url, { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      expect(response.status).toBe(200);
    }
    expect((await fetch(url, { headers: { 'x-forwarded-for': '203.0.113.200' } })).status).toBe(429);
  });
});

/** Two app instances on one shared store, each with its own user token, as behind a load balancer. */
async function expectSharedCounter(apps: [App, App], token: string) {
  const get = (app: App) => app.fetch(`${BASE}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
  const seen: number[] = [];
  for (let i = 0; i < LIMITS.requests.points; i++) {
    const response = await get(apps[i % 2]);
    expect(response.status).toBe(200);
    seen.push(Number(response.headers.get('ratelimit-remaining')));
  }
  // One counter: the remaining budget went down across both instances.
  expect(seen).toEqual([4, 3, 2, 1, 0]);
  expect((await get(apps[0])).status).toBe(429);
  expect((await get(apps[1])).status).toBe(429);
}

describe('shared by all instances', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('on PostgreSQL: two instances on one database share one counter, kept in the database', async () => {
    const db = await createPostgresDatabase('dp_rate_limit');
    cleanups.push(db.drop);
    const databases: Database[] = [];
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({ databaseUrl: db.url });
      cleanups.push(() => database.close());
      await database.migrate();
      databases.push(database);
    }
    const config = buildConfig({ logLevel: 'silent', rateLimit: LIMITS });
    const apps = databases.map((database) => createApp({ database, config })) as [App, App];
    expect(apps.map((app) => app.rateLimitStore)).toEqual(['postgres', 'postgres']);
    const { token } = await createUserWithToken(databases[0].prisma, { email: 'shared@example.com', displayName: 'Shared' });
    await expectSharedCounter(apps, token);
    const rows = await postgresQuery(db.url, `SELECT key, points FROM "RateLimitCounter"`);
    expect(rows).toEqual([{ key: expect.stringMatching(/^rl:requests:token:/), points: expect.any(Number) }]);
    expect(rows[0].points).toBeGreaterThan(LIMITS.requests.points);
    // Unlogged: counting a request must not wait for a WAL flush.
    const [table] = await postgresQuery(db.url, `SELECT relpersistence FROM pg_class WHERE relname = 'RateLimitCounter'`);
    expect(table.relpersistence).toBe('u');
  });

  it('on Redis (REDIS_URL): two instances share one counter', async () => {
    const config: ConfigInput = { logLevel: 'silent', rateLimit: LIMITS, redisUrl: 'redis://127.0.0.1:6379' };
    const apps = [0, 1].map(() => createApp({ database: h.store.database, config: buildConfig(config) })) as [App, App];
    for (const app of apps) cleanups.push(() => app.close());
    expect(apps.map((app) => app.rateLimitStore)).toEqual(['redis', 'redis']);
    await Promise.all(apps.map((app) => app.ready()));
    const user = await buildUser(h); // a fresh token: its key is new in Redis
    await expectSharedCounter(apps, user.token);
    const redis = new Redis('redis://127.0.0.1:6379');
    try {
      const rows = await h.db.accessToken.findMany({ where: { userId: user.userId } });
      expect(Number(await redis.get(`rl:requests:token:${rows[0].id}`))).toBeGreaterThan(LIMITS.requests.points);
    } finally {
      redis.disconnect();
    }
  });

  it('keeps limiting, in memory, when the store cannot be reached', async () => {
    // Nothing listens on port 1: every Redis call fails, and the insurance limiter counts instead.
    const app = createApp({ database: h.store.database, config: buildConfig({ logLevel: 'silent', rateLimit: LIMITS, redisUrl: 'redis://127.0.0.1:1' }) });
    cleanups.push(() => app.close());
    const user = await buildUser(h);
    const get = () => app.fetch(`${BASE}/v1/user`, { headers: { authorization: `Bearer ${user.token}` } });
    for (let i = 0; i < LIMITS.requests.points; i++) expect((await get()).status).toBe(200);
    await expect429(await get(), 'rest');
  });
});
