// Concurrent writes through two app instances on one PostgreSQL database (as behind a load balancer).
// Rule under test: every concurrent write either succeeds or answers 409 with the error body — never a
// 5xx — and the final state is consistent. PGlite serialises everything in one process, so these tests
// always run on PostgreSQL: TEST_DATABASE_URL, else the local server.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { generateKeyBetween } from 'fractional-indexing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { applyMigrations, pgliteSession, pgSession, type SqlSession } from '../../src/db/migrate.ts';
import { createPglite } from '../../src/db/pglite.ts';
import { restError } from '../support/assertions.ts';
import { buildMember, buildOrganization } from '../factories.ts';
import { callerFor, useTwoInstances, type Caller, type HttpResult } from '../support/harness.ts';
import { useFixtureSite } from '../support/fixture-site.ts';
import { POSTGRES_SERVER_URL, REPO_ROOT, tempDir } from '../support/server-process.ts';
import { pageRows } from '../support/content-rows.ts';
import { readerSite } from '../support/reader-site.ts';

// The website import's fixture site is on 127.0.0.1: private addresses are allowed here.
const h = useTwoInstances(POSTGRES_SERVER_URL, { fetch: { allowPrivate: true, timeoutMs: 1000 } });
const site = useFixtureSite();

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** The same caller on the first instance for even `i`, on the second for odd `i`. */
function on(i: number, c: Caller): Caller {
  return i % 2 === 0 ? c : callerFor(h.second, c.token, c.userId, c.email);
}

/** Every response has one of the `ok` statuses or is a 409 with the error body; returns the statuses. */
function expectOkOrConflict(results: HttpResult[], ok: number[]): number[] {
  const unexpected = results.filter((r) => !ok.includes(r.status) && r.status !== 409);
  expect(unexpected.map((r) => `${r.status} ${r.text}`)).toEqual([]);
  for (const r of results.filter((r) => r.status === 409)) restError(r, 409);
  return results.map((r) => r.status);
}

async function createSpace(c: Caller, o: string, body: Record<string, unknown> = {}) {
  const res = await c.rest('POST', `/v1/orgs/${o}/spaces`, body);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

/** Order keys of the live spaces and collections directly under `parentId` (null: the top level). */
async function siblingPositions(db: Db, organizationId: string, parentId: string | null) {
  const [spaces, collections] = await Promise.all([
    db.space.findMany({ where: { organizationId, collectionId: parentId, deletedAt: null }, select: { id: true, position: true } }),
    db.collection.findMany({ where: { organizationId, parentId, deletedAt: null }, select: { id: true, position: true } }),
  ]);
  return [...spaces, ...collections].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
}

function expectUniquePositions(siblings: { position: string }[]) {
  const positions = siblings.map((s) => s.position);
  expect(new Set(positions).size, positions.join(' ')).toBe(positions.length);
}

describe('custom field values', () => {
  it('50 concurrent PATCH /spaces/{id}/custom-fields of one field all succeed, one value row in the end', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Fields');
    expect((await admin.rest('POST', `/v1/orgs/${o}/custom-fields`, { name: 'owner', type: 'text' })).status).toBe(201);
    const space = await createSpace(admin, o);
    const sent = range(50).map((i) => `owner ${i}`);
    const results = await Promise.all(
      sent.map((value, i) => on(i, admin).rest('PATCH', `/v1/spaces/${space.id}/custom-fields`, { values: { owner: { value } } })),
    );
    // More than the rule: an upsert has nothing to conflict with, so every request succeeds.
    expect(expectOkOrConflict(results, [204])).toEqual(results.map(() => 204));
    const rows = await h.db.customFieldValue.findMany({ where: { spaceId: space.id } });
    expect(rows).toHaveLength(1);
    expect(sent).toContain(rows[0].value);
  });

  it('concurrent PATCHes setting and clearing two fields apply whole: the final values come from one request', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Fields2');
    expect((await admin.rest('POST', `/v1/orgs/${o}/custom-fields`, { name: 'owner', type: 'text' })).status).toBe(201);
    const tier = await admin.rest('POST', `/v1/orgs/${o}/custom-fields`, { name: 'tier', type: 'select', options: ['gold', 'silver'] });
    expect(tier.status).toBe(201);
    const space = await createSpace(admin, o);
    // Request i sets owner "owner i" (or clears it when i % 3 == 0) and tier gold/silver by parity.
    const bodies = range(40).map((i) => ({
      values: { owner: { value: i % 3 === 0 ? null : `owner ${i}` }, tier: { value: i % 2 ? 'silver' : 'gold' } },
    }));
    const results = await Promise.all(bodies.map((body, i) => on(i, admin).rest('PATCH', `/v1/spaces/${space.id}/custom-fields`, body)));
    expect(expectOkOrConflict(results, [204])).toEqual(results.map(() => 204));
    const rows = await h.db.customFieldValue.findMany({ where: { spaceId: space.id }, include: { field: true } });
    const final = Object.fromEntries(rows.map((r) => [r.field.name, r.value]));
    expect(final.tier).toBeDefined();
    const writers = range(40).filter(
      (i) => results[i].status === 204 && (bodies[i].values.owner.value ?? undefined) === final.owner && bodies[i].values.tier.value === final.tier,
    );
    expect(writers.length, JSON.stringify(final)).toBeGreaterThan(0);
  });
});

