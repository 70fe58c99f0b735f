import { describe, expect, it } from 'vitest';
import { enqueueJob } from '../../src/jobs/job-queue.ts';
import { buildOrganization } from '../factories.ts';
import { BASE, useHarness } from '../support/harness.ts';
import { usingPostgres } from '../support/database.ts';

const TOKEN = 'metrics-token-0123456789';
const h = useHarness({ metricsToken: TOKEN });

const scrape = (authorization?: string) => h.app.fetch(`${BASE}/metrics`, { headers: authorization ? { authorization } : {} });

describe('GET /metrics', () => {
  it('needs METRICS_TOKEN as a bearer token', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape('Bearer wrong-token-0123456789')).status).toBe(401);
    expect((await scrape(`Basic ${TOKEN}`)).status).toBe(401);
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
  });

  it('counts requests by route template and status, times them, counts GraphQL operations; the queue, the pool, the process', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    await admin.rest('GET', `/v1/orgs/${o}`);
    await admin.rest('GET', '/v1/orgs/unknownOrganization1');
    await admin.gql('query Me { user { id } }');
    await enqueueJob(h.db, { kind: 'metrics-test', runAt: new Date('2100-01-01') });
    const text = await (await scrape(`Bearer ${TOKEN}`)).text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/v1\/orgs\/\{organizationId\}",status="200"\} 1/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/v1\/orgs\/\{organizationId\}",status="404"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="[0-9.]+",method="POST",route="\/graphql",status="200"\}/);
    expect(text).toMatch(/graphql_operations_total\{type="query",name="Me",outcome="ok"\} 1/);
    expect(text).toMatch(/graphql_operation_duration_seconds_count\{type="query",name="Me"\} 1/);
    expect(text).toMatch(/jobs_queue_depth\{state="queued"\} [1-9]/);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_heap_size_used_bytes');
    if (usingPostgres) expect(text).toMatch(/db_pool_connections\{state="total"\} [1-9]/);
    // Paths clients make up do not become labels.
    await h.app.fetch(`${BASE}/some/random/${Date.now()}`);
    expect(await (await scrape(`Bearer ${TOKEN}`)).text()).toMatch(/route="unmatched",status="404"/);
  });
});

describe('without METRICS_TOKEN', () => {
  const off = useHarness();
  it('there is no /metrics', async () => {
    const res = await off.app.fetch(`${BASE}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
  });
});
