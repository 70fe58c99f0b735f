import { describe, expect, it } from 'vitest';
import { gqlData, gqlError, masked, restError } from './support/assertions.ts';
import { validateGitBookResponse } from './support/gitbook-openapi.ts';
import { anonymous, newMember, newOrganization, useHarness, type Caller, type HttpResult } from './support/harness.ts';

const h = useHarness();

/** Properties GitBook requires that the API description does not name (so we do not serve them). */
const IGNORE = ['mergeRules', 'view', 'viewInviteLinks', 'triggerGitSync', 'installIntegration'];
const COLLECTION = 'object id title description organization parent defaultLevel urls { location app } permissions { admin create }';
const UNKNOWN_ORG = 'unknownOrg0000000001';
const UNKNOWN_COLLECTION = 'unknownColl000000001';

function ok(operationId: string, res: HttpResult, status = 200) {
  expect(res.status, res.text).toBe(status);
  expect(validateGitBookResponse(operationId, res.status, res.body, { ignoreMissing: IGNORE })).toEqual([]);
  if (status === 204) expect(res.text).toBe('');
  return res.body;
}

const collectionsPath = (o: string) => `/v1/orgs/${o}/collections`;
const collectionPath = (c: string) => `/v1/collections/${c}`;

async function createCollection(c: Caller, o: string, body: Record<string, unknown> = {}) {
  return ok('createCollection', await c.rest('POST', collectionsPath(o), body), 201);
}
async function createSpace(c: Caller, o: string, body: Record<string, unknown> = {}) {
  return ok('createSpace', await c.rest('POST', `/v1/orgs/${o}/spaces`, body), 201);
}
const ids = (list: { items: { id: string }[] }) => list.items.map((i) => i.id);

/** An organization with an admin, a 'read' and a 'create' member, one collection holding one space. */
async function setup() {
  const { admin, organizationId: o } = await newOrganization(h);
  const reader = await newMember(h, o, 'read', 'Reader');
  const creator = await newMember(h, o, 'create', 'Creator');
  const collection = await createCollection(admin, o, { title: 'Guides' });
  const space = await createSpace(admin, o, { title: 'Inside', parent: collection.id });
  return { admin, o, reader, creator, collection, space };
}

interface Op {
  name: string;
  rest: (o: string, c: string, target: string) => [string, string, unknown?];
  gql: (o: string, c: string, target: string) => [string, Record<string, unknown>];
  /** The role refused with 403: 'read' for operations needing create, 'create' for operations needing admin. */
  refuse?: 'read' | 'create';
}

const OPS: Op[] = [
  {
    name: 'list collections',
    rest: (o) => ['GET', collectionsPath(o)],
    gql: (o) => ['query($o:String!){organizationCollections(organizationId:$o){count}}', { o }],
  },
  {
    name: 'create collection', refuse: 'read',
    rest: (o) => ['POST', collectionsPath(o), { title: 'New' }],
    gql: (o) => ['mutation($o:String!){createCollection(organizationId:$o,title:"New"){id}}', { o }],
  },
  {
    name: 'get collection',
    rest: (_o, c) => ['GET', collectionPath(c)],
    gql: (_o, c) => ['query($c:String!){collection(collectionId:$c){id}}', { c }],
  },
  {
    name: 'update collection', refuse: 'create',
    rest: (_o, c) => ['PATCH', collectionPath(c), { title: 'Renamed' }],
    gql: (_o, c) => ['mutation($c:String!){updateCollection(collectionId:$c,title:"Renamed"){id}}', { c }],
  },
  {
    name: 'delete collection', refuse: 'create',
    rest: (_o, c) => ['DELETE', collectionPath(c)],
    gql: (_o, c) => ['mutation($c:String!){deleteCollection(collectionId:$c)}', { c }],
  },
  {
    name: 'list collection spaces',
    rest: (_o, c) => ['GET', `${collectionPath(c)}/spaces`],
    gql: (_o, c) => ['query($c:String!){collectionSpaces(collectionId:$c){count}}', { c }],
  },
  {
    name: 'move collection', refuse: 'create',
    rest: (_o, c) => ['POST', `${collectionPath(c)}/move`, { parent: null }],
    gql: (_o, c) => ['mutation($c:String!){moveCollection(collectionId:$c,parent:null){id}}', { c }],
  },
  {
    name: 'transfer collection', refuse: 'create',
    rest: (_o, c, t) => ['POST', `${collectionPath(c)}/transfer`, { organization: t }],
    gql: (_o, c, t) => ['mutation($c:String!,$t:String!){transferCollection(collectionId:$c,organization:$t){id}}', { c, t }],
  },
];

const restCall = (c: Caller, op: Op, o: string, col: string, t: string) => c.rest(...op.rest(o, col, t));
const gqlCall = (c: Caller, op: Op, o: string, col: string, t: string) => c.gql(...op.gql(o, col, t));

