import { describe, expect, it } from 'vitest';
import { expectOk, gqlData, gqlError, masked, restError } from '../support/assertions.ts';
import { addMember, addPages, buildCollection, buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { anonymous, useHarness, type Caller, type HttpResult } from '../support/harness.ts';
import { pageCount } from '../support/content-rows.ts';

const h = useHarness();

const COLLECTION = 'object id title description organization parent defaultLevel urls { location app } permissions { admin create }';
const UNKNOWN_ORG = 'unknownOrg0000000001';
const UNKNOWN_COLLECTION = 'unknownColl000000001';

const collectionsPath = (o: string) => `/v1/orgs/${o}/collections`;
const collectionPath = (c: string) => `/v1/collections/${c}`;

const ids = (list: { items: { id: string }[] }) => list.items.map((i) => i.id);

/** An organization with an admin, a 'read' and a 'create' member, one collection holding one space. */
async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const reader = await buildMember(h, o, 'read', 'Reader');
  const creator = await buildMember(h, o, 'create', 'Creator');
  const collection = await buildCollection(admin, o, { title: 'Guides' });
  const space = await buildSpace(admin, o, { title: 'Inside', parent: collection.id });
  return { admin, o, reader, creator, collection, space };
}

/** o: the organization, c: the collection, t: the organization a transfer goes to. */
type Ids = { o: string; c: string; t: string };

const OPS: RefusalOp<Ids>[] = [
  {
    name: 'list collections',
    rest: ({ o }) => ['GET', collectionsPath(o)],
    gql: ({ o }) => ['query($o:String!){organizationCollections(organizationId:$o){count}}', { o }],
  },
  {
    name: 'create collection', refuse: "a 'read' member",
    rest: ({ o }) => ['POST', collectionsPath(o), { title: 'New' }],
    gql: ({ o }) => ['mutation($o:String!){createCollection(organizationId:$o,title:"New"){id}}', { o }],
  },
  {
    name: 'get collection',
    rest: ({ c }) => ['GET', collectionPath(c)],
    gql: ({ c }) => ['query($c:String!){collection(collectionId:$c){id}}', { c }],
  },
  {
    name: 'update collection', refuse: "a 'create' member",
    rest: ({ c }) => ['PATCH', collectionPath(c), { title: 'Renamed' }],
    gql: ({ c }) => ['mutation($c:String!){updateCollection(collectionId:$c,title:"Renamed"){id}}', { c }],
  },
  {
    name: 'delete collection', refuse: "a 'create' member",
    rest: ({ c }) => ['DELETE', collectionPath(c)],
    gql: ({ c }) => ['mutation($c:String!){deleteCollection(collectionId:$c)}', { c }],
  },
  {
    name: 'list collection spaces',
    rest: ({ c }) => ['GET', `${collectionPath(c)}/spaces`],
    gql: ({ c }) => ['query($c:String!){collectionSpaces(collectionId:$c){count}}', { c }],
  },
  {
    name: 'move collection', refuse: "a 'create' member",
    rest: ({ c }) => ['POST', `${collectionPath(c)}/move`, { parent: null }],
    gql: ({ c }) => ['mutation($c:String!){moveCollection(collectionId:$c,parent:null){id}}', { c }],
  },
  {
    name: 'transfer collection', refuse: "a 'create' member",
    rest: ({ c, t }) => ['POST', `${collectionPath(c)}/transfer`, { organization: t }],
    gql: ({ c, t }) => ['mutation($c:String!,$t:String!){transferCollection(collectionId:$c,organization:$t){id}}', { c, t }],
  },
];

async function unchanged(w: { o: string; collection: { id: string } }, { t }: Ids) {
  expect(await h.db.collection.findUnique({ where: { id: w.collection.id } })).toMatchObject({ organizationId: w.o, title: 'Guides', deletedAt: null, parentId: null });
  expect(await h.db.collection.count({ where: { organizationId: w.o } })).toBe(1);
  if (t !== w.o) expect(await h.db.collection.count({ where: { organizationId: t } })).toBe(0);
}

refusalMatrix(OPS, {
  h,
  setup,
  ids: (w) => ({ o: w.o, c: w.collection.id, t: w.o }),
  unknown: { o: UNKNOWN_ORG, c: UNKNOWN_COLLECTION },
  outsiderIds: (_w, outsider) => ({ t: outsider.organizationId }),
  // 'read' is refused what needs create, 'create' what needs admin — even as an admin of the target.
  forbidden: async (w, refuse) => {
    const caller = refuse === "a 'read' member" ? w.reader : w.creator;
    const { organizationId: target } = await buildOrganization(h, 'Target');
    await addMember(h, target, caller, 'admin');
    return { callers: [caller], ids: { t: target } };
  },
  unchanged,
});