describe('team members', () => {
  it('20 concurrent PUT /teams/{t}/members/{u} with {} for one user all succeed, a member once', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Teams');
    const member = await buildMember(h, o);
    const team = await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'Writers' });
    expect(team.status).toBe(201);
    const path = `/v1/orgs/${o}/teams/${team.body.id}/members/${member.userId}`;
    const results = await Promise.all(range(20).map((i) => on(i, admin).rest('PUT', path, {})));
    // Adding someone who is already there is not a conflict: every request succeeds.
    expect(expectOkOrConflict(results, [204])).toEqual(results.map(() => 204));
    expect(await h.db.teamMember.findMany({ where: { teamId: team.body.id } })).toMatchObject([{ userId: member.userId, role: 'member' }]);
  });

  it('single adds racing bulk adds (PUT /teams/{t}/members) all succeed, each member once', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Teams2');
    const members = await Promise.all(range(4).map(() => buildMember(h, o)));
    const team = await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'Readers' });
    const ids = members.map((m) => m.userId);
    const teamPath = `/v1/orgs/${o}/teams/${team.body.id}/members`;
    const results = await Promise.all(
      range(80).map((i) =>
        i % 4 < 2
          ? on(i, admin).rest('PUT', `${teamPath}/${ids[i % ids.length]}`, i % 8 === 0 ? { role: 'owner' } : {})
          : // Bulk adds name the members in different orders (one by e-mail).
            on(i, admin).rest('PUT', teamPath, { add: i % 4 === 2 ? ids : [...ids].reverse().map((id, k) => (k === 0 ? members[3].email : id)) }),
      ),
    );
    expect(expectOkOrConflict(results, [204])).toEqual(results.map(() => 204));
    const rows = await h.db.teamMember.findMany({ where: { teamId: team.body.id } });
    expect(rows.map((r) => r.userId).sort()).toEqual([...ids].sort());
  });

  it('adding a member to a team while they are removed from the organization: 204, or 404/400 naming them, never 500', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Teams3');
    const team = await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'Leavers' });
    const teamPath = `/v1/orgs/${o}/teams/${team.body.id}/members`;
    const leavers = await Promise.all(range(6).map(() => buildMember(h, o)));
    const results = await Promise.all(
      leavers.flatMap((leaver, n) => [
        ...range(6).map((i) => on(i + n, admin).rest('PUT', `${teamPath}/${leaver.userId}`, {})),
        on(n, admin).rest('PUT', teamPath, { add: [leaver.userId] }),
        on(n + 1, admin).rest('DELETE', `/v1/orgs/${o}/members/${leaver.userId}`),
      ]),
    );
    // Whoever comes after the removal is told the member is gone: 404 (single add), 400 (bulk add).
    const unexpected = results.filter((r) => ![204, 400, 404].includes(r.status));
    expect(unexpected.map((r) => `${r.status} ${r.text}`)).toEqual([]);
    for (const r of results.filter((r) => r.status >= 400)) expect(restError(r, r.status)).toMatch(/member/i);
    expect(await h.db.teamMember.count({ where: { teamId: team.body.id } })).toBe(0);
    expect(await h.db.member.count({ where: { organizationId: o, userId: { in: leavers.map((l) => l.userId) } } })).toBe(0);
  });
});

