import { describe, expect, it } from 'vitest';
import type { Caller } from './support/harness.ts';
import { buildMember, buildOrganization } from './factories.ts';
import { useHarness } from './support/harness.ts';

const h = useHarness();

/** SQL statements Prisma sends while `action` runs. */
async function countQueries(action: () => Promise<unknown>): Promise<{ count: number; result: any }> {
  const before = h.store.queries.length;
  const result = await action();
  return { count: h.store.queries.length - before, result };
}

async function orgWithMembers(n: number) {
  const org = await buildOrganization(h, `Org of ${n}`);
  const members: Caller[] = [];
  for (let i = 1; i < n; i++) members.push(await buildMember(h, org.organizationId, i % 2 ? 'read' : 'edit'));
  const team = await org.admin.rest('PUT', `/v1/orgs/${org.organizationId}/teams`, {
    title: 'Everyone',
    members: members.map((m) => m.userId),
  });
  return { ...org, teamId: team.body.id as string };
}

describe('SQL statements per request do not grow with the list (no N+1)', () => {
  it('members list: 5 and 50 members cost the same (REST and GraphQL)', async () => {
    const small = await orgWithMembers(5);
    const large = await orgWithMembers(50);
    const listRest = (o: typeof small) => o.admin.rest('GET', `/v1/orgs/${o.organizationId}/members?limit=100`);
    const s = await countQueries(() => listRest(small));
    const l = await countQueries(() => listRest(large));
    expect(s.result.body.items).toHaveLength(5);
    expect(l.result.body.items).toHaveLength(50);
    expect(l.result.body.items.every((m: any) => m.user.email && m.teams >= 0)).toBe(true);
    expect(l.count).toBe(s.count);

    const query = `query($id: String!) { organizationMembers(organizationId: $id, limit: 100) { items { id role teams spaces user { email displayName } } } }`;
    const gs = await countQueries(() => small.admin.gql(query, { id: small.organizationId }));
    const gl = await countQueries(() => large.admin.gql(query, { id: large.organizationId }));
    expect(gl.result.body.data.organizationMembers.items).toHaveLength(50);
    expect(gl.count).toBe(gs.count);
  });

  it('team members list: 5 and 50 members cost the same', async () => {
    const small = await orgWithMembers(5);
    const large = await orgWithMembers(50);
    const list = (o: typeof small) => o.admin.rest('GET', `/v1/orgs/${o.organizationId}/teams/${o.teamId}/members?limit=100`);
    const s = await countQueries(() => list(small));
    const l = await countQueries(() => list(large));
    expect(l.result.body.items).toHaveLength(49);
    expect(l.result.body.items[0].organization.user.email).toEqual(expect.any(String));
    expect(l.count).toBe(s.count);
  });

  it("a graph query over many organizations' members and teams does not run one query per organization", async () => {
    const admin = (await buildOrganization(h, 'Hub')).admin;
    const create = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const org = await admin.rest('POST', '/v1/orgs', { title: `Org ${i}` });
        await buildMember(h, org.body.id, 'read');
        await admin.rest('PUT', `/v1/orgs/${org.body.id}/teams`, { title: 'T' });
      }
    };
    const query = `{ organizations(limit: 20) { count items { id permissions { admin } members(limit: 10) { count items { role user { email } } } teams(limit: 10) { count items { title members } } } } }`;
    await create(2);
    const few = await countQueries(() => admin.gql(query));
    await create(8);
    const many = await countQueries(() => admin.gql(query));
    expect(few.result.body.errors).toBeUndefined();
    expect(many.result.body.data.organizations.count).toBe(11);
    expect(many.result.body.data.organizations.items.every((o: any) => o.members.count === 2 && o.teams.count >= 1 || o.members.count === 1)).toBe(true);
    expect(many.count).toBe(few.count);
  });
});