describe('POST /orgs/{o}/collections (createCollection)', () => {
  it('REST: creates a top-level collection with every documented field, 201 + Location', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const res = await admin.rest('POST', collectionsPath(o), { title: 'Handbook' });
    const body = expectOk(res, 201, 'createCollection');
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
    const untitled = await buildCollection(admin, o);
    expect(untitled.title).toEqual(expect.any(String));
    expect(untitled.title.length).toBeGreaterThan(0);
    expect(untitled.title.length).toBeLessThanOrEqual(50);
    expect(await h.db.collection.count({ where: { organizationId: o } })).toBe(2);
  });

  it('REST: creates inside a parent collection; the parent must be a live collection of the organization', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const parent = await buildCollection(admin, o, { title: 'Parent' });
    const child = await buildCollection(admin, o, { title: 'Child', parent: parent.id });
    expect(child).toMatchObject({ parent: parent.id, organization: o, title: 'Child' });
    expect((await admin.rest('GET', collectionPath(child.id))).body.parent).toBe(parent.id);
    restError(await admin.rest('POST', collectionsPath(o), { parent: UNKNOWN_COLLECTION }), 400, 'parent');
    const other = await buildOrganization(h, 'Other');
    const foreign = await buildCollection(other.admin, other.organizationId);
    restError(await admin.rest('POST', collectionsPath(o), { parent: foreign.id }), 400, 'parent');
    expect(await h.db.collection.count({ where: { organizationId: o } })).toBe(2);
  });

  it('title: 50 characters are fine, 51 are a 400 naming it (REST and GraphQL)', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    expect((await buildCollection(admin, o, { title: 'x'.repeat(50) })).title).toBe('x'.repeat(50));
    restError(await admin.rest('POST', collectionsPath(o), { title: 'x'.repeat(51) }), 400, 'title');
    restError(await admin.rest('POST', collectionsPath(o), { title: 12 }), 400, 'title');
    const q = 'mutation($o:String!,$t:String){createCollection(organizationId:$o,title:$t){title}}';
    expect(gqlData(await admin.gql(q, { o, t: 'y'.repeat(50) }), 'createCollection')).toEqual({ title: 'y'.repeat(50) });
    gqlError(await admin.gql(q, { o, t: 'y'.repeat(51) }), 'BAD_REQUEST', 'title');
    expect(await h.db.collection.count({ where: { organizationId: o } })).toBe(2);
  });

  it('GraphQL: creates with the same fields', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const parent = await buildCollection(admin, o, { title: 'Top' });
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
    const { admin, organizationId: o } = await buildOrganization(h);
    const reader = await buildMember(h, o, 'read');
    const creator = await buildMember(h, o, 'create');
    const open = await buildCollection(admin, o, { title: 'Open' });
    const closed = await buildCollection(admin, o, { title: 'Closed' });
    await admin.rest('PATCH', collectionPath(open.id), { defaultLevel: 'create' });
    // A 'read' member: refused at the top level and in a plain collection, allowed where the collection grants create.
    restError(await reader.rest('POST', collectionsPath(o), { title: 'Top' }), 403);
    restError(await reader.rest('POST', collectionsPath(o), { title: 'In closed', parent: closed.id }), 403);
    const inOpen = await buildCollection(reader, o, { title: 'In open', parent: open.id });
    expect(inOpen).toMatchObject({ parent: open.id, permissions: { create: true, admin: false } });
    // A 'create' member creates at the top level.
    const top = await buildCollection(creator, o, { title: 'By creator' });
    expect(top.permissions).toEqual({ admin: false, create: true });
    expect((await admin.rest('GET', `${collectionsPath(o)}`)).body.count).toBe(4);
  });
});

