/**
 * `npm run bench:memory`: the server's memory under hostile traffic, as its operators would see it. Builds
 * and starts the real server as `npm start` does (dist/server.js; embedded PGlite in a temporary directory,
 * or PostgreSQL with TEST_DATABASE_URL), sends BENCH_FUZZ_REQUESTS (default 11,000) malformed requests from the fuzz
 * generator over HTTP, 8 at a time, and prints the server's RSS before, at its peak, and after the run
 * once idle. Targets: no request answered ≥ 500; afterwards the RSS is back at its level before the run
 * (within 10 %), and on PostgreSQL under BENCH_RSS_LIMIT_MIB (default 300). The embedded database runs
 * PostgreSQL itself inside the process (WebAssembly, ~250 MiB more), so there only the first holds.
 * The requests go round six callers, as a hostile probe would send them: the organization's owner, a
 * `read` member, a guest given nothing, an outsider (a member of another organization), no token and a
 * made-up token. Besides answers ≥ 500, it counts **leaks** (a successful answer that carries an ID or a
 * share-link key the caller may not see) and **escalations** (a write into the organization that a caller
 * other than its owner got accepted). Exits non-zero when a target is missed.
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { restRoutes, schema } from '../../src/schema.ts';
import { hugeStringRequests, malformedRequests, fuzzFailure, type FuzzRequest } from '../support/fuzz.ts';
import { createTestDatabase } from '../support/database.ts';
import { buildFuzzWorld } from '../support/fuzz-world.ts';
import { killAll, randomToken, startServer, tempDir } from '../support/server-process.ts';

const TOTAL = Number(process.env.BENCH_FUZZ_REQUESTS ?? 11_000);
const CONCURRENCY = 8;
const RSS_LIMIT_MIB = Number(process.env.BENCH_RSS_LIMIT_MIB ?? 300);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 15_000);

// The server as `npm start` runs it: built JavaScript, with the idle collector enabled (--expose-gc).
if (!process.env.BENCH_SKIP_BUILD) execSync('npm run build', { stdio: 'ignore' });
// On PostgreSQL, a database of its own (migrated, dropped at the end), so runs never meet each other's data.
const store = process.env.TEST_DATABASE_URL ? await createTestDatabase() : null;
const adminToken = randomToken();
const server = await startServer({
  ADMIN_TOKEN: adminToken,
  RATE_LIMIT: 'false',
  LOG_LEVEL: 'warn',
  ...(store ? { DATABASE_URL: store.url! } : { DATA_DIR: tempDir('dp-bench-memory-') }),
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

// The callers. A `read` member and a guest join through the world's invite link (the guest's role is
// then taken away: a member without a role, given nothing); the link is deleted afterwards, so that no
// fuzzed request lets an outsider join (holding the link's ID is meant to let anyone in).
const newUser = async (email: string) => (await call(adminToken, 'POST', '/v1/admin/users', { email, displayName: email.split('@')[0] })).token as string;
const readerToken = await newUser('reader@example.com');
await call(readerToken, 'POST', `/v1/orgs/${org.id}/invites/${ids.inviteId}`, {});
const guestToken = await newUser('guest@example.com');
await call(guestToken, 'POST', `/v1/orgs/${org.id}/invites/${ids.inviteId}`, {});
const guest = await call(guestToken, 'GET', '/v1/user');
await call(token, 'PATCH', `/v1/orgs/${org.id}/members/${guest.id}`, { role: null });
await call(token, 'DELETE', `/v1/orgs/${org.id}/link-invites/${ids.inviteId}`);
const outsiderToken = await newUser('outsider@example.com');
await call(outsiderToken, 'POST', '/v1/orgs', { title: 'Elsewhere' });
const shareKey = (await call(token, 'GET', `/v1/orgs/${org.id}/sites/${ids.siteId}/share-links`)).items[0].key as string;

/** IDs of what the organization holds (the owner's, its spaces', sites' …), each long enough to be unmistakable. */
const worldIds = Object.entries(ids).filter(([name, value]) => name.endsWith('Id') && value.length >= 12).map(([, value]) => value);
interface Caller {
  name: string;
  token: string | null;
  /** Strings that must never appear in a successful answer to this caller. */
  secrets: string[];
}
const callers: Caller[] = [
  { name: 'owner', token, secrets: [] },
  { name: 'read member', token: readerToken, secrets: [shareKey] },
  { name: 'guest', token: guestToken, secrets: [shareKey, ...worldIds.filter((id) => id !== org.id && id !== guest.id)] },
  { name: 'outsider', token: outsiderToken, secrets: [shareKey, ...worldIds] },
  { name: 'no token', token: null, secrets: [shareKey, ...worldIds] },
  { name: 'bad token', token: `gb_api_${randomToken()}`, secrets: [shareKey, ...worldIds] },
];

