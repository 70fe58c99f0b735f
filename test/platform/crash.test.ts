// kill -9 in the middle of writes: every acknowledged write survives, nothing half-done is visible, and
// the server starts again on the same data. On the embedded database (a DATA_DIR) and on PostgreSQL with
// two instances, one of which is killed while both take writes.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, killAll, postgresQuery, postgresReachable, randomToken, startServer, tempDir, type ServerProcess } from '../support/server-process.ts';

const runPostgres = Boolean(process.env.TEST_DATABASE_URL) || (await postgresReachable());
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  await killAll();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function call(server: ServerProcess, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

interface Fixture {
  token: string;
  organizationId: string;
  collectionId: string;
  teamId: string;
  memberIds: string[];
}

async function fixture(server: ServerProcess, adminToken: string): Promise<Fixture> {
  const created = await call(server, adminToken, 'POST', '/v1/admin/users', { email: `crash.${Date.now()}@example.com`, displayName: 'Crash' });
  const token = created.body.token as string;
  const organizationId = (await call(server, token, 'POST', '/v1/orgs', { title: 'Crash' })).body.id as string;
  const collectionId = (await call(server, token, 'POST', `/v1/orgs/${organizationId}/collections`, { title: 'C' })).body.id as string;
  const teamId = (await call(server, token, 'PUT', `/v1/orgs/${organizationId}/teams`, { title: 'T' })).body.id as string;
  await call(server, token, 'POST', `/v1/orgs/${organizationId}/custom-fields`, { name: 'owner', type: 'text' });
  return { token, organizationId, collectionId, teamId, memberIds: [] };
}

/**
 * Writes of several kinds — multi-row transactions among them (a space with its first revision, a
 * collection delete cascading to spaces, bulk team membership) — until `stop()`; returns what was
 * acknowledged.
 */
function writeUntilKilled(servers: ServerProcess[], f: Fixture) {
  const acknowledged = { spaces: new Set<string>(), deletedCollections: new Set<string>(), teams: new Set<string>() };
  let stopped = false;
  let n = 0;
  const one = async (server: ServerProcess) => {
    const i = n++;
    try {
      if (i % 4 === 0) {
        const res = await call(server, f.token, 'POST', `/v1/orgs/${f.organizationId}/spaces`, { title: `S${i}`, parent: f.collectionId });
        if (res.status === 201) acknowledged.spaces.add(res.body.id);
      } else if (i % 4 === 1) {
        const res = await call(server, f.token, 'POST', `/v1/orgs/${f.organizationId}/spaces`, { title: `T${i}` });
        if (res.status === 201) {
          acknowledged.spaces.add(res.body.id);
          await call(server, f.token, 'PATCH', `/v1/spaces/${res.body.id}/custom-fields`, { values: { owner: { value: `o${i}` } } });
        }
      } else if (i % 4 === 2) {
        const res = await call(server, f.token, 'PUT', `/v1/orgs/${f.organizationId}/teams`, { title: `Team ${i}` });
        if (res.status === 201) acknowledged.teams.add(res.body.id);
      } else {
        const col = await call(server, f.token, 'POST', `/v1/orgs/${f.organizationId}/collections`, { title: `C${i}` });
        if (col.status !== 201) return;
        await call(server, f.token, 'POST', `/v1/orgs/${f.organizationId}/spaces`, { title: `In ${i}`, parent: col.body.id });
        const del = await call(server, f.token, 'DELETE', `/v1/collections/${col.body.id}`);
        if (del.status === 204) acknowledged.deletedCollections.add(col.body.id);
      }
    } catch {
      // The connection died with the server: not acknowledged.
    }
  };
  const workers = servers.flatMap((server) =>
    Array.from({ length: 4 }, async () => {
      while (!stopped) await one(server);
    }),
  );
  return { acknowledged, stop: async () => ((stopped = true), await Promise.all(workers)), count: () => n };
}

/** Acknowledged writes are all there; what the invariants forbid is nowhere. */
async function checkAfterRestart(server: ServerProcess, f: Fixture, acknowledged: ReturnType<typeof writeUntilKilled>['acknowledged']) {
  for (const id of acknowledged.spaces) {
    const res = await call(server, f.token, 'GET', `/v1/spaces/${id}`);
    expect(res.status, `acknowledged space ${id}`).toBe(200);
    expect(res.body.revision, `space ${id} has its first revision`).toEqual(expect.any(String));
  }
  for (const id of acknowledged.teams) expect((await call(server, f.token, 'GET', `/v1/orgs/${f.organizationId}/teams/${id}`)).status).toBe(200);
  for (const id of acknowledged.deletedCollections) expect((await call(server, f.token, 'GET', `/v1/collections/${id}`)).status).toBe(404);
  // Lists agree with what exists: every listed space opens, and counts match the items.
  const list = await call(server, f.token, 'GET', `/v1/orgs/${f.organizationId}/spaces?limit=1000`);
  expect(list.status).toBe(200);
  expect(list.body.count).toBe(list.body.items.length);
  for (const id of acknowledged.spaces) expect(list.body.items.some((s: { id: string }) => s.id === id)).toBe(true);
  for (const space of list.body.items) expect(space.revision).toEqual(expect.any(String));
}

describe('kill -9 in the middle of writes', () => {
  it('embedded database: acknowledged writes survive, nothing half-done, the server starts again on the same DATA_DIR', { timeout: 180_000 }, async () => {
    const dataDir = tempDir('dp-crash-');
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const adminToken = randomToken();
    const env = { DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, RATE_LIMIT: 'false', LOG_LEVEL: 'warn' };
    const first = await startServer(env);
    const f = await fixture(first, adminToken);
    const run = writeUntilKilled([first], f);
    while (run.acknowledged.spaces.size < 15) await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    await run.stop();

    const second = await startServer(env);
    await checkAfterRestart(second, f, run.acknowledged);
    await second.stop();
  });

  it.runIf(runPostgres)('PostgreSQL, two instances, one killed: acknowledged writes survive, the other keeps serving', { timeout: 180_000 }, async () => {
    const database = await createPostgresDatabase('dp_crash');
    cleanups.push(() => database.drop());
    const adminToken = randomToken();
    const env = { DATABASE_URL: database.url, ADMIN_TOKEN: adminToken, RATE_LIMIT: 'false', LOG_LEVEL: 'warn' };
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    const f = await fixture(a, adminToken);
    const run = writeUntilKilled([a, b], f);
    while (run.acknowledged.spaces.size < 30) await new Promise((resolve) => setTimeout(resolve, 20));
    a.child.kill('SIGKILL');
    // The survivor keeps taking writes for a moment after its peer died mid-transaction.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await run.stop();
    await checkAfterRestart(b, f, run.acknowledged);
    // Order keys stayed unique among live siblings, and no space is left without a revision.
    const duplicates = await postgresQuery(
      database.url,
      `SELECT "collectionId", "position", count(*) FROM "Space" WHERE "deletedAt" IS NULL GROUP BY 1, 2 HAVING count(*) > 1`,
    );
    expect(duplicates).toEqual([]);
    expect(await postgresQuery(database.url, `SELECT id FROM "Space" WHERE "revisionId" IS NULL`)).toEqual([]);
    const restarted = await startServer(env);
    expect((await call(restarted, f.token, 'GET', `/v1/orgs/${f.organizationId}`)).status).toBe(200);
    await Promise.all([b.stop(), restarted.stop()]);
  });
});