describe('GET /orgs/{o}/collections (listCollectionsInOrganizationById)', () => {
  async function tree() {
    const { admin, organizationId: o } = await buildOrganization(h);
    const a = await buildCollection(admin, o, { title: 'A' });
    const b = await buildCollection(admin, o, { title: 'B' });
    const a1 = await buildCollection(admin, o, { title: 'A1', parent: a.id });
    const a1x = await buildCollection(admin, o, { title: 'A1x', parent: a1.id });
    return { admin, o, a, b, a1, a1x };
  }

  it('REST: lists nested collections by default, only top-level ones with nested=false', async () => {
    const { admin, o, a, b, a1, a1x } = await tree();
    const reader = await buildMember(h, o, 'read');
    const all = expectOk(await reader.rest('GET', collectionsPath(o)), 200, 'listCollectionsInOrganizationById');
    expect(all.count).toBe(4);
    expect(ids(all).sort()).toEqual([a.id, b.id, a1.id, a1x.id].sort());
    expect(all.items.find((c: any) => c.id === a1x.id)).toMatchObject({ parent: a1.id, title: 'A1x', permissions: { admin: false, create: false } });
    expect(expectOk(await reader.rest('GET', `${collectionsPath(o)}?nested=true`), 200, 'listCollectionsInOrganizationById').count).toBe(4);
    const top = expectOk(await reader.rest('GET', `${collectionsPath(o)}?nested=false`), 200, 'listCollectionsInOrganizationById');
    expect(top.count).toBe(2);
    expect(ids(top)).toEqual([a.id, b.id]);
    expect(top.items.every((c: any) => c.parent === undefined)).toBe(true);
    restError(await admin.rest('GET', `${collectionsPath(o)}?nested=maybe`), 400, 'nested');
  });

  it('REST: pages through with limit and next; limit 1000 is fine and 1001 a 400', async () => {
    const { admin, o, a, b } = await tree();
    const first = expectOk(await admin.rest('GET', `${collectionsPath(o)}?nested=false&limit=1`), 200, 'listCollectionsInOrganizationById');
    expect(ids(first)).toEqual([a.id]);
    expect(first.count).toBe(2);
    const second = await admin.rest('GET', `${collectionsPath(o)}?nested=false&limit=1&page=${encodeURIComponent(first.next.page)}`);
    expect(ids(second.body)).toEqual([b.id]);
    expect(second.body.next).toBeUndefined();
    expect(expectOk(await admin.rest('GET', `${collectionsPath(o)}?limit=1000`), 200, 'listCollectionsInOrganizationById').count).toBe(4);
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
    const list = expectOk(await admin.rest('GET', collectionsPath(o)), 200, 'listCollectionsInOrganizationById');
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
    const got = expectOk(await admin.rest('GET', collectionPath(collection.id)), 200, 'getCollectionById');
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
    expect(expectOk(await reader.rest('GET', collectionPath(collection.id)), 200, 'getCollectionById').permissions).toEqual({ admin: false, create: false });
    expect(expectOk(await creator.rest('GET', collectionPath(collection.id)), 200, 'getCollectionById').permissions).toEqual({ admin: false, create: true });
    const gql = gqlData(await reader.gql(`query($c:String!){collection(collectionId:$c){${COLLECTION}}}`, { c: collection.id }), 'collection');
    expect(gql).toEqual({ ...got, parent: null, permissions: { admin: false, create: false } });
  });

  it('a guest (no role) cannot see collections: the same 404 as an unknown one', async () => {
    const { o, collection } = await setup();
    const guest = await buildMember(h, o, null);
    const hidden = await guest.rest('GET', collectionPath(collection.id));
    restError(hidden, 404);
    expect(masked(hidden, [collection.id])).toEqual(masked(await guest.rest('GET', collectionPath(UNKNOWN_COLLECTION)), [UNKNOWN_COLLECTION]));
    expect((await guest.rest('GET', collectionsPath(o))).body.count).toBe(0);
  });
});