/** A leak: a successful answer (GraphQL: its data) holding something the caller may not see. */
function leakOf(caller: Caller, request: FuzzRequest, status: number, text: string): string | null {
  if (status >= 300 || !caller.secrets.length) return null;
  let shown = text;
  if (request.kind === 'graphql') {
    try {
      shown = JSON.stringify(JSON.parse(text).data ?? null);
    } catch {
      return null;
    }
  }
  const secret = caller.secrets.find((value) => shown.includes(value));
  return secret ? `${caller.name}: ${describe(request)} → ${status} shows ${secret}` : null;
}

/** What any member may write on themselves: GitBook's `updateOrganizationMemberLastSeenAt`. */
const MEMBERS_OWN_WRITES = [/^\/v1\/orgs\/[^/]+\/ping$/, /^pingOrganization\(/];

/** An escalation: a write aimed at the organization (an ID of it in the path or the variables), accepted for someone other than its owner. */
function escalationOf(caller: Caller, request: FuzzRequest, status: number, text: string): string | null {
  if (caller.name === 'owner') return null;
  const member = caller.name === 'read member' || caller.name === 'guest';
  if (member && MEMBERS_OWN_WRITES.some((own) => own.test(request.kind === 'graphql' ? request.label : request.path))) return null;
  const aimed = request.kind === 'graphql' ? JSON.stringify(request.variables) : `${request.path} ${request.raw ?? JSON.stringify(request.body ?? null)}`;
  if (!worldIds.some((id) => aimed.includes(id))) return null;
  if (request.kind === 'rest') {
    if (request.method === 'GET' || request.method === 'HEAD' || status >= 300) return null;
  } else {
    if (!request.query.startsWith('mutation')) return null;
    try {
      const body = JSON.parse(text);
      if (body.errors?.length || !body.data || Object.values(body.data).every((value) => value === null)) return null;
    } catch {
      return null;
    }
  }
  return `${caller.name}: ${describe(request)} → ${status} accepted`;
}

const describe = (request: FuzzRequest) => (request.kind === 'graphql' ? request.label : `${request.method} ${request.path.slice(0, 200)}`);

const statuses = new Map<number, number>();
const failures: string[] = [];
const leaks: string[] = [];
const escalations: string[] = [];

/** Sends `requests` CONCURRENCY at a time, counting statuses and failures. */
async function send(requests: Iterator<FuzzRequest>, count: number): Promise<number> {
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      const caller = callers[sent % callers.length];
      sent += 1;
      const request = requests.next().value as FuzzRequest;
      const init: RequestInit =
        request.kind === 'graphql'
          ? { method: 'POST', body: JSON.stringify({ query: request.query, variables: request.variables }) }
          : { method: request.method, body: request.raw ?? (request.body === undefined ? undefined : JSON.stringify(request.body)) };
      const path = request.kind === 'graphql' ? '/graphql' : request.path;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (caller.token) headers.authorization = `Bearer ${caller.token}`;
      const res = await fetch(`${server.url}${path}`, { ...init, headers });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const failure = fuzzFailure(request, res.status, text);
      if (failure) failures.push(`${caller.name}: ${failure}`);
      const leak = leakOf(caller, request, res.status, text);
      if (leak) leaks.push(leak);
      const escalation = escalationOf(caller, request, res.status, text);
      if (escalation) escalations.push(escalation);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return sent;
}

/**
 * Warm-up: the first request of every route and every GraphQL root field (by every caller), so that what loads on first
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
// Each of them sent by every caller (requests go round the callers): the queries an outsider or a guest
// makes (their refusals) are first used here too, not during the measured run.
const warmUp = [...firstOfEach()].flatMap((request) => callers.map(() => request));
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
await store?.close();

const statusLine = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
console.table([
  {
    requests: sent,
    seconds: seconds.toFixed(1),
    'req/s': (sent / seconds).toFixed(0),
    'RSS before (MiB)': before.toFixed(0),
    'RSS peak (MiB)': peak.toFixed(0),
    [`RSS ${IDLE_MS / 1000}s after (MiB)`]: after.toFixed(0),
    callers: callers.length,
    failures: failures.length,
    leaks: leaks.length,
    escalations: escalations.length,
  },
]);
console.log(`database: ${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'}; statuses: ${statusLine}`);
for (const failure of failures.slice(0, 10)) console.log(`FAILURE ${failure}`);
for (const leak of leaks.slice(0, 10)) console.log(`LEAK ${leak}`);
for (const escalation of escalations.slice(0, 10)) console.log(`ESCALATION ${escalation}`);
const problems = [
  ...(failures.length ? [`${failures.length} answers ≥ 500 or without the error body`] : []),
  ...(leaks.length ? [`${leaks.length} leaks`] : []),
  ...(escalations.length ? [`${escalations.length} escalations`] : []),
  ...(after > before * 1.1 ? [`RSS after the run (${after.toFixed(0)} MiB) is more than 10 % over its level before (${before.toFixed(0)} MiB)`] : []),
  ...(process.env.TEST_DATABASE_URL && after > RSS_LIMIT_MIB ? [`RSS after the run is over ${RSS_LIMIT_MIB} MiB`] : []),
];
for (const problem of problems) console.log(`MISSED: ${problem}`);
if (problems.length) process.exit(1);
