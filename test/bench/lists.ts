/**
 * `npm run bench`: latency and SQL statements per request of the main list endpoints, in process, on
 * embedded PGlite (or on PostgreSQL with TEST_DATABASE_URL), with a realistically sized organization.
 * Prints a table; it asserts nothing (targets belong in a review of these numbers, not in unit tests).
 */
import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app.ts';
import { buildConfig } from '../../src/config.ts';
import { newId } from '../../src/lib/ids.ts';
import { createUserWithToken } from '../../src/modules/users/user.service.ts';
import { createTestDatabase } from '../support/database.ts';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 1000);
const SPACES = Number(process.env.BENCH_SPACES ?? 500);
const TEAMS = Number(process.env.BENCH_TEAMS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
// BENCH_RATE_LIMIT=1 measures with rate limiting on (a budget no run reaches), to see its overhead: in
// memory on PGlite, one upsert per request on PostgreSQL (not in the SQL count: it bypasses Prisma), Redis
// with REDIS_URL.
const RATE_LIMIT = process.env.BENCH_RATE_LIMIT === '1';

const store = await createTestDatabase();
const db = store.database.prisma;
const app = createApp({
  database: store.database,
  config: buildConfig({
    logLevel: 'silent',
    redisUrl: process.env.REDIS_URL,
    rateLimit: { enabled: RATE_LIMIT, requests: { points: 1_000_000, windowSeconds: 3600 } },
  }),
});
await app.ready();
const { user, token } = await createUserWithToken(db, { email: 'bench@example.com', displayName: 'Bench' });
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

const org = await (await app.fetch('http://localhost/v1/orgs', { method: 'POST', headers: auth, body: JSON.stringify({ title: 'Bench' }) })).json();
const o = org.id as string;
const users = Array.from({ length: MEMBERS }, (_, i) => ({ id: newId(), email: `m${i}@bench.example`, displayName: `Member ${i}` }));
await db.user.createMany({ data: users });
await db.member.createMany({ data: users.map((u, i) => ({ organizationId: o, userId: u.id, role: i % 3 ? 'read' : 'edit', joinedAt: new Date(Date.now() - i * 1000) })) });
const teams = Array.from({ length: TEAMS }, (_, i) => ({ id: newId(), organizationId: o, title: `Team ${i}` }));
await db.team.createMany({ data: teams });
await db.teamMember.createMany({ data: users.slice(0, 500).map((u, i) => ({ teamId: teams[i % TEAMS].id, organizationId: o, userId: u.id })) });
await db.space.createMany({ data: Array.from({ length: SPACES }, (_, i) => ({ id: newId(), organizationId: o, title: `Space ${i}`, position: `a${String(i).padStart(5, '0')}` })) });

async function measure(name: string, request: () => Response | Promise<Response>) {
  const times: number[] = [];
  let statements = 0;
  for (let i = 0; i < RUNS; i++) {
    const before = store.queries.length;
    const start = performance.now();
    const res = await request();
    await res.arrayBuffer();
    times.push(performance.now() - start);
    statements = store.queries.length - before;
    if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
  return { name, p50ms: pct(0.5), p95ms: pct(0.95), sqlStatements: statements };
}

// A read-level member: most of the `permissions` its answers hold are refusals, which an admin's are not.
const { user: reader, token: readerToken } = await createUserWithToken(db, { email: 'bench-reader@example.com', displayName: 'Reader' });
await db.member.create({ data: { organizationId: o, userId: reader.id, role: 'read' } });
const readerAuth = { authorization: `Bearer ${readerToken}` };

const get = (path: string, headers: Record<string, string> = auth) => () => app.fetch(`http://localhost${path}`, { headers });
const gql = (query: string) => () => app.fetch('http://localhost/graphql', { method: 'POST', headers: auth, body: JSON.stringify({ query }) });

const rows = [
  // The cheapest authenticated request: fixed per-request costs (authentication, rate limiting) dominate.
  await measure('GET /v1/user', get('/v1/user')),
  await measure('GET members (limit 100)', get(`/v1/orgs/${o}/members?limit=100`)),
  await measure('GET members search "member 1"', get(`/v1/orgs/${o}/members?search=member%201&limit=100`)),
  await measure('GET teams (limit 100)', get(`/v1/orgs/${o}/teams?limit=100`)),
  await measure('GET spaces (limit 100)', get(`/v1/orgs/${o}/spaces?limit=100`)),
  await measure('GET member spaces (limit 100)', get(`/v1/orgs/${o}/members/${user.id}/spaces?limit=100`)),
  await measure('GET members (limit 100), read-level member', get(`/v1/orgs/${o}/members?limit=100`, readerAuth)),
  await measure('GET teams (limit 100), read-level member', get(`/v1/orgs/${o}/teams?limit=100`, readerAuth)),
  await measure('GET spaces (limit 100), read-level member', get(`/v1/orgs/${o}/spaces?limit=100`, readerAuth)),
  await measure('GraphQL org members+teams+spaces', gql(`{ organization(organizationId: "${o}") { members(limit: 50) { count items { role user { email } } } teams(limit: 20) { count items { title members } } spaces(limit: 50) { count items { title permissions { edit } } } } }`)),
];
console.table(rows);
console.log(`database: ${store.database.kind}; rate limiting: ${app.rateLimitStore ?? 'off'}; ${MEMBERS} members, ${TEAMS} teams, ${SPACES} spaces; ${RUNS} runs each; RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
await app.close();

// What rate limiting adds to a request: the cheapest authenticated one, on apps that differ only in
// rate limiting, taking turns so that the machine's load falls on all of them alike.
const variants = [
  { name: 'off', enabled: false, redisUrl: undefined },
  { name: 'on', enabled: true, redisUrl: undefined },
  ...(process.env.REDIS_URL ? [{ name: 'on (Redis)', enabled: true, redisUrl: process.env.REDIS_URL }] : []),
];
const overheadApps = variants.map(({ name, enabled, redisUrl }) => ({
  name,
  app: createApp({
    database: store.database,
    config: buildConfig({ logLevel: 'silent', redisUrl, rateLimit: { enabled, requests: { points: 1_000_000, windowSeconds: 3600 } } }),
  }),
  times: [] as number[],
}));
for (const { app: variant } of overheadApps) await variant.ready();
for (let round = 0; round < 21; round++) {
  for (const variant of overheadApps) {
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      const res = await variant.app.fetch('http://localhost/v1/user', { headers: auth });
      await res.arrayBuffer();
      if (round > 0) variant.times.push(performance.now() - start); // round 0 warms up
    }
  }
}
console.table(
  overheadApps.map(({ name, app: variant, times }) => {
    times.sort((a, b) => a - b);
    const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2);
    return { 'GET /v1/user, rate limiting': name, store: variant.rateLimitStore ?? '-', p50ms: pct(0.5), p95ms: pct(0.95) };
  }),
);
for (const { app: variant } of overheadApps) await variant.close();
await store.close();
