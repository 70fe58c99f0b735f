/**
 * Part of `npm run bench` (PostgreSQL: TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres):
 * the built server (`npm run build` → dist/server.js, as `npm start` runs it) against two hand-written
 * routes serving the same `GET /v1/orgs/{o}/spaces?limit=100`, byte for byte (asserted): node:http + pg
 * (raw-spaces-server.mjs) and Express + Prisma (express-prisma-spaces-server.ts), on an organization of
 * 1000 members and 500 spaces, for an admin and for a read-level member (whose `permissions` are mostly
 * refusals). Prints, side by side: req/s at 32 connections and its ratio to the raw route and to
 * Express + Prisma, p50 at one connection, SQL statements per request, peak RSS under load, and the
 * server's cold start; then the statement budget of every GET route.
 * The loads are interleaved: BENCH_ROUNDS rounds (default 5), each loading every target in turn for
 * BENCH_DURATION / BENCH_ROUNDS seconds, in an order that rotates. A ratio is the median of the rounds'
 * ratios, each taken between loads a few seconds apart: this shared machine's speed drifts by more than
 * 10 % within a minute, which one long load per target measured as a difference between the targets.
 * Targets: REST ≥ 0.33× raw and ≥ 1.1× Express + Prisma (issue 23), GraphQL ≥ 0.3× raw, p50 ≤ 12 ms,
 * RSS ≤ 250 MiB, cold start ≤ 2 s.
 * Regression check: the ratios of REST and GraphQL to the raw route are compared with those recorded in
 * bench-baseline.json; one more than 10 % below its record fails the bench (exit code 1), loudly.
 * `BENCH_RECORD=1` writes the ratios of this run as the new record (after a change that is meant to cost).
 */
import { execSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app.ts';
import { buildConfig } from '../../src/config.ts';
import { newId } from '../../src/lib/ids.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../src/lib/runtime-tuning.ts';
import { createUserWithToken } from '../../src/modules/users/user.service.ts';
import { createTestDatabase } from '../support/database.ts';
import { ROUTE_BUDGETS } from '../support/route-budgets.ts';

const root = path.resolve(import.meta.dirname, '../..');
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const PUBLIC_URL = 'http://localhost:4000';
const MEMBERS = 1000;
const SPACES = 500;

const store = await createTestDatabase(SERVER_URL);
const db = store.database.prisma;
const { user, token } = await createUserWithToken(db, { email: 'versus@example.com', displayName: 'Versus' });
const o = newId();
await db.organization.create({ data: { id: o, title: 'Bench' } });
await db.member.create({ data: { organizationId: o, userId: user.id, role: 'admin' } });
const users = Array.from({ length: MEMBERS - 1 }, (_, i) => ({ id: newId(), email: `v${i}@bench.example`, displayName: `Member ${i}` }));
await db.user.createMany({ data: users });
await db.member.createMany({ data: users.map((u, i) => ({ organizationId: o, userId: u.id, role: i % 3 ? ('read' as const) : ('edit' as const) })) });
await db.space.createMany({
  data: Array.from({ length: SPACES }, (_, i) => ({ id: newId(), organizationId: o, title: `Space ${i}`, position: `a${String(i).padStart(5, '0')}`, createdAt: new Date(Date.now() - (SPACES - i) * 1000) })),
});
// A read-level member: the common reader of a list, for whom most `permissions` are refusals.
const { user: reader, token: readerToken } = await createUserWithToken(db, { email: 'versus-reader@example.com', displayName: 'Reader' });
await db.member.create({ data: { organizationId: o, userId: reader.id, role: 'read' } });
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const readerHeaders = { authorization: `Bearer ${readerToken}` };
const restPath = `/v1/orgs/${o}/spaces?limit=100`;
const SPACE_FIELDS = `object id title emoji visibility createdAt updatedAt deletedAt editMode urls { location app published public icon }
  organization parent revision defaultLevel mergeRules comments changeRequests changeRequestsOpen changeRequestsDraft permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration }`;
const gqlBody = JSON.stringify({ query: `{ organizationSpaces(organizationId: "${o}", limit: 100) { items { ${SPACE_FIELDS} } count next { page } } }` });

// SQL statements per request, counted by the driver of an in-process app on the same database.
const app = createApp({ database: store.database, config: buildConfig({ logLevel: 'silent', publicUrl: PUBLIC_URL, rateLimit: { enabled: false } }) });
await app.ready(); // what the app reads at start is not counted as the route's
async function statementsOf(request: () => Response | Promise<Response>) {
  await (await request()).arrayBuffer(); // warm: anything done once per process
  const before = store.queries.length;
  await (await request()).arrayBuffer();
  return store.queries.length - before;
}
const restStatements = await statementsOf(() => app.fetch(`http://localhost${restPath}`, { headers }));
const readerStatements = await statementsOf(() => app.fetch(`http://localhost${restPath}`, { headers: readerHeaders }));
const gqlStatements = await statementsOf(() => app.fetch('http://localhost/graphql', { method: 'POST', headers, body: gqlBody }));
await app.close?.();

if (!process.env.BENCH_SKIP_BUILD) execSync('npm run build', { cwd: root, stdio: 'ignore' });

const env = { ...process.env, DATABASE_URL: store.url!, PUBLIC_URL, LOG_LEVEL: 'silent', RATE_LIMIT: 'false', HOST: '127.0.0.1' };
async function waitFor(url: string, child: ChildProcess) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 10));
  }
}
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** `connections` clients sending requests back to back for `duration` seconds (Node's fetch: undici, keep-alive). */
async function load(url: string, connections: number, duration: number, method: 'GET' | 'POST', body?: string, requestHeaders: Record<string, string> = headers) {
  const latencies: number[] = [];
  const deadline = performance.now() + duration * 1000;
  let failures = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const start = performance.now();
        const res = await fetch(url, { method, headers: requestHeaders, body });
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
        latencies.push(performance.now() - start);
      }
    }),
  );
  if (failures || !latencies.length) throw new Error(`${url}: ${failures} failures of ${latencies.length}`);
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / duration, p50: latencies[Math.floor(latencies.length / 2)] };
}