async function unchanged(o: string, collectionId: string) {
  expect(await h.db.collection.findUnique({ where: { id: collectionId } })).toMatchObject({ organizationId: o, title: 'Guides', deletedAt: null, parentId: null });
  expect(await h.db.collection.count({ where: { organizationId: o } })).toBe(1);
}

describe.each(OPS)('$name: refusals', (op) => {
  it('401 without a token (REST and GraphQL)', async () => {
    const { o, collection } = await setup();
    const [method, path, body] = op.rest(o, collection.id, o);
    restError(await anonymous(h).rest(method, path, body), 401);
    const [query, variables] = op.gql(o, collection.id, o);
    const res = await anonymous(h).rest('POST', '/graphql', { query, variables });
    expect(res.status).toBe(401);
    gqlError(res, 'UNAUTHENTICATED');
    await unchanged(o, collection.id);
  });

  it("another organization's caller gets the same 404 as for unknown IDs, and changes nothing", async () => {
    const { o, collection } = await setup();
    const { admin: outsider, organizationId: theirs } = await newOrganization(h, 'Other');
    for (const call of [restCall, gqlCall]) {
      const refused = await call(outsider, op, o, collection.id, theirs);
      expect(refused.status === 404 || refused.body?.errors?.[0]?.extensions?.code === 'NOT_FOUND', refused.text).toBe(true);
      const unknown = await call(outsider, op, UNKNOWN_ORG, UNKNOWN_COLLECTION, theirs);
      expect(masked(refused, [o, collection.id])).toEqual(masked(unknown, [UNKNOWN_ORG, UNKNOWN_COLLECTION]));
    }
    await unchanged(o, collection.id);
    expect(await h.db.collection.count({ where: { organizationId: theirs } })).toBe(0);
  });

  if (op.refuse) {
    it(`403 for a '${op.refuse}' member (REST and GraphQL), nothing changes`, async () => {
      const { o, reader, creator, collection } = await setup();
      const { organizationId: target } = await newOrganization(h, 'Target');
      const caller = op.refuse === 'read' ? reader : creator;
      // Even as an admin of the target organization, the caller does not have the level needed here.
      await h.db.member.create({ data: { organizationId: target, userId: caller.userId, role: 'admin' } });
      restError(await restCall(caller, op, o, collection.id, target), 403);
      gqlError(await gqlCall(caller, op, o, collection.id, target), 'FORBIDDEN');
      await unchanged(o, collection.id);
      expect(await h.db.collection.count({ where: { organizationId: target } })).toBe(0);
    });
  }
});

describe('POST /orgs/{o}/collections (createCollection)', () => {
  it('REST: creates a top-level collection with every documented field, 201 + Location', async () => {
    const { admin, organizationId: o } = await newOrganization(h);
    const res = await admin.rest('POST', collectionsPath(o), { title: 'Handbook' });
    const body = ok('createCollection', res, 201);
    expect(body).toEqual({
      object: 'collection',
      id: expect.any(String),
      title: 'Handbook',
      organization: o,
      defaultLevel: 'read',
      urls: { location: `${h.config.apiUrl}/collections/${body.id}`, app: `${h.config.appUrl}/o/${o}/c/${body.id}/` },
      permissions: { admin: true, create: true },
    });
    expect(res.headers.get('location')).toBe(body.urls.location);
    // The title is optional; a collection always has one.
    const untitled = await createCollection(admin, o);
    expect(untitled.title).toEqual(expect.any(String));
    expect(untitled.title.length).toBeGreaterThan(0);
    expect(untitled.title.length).toBeLessThanOrEqual(50);
    expect(await h.db.collection.count({ where: { organizationId: o } })).toBe(2);
  });

  it('REST: creates inside a parent collection; the parent must be a live collection of the organization', async () => {
    const { admin, organizationId: o } = await newOrganization(h);
    const parent = await createCollection(admin, o, { title: 'Parent' });
    const child = await createCollection(admin, o, { title: 'Child', parent: parent.id });
    expect(child).toMatchObject({ parent: parent.id, organization: o, title: 'Child' });
    expect((await admin.rest('GET', collectionPath(child.id))).body.parent).toBe(parent.id);
    restError(await admin.rest('POST', collectionsPath(o), { parent: UNKNOWN_COLLECTION }), 400, 'parent');
    const other = await newOrganization(h, 'Other');
    const foreign = await createCollection(other.admin, other.organizationId);
    restError(await admin.rest('POST', collectionsPath(o), { parent: foreign.id }), 400, 'parent');
    expect(await h.db.collection.count({ where: { organizationId: o } })).toBe(2);
  });

  it('title: 50 characters are fine, 51 are a 400 naming it (REST and GraphQL)', async () => {
    const { admin, organizationId: o } = await newOrganization(h);
    expect((await createCollection(admin, o, { title: 'x'.repeat(50) })).title).toBe('x'.repeat(50));
    restError(await admin.rest('POST', collectionsPath(o), { title: 'x'.repeat(51) }), 400, 'title');
    restError(await admin.rest('POST', collectionsPath(o), { title: 12 }), 400, 'title');
    const q = 'mutation($o:String!,$t:String){createCollection(organizationId:$o,title:$t){title}}';
    expect(gqlData(await admin.gql(q, { o, t: 'y'.repeat(50) }), 'createCollection')).toEqual({ title: 'y'.repeat(50) });
    gqlError(await admin.gql(q, { o, t: 'y'.repeat(51) }), 'BAD_REQUEST', 'title');
    expect(await h.db.collection.count({ where: { organizationId: o } })).toBe(2);
  });

  it('GraphQL: creates with the same fields', async () => {
    const { admin, organizationId: o } = await newOrganization(h);
    const parent = await createCollection(admin, o, { title: 'Top' });
    const res = await admin.gql(`mutation($o:String!,$p:String){createCollection(organizationId:$o,title:"Graph",parent:$p){${COLLECTION}}}`, { o, p: parent.id });
    const data = gqlData(res, 'createCollection');
    expect(data).toEqual({
      object: 'collection',
      id: expect.any(String),
      title: 'Graph',
      description: null,
      organization: o,
      parent: parent.id,
      defaultLevel: 'read',
      urls: { location: `${h.config.apiUrl}/collections/${data.id}`, app: `${h.config.appUrl}/o/${o}/c/${data.id}/` },
      permissions: { admin: true, create: true },
    });
  });

  it("needs the organization's create role, or create level on the parent collection", async () => {
    const { admin, organizationId: o } = await newOrganization(h);
    const reader = await newMember(h, o, 'read');
    const creator = await newMember(h, o, 'create');
    const open = await createCollection(admin, o, { title: 'Open' });
    const closed = await createCollection(admin, o, { title: 'Closed' });
    await admin.rest('PATCH', collectionPath(open.id), { defaultLevel: 'create' });
    // A 'read' member: refused at the top level and in a plain collection, allowed where the collection grants create.
    restError(await reader.rest('POST', collectionsPath(o), { title: 'Top' }), 403);
    restError(await reader.rest('POST', collectionsPath(o), { title: 'In closed', parent: closed.id }), 403);
    const inOpen = await createCollection(reader, o, { title: 'In open', parent: open.id });
    expect(inOpen).toMatchObject({ parent: open.id, permissions: { create: true, admin: false } });
    // A 'create' member creates at the top level.
    const top = await createCollection(creator, o, { title: 'By creator' });
    expect(top.permissions).toEqual({ admin: false, create: true });
    expect((await admin.rest('GET', `${collectionsPath(o)}`)).body.count).toBe(4);
  });
});

