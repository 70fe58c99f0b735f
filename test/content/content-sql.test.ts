import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/config.ts';
import { addMember, buildOrganization, buildUser } from '../factories.ts';
import { useHarness, type Caller } from '../support/harness.ts';

// Pages as large as 200 × 200 items: above the default GraphQL list-item limit, which is not under test here.
const h = useHarness({ limits: { ...DEFAULT_LIMITS, graphql: { ...DEFAULT_LIMITS.graphql, maxListItems: 100_000 } } });

/** SQL statements Prisma sends while `action` runs. */
async function countQueries<T>(action: () => Promise<T>): Promise<{ count: number; result: T }> {
  const before = h.store.queries.length;
  const result = await action();
  return { count: h.store.queries.length - before, result };
}

interface Content {
  organizationId: string;
  /** The collection holding all the spaces (itself inside a parent collection). */
  holder: string;
  spaces: string[];
  collections: string[];
}

/**
 * An organization with `n` spaces inside one nested collection and `n` collections in all, the
 * collection levels varied so that permissions come from inheritance.
 */
async function content(admin: Caller, n: number): Promise<Content> {
  const org = await admin.rest('POST', '/v1/orgs', { title: `Content ${n}` });
  const o = org.body.id as string;
  const post = async (path: string, body: unknown) => {
    const res = await admin.rest('POST', path, body);
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const parent = await post(`/v1/orgs/${o}/collections`, { title: 'Parent' });
  const holder = await post(`/v1/orgs/${o}/collections`, { title: 'Holder', parent });
  expect((await admin.rest('PATCH', `/v1/collections/${parent}`, { defaultLevel: 'comment' })).status).toBe(200);
  const collections = [parent, holder];
  for (let i = collections.length; i < n; i++) {
    collections.push(await post(`/v1/orgs/${o}/collections`, { title: `C${i}`, parent: i % 3 === 0 ? collections[i - 1] : undefined }));
  }
  const spaces: string[] = [];
  for (let i = 0; i < n; i++) {
    h.clock.advance(10);
    spaces.push(await post(`/v1/orgs/${o}/spaces`, { title: `S${i}`, parent: holder }));
  }
  // Some spaces with their own level, some granted to the reader directly.
  for (const id of spaces.slice(0, 3)) expect((await admin.rest('PATCH', `/v1/spaces/${id}`, { defaultLevel: 'edit' })).status).toBe(200);
  return { organizationId: o, holder, spaces, collections };
}

let admin: Caller;
let reader: Caller;
let small: Content;
let large: Content;

beforeAll(async () => {
  admin = (await buildOrganization(h, 'Content Owner')).admin;
  reader = await buildUser(h, 'Reader');
  small = await content(admin, 10);
  large = await content(admin, 100);
  for (const c of [small, large]) {
    await addMember(h, c.organizationId, reader, 'read');
    await h.db.spaceUserGrant.create({ data: { spaceId: c.spaces[5], organizationId: c.organizationId, userId: reader.userId, role: 'review' } });
  }
  // Warm up: anything done once per caller (not per item) happens before measuring.
  for (const c of [small, large]) await reader.rest('GET', `/v1/orgs/${c.organizationId}/spaces?limit=1`);
}, 120_000);

/** Runs the same request against the 10-item and the 100-item organization. */
async function compare<T>(request: (c: Content) => Promise<T>) {
  const s = await countQueries(() => request(small));
  const l = await countQueries(() => request(large));
  expect(s.count).toBeGreaterThan(0);
  return { small: s.result, large: l.result, smallCount: s.count, largeCount: l.count };
}

describe('SQL statements per list request do not grow with the number of spaces and collections', () => {
  it('REST GET /orgs/{o}/spaces: 10 and 100 spaces cost the same', async () => {
    const r = await compare((c) => reader.rest('GET', `/v1/orgs/${c.organizationId}/spaces?limit=200`));
    expect(r.small.body.count).toBe(10);
    expect(r.large.body.count).toBe(100);
    expect(r.large.body.items).toHaveLength(100);
    const perms = r.large.body.items.map((s: any) => s.permissions);
    // 3 spaces at 'edit', one granted 'review' (which includes edit).
    expect(perms.filter((p: any) => p.edit)).toHaveLength(4);
    expect(perms.filter((p: any) => p.review)).toHaveLength(1);
    expect(perms.filter((p: any) => p.comment)).toHaveLength(100);
    expect(r.large.body.items.every((s: any) => s.changeRequests === 0 && s.comments === 0)).toBe(true);
    expect(r.largeCount).toBe(r.smallCount);
  });

  it('REST GET /collections/{id}/spaces: 10 and 100 spaces cost the same', async () => {
    const r = await compare((c) => reader.rest('GET', `/v1/collections/${c.holder}/spaces?limit=200`));
    expect(r.small.body.items.map((s: any) => s.id)).toEqual(small.spaces);
    expect(r.large.body.items.map((s: any) => s.id)).toEqual(large.spaces);
    expect(r.large.body.items.every((s: any) => s.permissions.comment && s.parent === large.holder)).toBe(true);
    expect(r.largeCount).toBe(r.smallCount);
  });

  it('REST GET /orgs/{o}/collections: 10 and 100 collections cost the same', async () => {
    const r = await compare((c) => reader.rest('GET', `/v1/orgs/${c.organizationId}/collections?limit=200`));
    expect(r.small.body.count).toBe(10);
    expect(r.large.body.count).toBe(100);
    expect(r.large.body.items.map((c: any) => c.id).sort()).toEqual([...large.collections].sort());
    expect(r.large.body.items.every((c: any) => c.permissions.admin === false && c.permissions.create === false)).toBe(true);
    expect(r.largeCount).toBe(r.smallCount);
    const top = await compare((c) => reader.rest('GET', `/v1/orgs/${c.organizationId}/collections?limit=200&nested=false`));
    expect(top.large.body.count).toBeLessThan(100);
    expect(top.largeCount).toBe(top.smallCount);
  });

  it("REST GET /orgs/{o}/members/{u}/spaces: 10 and 100 spaces cost the same", async () => {
    const r = await compare((c) => admin.rest('GET', `/v1/orgs/${c.organizationId}/members/${reader.userId}/spaces?limit=200`));
    expect(r.large.body.count).toBe(100);
    const levels = r.large.body.items.map((i: any) => i.permission);
    expect(levels.filter((l: string) => l === 'edit')).toHaveLength(3);
    expect(levels.filter((l: string) => l === 'review')).toHaveLength(1);
    expect(levels.filter((l: string) => l === 'comment')).toHaveLength(96);
    expect(r.largeCount).toBe(r.smallCount);
  });

  it('GraphQL organizationSpaces and collectionSpaces with permissions and counts', async () => {
    const fields = 'id title parent permissions { access admin edit comment merge review } comments changeRequests changeRequestsOpen changeRequestsDraft';
    const q = `query($o:String!,$c:String!){
      organizationSpaces(organizationId:$o,limit:200){count items{${fields}}}
      collectionSpaces(collectionId:$c,limit:200){count items{${fields}}}
    }`;
    const r = await compare((c) => reader.gql(q, { o: c.organizationId, c: c.holder }));
    expect(r.large.body.errors).toBeUndefined();
    expect(r.large.body.data.organizationSpaces.items).toHaveLength(100);
    expect(r.large.body.data.collectionSpaces.items.map((s: any) => s.id)).toEqual(large.spaces);
    expect(r.large.body.data.collectionSpaces.items.filter((s: any) => s.permissions.edit)).toHaveLength(4);
    expect(r.small.body.data.organizationSpaces.count).toBe(10);
    expect(r.largeCount).toBe(r.smallCount);
  });

  it('GraphQL organizationCollections with permissions and each collection\'s spaces', async () => {
    const q = `query($o:String!){organizationCollections(organizationId:$o,limit:200){count items{
      id parent permissions { admin create }
      spaces(limit:200) { count items { id permissions { edit comment } changeRequests comments } }
    }}}`;
    const r = await compare((c) => reader.gql(q, { o: c.organizationId }));
    expect(r.large.body.errors).toBeUndefined();
    const items = r.large.body.data.organizationCollections.items;
    expect(items).toHaveLength(100);
    const holder = items.find((c: any) => c.id === large.holder);
    expect(holder.spaces.count).toBe(100);
    expect(holder.spaces.items.map((s: any) => s.id)).toEqual(large.spaces);
    expect(items.filter((c: any) => c.spaces.count > 0)).toHaveLength(1);
    expect(r.largeCount).toBe(r.smallCount);
  });

  it('GraphQL organizationMemberSpaces', async () => {
    const q = `query($o:String!,$u:String!){organizationMemberSpaces(organizationId:$o,userId:$u,limit:200){count items{permission space{id permissions{edit} comments}}}}`;
    const r = await compare((c) => admin.gql(q, { o: c.organizationId, u: reader.userId }));
    expect(r.large.body.errors).toBeUndefined();
    expect(r.large.body.data.organizationMemberSpaces.count).toBe(100);
    expect(r.large.body.data.organizationMemberSpaces.items.every((i: any) => i.space.permissions.edit === true)).toBe(true);
    expect(r.largeCount).toBe(r.smallCount);
  });
});
