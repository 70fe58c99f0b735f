/**
 * `npm run bench:memory`: the server's memory under hostile traffic, as its operators would see it. Builds
 * and starts the real server as `npm start` does (dist/server.js; embedded PGlite in a temporary directory,
 * or PostgreSQL with TEST_DATABASE_URL), sends BENCH_FUZZ_REQUESTS (default 11,000) malformed requests from the fuzz
 * generator over HTTP, 8 at a time, and prints the server's RSS before, at its peak, and after the run
 * once idle. Targets: no request answered ≥ 500; afterwards the RSS is back at its level before the run
 * (within 10 %), and on PostgreSQL under BENCH_RSS_LIMIT_MIB (default 300). The embedded database runs
 * PostgreSQL itself inside the process (WebAssembly, ~250 MiB more), so there only the first holds.
 * Exits non-zero when a target is missed.
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { restRoutes, schema } from '../../src/schema.ts';
import { hugeStringRequests, malformedRequests, fuzzFailure, type FuzzRequest } from '../support/fuzz.ts';
import { buildFuzzWorld } from '../support/fuzz-world.ts';
import { killAll, randomToken, startServer, tempDir } from '../support/server-process.ts';

const TOTAL = Number(process.env.BENCH_FUZZ_REQUESTS ?? 11_000);
const CONCURRENCY = 8;
const RSS_LIMIT_MIB = Number(process.env.BENCH_RSS_LIMIT_MIB ?? 300);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 15_000);

// The server as `npm start` runs it: built JavaScript, with the idle collector enabled (--expose-gc).
execSync('npm run build', { stdio: 'ignore' });
const adminToken = randomToken();
const server = await startServer({
  ADMIN_TOKEN: adminToken,
  RATE_LIMIT: 'false',
  LOG_LEVEL: 'warn',
  ...(process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : { DATA_DIR: tempDir('dp-bench-memory-') }),
}, 60_000, { built: true });
const rssMiB = () => {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
};

async function call(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text || '{}');
}

// An organization with something of everything, created through the API (test/support/fuzz-world.ts).
const { token } = await call(adminToken, 'POST', '/v1/admin/users', { email: 'bench@example.com', displayName: 'Bench' });
const org = await call(token, 'POST', '/v1/orgs', { title: 'Fuzzed' });
const me = await call(token, 'GET', '/v1/user');
const ids = await buildFuzzWorld((method, path, body) => call(token, method, path, body), org.id, me.id);

const statuses = new Map<number, number>();
const failures: string[] = [];

/** Sends `requests` CONCURRENCY at a time, counting statuses and failures. */
async function send(requests: Iterator<FuzzRequest>, count: number): Promise<number> {
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent += 1;
      const request = requests.next().value as FuzzRequest;
      const init: RequestInit =
        request.kind === 'graphql'
          ? { method: 'POST', body: JSON.stringify({ query: request.query, variables: request.variables }) }
          : { method: request.method, body: request.raw ?? (request.body === undefined ? undefined : JSON.stringify(request.body)) };
      const path = request.kind === 'graphql' ? '/graphql' : request.path;
      const res = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const failure = fuzzFailure(request, res.status, text);
      if (failure) failures.push(failure);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return sent;
}

/**
 * Warm-up: the first request of every route and every GraphQL root field, so that what loads on first
 * use (pdfkit with the first PDF, markdown-it, swagger-parser in the spec job, compiled operations) is
 * loaded before "before" is read: the run then measures what traffic leaves behind, not first use.
 */
function* firstOfEach(): Generator<FuzzRequest> {
  const seen = new Set<string>();
  for (const request of [...malformedRequests(restRoutes, schema, ids), ...hugeStringRequests(restRoutes, schema, ids, [100_000])]) {
    const key = request.kind === 'graphql' ? request.label.split('(')[0] : `${request.method} ${request.path.split('?')[0]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    yield request;
  }
}
const warmUp = [...firstOfEach()];
await send(warmUp.values(), warmUp.length);
await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
const before = rssMiB();

// Malformed requests, and one in BENCH_HUGE_EVERY (default 20; 0: none) a string of 100,000 or
// 1,000,000 characters somewhere.
const HUGE_EVERY = Number(process.env.BENCH_HUGE_EVERY ?? 20);
function* endless(): Generator<FuzzRequest> {
  const huge = (function* () {
    for (;;) yield* hugeStringRequests(restRoutes, schema, ids, [100_000, 1_000_000]);
  })();
  for (;;) {
    let n = 0;
    for (const request of malformedRequests(restRoutes, schema, ids)) {
      yield request;
      if (HUGE_EVERY > 0 && ++n % HUGE_EVERY === 0) yield huge.next().value as FuzzRequest;
    }
  }
}
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 200);
const started = performance.now();
const sent = await send(endless(), TOTAL);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
const after = rssMiB();

await server.stop();
await killAll();

const statusLine = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
console.table([
  {
    requests: sent,
    seconds: seconds.toFixed(1),
    'req/s': (sent / seconds).toFixed(0),
    'RSS before (MiB)': before.toFixed(0),
    'RSS peak (MiB)': peak.toFixed(0),
    [`RSS ${IDLE_MS / 1000}s after (MiB)`]: after.toFixed(0),
    failures: failures.length,
  },
]);
console.log(`database: ${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'}; statuses: ${statusLine}`);
for (const failure of failures.slice(0, 10)) console.log(`FAILURE ${failure}`);
const problems = [
  ...(failures.length ? [`${failures.length} answers ≥ 500 or without the error body`] : []),
  ...(after > before * 1.1 ? [`RSS after the run (${after.toFixed(0)} MiB) is more than 10 % over its level before (${before.toFixed(0)} MiB)`] : []),
  ...(process.env.TEST_DATABASE_URL && after > RSS_LIMIT_MIB ? [`RSS after the run is over ${RSS_LIMIT_MIB} MiB`] : []),
];
for (const problem of problems) console.log(`MISSED: ${problem}`);
if (problems.length) process.exit(1);