describe('GET /orgs/{o}/collections (listCollectionsInOrganizationById)', () => {
  async function tree() {
    const { admin, organizationId: o } = await newOrganization(h);
    const a = await createCollection(admin, o, { title: 'A' });
    const b = await createCollection(admin, o, { title: 'B' });
    const a1 = await createCollection(admin, o, { title: 'A1', parent: a.id });
    const a1x = await createCollection(admin, o, { title: 'A1x', parent: a1.id });
    return { admin, o, a, b, a1, a1x };
  }

  it('REST: lists nested collections by default, only top-level ones with nested=false', async () => {
    const { admin, o, a, b, a1, a1x } = await tree();
    const reader = await newMember(h, o, 'read');
    const all = ok('listCollectionsInOrganizationById', await reader.rest('GET', collectionsPath(o)));
    expect(all.count).toBe(4);
    expect(ids(all).sort()).toEqual([a.id, b.id, a1.id, a1x.id].sort());
    expect(all.items.find((c: any) => c.id === a1x.id)).toMatchObject({ parent: a1.id, title: 'A1x', permissions: { admin: false, create: false } });
    expect(ok('listCollectionsInOrganizationById', await reader.rest('GET', `${collectionsPath(o)}?nested=true`)).count).toBe(4);
    const top = ok('listCollectionsInOrganizationById', await reader.rest('GET', `${collectionsPath(o)}?nested=false`));
    expect(top.count).toBe(2);
    expect(ids(top)).toEqual([a.id, b.id]);
    expect(top.items.every((c: any) => c.parent === undefined)).toBe(true);
    restError(await admin.rest('GET', `${collectionsPath(o)}?nested=maybe`), 400, 'nested');
  });

  it('REST: pages through with limit and next; limit 1000 is fine and 1001 a 400', async () => {
    const { admin, o, a, b } = await tree();
    const first = ok('listCollectionsInOrganizationById', await admin.rest('GET', `${collectionsPath(o)}?nested=false&limit=1`));
    expect(ids(first)).toEqual([a.id]);
    expect(first.count).toBe(2);
    const second = await admin.rest('GET', `${collectionsPath(o)}?nested=false&limit=1&page=${encodeURIComponent(first.next.page)}`);
    expect(ids(second.body)).toEqual([b.id]);
    expect(second.body.next).toBeUndefined();
    expect(ok('listCollectionsInOrganizationById', await admin.rest('GET', `${collectionsPath(o)}?limit=1000`)).count).toBe(4);
    restError(await admin.rest('GET', `${collectionsPath(o)}?limit=1001`), 400, 'limit');
    restError(await admin.rest('GET', `${collectionsPath(o)}?limit=0`), 400, 'limit');
  });

  it('GraphQL: the same list, nested and not', async () => {
    const { admin, o, a, b } = await tree();
    const q = `query($o:String!,$n:Boolean){organizationCollections(organizationId:$o,nested:$n){count items{${COLLECTION}}}}`;
    const all = gqlData(await admin.gql(q, { o }), 'organizationCollections');
    expect(all.count).toBe(4);
    const top = gqlData(await admin.gql(q, { o, n: false }), 'organizationCollections');
    expect(top.items.map((c: any) => c.id)).toEqual([a.id, b.id]);
    expect(top.items[0]).toMatchObject({ object: 'collection', title: 'A', parent: null, organization: o, defaultLevel: 'read' });
    gqlError(await admin.gql(`query($o:String!){organizationCollections(organizationId:$o,limit:1001){count}}`, { o }), 'BAD_REQUEST', 'limit');
  });

  it('deleted collections leave the list and its count', async () => {
    const { admin, o, a, a1, b } = await tree();
    expect((await admin.rest('DELETE', collectionPath(a.id))).status).toBe(204);
    const list = ok('listCollectionsInOrganizationById', await admin.rest('GET', collectionsPath(o)));
    expect(list.count).toBe(1);
    expect(ids(list)).toEqual([b.id]);
    expect(ids(gqlData(await admin.gql(`query($o:String!){organizationCollections(organizationId:$o){count items{id}}}`, { o }), 'organizationCollections'))).toEqual([b.id]);
    restError(await admin.rest('GET', collectionPath(a1.id)), 404);
  });
});

