import { Writable } from 'node:stream';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.ts';
import { buildConfig } from '../../src/config.ts';
import { buildUser } from '../factories.ts';
import { BASE, useHarness, type Caller } from '../support/harness.ts';

const h = useHarness();

/** An app on the harness database whose log lines (parsed JSON) land in `lines`. */
function appWithLogs(): { app: App; lines: any[] } {
  const lines: any[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: 'info', base: undefined }, stream);
  const app = createApp({ database: h.store.database, config: buildConfig({ logLevel: 'info' }), logger });
  return { app, lines };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request IDs', () => {
  let user: Caller;
  beforeAll(async () => {
    user = await buildUser(h);
  });

  it('keeps a sane X-Request-Id, echoes it, and puts it (and the user ID) on the request log line', async () => {
    const { app, lines } = appWithLogs();
    const response = await app.fetch(`${BASE}/v1/user`, {
      headers: { authorization: `Bearer ${user.token}`, 'x-request-id': 'client-id_42.abc' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('client-id_42.abc');
    const requestLines = lines.filter((line) => line.msg === 'request');
    expect(requestLines).toEqual([
      expect.objectContaining({ requestId: 'client-id_42.abc', userId: user.userId, route: '/v1/user', status: 200 }),
    ]);
  });

  it('generates one when absent or not sane (too long, unsafe characters)', async () => {
    const { app, lines } = appWithLogs();
    const seen = new Set<string>();
    for (const sent of [undefined, 'x'.repeat(200), 'has space', 'quote"inside', 'new\u2028line']) {
      const headers: Record<string, string> = { authorization: `Bearer ${user.token}` };
      if (sent !== undefined) headers['x-request-id'] = sent;
      const response = await app.fetch(`${BASE}/graphql`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ user { id } }' }),
      });
      const id = response.headers.get('x-request-id')!;
      expect(id, String(sent)).toMatch(UUID);
      seen.add(id);
    }
    expect(seen.size).toBe(5);
    expect(lines.filter((l) => l.msg === 'request').map((l) => l.requestId)).toEqual([...seen]);
  });

  it('is on answers that never reach authentication, too (404, 401, health check)', async () => {
    const { app, lines } = appWithLogs();
    for (const path of ['/nothing', '/v1/user', '/healthz']) {
      const response = await app.fetch(`${BASE}${path}`);
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    }
    const requestLines = lines.filter((l) => l.msg === 'request');
    expect(requestLines.map((l) => l.status)).toEqual([404, 401, 200]);
    for (const line of requestLines) {
      expect(line.requestId).toMatch(UUID);
      expect(line).not.toHaveProperty('userId');
    }
  });
});

describe('unexpected errors', () => {
  let user: Caller;
  beforeAll(async () => {
    user = await buildUser(h);
    // A real database failure, through the real stack: PostgreSQL refuses any new organization.
    await h.db.$executeRawUnsafe(`
      CREATE FUNCTION refuse_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'organization insert refused by test trigger'; END $$`);
    await h.db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_organizations BEFORE INSERT ON "Organization" FOR EACH ROW EXECUTE FUNCTION refuse_organizations()`,
    );
  });

  /** The error lines of a request: exactly one, with the cause's message and stack, and the request's IDs. */
  function expectOneCauseLine(lines: any[], requestId: string) {
    const errors = lines.filter((line) => line.level >= 50);
    expect(errors, JSON.stringify(lines)).toHaveLength(1);
    const [line] = errors;
    expect(line.requestId).toBe(requestId);
    expect(line.userId).toBe(user.userId);
    expect(line.err.message).toContain('organization insert refused by test trigger');
    expect(line.err.stack).toEqual(expect.stringContaining('\n    at '));
    expect(line.err.message).not.toBe('Unexpected error.');
    // The request line of the same request carries the same ID.
    expect(lines.filter((l) => l.msg === 'request').map((l) => l.requestId)).toEqual([requestId]);
  }

  it('REST: the answer stays a bare 500; the cause is logged once with the request ID', async () => {
    const { app, lines } = appWithLogs();
    const response = await app.fetch(`${BASE}/v1/orgs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Doomed' }),
    });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 500, message: 'Internal server error' } });
    expect(text).not.toContain('trigger');
    expectOneCauseLine(lines, response.headers.get('x-request-id')!);
  });

  it('GraphQL: the answer says only "Unexpected error."; the cause is logged once with the request ID', async () => {
    const { app, lines } = appWithLogs();
    const response = await app.fetch(`${BASE}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', 'x-request-id': 'gql-failure-1' },
      body: JSON.stringify({ query: 'mutation { createOrganization(title: "Doomed") { id } }' }),
    });
    const text = await response.text();
    expect(text).not.toContain('trigger');
    const body = JSON.parse(text);
    expect(body.errors).toEqual([expect.objectContaining({ message: 'Unexpected error.' })]);
    expect(response.headers.get('x-request-id')).toBe('gql-failure-1');
    expectOneCauseLine(lines, 'gql-failure-1');
    expect(lines.find((l) => l.level >= 50).path).toBe('createOrganization');
  });
});

describe('unexpected errors outside execution', () => {
  let doomed: Caller;
  beforeAll(async () => {
    doomed = await buildUser(h);
    // Authentication itself fails for this caller: PostgreSQL refuses to note the use of their token.
    await h.db.$executeRawUnsafe(`
      CREATE FUNCTION refuse_token_use() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'token use refused by test trigger'; END $$`);
    await h.db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_token_use BEFORE UPDATE ON "AccessToken" FOR EACH ROW WHEN (NEW."userId" = '${doomed.userId}') EXECUTE FUNCTION refuse_token_use()`,
    );
  });

  it.each(['/graphql', '/v1/user'])('%s: a failure before the operation runs is logged once, with the request ID', async (path) => {
    const { app, lines } = appWithLogs();
    const response = await app.fetch(`${BASE}${path}`, {
      method: path === '/graphql' ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${doomed.token}`, 'content-type': 'application/json', 'x-request-id': 'before-execution-1' },
      body: path === '/graphql' ? JSON.stringify({ query: '{ currentUser { id } }' }) : undefined,
    });
    const text = await response.text();
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(text).not.toContain('trigger');
    const errors = lines.filter((line) => line.level >= 50);
    expect(errors, JSON.stringify(lines)).toHaveLength(1);
    expect(errors[0].requestId).toBe('before-execution-1');
    expect(errors[0].err.message).toContain('token use refused by test trigger');
  });
});