interface Target { name: string; pid: number; url: string; method: 'GET' | 'POST'; statements: number; body?: string; headers?: Record<string, string> }
interface Measured { target: Target; rounds: number[]; rps: number; p50: number; peak: number }
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Loads the targets in interleaved rounds (module comment): each target's req/s per round, its overall
 * req/s (requests over all its rounds), its peak RSS under load, and its p50 at one connection.
 */
async function measureInRounds(targets: Target[]): Promise<Measured[]> {
  const measured = targets.map((target) => ({ target, rounds: [] as number[], rps: 0, p50: 0, peak: rssMiB(target.pid) }));
  for (const { target } of measured) await load(target.url, 8, 2, target.method, target.body, target.headers); // warm-up (JIT, pools)
  const slice = DURATION / ROUNDS;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < measured.length; i++) {
      const m = measured[(i + round) % measured.length];
      const sampler = setInterval(() => (m.peak = Math.max(m.peak, rssMiB(m.target.pid))), 100);
      m.rounds.push((await load(m.target.url, 32, slice, m.target.method, m.target.body, m.target.headers)).rps);
      clearInterval(sampler);
    }
  }
  for (const m of measured) {
    m.rps = m.rounds.reduce((a, b) => a + b, 0) / ROUNDS;
    m.p50 = (await load(m.target.url, 1, Math.max(3, DURATION / 2), m.target.method, m.target.body, m.target.headers)).p50;
  }
  return measured;
}
/** The median over the rounds of a's req/s over b's in the same round. */
const ratioOf = (a: Measured, b: Measured) => median(a.rounds.map((rps, round) => rps / b.rounds[round]));
const row = (m: Measured, raw: Measured, express: Measured) => ({
  target: m.target.name,
  'req/s (32 conn)': Math.round(m.rps),
  'req/s per round': m.rounds.map((r) => Math.round(r)).join(' '),
  'vs raw': `${ratioOf(m, raw).toFixed(2)}×`,
  'vs Express + Prisma': `${ratioOf(m, express).toFixed(2)}×`,
  'p50 ms (1 conn)': Number(m.p50.toFixed(1)),
  'SQL/request': m.target.statements,
  'peak RSS MiB': Math.round(m.peak),
});