describe('GET /collections/{id} (getCollectionById)', () => {
  it('REST and GraphQL: every documented field, permissions by the caller\'s level', async () => {
    const { admin, o, reader, creator, collection } = await setup();
    await admin.rest('PATCH', collectionPath(collection.id), { description: 'All the guides' });
    const got = ok('getCollectionById', await admin.rest('GET', collectionPath(collection.id)));
    expect(got).toEqual({
      object: 'collection',
      id: collection.id,
      title: 'Guides',
      description: 'All the guides',
      organization: o,
      defaultLevel: 'read',
      urls: { location: `${h.config.apiUrl}/collections/${collection.id}`, app: `${h.config.appUrl}/o/${o}/c/${collection.id}/` },
      permissions: { admin: true, create: true },
    });
    expect(ok('getCollectionById', await reader.rest('GET', collectionPath(collection.id))).permissions).toEqual({ admin: false, create: false });
    expect(ok('getCollectionById', await creator.rest('GET', collectionPath(collection.id))).permissions).toEqual({ admin: false, create: true });
    const gql = gqlData(await reader.gql(`query($c:String!){collection(collectionId:$c){${COLLECTION}}}`, { c: collection.id }), 'collection');
    expect(gql).toEqual({ ...got, parent: null, permissions: { admin: false, create: false } });
  });

  it('a guest (no role) cannot see collections: the same 404 as an unknown one', async () => {
    const { o, collection } = await setup();
    const guest = await newMember(h, o, null);
    const hidden = await guest.rest('GET', collectionPath(collection.id));
    restError(hidden, 404);
    expect(masked(hidden, [collection.id])).toEqual(masked(await guest.rest('GET', collectionPath(UNKNOWN_COLLECTION)), [UNKNOWN_COLLECTION]));
    expect((await guest.rest('GET', collectionsPath(o))).body.count).toBe(0);
  });
});