describe('PATCH /collections/{id} (updateCollectionById)', () => {
  it('REST: updates title, description and defaultLevel; omitted fields stay', async () => {
    const { admin, collection } = await setup();
    const res = expectOk(await admin.rest('PATCH', collectionPath(collection.id), { title: 'Manuals', description: 'How to', defaultLevel: 'comment' }), 200, 'updateCollectionById');
    expect(res).toMatchObject({ id: collection.id, title: 'Manuals', description: 'How to', defaultLevel: 'comment' });
    const again = expectOk(await admin.rest('PATCH', collectionPath(collection.id), { description: 'Updated' }), 200, 'updateCollectionById');
    expect(again).toMatchObject({ title: 'Manuals', description: 'Updated', defaultLevel: 'comment' });
    expect(await h.db.collection.findUnique({ where: { id: collection.id } })).toMatchObject({ title: 'Manuals', description: 'Updated', defaultLevel: 'comment' });
  });

  it('limits: title 50/51, description 100/101, defaultLevel must be a role — 400 naming the field', async () => {
    const { admin, collection } = await setup();
    const patch = (body: unknown) => admin.rest('PATCH', collectionPath(collection.id), body);
    expect(expectOk(await patch({ title: 't'.repeat(50) }), 200, 'updateCollectionById').title).toBe('t'.repeat(50));
    expect(expectOk(await patch({ description: 'd'.repeat(100) }), 200, 'updateCollectionById').description).toBe('d'.repeat(100));
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
    expectOk(await admin.rest('PATCH', collectionPath(collection.id), { defaultLevel: 'edit' }), 200, 'updateCollectionById');
    expect((await reader.rest('GET', `/v1/spaces/${space.id}`)).body.permissions).toEqual({
      view: true, access: true, admin: false, viewInviteLinks: false, edit: true, triggerGitSync: false, comment: true, merge: false, review: false, installIntegration: false,
    });
    expect((await reader.rest('PATCH', `/v1/spaces/${space.id}`, { title: 'Yes' })).body.title).toBe('Yes');
    // Still not an admin: access settings stay refused.
    restError(await reader.rest('PATCH', `/v1/spaces/${space.id}`, { defaultLevel: 'edit' }), 403);
  });
});

describe('DELETE /collections/{id} (deleteCollectionById)', () => {
  it('REST: deletes the collection with its nested collections and spaces', async () => {
    const { admin, o, reader, collection, space } = await setup();
    const nested = await buildCollection(admin, o, { title: 'Nested', parent: collection.id });
    const deep = await buildSpace(admin, o, { title: 'Deep', parent: nested.id });
    const outside = await buildSpace(admin, o, { title: 'Outside' });
    const sibling = await buildCollection(admin, o, { title: 'Sibling' });
    expect((await admin.rest('GET', `/v1/orgs/${o}/spaces`)).body.count).toBe(3);
    expectOk(await admin.rest('DELETE', collectionPath(collection.id)), 204, 'deleteCollectionById');
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
    const second = await buildSpace(admin, o, { title: 'Second', parent: collection.id });
    const nested = await buildCollection(admin, o, { parent: collection.id });
    await buildSpace(admin, o, { title: 'Deeper', parent: nested.id });
    await buildSpace(admin, o, { title: 'Top level' });
    const list = expectOk(await reader.rest('GET', `${collectionPath(collection.id)}/spaces`), 200, 'listSpacesInCollectionById');
    expect(list.count).toBe(2);
    expect(ids(list)).toEqual([space.id, second.id]);
    expect(list.items[0]).toMatchObject({ object: 'space', title: 'Inside', parent: collection.id, organization: o, permissions: { access: true, edit: false } });
    const page = expectOk(await reader.rest('GET', `${collectionPath(collection.id)}/spaces?limit=1`), 200, 'listSpacesInCollectionById');
    expect(ids(page)).toEqual([space.id]);
    const rest = expectOk(await reader.rest('GET', `${collectionPath(collection.id)}/spaces?limit=1&page=${encodeURIComponent(page.next.page)}`), 200, 'listSpacesInCollectionById');
    expect(ids(rest)).toEqual([second.id]);
    expect(rest.next).toBeUndefined();
    expect(expectOk(await reader.rest('GET', `${collectionPath(collection.id)}/spaces?limit=1000`), 200, 'listSpacesInCollectionById').count).toBe(2);
    restError(await reader.rest('GET', `${collectionPath(collection.id)}/spaces?limit=1001`), 400, 'limit');
  });

  it('GraphQL: collectionSpaces and Collection.spaces agree', async () => {
    const { admin, o, collection, space } = await setup();
    const second = await buildSpace(admin, o, { title: 'Second', parent: collection.id });
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
    const second = await buildSpace(admin, o, { title: 'Second', parent: collection.id });
    expect((await admin.rest('DELETE', `/v1/spaces/${space.id}`)).status).toBe(204);
    const list = expectOk(await admin.rest('GET', `${collectionPath(collection.id)}/spaces`), 200, 'listSpacesInCollectionById');
    expect(list.count).toBe(1);
    expect(ids(list)).toEqual([second.id]);
  });
});

