// Concurrent writes through two app instances on one PostgreSQL database (as behind a load balancer).
// Rule under test: every concurrent write either succeeds or answers 409 with the error body — never a
// 5xx — and the final state is consistent. PGlite serialises everything in one process, so these tests
// always run on PostgreSQL: TEST_DATABASE_URL, else the local server.
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { restError } from './support/assertions.ts';
import { callerFor, newMember, newOrganization, useTwoInstances, type Caller, type HttpResult } from './support/harness.ts';
import { POSTGRES_SERVER_URL } from './support/server-process.ts';

const h = useTwoInstances(POSTGRES_SERVER_URL);

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
  it('50 concurrent PATCH /spaces/{id}/custom-fields of one field: 204 or 409, one value row in the end', async () => {
    const { admin, organizationId: o } = await newOrganization(h, 'Fields');
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
    const { admin, organizationId: o } = await newOrganization(h, 'Fields2');
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
  it('20 concurrent PUT /teams/{t}/members/{u} with {} for one user: 204 or 409, a member once', async () => {
    const { admin, organizationId: o } = await newOrganization(h, 'Teams');
    const member = await newMember(h, o);
    const team = await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'Writers' });
    expect(team.status).toBe(201);
    const path = `/v1/orgs/${o}/teams/${team.body.id}/members/${member.userId}`;
    const results = await Promise.all(range(20).map((i) => on(i, admin).rest('PUT', path, {})));
    // Adding someone who is already there is not a conflict: every request succeeds.
    expect(expectOkOrConflict(results, [204])).toEqual(results.map(() => 204));
    expect(await h.db.teamMember.findMany({ where: { teamId: team.body.id } })).toMatchObject([{ userId: member.userId, role: 'member' }]);
  });

  it('single adds racing bulk adds (PUT /teams/{t}/members): 204 or 409, each member once', async () => {
    const { admin, organizationId: o } = await newOrganization(h, 'Teams2');
    const members = await Promise.all(range(4).map(() => newMember(h, o)));
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
    const { admin, organizationId: o } = await newOrganization(h, 'Teams3');
    const team = await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'Leavers' });
    const teamPath = `/v1/orgs/${o}/teams/${team.body.id}/members`;
    const leavers = await Promise.all(range(6).map(() => newMember(h, o)));
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