describe('sibling order keys', () => {
  // Spaces are restored into their parent: a collection that still exists, or the top level.
  const PARENTS = ['top level', 'collection'] as const;
  async function parentFor(admin: Caller, o: string, where: (typeof PARENTS)[number]) {
    if (where === 'top level') return null;
    const collection = await admin.rest('POST', `/v1/orgs/${o}/collections`, { title: 'Parent' });
    return collection.body.id as string;
  }

  it.each(PARENTS)('a space restored at the %s does not reuse an order key another sibling took meanwhile', async (where) => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Restore');
    const parent = await parentFor(admin, o, where);
    const r1 = await createSpace(admin, o, { title: 'r1', parent });
    const r2 = await createSpace(admin, o, { title: 'r2', parent });
    expect((await admin.rest('DELETE', `/v1/spaces/${r2.id}`)).status).toBe(204);
    const r3 = await createSpace(admin, o, { title: 'r3', parent });
    expect((await admin.rest('POST', `/v1/spaces/${r2.id}/restore`)).status).toBe(200);
    const siblings = await siblingPositions(h.db, o, parent);
    expectUniquePositions(siblings);
    // r2's old place was taken by r3: it goes to the end.
    expect(siblings.map((s) => s.id)).toEqual([r1.id, r3.id, r2.id]);
  });

  it.each(PARENTS)('a space restored at the %s keeps its old place when nobody took it', async (where) => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Restore2');
    const parent = await parentFor(admin, o, where);
    const [r1, r2, r3] = [await createSpace(admin, o, { parent }), await createSpace(admin, o, { parent }), await createSpace(admin, o, { parent })];
    const before = (await h.db.space.findUniqueOrThrow({ where: { id: r2.id } })).position;
    expect((await admin.rest('DELETE', `/v1/spaces/${r2.id}`)).status).toBe(204);
    expect((await admin.rest('POST', `/v1/spaces/${r2.id}/restore`)).status).toBe(200);
    expect((await h.db.space.findUniqueOrThrow({ where: { id: r2.id } })).position).toBe(before);
    expect((await siblingPositions(h.db, o, parent)).map((s) => s.id)).toEqual([r1.id, r2.id, r3.id]);
  });

  it('concurrent creates, moves, restores and transfers in one organization: 2xx or 409, sibling keys stay unique', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Tree');
    const { admin: otherAdmin, organizationId: other } = await buildOrganization(h, 'Tree target');
    // The admin of the source also creates content in the target (transfers need both).
    await h.db.member.create({ data: { organizationId: other, userId: admin.userId, role: 'admin' } });
    const collection = await admin.rest('POST', `/v1/orgs/${o}/collections`, { title: 'Box' });
    const spaces = await Promise.all(range(8).map(() => createSpace(admin, o)));
    for (const s of spaces.slice(0, 4)) expect((await admin.rest('DELETE', `/v1/spaces/${s.id}`)).status).toBe(204);
    await createSpace(otherAdmin, other);
    const requests = [
      ...range(8).map((i) => on(i, admin).rest('POST', `/v1/orgs/${o}/spaces`, {})),
      ...range(6).map((i) => on(i + 1, admin).rest('POST', `/v1/orgs/${o}/collections`, {})),
      ...spaces.slice(0, 4).map((s, i) => on(i, admin).rest('POST', `/v1/spaces/${s.id}/restore`)),
      ...spaces.slice(4, 6).map((s, i) =>
        on(i + 1, admin).rest('POST', `/v1/spaces/${s.id}/move`, { position: { before: { type: 'space', space: spaces[7].id } } }),
      ),
      on(0, admin).rest('POST', `/v1/spaces/${spaces[6].id}/move`, { parent: collection.body.id }),
      on(1, admin).rest('POST', `/v1/spaces/${spaces[7].id}/duplicate`),
      on(0, admin).rest('POST', `/v1/spaces/${spaces[5].id}/transfer`, { organization: other }),
      on(1, admin).rest('POST', `/v1/collections/${collection.body.id}/transfer`, { organization: other }),
    ];
    expectOkOrConflict(await Promise.all(requests), [200, 201]);
    for (const organizationId of [o, other]) expectUniquePositions(await siblingPositions(h.db, organizationId, null));
    expectUniquePositions(await siblingPositions(h.db, other, collection.body.id));
  });

  it('a transferred collection does not collide with a sibling of the target holding its key', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Move from');
    const { organizationId: other } = await buildOrganization(h, 'Move to');
    await h.db.member.create({ data: { organizationId: other, userId: admin.userId, role: 'admin' } });
    const moving = await admin.rest('POST', `/v1/orgs/${o}/collections`, { title: 'Moving' });
    const nested = await admin.rest('POST', `/v1/orgs/${o}/collections`, { title: 'Nested', parent: moving.body.id });
    await createSpace(admin, o, { parent: nested.body.id });
    // The target's first item holds the same first key as the moving collection.
    await createSpace(admin, other);
    const res = await admin.rest('POST', `/v1/collections/${moving.body.id}/transfer`, { organization: other });
    expect(res.status, res.text).toBe(200);
    expectUniquePositions(await siblingPositions(h.db, other, null));
  });

  it('the database refuses two live siblings with one key, within a table and across spaces and collections', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Constraint');
    const space = await createSpace(admin, o);
    const row = await h.db.space.findUniqueOrThrow({ where: { id: space.id } });
    const insertSpace = (id: string, deletedAt: Date | null, collectionId: string | null = null) =>
      h.db.$executeRaw`INSERT INTO "Space" ("id", "organizationId", "collectionId", "position", "updatedAt", "deletedAt")
        VALUES (${id}, ${o}, ${collectionId}, ${row.position}, now(), ${deletedAt})`;
    await expect(insertSpace('dupSpace000000000001', null)).rejects.toMatchObject({ meta: { driverAdapterError: { cause: { originalCode: '23505' } } } });
    await expect(
      h.db.collection.create({ data: { id: 'dupColl0000000000001', organizationId: o, position: row.position } }),
    ).rejects.toMatchObject({ code: 'P2002' });
    // Deleted rows keep their key out of the way; another parent has an order of its own.
    await insertSpace('dupSpace000000000002', new Date());
    const collection = await admin.rest('POST', `/v1/orgs/${o}/collections`, {});
    await insertSpace('dupSpace000000000003', null, collection.body.id);
    await expect(insertSpace('dupSpace000000000004', null, collection.body.id)).rejects.toThrow();
  });

  it('the migration adding the constraints first renumbers sibling groups that share a key (PGlite and PostgreSQL)', async () => {
    const MIGRATION = '20261122200919_unique_sibling_positions';
    const all = path.join(REPO_ROOT, 'prisma', 'migrations');
    const before = tempDir('dp-migrations-');
    for (const name of readdirSync(all).filter((n) => n < MIGRATION)) cpSync(path.join(all, name), path.join(before, name), { recursive: true });

    async function check(session: SqlSession) {
      await applyMigrations(session, before);
      await session.exec(`
        INSERT INTO "Organization" ("id", "title", "updatedAt") VALUES ('o1', 'Crowded', now()), ('o2', 'Fine', now());
        -- o1's top level: two spaces and a collection on "a0", a space on "a1", a deleted space on "a0".
        INSERT INTO "Collection" ("id", "organizationId", "parentId", "position", "updatedAt") VALUES
          ('c1', 'o1', NULL, 'a0', now()), ('c2', 'o1', 'c1', 'a0', now());
        INSERT INTO "Space" ("id", "organizationId", "collectionId", "position", "updatedAt", "deletedAt") VALUES
          ('s2', 'o1', NULL, 'a0', now(), NULL), ('s1', 'o1', NULL, 'a0', now(), NULL), ('s3', 'o1', NULL, 'a1', now(), NULL),
          ('s4', 'o1', NULL, 'a0', now(), now()),
          -- inside c1: a space sharing c2's key; o2: nothing repeated.
          ('s5', 'o1', 'c1', 'a0', now(), NULL), ('s6', 'o2', NULL, 'a0', now(), NULL), ('s7', 'o2', NULL, 'a1', now(), NULL);
      `);
      await applyMigrations(session);
      const { rows } = await session.query(`
        SELECT "id", "position", "deletedAt" IS NOT NULL AS "deleted" FROM "Space"
        UNION ALL SELECT "id", "position", false FROM "Collection" ORDER BY "id"`);
      const position = Object.fromEntries(rows.map((r) => [r.id, r.position]));
      // Renumbered in their order (position, then ID): c1, s1, s2 (all "a0"), then s3 ("a1").
      expect([position.c1, position.s1, position.s2, position.s3]).toEqual(['d0001', 'd0002', 'd0003', 'd0004']);
      expect([position.c2, position.s5]).toEqual(['d0001', 'd0002']);
      // Deleted rows and groups without a repeated key are left alone.
      expect([position.s4, position.s6, position.s7]).toEqual(['a0', 'a0', 'a1']);
      // The new keys are valid fractional-index keys: the app can place something after them.
      expect(generateKeyBetween(position.s3, null) > position.s3).toBe(true);
      // And the constraints hold: within a table, and across spaces and collections (the trigger).
      await expect(session.exec(`INSERT INTO "Space" ("id", "organizationId", "position", "updatedAt") VALUES ('s8', 'o2', 'a1', now())`)).rejects.toThrow(/unique/);
      await expect(session.exec(`INSERT INTO "Collection" ("id", "organizationId", "position", "updatedAt") VALUES ('c3', 'o2', 'a1', now())`)).rejects.toThrow(
        /already holds order key "a1"/,
      );
    }

    const pglite = await createPglite();
    try {
      await check(pgliteSession(pglite));
    } finally {
      await pglite.close();
    }
    const server = new pg.Client({ connectionString: POSTGRES_SERVER_URL });
    await server.connect();
    const name = `dp_repair_${process.pid}_${Date.now()}`;
    await server.query(`CREATE DATABASE "${name}"`);
    const url = new URL(POSTGRES_SERVER_URL);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    try {
      await client.connect();
      await check(pgSession(client));
    } finally {
      await client.end();
      await server.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await server.end();
      rmSync(before, { recursive: true, force: true });
    }
  });
});