describe('PATCH /collections/{id} (updateCollectionById)', () => {
  it('REST: updates title, description and defaultLevel; omitted fields stay', async () => {
    const { admin, collection } = await setup();
    const res = ok('updateCollectionById', await admin.rest('PATCH', collectionPath(collection.id), { title: 'Manuals', description: 'How to', defaultLevel: 'comment' }));
    expect(res).toMatchObject({ id: collection.id, title: 'Manuals', description: 'How to', defaultLevel: 'comment' });
    const again = ok('updateCollectionById', await admin.rest('PATCH', collectionPath(collection.id), { description: 'Updated' }));
    expect(again).toMatchObject({ title: 'Manuals', description: 'Updated', defaultLevel: 'comment' });
    expect(await h.db.collection.findUnique({ where: { id: collection.id } })).toMatchObject({ title: 'Manuals', description: 'Updated', defaultLevel: 'comment' });
  });

  it('limits: title 50/51, description 100/101, defaultLevel must be a role — 400 naming the field', async () => {
    const { admin, collection } = await setup();
    const patch = (body: unknown) => admin.rest('PATCH', collectionPath(collection.id), body);
    expect(ok('updateCollectionById', await patch({ title: 't'.repeat(50) })).title).toBe('t'.repeat(50));
    expect(ok('updateCollectionById', await patch({ description: 'd'.repeat(100) })).description).toBe('d'.repeat(100));
    restError(await patch({ title: 't'.repeat(51) }), 400, 'title');
    restError(await patch({ description: 'd'.repeat(101) }), 400, 'description');
    restError(await patch({ defaultLevel: 'owner' }), 400, 'defaultLevel');
    restError(await patch({ defaultLevel: null }), 400, 'defaultLevel');
    restError(await patch({ title: null }), 400, 'title');
    const row = await h.db.collection.findUnique({ where: { id: collection.id } });
    expect(row).toMatchObject({ title: 't'.repeat(50), description: 'd'.repeat(100), defaultLevel: 'read' });
    const q = 'mutation($c:String!,$d:String){updateCollection(collectionId:$c,description:$d){description}}';
    gqlError(await admin.gql(q, { c: collection.id, d: 'd'.repeat(101) }), 'BAD_REQUEST', 'description');
    gqlError(await admin.gql(`mutation($c:String!){updateCollection(collectionId:$c,defaultLevel:owner){id}}`, { c: collection.id }), 'BAD_REQUEST');
  });

  it('GraphQL: updates and returns the collection', async () => {
    const { admin, collection } = await setup();
    const res = await admin.gql(`mutation($c:String!){updateCollection(collectionId:$c,title:"G",description:"D",defaultLevel:edit){${COLLECTION}}}`, { c: collection.id });
    expect(gqlData(res, 'updateCollection')).toMatchObject({ id: collection.id, title: 'G', description: 'D', defaultLevel: 'edit' });
  });

  it("defaultLevel is inherited: a collection at 'edit' lets a 'read' member edit its spaces", async () => {
    const { admin, reader, collection, space } = await setup();
    expect((await reader.rest('GET', `/v1/spaces/${space.id}`)).body.permissions.edit).toBe(false);
    restError(await reader.rest('PATCH', `/v1/spaces/${space.id}`, { title: 'Nope' }), 403);
    ok('updateCollectionById', await admin.rest('PATCH', collectionPath(collection.id), { defaultLevel: 'edit' }));
    expect((await reader.rest('GET', `/v1/spaces/${space.id}`)).body.permissions).toEqual({
      access: true, admin: false, edit: true, comment: true, merge: false, review: false,
    });
    expect((await reader.rest('PATCH', `/v1/spaces/${space.id}`, { title: 'Yes' })).body.title).toBe('Yes');
    // Still not an admin: access settings stay refused.
    restError(await reader.rest('PATCH', `/v1/spaces/${space.id}`, { defaultLevel: 'edit' }), 403);
  });
});

describe('DELETE /collections/{id} (deleteCollectionById)', () => {
  it('REST: deletes the collection with its nested collections and spaces', async () => {
    const { admin, o, reader, collection, space } = await setup();
    const nested = await createCollection(admin, o, { title: 'Nested', parent: collection.id });
    const deep = await createSpace(admin, o, { title: 'Deep', parent: nested.id });
    const outside = await createSpace(admin, o, { title: 'Outside' });
    const sibling = await createCollection(admin, o, { title: 'Sibling' });
    expect((await admin.rest('GET', `/v1/orgs/${o}/spaces`)).body.count).toBe(3);
    ok('deleteCollectionById', await admin.rest('DELETE', collectionPath(collection.id)), 204);
    for (const id of [collection.id, nested.id]) restError(await admin.rest('GET', collectionPath(id)), 404);
    restError(await admin.rest('GET', `${collectionPath(collection.id)}/spaces`), 404);
    const collections = await admin.rest('GET', collectionsPath(o));
    expect(ids(collections.body)).toEqual([sibling.id]);
    const spaces = await admin.rest('GET', `/v1/orgs/${o}/spaces`);
    expect(spaces.body.count).toBe(1);
    expect(ids(spaces.body)).toEqual([outside.id]);
    // The spaces are deleted like a deleted space: gone for members, still there with deletedAt for admins.
    for (const s of [space, deep]) {
      restError(await reader.rest('GET', `/v1/spaces/${s.id}`), 404);
      expect((await admin.rest('GET', `/v1/spaces/${s.id}`)).body.deletedAt).toBe(h.clock.now().toISOString());
    }
    expect((await admin.rest('GET', `/v1/spaces/${outside.id}`)).body.deletedAt).toBeUndefined();
  });

  it('GraphQL: deleteCollection returns true', async () => {
    const { admin, collection } = await setup();
    expect(gqlData(await admin.gql(`mutation($c:String!){deleteCollection(collectionId:$c)}`, { c: collection.id }), 'deleteCollection')).toBe(true);
    gqlError(await admin.gql(`query($c:String!){collection(collectionId:$c){id}}`, { c: collection.id }), 'NOT_FOUND');
  });
});