// The built server, as `npm start` runs it; cold start = spawn until it answers.
const started = performance.now();
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean); // e.g. --cpu-prof to profile
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeFlags, 'dist/server.js'], { cwd: root, env: { NODE_ENV: 'production', ...SERVER_ENV, ...env, PORT: '4391' }, stdio: 'ignore' });
await waitFor('http://127.0.0.1:4391/healthz', server);
const coldStartMs = performance.now() - started;
const raw = fork(path.join(import.meta.dirname, 'raw-spaces-server.mjs'), [], { env: { ...env, PORT: '4392' }, stdio: 'ignore', execArgv: [] });
await waitFor('http://127.0.0.1:4392/', raw);
const expressPrisma = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'express-prisma-spaces-server.ts')], {
  cwd: root,
  env: { NODE_ENV: 'production', ...env, PORT: '4393' },
  stdio: 'ignore',
});
await waitFor('http://127.0.0.1:4393/', expressPrisma);
let regressed = false;

try {
  const ours = await (await fetch(`http://127.0.0.1:4391${restPath}`, { headers })).text();
  const theirs = await (await fetch(`http://127.0.0.1:4392${restPath}`, { headers })).text();
  if (ours !== theirs) throw new Error(`REST and raw JSON differ:\n${ours.slice(0, 600)}\n---\n${theirs.slice(0, 600)}`);
  const viaExpress = await (await fetch(`http://127.0.0.1:4393${restPath}`, { headers })).text();
  if (viaExpress !== theirs) throw new Error(`Express + Prisma and raw JSON differ:\n${viaExpress.slice(0, 600)}\n---\n${theirs.slice(0, 600)}`);
  const graph = await (await fetch('http://127.0.0.1:4391/graphql', { method: 'POST', headers, body: gqlBody })).json();
  const rawJson = JSON.parse(theirs);
  // GraphQL keeps the query's field order and its nulls; REST sorts and omits absent fields.
  const canonical = (v: any): any =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().filter((k) => v[k] !== null).map((k) => [k, canonical(v[k])])) : v;
  if (JSON.stringify(canonical(graph.data.organizationSpaces)) !== JSON.stringify(canonical(rawJson))) throw new Error('GraphQL data differs from the raw route');

  const readerTexts = await Promise.all([4391, 4392, 4393].map(async (port) => (await fetch(`http://127.0.0.1:${port}${restPath}`, { headers: readerHeaders })).text()));
  if (readerTexts.some((text) => text !== readerTexts[1])) throw new Error(`The read-level member's answers differ:\n${readerTexts.map((t) => t.slice(0, 400)).join('\n---\n')}`);

  const restUrl = (port: number) => `http://127.0.0.1:${port}${restPath}`;
  const [rawM, expressM, restM, graphqlM, rawReaderM, expressReaderM, restReaderM] = await measureInRounds([
    { name: 'node:http + pg (raw)', pid: raw.pid!, url: restUrl(4392), method: 'GET', statements: 3 },
    { name: 'Express + Prisma', pid: expressPrisma.pid!, url: restUrl(4393), method: 'GET', statements: 5 },
    { name: 'REST GET /v1/orgs/{o}/spaces', pid: server.pid!, url: restUrl(4391), method: 'GET', statements: restStatements },
    { name: 'GraphQL organizationSpaces', pid: server.pid!, url: 'http://127.0.0.1:4391/graphql', method: 'POST', statements: gqlStatements, body: gqlBody },
    { name: 'read-level member: raw', pid: raw.pid!, url: restUrl(4392), method: 'GET', statements: 3, headers: readerHeaders },
    { name: 'read-level member: Express + Prisma', pid: expressPrisma.pid!, url: restUrl(4393), method: 'GET', statements: 5, headers: readerHeaders },
    { name: 'read-level member: REST', pid: server.pid!, url: restUrl(4391), method: 'GET', statements: readerStatements, headers: readerHeaders },
  ]);
  console.log(
    `\nSpaces list, 100 of ${SPACES} spaces (${MEMBERS} members), PostgreSQL, ${ROUNDS} interleaved rounds of ${(DURATION / ROUNDS).toFixed(1)} s per target; ` +
      'responses identical byte for byte; ratios are medians of the rounds\' ratios; the read-level rows compare with the read-level raw and Express routes',
  );
  console.table([
    ...[rawM, expressM, restM, graphqlM].map((m) => row(m, rawM, expressM)),
    ...[rawReaderM, expressReaderM, restReaderM].map((m) => row(m, rawReaderM, expressReaderM)),
  ]);
  console.log(`cold start of dist/server.js on PostgreSQL (spawn → first answer): ${Math.round(coldStartMs)} ms`);
  const ratios = { rest: ratioOf(restM, rawM), graphql: ratioOf(graphqlM, rawM), restReader: ratioOf(restReaderM, rawReaderM) };
  const goals = [
    ['REST ≥ 0.33× raw', ratios.rest >= 0.33],
    ['REST ≥ 1.1× Express + Prisma', ratioOf(restM, expressM) >= 1.1],
    ['GraphQL ≥ 0.30× raw', ratios.graphql >= 0.3],
    ['read-level REST ≥ 0.33× raw', ratios.restReader >= 0.33],
    ['read-level REST ≥ 1.1× Express + Prisma', ratioOf(restReaderM, expressReaderM) >= 1.1],
    ['p50 ≤ 12 ms', [restM, graphqlM, restReaderM].every((m) => m.p50 <= 12)],
    ['peak RSS ≤ 250 MiB', restM.peak <= 250 && graphqlM.peak <= 250],
    ['cold start ≤ 2000 ms', coldStartMs <= 2000],
  ] as const;
  console.log(`targets: ${goals.map(([goal, met]) => `${goal}: ${met ? 'met' : 'MISSED'}`).join('; ')}`);
  // The regression check: ratios, not absolute figures (this machine is shared and its speed varies).
  const baselineFile = path.join(import.meta.dirname, 'bench-baseline.json');
  const baseline = JSON.parse(readFileSync(baselineFile, 'utf8')) as { ratios: Record<keyof typeof ratios, number> };
  if (process.env.BENCH_RECORD) {
    const recorded = Object.fromEntries(Object.entries(ratios).map(([key, ratio]) => [key, Number(ratio.toFixed(3))]));
    writeFileSync(baselineFile, `${JSON.stringify({ ...baseline, ratios: recorded }, null, 2)}\n`);
    console.log(`recorded the ratios of this run in ${path.relative(root, baselineFile)}`);
  } else {
    for (const key of Object.keys(ratios) as (keyof typeof ratios)[]) {
      if (baseline.ratios[key] === undefined) throw new Error(`${path.relative(root, baselineFile)} records no ratio for ${key}: record one with BENCH_RECORD=1`);
      const floor = baseline.ratios[key] * 0.9;
      if (ratios[key] < floor) {
        regressed = true;
        console.error(
          `\n!!! REGRESSION: ${key} is ${ratios[key].toFixed(3)}× raw, more than 10 % below its record ${baseline.ratios[key]}× (floor ${floor.toFixed(3)}×, ${path.relative(root, baselineFile)}).\n` +
            '!!! Find the change that costs it; if the cost is meant, record the new ratios with BENCH_RECORD=1 and say why in the commit.\n',
        );
      } else console.log(`regression check: ${key} ${ratios[key].toFixed(3)}× raw ≥ ${floor.toFixed(3)}× (90 % of the record ${baseline.ratios[key]}×)`);
    }
  }
  console.log('\nStatement budget per GET route (token, access, page, count), asserted by test/platform/sql-count.test.ts:');
  console.table(Object.entries(ROUTE_BUDGETS).map(([route, budget]) => ({ route, 'max statements': budget })));
} finally {
  server.kill('SIGTERM');
  raw.kill('SIGTERM');
  expressPrisma.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  await store.close();
}
if (regressed) process.exit(1);