describe('other writes that race', () => {
  it('concurrent creates of custom fields with one name: one 201, the others 409', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Names');
    const results = await Promise.all(range(10).map((i) => on(i, admin).rest('POST', `/v1/orgs/${o}/custom-fields`, { name: 'team', type: 'text' })));
    expect(expectOkOrConflict(results, [201]).filter((s) => s === 201)).toHaveLength(1);
    expect(await h.db.customField.count({ where: { organizationId: o } })).toBe(1);
  });

  it('two organizations claiming one hostname at once: one gets it, the other 409', async () => {
    const [a, b] = [await buildOrganization(h, 'Host A'), await buildOrganization(h, 'Host B')];
    const hostname = `race-${Date.now().toString(36)}`;
    const results = await Promise.all(
      range(10).map((i) => {
        const { admin, organizationId } = i % 2 ? a : b;
        return on(i >> 1, admin).rest('PATCH', `/v1/orgs/${organizationId}`, { hostname });
      }),
    );
    expectOkOrConflict(results, [200]);
    expect(await h.db.organization.count({ where: { hostname } })).toBe(1);
  });

  it('concurrent e-mail invites of the same new addresses, and joins through one invite link: all succeed, rows once', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Invites');
    const emails = range(3).map((i) => `race-${i}-${Date.now()}@example.com`);
    const invites = await Promise.all(range(10).map((i) => on(i, admin).rest('POST', `/v1/orgs/${o}/invites`, { emails })));
    expect(expectOkOrConflict(invites, [200])).toEqual(invites.map(() => 200));
    expect(await h.db.user.count({ where: { email: { in: emails } } })).toBe(3);
    expect(await h.db.invite.count({ where: { organizationId: o } })).toBe(3);

    const link = await admin.rest('POST', `/v1/orgs/${o}/link-invites`, { role: 'read' });
    const joiner = await buildMember(h, (await buildOrganization(h, 'Elsewhere')).organizationId);
    const joins = await Promise.all(range(10).map((i) => on(i, joiner).rest('POST', `/v1/orgs/${o}/invites/${link.body.id}`)));
    expect(expectOkOrConflict(joins, [200])).toEqual(joins.map(() => 200));
    expect(await h.db.member.count({ where: { organizationId: o, userId: joiner.userId } })).toBe(1);
  });

  it('promoting, demoting and removing members at once never leaves an organization without an admin', async () => {
    const orgs = await Promise.all(
      range(8).map(async (n) => {
        const { admin, organizationId } = await buildOrganization(h, `Admins ${n}`);
        return { admin, o: organizationId, member: await buildMember(h, organizationId) };
      }),
    );
    // The admin promotes the member, steps down (fine once the member is an admin) and removes the
    // member (fine while the member is not the only admin): some of these must be refused.
    const results = await Promise.all(
      orgs.flatMap(({ admin, o, member }, n) => [
        on(n, admin).rest('PATCH', `/v1/orgs/${o}/members/${member.userId}`, { role: 'admin' }),
        on(n + 1, admin).rest('PATCH', `/v1/orgs/${o}/members/${admin.userId}`, { role: 'read' }),
        on(n, admin).rest('DELETE', `/v1/orgs/${o}/members/${member.userId}`),
      ]),
    );
    const unexpected = results.filter((r) => ![200, 204, 403, 404, 409].includes(r.status));
    expect(unexpected.map((r) => `${r.status} ${r.text}`)).toEqual([]);
    for (const { o } of orgs) expect(await h.db.member.count({ where: { organizationId: o, role: 'admin' } })).toBeGreaterThan(0);
  });
});

