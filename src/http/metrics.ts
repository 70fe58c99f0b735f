import { timingSafeEqual } from 'node:crypto';
import type { DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { HttpRoute } from './request-state.ts';
import { refusal } from './refusal.ts';
import { findRequestState } from './request-state.ts';

/**
 * `GET /metrics` in Prometheus' text format (prom-client), only when METRICS_TOKEN is set and only for
 * `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise): HTTP requests (count and duration, by method,
 * route template and status), GraphQL operations (count and duration, by type and name — REST routes run
 * as operations too), the database pool (PostgreSQL), the job queue's depth, and the process's own
 * metrics. Off, nothing is measured: the plugin is not installed.
 */
export interface MetricsOptions {
  token: string;
  pool: pg.Pool | null;
  /** Jobs waiting and running, read at each scrape. */
  queueDepth: () => Promise<{ queued: number; running: number }>;
}

export const METRICS_PATH = '/metrics';

/** A route label that cannot grow with the paths clients send: the matched route's template. */
const routeOf = (serverContext: object) => findRequestState(serverContext)?.route ?? 'unmatched';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The measuring plugin, and the `GET /metrics` route (an operations endpoint, outside rate limiting). */
export function useMetrics(options: MetricsOptions): { plugin: Plugin; route: HttpRoute; observe: (labels: { method: string; route: string; status: number }, seconds: number) => void } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const operations = new Counter({ name: 'graphql_operations_total', help: 'GraphQL operations executed (REST routes included)', labelNames: ['type', 'name', 'outcome'], registers: [registry] });
  const operationDurations = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'Time to execute GraphQL operations',
    labelNames: ['type', 'name'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Connections of the PostgreSQL pool, by state (none on the embedded database)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      if (!options.pool) return;
      this.set({ state: 'total' }, options.pool.totalCount);
      this.set({ state: 'idle' }, options.pool.idleCount);
      this.set({ state: 'waiting' }, options.pool.waitingCount);
    },
  });
  new Gauge({
    name: 'jobs_queue_depth',
    help: 'Background jobs queued and running',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const depth = await options.queueDepth();
      this.set({ state: 'queued' }, depth.queued);
      this.set({ state: 'running' }, depth.running);
    },
  });

  const started = new WeakMap<Request, number>();
  const route: HttpRoute = {
    path: METRICS_PATH,
    methods: ['GET', 'HEAD'],
    door: 'operations',
    access: 'public',
    rateLimit: 'none',
    async handle({ request }) {
      const header = request.headers.get('authorization') ?? '';
      if (!header.startsWith('Bearer ') || !sameSecret(header.slice(7), options.token)) {
        return refusal('operations', 401, 'Metrics need "Authorization: Bearer <METRICS_TOKEN>"');
      }
      return new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } });
    },
  };
  const plugin: Plugin = {
    instrumentation: {
      request({ request }, wrapped) {
        started.set(request, performance.now());
        return wrapped();
      },
    },
    onExecute({ args }) {
      const start = performance.now();
      const definition = (args.document as DocumentNode).definitions.find((d) => d.kind === 'OperationDefinition');
      const type = definition && 'operation' in definition ? definition.operation : 'unknown';
      const name = args.operationName ?? (definition && 'name' in definition ? definition.name?.value : undefined) ?? 'anonymous';
      return {
        onExecuteDone({ result }) {
          const failed = 'errors' in result && Array.isArray(result.errors) && result.errors.length > 0;
          operations.inc({ type, name, outcome: failed ? 'error' : 'ok' });
          operationDurations.observe({ type, name }, (performance.now() - start) / 1000);
        },
      };
    },
    onResponse({ request, response, serverContext }) {
      const start = started.get(request);
      const labels = { method: request.method, route: routeOf(serverContext), status: String(response.status) };
      requests.inc(labels);
      if (start !== undefined) durations.observe(labels, (performance.now() - start) / 1000);
    },
  };
  /** An answer given outside the pipeline (a published page from memory, page-memory.ts), counted the same way. */
  const observe = (labels: { method: string; route: string; status: number }, seconds: number) => {
    const named = { method: labels.method, route: labels.route, status: String(labels.status) };
    requests.inc(named);
    durations.observe(named, seconds);
  };
  return { plugin, route, observe };
}
