import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { restRoutes, schema } from '../../src/schema.ts';
import { fuzzFailure, hugeStringRequests, malformedRequests, type FuzzRequest } from '../support/fuzz.ts';
import { buildFuzzWorld } from '../support/fuzz-world.ts';
import { buildMember, buildOrganization } from '../factories.ts';
import { useHarness, type Caller, type HttpResult } from '../support/harness.ts';

/**
 * Walks every REST route and every GraphQL root field with malformed input (test/support/fuzz.ts) as an
 * admin, a reader and a guest in turn, on IDs that exist (test/support/fuzz-world.ts), and fails on any
 * answer ≥ 500, any REST failure without the documented error body, and any GraphQL error that is
 * internal or has no code.
 */
const h = useHarness();

async function world() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Fuzzed');
  const reader = await buildMember(h, o, 'read');
  const guest = await buildMember(h, o, null);
  const ids = await buildFuzzWorld(
    async (method, path, body) => {
      const res = await admin.rest(method, path, body);
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
      return res.body;
    },
    o,
    reader.userId,
  );
  return { admin, reader, guest, ids };
}

function send(caller: Caller, request: FuzzRequest): Promise<HttpResult> {
  if (request.kind === 'graphql') return caller.gql(request.query, request.variables);
  return request.raw !== undefined ? caller.raw(request.method, request.path, request.raw) : caller.rest(request.method, request.path, request.body);
}

/** The collector, for measuring the heap (vitest's workers run without --expose-gc). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('every route with malformed input', () => {
  it('never answers ≥ 500, and every REST failure has the error body', { timeout: 300_000 }, async () => {
    const { admin, reader, guest, ids } = await world();
    const callers: Caller[] = [admin, reader, guest];
    const failures: string[] = [];
    let sent = 0;
    for (const request of malformedRequests(restRoutes, schema, ids)) {
      const res = await send(callers[sent++ % callers.length], request);
      const failure = fuzzFailure(request, res.status, res.text);
      if (failure) failures.push(failure);
    }
    expect(sent).toBeGreaterThan(3000);
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it(
    'strings of 100,000 and 1,000,000 characters anywhere (path, query, body, JSON, GraphQL variables): a 4xx within a second, memory back where it was',
    { timeout: 600_000 },
    async () => {
      const { admin, reader, ids } = await world();
      const gc = collector();
      const heap = () => {
        gc();
        return process.memoryUsage().heapUsed;
      };
      // The first huge request pays for warming what every later one shares (it took 0.8–1.4 s under the
      // full suite, 16 ms alone): sent once before measuring.
      await admin.rest('GET', `/v1/orgs/${'x'.repeat(1_000_000)}`);
      const before = heap();
      const failures: string[] = [];
      let sent = 0;
      let slowest = 0;
      for (const request of hugeStringRequests(restRoutes, schema, ids, [100_000, 1_000_000])) {
        // The admin reaches every service; the reader is refused what only admins may do.
        const caller = sent++ % 4 === 3 ? reader : admin;
        // "Within a second": a request fails it when both its wall-clock time and this process's CPU time
        // (PGlite runs in it too) pass a second. Wall clock alone also counts the other test files'
        // processes sharing the 2 cores; CPU time alone also counts this process's GC and compiler threads.
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        const res = await send(caller, request);
        const ms = performance.now() - started;
        const cpu = process.cpuUsage(cpuBefore);
        const cpuMs = (cpu.user + cpu.system) / 1000;
        slowest = Math.max(slowest, cpuMs);
        const label = request.kind === 'graphql' ? request.label : `${request.method} ${request.path.slice(0, 120)} ${JSON.stringify(request.body ?? null).slice(0, 120)}`;
        const refused = request.kind === 'graphql' ? res.status < 500 && res.body?.errors?.length > 0 && !res.body.data?.[Object.keys(res.body.data ?? {})[0]] : res.status >= 400 && res.status < 500;
        const accepted = request.mayAccept && res.status >= 200 && res.status < 300;
        if (!refused && !accepted) failures.push(`${label} → ${res.status} ${res.text.slice(0, 200)}`);
        else if (cpuMs > 1000 && ms > 1000) failures.push(`${label} → ${res.status} after ${cpuMs.toFixed(0)} ms of CPU, ${ms.toFixed(0)} ms`);
        const failure = fuzzFailure(request, res.status, res.text);
        if (failure) failures.push(failure);
      }
      const grown = (heap() - before) / 2 ** 20;
      console.log(`huge strings: ${sent} requests, slowest ${slowest.toFixed(0)} ms of CPU, heap grown by ${grown.toFixed(1)} MiB`);
      expect(sent).toBeGreaterThan(1000);
      expect(failures.slice(0, 20)).toEqual([]);
      expect(grown).toBeLessThan(64);
    },
  );
});