describe('change requests racing on one space', () => {
  /** Opens a change request of `spaceId` inserting one page titled `title`. */
  async function openWithPage(c: Caller, spaceId: string, title: string) {
    const cr = await c.rest('POST', `/v1/spaces/${spaceId}/change-requests`, {});
    expect(cr.status, cr.text).toBe(201);
    const edited = await c.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'insert_page', title, document: { markdown: title } }],
    });
    expect(edited.status, edited.text).toBe(200);
    return edited.body as { id: string };
  }

  it('merges of several change requests through two instances: each merges or is refused (409) and stays open; nothing is lost', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await createSpace(admin, o);
    const titles = range(6).map((i) => `Page ${i}`);
    const crs = await Promise.all(titles.map((title) => openWithPage(admin, space.id, title)));
    const merges = await Promise.all(crs.map((cr, i) => on(i, admin).rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)));
    const statuses = expectOkOrConflict(merges, [200]);
    expect(statuses).toContain(200);
    // The space's history is a line of merges, one per success.
    const merged = merges.filter((r) => r.status === 200).map((r) => r.body.revision);
    for (const [i, cr] of crs.entries()) {
      const state = (await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body;
      expect(state.status).toBe(merges[i].status === 200 ? 'merged' : 'draft');
    }
    // Those refused merge afterwards, one at a time: every page lands.
    for (const [i, cr] of crs.entries()) {
      if (merges[i].status === 200) continue;
      const retry = await on(i, admin).rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
      expect(retry.status, retry.text).toBe(200);
    }
    const pages = (await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages.map((p: { title: string }) => p.title);
    expect(pages.sort()).toEqual(titles);
    expect(merged.length).toBeGreaterThan(0);
  });

  it('content batches racing on one change request through two instances: each lands whole or answers 409', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await createSpace(admin, o);
    const cr = (await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const batches = await Promise.all(
      range(8).map((i) =>
        on(i, admin).rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          changes: [0, 1].map((n) => ({ operation: 'insert_page', title: `Batch ${i} page ${n}`, document: { markdown: `${i}.${n}` } })),
        }),
      ),
    );
    const statuses = expectOkOrConflict(batches, [200]);
    const pages = (await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`)).body.pages;
    expect(pages).toHaveLength(statuses.filter((s) => s === 200).length * 2);
  });

  it('website imports racing merges through two instances: imports land on whatever main is, no merge is lost, the search index is the final content', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await createSpace(admin, o);
    const titles = range(4).map((i) => `Merged ${i}`);
    const crs = await Promise.all(titles.map((title) => openWithPage(admin, space.id, title)));
    const [imports, merges] = await Promise.all([
      Promise.all(range(2).map((i) => on(i, admin).rest('POST', `/v1/spaces/${space.id}/content/import`, { url: `${site.origin}/docs/guide/`, source: 'website' }))),
      Promise.all(crs.map((cr, i) => on(i + 1, admin).rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`))),
    ]);
    for (const result of imports) expect(result.status, result.text).toBe(200);
    expectOkOrConflict(merges, [200]);
    const pages = (await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages.map((p: { title: string }) => p.title);
    // Both imports' pages are there (guide, install, configure each), and every merge that answered 200.
    expect(pages.filter((t: string) => t === 'Guide')).toHaveLength(2);
    for (const [i, merge] of merges.entries()) if (merge.status === 200) expect(pages).toContain(titles[i]);
    const current = await h.db.space.findUniqueOrThrow({ where: { id: space.id } });
    expect(current.searchRevisionId).toBe(current.revisionId);
    const indexed = await h.db.$queryRaw<{ pageId: string }[]>`SELECT "pageId" FROM "SearchPage" WHERE "spaceId" = ${space.id} ORDER BY 1`;
    const live = (await pageRows(h.db, current.revisionId!)).filter((p) => p.type === 'document').sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(indexed.map((r) => r.pageId)).toEqual(live.map((p) => p.id));
  });
});