describe('POST /collections/{id}/move (moveCollection)', () => {
  it('REST: moves under another collection and back to the top level', async () => {
    const { admin, o, collection } = await setup();
    const target = await buildCollection(admin, o, { title: 'Target' });
    const moved = expectOk(await admin.rest('POST', `${collectionPath(collection.id)}/move`, { parent: target.id }), 200, 'moveCollection');
    expect(moved).toMatchObject({ id: collection.id, parent: target.id });
    expect(ids(expectOk(await admin.rest('GET', `${collectionsPath(o)}?nested=false`), 200, 'listCollectionsInOrganizationById'))).toEqual([target.id]);
    const back = expectOk(await admin.rest('POST', `${collectionPath(collection.id)}/move`, { parent: null }), 200, 'moveCollection');
    expect(back.parent).toBeUndefined();
    expect(ids(expectOk(await admin.rest('GET', `${collectionsPath(o)}?nested=false`), 200, 'listCollectionsInOrganizationById'))).toEqual([target.id, collection.id]);
  });

  it('refuses a move into itself or one of its descendants (400), and an unknown or foreign parent', async () => {
    const { admin, o, collection } = await setup();
    const child = await buildCollection(admin, o, { parent: collection.id });
    const grandchild = await buildCollection(admin, o, { parent: child.id });
    for (const parent of [collection.id, child.id, grandchild.id]) {
      restError(await admin.rest('POST', `${collectionPath(collection.id)}/move`, { parent }), 400, 'parent');
    }
    gqlError(await admin.gql(`mutation($c:String!,$p:String){moveCollection(collectionId:$c,parent:$p){id}}`, { c: collection.id, p: grandchild.id }), 'BAD_REQUEST', 'parent');
    restError(await admin.rest('POST', `${collectionPath(collection.id)}/move`, { parent: UNKNOWN_COLLECTION }), 400, 'parent');
    const other = await buildOrganization(h, 'Other');
    const foreign = await buildCollection(other.admin, other.organizationId);
    restError(await admin.rest('POST', `${collectionPath(collection.id)}/move`, { parent: foreign.id }), 400, 'parent');
    // Nothing moved.
    expect((await h.db.collection.findUnique({ where: { id: collection.id } }))!.parentId).toBeNull();
    expect((await h.db.collection.findUnique({ where: { id: grandchild.id } }))!.parentId).toBe(child.id);
  });

  it('refuses a position naming an item that is not in the target parent (400 naming position)', async () => {
    const { admin, o, collection, space } = await setup();
    const other = await buildCollection(admin, o, { title: 'Other' });
    const res = await admin.rest('POST', `${collectionPath(other.id)}/move`, { parent: null, position: { before: { type: 'space', space: space.id } } });
    restError(res, 400, 'position');
    restError(await admin.rest('POST', `${collectionPath(other.id)}/move`, { parent: null, position: { after: { type: 'space', space: 'unknownSpace00000001' } } }), 400, 'position');
    restError(await admin.rest('POST', `${collectionPath(other.id)}/move`, { position: { after: { type: 'planet' } } }), 400, 'position');
    expect(ids(expectOk(await admin.rest('GET', `${collectionsPath(o)}?nested=false`), 200, 'listCollectionsInOrganizationById'))).toEqual([collection.id, other.id]);
  });

  it('orders collections among mixed siblings: before/after a space, after a collection, default end (REST and GraphQL)', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const parent = await buildCollection(admin, o, { title: 'Parent' });
    const a = await buildCollection(admin, o, { title: 'A', parent: parent.id });
    const s1 = await buildSpace(admin, o, { title: 'S1', parent: parent.id });
    const b = await buildCollection(admin, o, { title: 'B', parent: parent.id });
    const c = await buildCollection(admin, o, { title: 'C', parent: parent.id });
    const s2 = await buildSpace(admin, o, { title: 'S2', parent: parent.id });
    // Siblings of parent: A, S1, B, C, S2.
    const childOrder = async () =>
      ids(expectOk(await admin.rest('GET', collectionsPath(o)), 200, 'listCollectionsInOrganizationById')).filter((id: string) => id !== parent.id);
    const spaceOrder = async () => ids(expectOk(await admin.rest('GET', `${collectionPath(parent.id)}/spaces`), 200, 'listSpacesInCollectionById'));
    expect(await childOrder()).toEqual([a.id, b.id, c.id]);
    // A after S2 (the last space) → S1, B, C, S2, A.
    expectOk(await admin.rest('POST', `${collectionPath(a.id)}/move`, { parent: parent.id, position: { after: { type: 'space', space: s2.id } } }), 200, 'moveCollection');
    expect(await childOrder()).toEqual([b.id, c.id, a.id]);
    // C before S1 → C, S1, B, S2, A.
    expectOk(await admin.rest('POST', `${collectionPath(c.id)}/move`, { parent: parent.id, position: { before: { type: 'space', space: s1.id } } }), 200, 'moveCollection');
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
    expectOk(await admin.rest('POST', `${collectionPath(c.id)}/move`, { parent: parent.id }), 200, 'moveCollection');
    expect(await childOrder()).toEqual([b.id, a.id, c.id]);
    const graph = gqlData(await admin.gql(`query($o:String!){organizationCollections(organizationId:$o){items{id}}}`, { o }), 'organizationCollections');
    expect(graph.items.map((i: any) => i.id).filter((id: string) => id !== parent.id)).toEqual([b.id, a.id, c.id]);
  });
});