describe('GET /collections/{id}/spaces (listSpacesInCollectionById)', () => {
  it('REST: the spaces directly inside, in order, with count and paging', async () => {
    const { admin, o, reader, collection, space } = await setup();
    const second = await createSpace(admin, o, { title: 'Second', parent: collection.id });
    const nested = await createCollection(admin, o, { parent: collection.id });
    await createSpace(admin, o, { title: 'Deeper', parent: nested.id });
    await createSpace(admin, o, { title: 'Top level' });
    const list = ok('listSpacesInCollectionById', await reader.rest('GET', `${collectionPath(collection.id)}/spaces`));
    expect(list.count).toBe(2);
    expect(ids(list)).toEqual([space.id, second.id]);
    expect(list.items[0]).toMatchObject({ object: 'space', title: 'Inside', parent: collection.id, organization: o, permissions: { access: true, edit: false } });
    const page = ok('listSpacesInCollectionById', await reader.rest('GET', `${collectionPath(collection.id)}/spaces?limit=1`));
    expect(ids(page)).toEqual([space.id]);
    const rest = ok('listSpacesInCollectionById', await reader.rest('GET', `${collectionPath(collection.id)}/spaces?limit=1&page=${encodeURIComponent(page.next.page)}`));
    expect(ids(rest)).toEqual([second.id]);
    expect(rest.next).toBeUndefined();
    expect(ok('listSpacesInCollectionById', await reader.rest('GET', `${collectionPath(collection.id)}/spaces?limit=1000`)).count).toBe(2);
    restError(await reader.rest('GET', `${collectionPath(collection.id)}/spaces?limit=1001`), 400, 'limit');
  });

  it('GraphQL: collectionSpaces and Collection.spaces agree', async () => {
    const { admin, o, collection, space } = await setup();
    const second = await createSpace(admin, o, { title: 'Second', parent: collection.id });
    const res = await admin.gql(`query($c:String!){collectionSpaces(collectionId:$c){count items{id title parent}} collection(collectionId:$c){spaces{count items{id}}}}`, { c: collection.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.collectionSpaces).toEqual({
      count: 2,
      items: [
        { id: space.id, title: 'Inside', parent: collection.id },
        { id: second.id, title: 'Second', parent: collection.id },
      ],
    });
    expect(res.body.data.collection.spaces).toEqual({ count: 2, items: [{ id: space.id }, { id: second.id }] });
    gqlError(await admin.gql(`query($c:String!){collectionSpaces(collectionId:$c,limit:1001){count}}`, { c: collection.id }), 'BAD_REQUEST', 'limit');
  });

  it('deleted spaces leave the list and its count', async () => {
    const { admin, o, collection, space } = await setup();
    const second = await createSpace(admin, o, { title: 'Second', parent: collection.id });
    expect((await admin.rest('DELETE', `/v1/spaces/${space.id}`)).status).toBe(204);
    const list = ok('listSpacesInCollectionById', await admin.rest('GET', `${collectionPath(collection.id)}/spaces`));
    expect(list.count).toBe(1);
    expect(ids(list)).toEqual([second.id]);
  });
});

describe('POST /collections/{id}/move (moveCollection)', () => {
  it('REST: moves under another collection and back to the top level', async () => {
    const { admin, o, collection } = await setup();
    const target = await createCollection(admin, o, { title: 'Target' });
    const moved = ok('moveCollection', await admin.rest('POST', `${collectionPath(collection.id)}/move`, { parent: target.id }));
    expect(moved).toMatchObject({ id: collection.id, parent: target.id });
    expect(ids(ok('listCollectionsInOrganizationById', await admin.rest('GET', `${collectionsPath(o)}?nested=false`)))).toEqual([target.id]);
    const back = ok('moveCollection', await admin.rest('POST', `${collectionPath(collection.id)}/move`, { parent: null }));
    expect(back.parent).toBeUndefined();
    expect(ids(ok('listCollectionsInOrganizationById', await admin.rest('GET', `${collectionsPath(o)}?nested=false`)))).toEqual([target.id, collection.id]);
  });

  it('refuses a move into itself or one of its descendants (400), and an unknown or foreign parent', async () => {
    const { admin, o, collection } = await setup();
    const child = await createCollection(admin, o, { parent: collection.id });
    const grandchild = await createCollection(admin, o, { parent: child.id });
    for (const parent of [collection.id, child.id, grandchild.id]) {
      restError(await admin.rest('POST', `${collectionPath(collection.id)}/move`, { parent }), 400, 'parent');
    }
    gqlError(await admin.gql(`mutation($c:String!,$p:String){moveCollection(collectionId:$c,parent:$p){id}}`, { c: collection.id, p: grandchild.id }), 'BAD_REQUEST', 'parent');
    restError(await admin.rest('POST', `${collectionPath(collection.id)}/move`, { parent: UNKNOWN_COLLECTION }), 400, 'parent');
    const other = await newOrganization(h, 'Other');
    const foreign = await createCollection(other.admin, other.organizationId);
    restError(await admin.rest('POST', `${collectionPath(collection.id)}/move`, { parent: foreign.id }), 400, 'parent');
    // Nothing moved.
    expect((await h.db.collection.findUnique({ where: { id: collection.id } }))!.parentId).toBeNull();
    expect((await h.db.collection.findUnique({ where: { id: grandchild.id } }))!.parentId).toBe(child.id);
  });

  it('refuses a position naming an item that is not in the target parent (400 naming position)', async () => {
    const { admin, o, collection, space } = await setup();
    const other = await createCollection(admin, o, { title: 'Other' });
    const res = await admin.rest('POST', `${collectionPath(other.id)}/move`, { parent: null, position: { before: { type: 'space', space: space.id } } });
    restError(res, 400, 'position');
    restError(await admin.rest('POST', `${collectionPath(other.id)}/move`, { parent: null, position: { after: { type: 'space', space: 'unknownSpace00000001' } } }), 400, 'position');
    restError(await admin.rest('POST', `${collectionPath(other.id)}/move`, { position: { after: { type: 'planet' } } }), 400, 'position');
    expect(ids(ok('listCollectionsInOrganizationById', await admin.rest('GET', `${collectionsPath(o)}?nested=false`)))).toEqual([collection.id, other.id]);
  });

  it('orders collections among mixed siblings: before/after a space, after a collection, default end (REST and GraphQL)', async () => {
    const { admin, organizationId: o } = await newOrganization(h);
    const parent = await createCollection(admin, o, { title: 'Parent' });
    const a = await createCollection(admin, o, { title: 'A', parent: parent.id });
    const s1 = await createSpace(admin, o, { title: 'S1', parent: parent.id });
    const b = await createCollection(admin, o, { title: 'B', parent: parent.id });
    const c = await createCollection(admin, o, { title: 'C', parent: parent.id });
    const s2 = await createSpace(admin, o, { title: 'S2', parent: parent.id });
    // Siblings of parent: A, S1, B, C, S2.
    const childOrder = async () =>
      ids(ok('listCollectionsInOrganizationById', await admin.rest('GET', collectionsPath(o)))).filter((id: string) => id !== parent.id);
    const spaceOrder = async () => ids(ok('listSpacesInCollectionById', await admin.rest('GET', `${collectionPath(parent.id)}/spaces`)));
    expect(await childOrder()).toEqual([a.id, b.id, c.id]);
    // A after S2 (the last space) → S1, B, C, S2, A.
    ok('moveCollection', await admin.rest('POST', `${collectionPath(a.id)}/move`, { parent: parent.id, position: { after: { type: 'space', space: s2.id } } }));
    expect(await childOrder()).toEqual([b.id, c.id, a.id]);
    // C before S1 → C, S1, B, S2, A.
    ok('moveCollection', await admin.rest('POST', `${collectionPath(c.id)}/move`, { parent: parent.id, position: { before: { type: 'space', space: s1.id } } }));
    expect(await childOrder()).toEqual([c.id, b.id, a.id]);
    // S2 after collection C → C, S2, S1, B, A.
    const moved = await admin.rest('POST', `/v1/spaces/${s2.id}/move`, { parent: parent.id, position: { after: { type: 'collection', collection: c.id } } });
    expect(moved.status, moved.text).toBe(200);
    expect(await spaceOrder()).toEqual([s2.id, s1.id]);
    // B after collection C via GraphQL → C, B, S2, S1, A.
    const g = await admin.gql(`mutation($c:String!,$p:String,$pos:ContentPositionInput){moveCollection(collectionId:$c,parent:$p,position:$pos){id parent}}`, {
      c: b.id, p: parent.id, pos: { after: { type: 'collection', collection: c.id } },
    });
    expect(gqlData(g, 'moveCollection')).toEqual({ id: b.id, parent: parent.id });
    expect(await childOrder()).toEqual([c.id, b.id, a.id]);
    // S1 before B → C, S1, B, S2, A; then C with no position goes to the end → S1, B, S2, A, C.
    expect((await admin.rest('POST', `/v1/spaces/${s1.id}/move`, { parent: parent.id, position: { before: { type: 'collection', collection: b.id } } })).status).toBe(200);
    expect(await spaceOrder()).toEqual([s1.id, s2.id]);
    ok('moveCollection', await admin.rest('POST', `${collectionPath(c.id)}/move`, { parent: parent.id }));
    expect(await childOrder()).toEqual([b.id, a.id, c.id]);
    const graph = gqlData(await admin.gql(`query($o:String!){organizationCollections(organizationId:$o){items{id}}}`, { o }), 'organizationCollections');
    expect(graph.items.map((i: any) => i.id).filter((id: string) => id !== parent.id)).toEqual([b.id, a.id, c.id]);
  });
});

describe('POST /collections/{id}/transfer (transferCollection)', () => {
  async function populated() {
    const { admin, o, reader, collection, space } = await setup();
    const nested = await createCollection(admin, o, { title: 'Nested', parent: collection.id });
    const deep = await createSpace(admin, o, { title: 'Deep', parent: nested.id });
    const stays = await createSpace(admin, o, { title: 'Stays' });
    const created = await admin.rest('POST', '/v1/orgs', { title: 'Target Org' });
    expect(created.status).toBe(201);
    return { admin, o, reader, collection, space, nested, deep, stays, target: created.body.id as string };
  }

  it('REST: moves the collection with everything inside; IDs stay, lists and counts update on both sides', async () => {
    const { admin, o, collection, space, nested, deep, stays, target } = await populated();
    await h.db.page.create({ data: { revisionId: space.revision, id: 'pg1', title: 'Kept', slug: 'kept', path: 'kept', markdown: '# Kept' } });
    const existing = await createCollection(admin, target, { title: 'Already there' });
    expect((await admin.rest('GET', collectionsPath(o))).body.count).toBe(2);
    expect((await admin.rest('GET', `/v1/orgs/${o}/spaces`)).body.count).toBe(3);

    const moved = ok('transferCollection', await admin.rest('POST', `${collectionPath(collection.id)}/transfer`, { organization: target }));
    expect(moved).toMatchObject({ id: collection.id, organization: target, title: 'Guides' });
    expect(moved.parent).toBeUndefined();

    const sourceCollections = ok('listCollectionsInOrganizationById', await admin.rest('GET', collectionsPath(o)));
    expect(sourceCollections.count).toBe(0);
    const targetCollections = ok('listCollectionsInOrganizationById', await admin.rest('GET', collectionsPath(target)));
    expect(targetCollections.count).toBe(3);
    expect(ids(targetCollections).sort()).toEqual([existing.id, collection.id, nested.id].sort());
    expect(targetCollections.items.find((c: any) => c.id === nested.id)).toMatchObject({ parent: collection.id, organization: target });
    // The transferred collection is placed at the end of the target's top level.
    expect(ids(ok('listCollectionsInOrganizationById', await admin.rest('GET', `${collectionsPath(target)}?nested=false`)))).toEqual([existing.id, collection.id]);

    const sourceSpaces = await admin.rest('GET', `/v1/orgs/${o}/spaces`);
    expect(sourceSpaces.body.count).toBe(1);
    expect(ids(sourceSpaces.body)).toEqual([stays.id]);
    const targetSpaces = await admin.rest('GET', `/v1/orgs/${target}/spaces`);
    expect(targetSpaces.body.count).toBe(2);
    expect(ids(targetSpaces.body).sort()).toEqual([space.id, deep.id].sort());
    expect((await admin.rest('GET', `/v1/spaces/${deep.id}`)).body).toMatchObject({ organization: target, parent: nested.id });
    expect(ids(ok('listSpacesInCollectionById', await admin.rest('GET', `${collectionPath(collection.id)}/spaces`)))).toEqual([space.id]);
    // Content came along.
    expect(await h.db.page.count({ where: { revisionId: space.revision } })).toBe(1);
    expect((await admin.rest('GET', `/v1/spaces/${space.id}`)).body.revision).toBe(space.revision);
  });

  it('GraphQL: transferCollection', async () => {
    const { admin, o, collection, target } = await populated();
    const res = await admin.gql(`mutation($c:String!,$t:String!){transferCollection(collectionId:$c,organization:$t){id organization parent}}`, { c: collection.id, t: target });
    expect(gqlData(res, 'transferCollection')).toEqual({ id: collection.id, organization: target, parent: null });
    expect(gqlData(await admin.gql(`query($o:String!){organizationCollections(organizationId:$o){count}}`, { o }), 'organizationCollections').count).toBe(0);
  });

  it('needs create in both organizations: 403 otherwise; 404 for a target the caller is not in; 400 without a target', async () => {
    const { admin, o, collection, target } = await populated();
    // Admin of the source but only 'read' in the target.
    const { admin: otherOwner, organizationId: readOnlyTarget } = await newOrganization(h, 'Read Only');
    await h.db.member.create({ data: { organizationId: readOnlyTarget, userId: admin.userId, role: 'read' } });
    restError(await admin.rest('POST', `${collectionPath(collection.id)}/transfer`, { organization: readOnlyTarget }), 403);
    gqlError(await admin.gql(`mutation($c:String!,$t:String!){transferCollection(collectionId:$c,organization:$t){id}}`, { c: collection.id, t: readOnlyTarget }), 'FORBIDDEN');
    // Admin of the collection (through its defaultLevel) and of the target, but only 'read' in the source.
    const reader = await newMember(h, o, 'read');
    await h.db.member.create({ data: { organizationId: target, userId: reader.userId, role: 'admin' } });
    await admin.rest('PATCH', collectionPath(collection.id), { defaultLevel: 'admin' });
    expect((await reader.rest('GET', collectionPath(collection.id))).body.permissions.admin).toBe(true);
    restError(await reader.rest('POST', `${collectionPath(collection.id)}/transfer`, { organization: target }), 403);
    // A target the caller does not belong to is unknown to them.
    const notMine = await otherOwner.rest('POST', '/v1/orgs', { title: 'Not Mine' });
    restError(await admin.rest('POST', `${collectionPath(collection.id)}/transfer`, { organization: notMine.body.id }), 404);
    restError(await admin.rest('POST', `${collectionPath(collection.id)}/transfer`, {}), 400, 'organization');
    expect((await h.db.collection.findUnique({ where: { id: collection.id } }))!.organizationId).toBe(o);
    expect(await h.db.space.count({ where: { organizationId: o } })).toBe(3);
  });
});