describe('site navigation racing on one site', () => {
  it('sections added and groups created at once through two instances: all land, keys distinct, exactly one default', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const spaces = await Promise.all(range(6).map((i) => createSpace(admin, o, { title: `S${i}` })));
    const site = (await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Raced' })).body;
    const base = `/v1/orgs/${o}/sites/${site.id}`;
    const results = await Promise.all([
      ...spaces.map((space, i) => on(i, admin).rest('POST', `${base}/sections`, { spaceId: space.id })),
      ...range(3).map((i) => on(i, admin).rest('POST', `${base}/section-groups`, { title: `G${i}` })),
    ]);
    for (const r of results) expect(r.status, r.text).toBe(201);
    const sections = await h.db.siteSection.findMany({ where: { siteId: site.id } });
    const groups = await h.db.siteSectionGroup.findMany({ where: { siteId: site.id } });
    expect(sections).toHaveLength(6);
    expect(sections.filter((s) => s.isDefault)).toHaveLength(1);
    const keys = [...sections.map((s) => s.position), ...groups.map((g) => g.position)];
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('published pages through two instances (issue 25 §5)', () => {
  it('both instances serve a page with the same bytes and the same ETag; a merge on one shows on the other at once', async () => {
    const { base, admin, spaces } = await readerSite(h);
    const fetchBoth = async () =>
      Promise.all(
        [h.app, h.second.app].map(async (app) => {
          const res = await app.fetch(`${base}/advanced/clusters`, { headers: { accept: 'text/html' } });
          return { status: res.status, etag: res.headers.get('etag'), text: await res.text() };
        }),
      );
    const [one, two] = await fetchBoth();
    expect(one.status).toBe(200);
    expect(two.etag).toBe(one.etag);
    expect(two.text).toBe(one.text);
    const space = spaces[0];
    const pages = (await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages;
    const cr = (await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' })).body;
    const clusters = pages.find((p: { title: string }) => p.title === 'Advanced').pages[0];
    await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'update_page', page: clusters.id, document: { markdown: '# Clusters\n\nRewritten on the first instance.\n' } }],
    });
    expect((await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const [after, afterTwo] = await fetchBoth();
    expect(afterTwo.text).toContain('Rewritten on the first instance.');
    expect(afterTwo.etag).toBe(after.etag);
    expect(afterTwo.etag).not.toBe(one.etag);
  });
});