describe('POST /collections/{id}/transfer (transferCollection)', () => {
  async function populated() {
    const { admin, o, reader, collection, space } = await setup();
    const nested = await buildCollection(admin, o, { title: 'Nested', parent: collection.id });
    const deep = await buildSpace(admin, o, { title: 'Deep', parent: nested.id });
    const stays = await buildSpace(admin, o, { title: 'Stays' });
    const created = await admin.rest('POST', '/v1/orgs', { title: 'Target Org' });
    expect(created.status).toBe(201);
    return { admin, o, reader, collection, space, nested, deep, stays, target: created.body.id as string };
  }

  it('REST: moves the collection with everything inside; IDs stay, lists and counts update on both sides', async () => {
    const { admin, o, collection, space, nested, deep, stays, target } = await populated();
    await addPages(h.db, space.revision, [{ id: 'pg1', title: 'Kept', path: 'kept', markdown: '# Kept' }]);
    const existing = await buildCollection(admin, target, { title: 'Already there' });
    expect((await admin.rest('GET', collectionsPath(o))).body.count).toBe(2);
    expect((await admin.rest('GET', `/v1/orgs/${o}/spaces`)).body.count).toBe(3);

    const moved = expectOk(await admin.rest('POST', `${collectionPath(collection.id)}/transfer`, { organization: target }), 200, 'transferCollection');
    expect(moved).toMatchObject({ id: collection.id, organization: target, title: 'Guides' });
    expect(moved.parent).toBeUndefined();

    const sourceCollections = expectOk(await admin.rest('GET', collectionsPath(o)), 200, 'listCollectionsInOrganizationById');
    expect(sourceCollections.count).toBe(0);
    const targetCollections = expectOk(await admin.rest('GET', collectionsPath(target)), 200, 'listCollectionsInOrganizationById');
    expect(targetCollections.count).toBe(3);
    expect(ids(targetCollections).sort()).toEqual([existing.id, collection.id, nested.id].sort());
    expect(targetCollections.items.find((c: any) => c.id === nested.id)).toMatchObject({ parent: collection.id, organization: target });
    // The transferred collection is placed at the end of the target's top level.
    expect(ids(expectOk(await admin.rest('GET', `${collectionsPath(target)}?nested=false`), 200, 'listCollectionsInOrganizationById'))).toEqual([existing.id, collection.id]);

    const sourceSpaces = await admin.rest('GET', `/v1/orgs/${o}/spaces`);
    expect(sourceSpaces.body.count).toBe(1);
    expect(ids(sourceSpaces.body)).toEqual([stays.id]);
    const targetSpaces = await admin.rest('GET', `/v1/orgs/${target}/spaces`);
    expect(targetSpaces.body.count).toBe(2);
    expect(ids(targetSpaces.body).sort()).toEqual([space.id, deep.id].sort());
    expect((await admin.rest('GET', `/v1/spaces/${deep.id}`)).body).toMatchObject({ organization: target, parent: nested.id });
    expect(ids(expectOk(await admin.rest('GET', `${collectionPath(collection.id)}/spaces`), 200, 'listSpacesInCollectionById'))).toEqual([space.id]);
    // Content came along.
    expect(await pageCount(h.db, space.revision)).toBe(1);
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
    const { admin: otherOwner, organizationId: readOnlyTarget } = await buildOrganization(h, 'Read Only');
    await addMember(h, readOnlyTarget, admin, 'read');
    restError(await admin.rest('POST', `${collectionPath(collection.id)}/transfer`, { organization: readOnlyTarget }), 403);
    gqlError(await admin.gql(`mutation($c:String!,$t:String!){transferCollection(collectionId:$c,organization:$t){id}}`, { c: collection.id, t: readOnlyTarget }), 'FORBIDDEN');
    // Admin of the collection (through its defaultLevel) and of the target, but only 'read' in the source.
    const reader = await buildMember(h, o, 'read');
    await addMember(h, target, reader, 'admin');
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
