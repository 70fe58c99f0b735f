/**
 * Part of `npm run bench` (PostgreSQL: TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres):
 * the built server (`npm run build` → dist/server.js, as `npm start` runs it) against two hand-written
 * routes serving the same `GET /v1/orgs/{o}/spaces?limit=100`, byte for byte (asserted): node:http + pg
 * (raw-spaces-server.mjs) and Express + Prisma (express-prisma-spaces-server.ts), on an organization of
 * 1000 members and 500 spaces. Prints, side by side: req/s at 32 connections and its ratio to the raw
 * route and to Express + Prisma, p50 at one connection, SQL statements per request, peak RSS under load,
 * and the server's cold start; then the statement budget of every GET route.
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
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const restPath = `/v1/orgs/${o}/spaces?limit=100`;
const SPACE_FIELDS = `object id title emoji visibility createdAt updatedAt deletedAt editMode urls { location app published public icon }
  organization parent revision defaultLevel mergeRules comments changeRequests changeRequestsOpen changeRequestsDraft permissions { access admin edit comment merge review }`;
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
async function load(url: string, connections: number, duration: number, method: 'GET' | 'POST', body?: string) {
  const latencies: number[] = [];
  const deadline = performance.now() + duration * 1000;
  let failures = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const start = performance.now();
        const res = await fetch(url, { method, headers, body });
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

interface Row { target: string; 'req/s (32 conn)': number; 'vs raw': string; 'p50 ms (1 conn)': number; 'SQL/request': number; 'peak RSS MiB': number }
async function measure(target: string, pid: number, url: string, method: 'GET' | 'POST', statements: number, body?: string): Promise<Omit<Row, 'vs raw'>> {
  await load(url, 8, 2, method, body); // warm-up (JIT, pools)
  let peak = rssMiB(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 100);
  const busy = await load(url, 32, DURATION, method, body);
  clearInterval(sampler);
  const single = await load(url, 1, Math.max(3, DURATION / 2), method, body);
  return { target, 'req/s (32 conn)': Math.round(busy.rps), 'p50 ms (1 conn)': Number(single.p50.toFixed(1)), 'SQL/request': statements, 'peak RSS MiB': Math.round(peak) };
}

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

  const rawRow = await measure('node:http + pg (raw)', raw.pid!, `http://127.0.0.1:4392${restPath}`, 'GET', 3);
  const expressRow = await measure('Express + Prisma', expressPrisma.pid!, `http://127.0.0.1:4393${restPath}`, 'GET', 5);
  const rest = await measure('REST GET /v1/orgs/{o}/spaces', server.pid!, `http://127.0.0.1:4391${restPath}`, 'GET', restStatements);
  const graphql = await measure('GraphQL organizationSpaces', server.pid!, 'http://127.0.0.1:4391/graphql', 'POST', gqlStatements, gqlBody);
  const rps = (r: { 'req/s (32 conn)': number }) => r['req/s (32 conn)'];
  const rows = [rawRow, expressRow, rest, graphql].map((r) => ({
    ...r,
    'vs raw': `${(rps(r) / rps(rawRow)).toFixed(2)}×`,
    'vs Express + Prisma': `${(rps(r) / rps(expressRow)).toFixed(2)}×`,
  }));
  console.log(`\nSpaces list, 100 of ${SPACES} spaces (${MEMBERS} members), PostgreSQL, ${DURATION} s per load; responses identical byte for byte`);
  console.table(rows);
  console.log(`cold start of dist/server.js on PostgreSQL (spawn → first answer): ${Math.round(coldStartMs)} ms`);
  const ratios = { rest: rps(rest) / rps(rawRow), graphql: rps(graphql) / rps(rawRow) };
  const goals = [
    ['REST ≥ 0.33× raw', ratios.rest >= 0.33],
    ['REST ≥ 1.1× Express + Prisma', rps(rest) / rps(expressRow) >= 1.1],
    ['GraphQL ≥ 0.30× raw', ratios.graphql >= 0.3],
    ['p50 ≤ 12 ms', rest['p50 ms (1 conn)'] <= 12 && graphql['p50 ms (1 conn)'] <= 12],
    ['peak RSS ≤ 250 MiB', rest['peak RSS MiB'] <= 250 && graphql['peak RSS MiB'] <= 250],
    ['cold start ≤ 2000 ms', coldStartMs <= 2000],
  ] as const;
  console.log(`targets: ${goals.map(([goal, met]) => `${goal}: ${met ? 'met' : 'MISSED'}`).join('; ')}`);
  // The regression check: ratios, not absolute figures (this machine is shared and its speed varies).
  const baselineFile = path.join(import.meta.dirname, 'bench-baseline.json');
  const baseline = JSON.parse(readFileSync(baselineFile, 'utf8')) as { ratios: Record<keyof typeof ratios, number> };
  if (process.env.BENCH_RECORD) {
    writeFileSync(baselineFile, `${JSON.stringify({ ...baseline, ratios: { rest: Number(ratios.rest.toFixed(3)), graphql: Number(ratios.graphql.toFixed(3)) } }, null, 2)}\n`);
    console.log(`recorded the ratios of this run in ${path.relative(root, baselineFile)}`);
  } else {
    for (const key of Object.keys(ratios) as (keyof typeof ratios)[]) {
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
