import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/generated/prisma/client.ts';
import { purgeExpired } from '../../src/modules/spaces/space.lifecycle.ts';
import { expectGitBookShape, expectOk, gqlData, gqlError, masked, restError } from '../support/assertions.ts';
import { putDocuments } from '../../src/modules/content/store/document-store.ts';
import { addMember, addPages as addRevisionPages, buildCollection, buildMember, buildOrganization, buildSpace, pagesOf as revisionPages, type PageSeed } from '../factories.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { anonymous, useHarness, type Caller, type HttpResult } from '../support/harness.ts';
import { pageCount, updatePageRow } from '../support/content-rows.ts';

const h = useHarness();

const SPACE = `object id title emoji visibility createdAt updatedAt deletedAt editMode mergeRules urls { location app published public icon }
  organization parent revision defaultLevel comments changeRequests changeRequestsOpen changeRequestsDraft
  permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration }`;
const UNKNOWN_ORG = 'unknownOrg0000000001';
const UNKNOWN_SPACE = 'unknownSpace00000001';
const UNKNOWN_USER = 'unknownUser000000001';
const DAY = 24 * 60 * 60 * 1000;

const spacesPath = (o: string) => `/v1/orgs/${o}/spaces`;
const spacePath = (s: string) => `/v1/spaces/${s}`;
const ids = (list: { items: { id: string }[] }) => list.items.map((i) => i.id);

/** A space created a second after the previous event (distinct, ordered times). */
async function createSpace(c: Caller, o: string, body: Record<string, unknown> = {}) {
  h.clock.advance(1000);
  return buildSpace(c, o, body);
}
const getSpace = async (c: Caller, s: string) => expectOk(await c.rest('GET', spacePath(s)), 200, 'getSpaceById');
const collectionSpaces = async (c: Caller, col: string) => expectOk(await c.rest('GET', `/v1/collections/${col}/spaces`), 200, 'listSpacesInCollectionById');
const orgSpaces = async (c: Caller, o: string) => expectOk(await c.rest('GET', spacesPath(o)), 200, 'listSpacesInOrganizationById');

const addPages = (revisionId: string, pages: PageSeed[]) => addRevisionPages(h.db, revisionId, pages);
const pagesOf = (revisionId: string) => revisionPages(h.db, revisionId);

/** An organization with an admin, a 'read' and a 'create' member, a collection and a space inside it. */
async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const reader = await buildMember(h, o, 'read', 'Reader');
  const creator = await buildMember(h, o, 'create', 'Creator');
  const collection = await buildCollection(admin, o, { title: 'Guides' });
  const space = await createSpace(admin, o, { title: 'Docs', parent: collection.id });
  return { admin, o, reader, creator, collection, space };
}

/** o: the organization, s: the space, u: a member, t: the organization a transfer goes to. */
type Ids = { o: string; s: string; u: string; t: string };

const OPS: RefusalOp<Ids>[] = [
  {
    name: 'create space', refuse: "a 'read' member",
    rest: ({ o }) => ['POST', spacesPath(o), { title: 'New' }],
    gql: ({ o }) => ['mutation($o:String!){createSpace(organizationId:$o,title:"New"){id}}', { o }],
  },
  {
    name: 'list spaces',
    rest: ({ o }) => ['GET', spacesPath(o)],
    gql: ({ o }) => ['query($o:String!){organizationSpaces(organizationId:$o){count}}', { o }],
  },
  {
    name: 'get space',
    rest: ({ s }) => ['GET', spacePath(s)],
    gql: ({ s }) => ['query($s:String!){space(spaceId:$s){id}}', { s }],
  },
  {
    name: 'update title', refuse: "a 'read' member",
    rest: ({ s }) => ['PATCH', spacePath(s), { title: 'Renamed' }],
    gql: ({ s }) => ['mutation($s:String!){updateSpace(spaceId:$s,title:"Renamed"){id}}', { s }],
  },
  {
    name: 'update defaultLevel', refuse: "a 'create' member",
    rest: ({ s }) => ['PATCH', spacePath(s), { defaultLevel: 'edit' }],
    gql: ({ s }) => ['mutation($s:String!){updateSpace(spaceId:$s,defaultLevel:edit){id}}', { s }],
  },
  {
    name: 'update visibility', refuse: "a 'create' member",
    rest: ({ s }) => ['PATCH', spacePath(s), { visibility: 'public' }],
    gql: ({ s }) => ['mutation($s:String!){updateSpace(spaceId:$s,visibility:"public"){id}}', { s }],
  },
  {
    name: 'delete space', refuse: "a 'create' member",
    rest: ({ s }) => ['DELETE', spacePath(s)],
    gql: ({ s }) => ['mutation($s:String!){deleteSpace(spaceId:$s)}', { s }],
  },
  {
    name: 'duplicate space', refuse: "a 'read' member",
    rest: ({ s }) => ['POST', `${spacePath(s)}/duplicate`],
    gql: ({ s }) => ['mutation($s:String!){duplicateSpace(spaceId:$s){id}}', { s }],
  },
  {
    name: 'restore space', refuse: "a 'create' member",
    rest: ({ s }) => ['POST', `${spacePath(s)}/restore`],
    gql: ({ s }) => ['mutation($s:String!){restoreSpace(spaceId:$s){id}}', { s }],
  },
  {
    name: 'move space', refuse: "a 'create' member",
    rest: ({ s }) => ['POST', `${spacePath(s)}/move`, { parent: null }],
    gql: ({ s }) => ['mutation($s:String!){moveSpace(spaceId:$s,parent:null){id}}', { s }],
  },
  {
    name: 'transfer space', refuse: "a 'create' member",
    rest: ({ s, t }) => ['POST', `${spacePath(s)}/transfer`, { organization: t }],
    gql: ({ s, t }) => ['mutation($s:String!,$t:String!){transferSpace(spaceId:$s,organization:$t){id}}', { s, t }],
  },
  {
    name: 'list space links',
    rest: ({ s }) => ['GET', `${spacePath(s)}/links`],
    gql: ({ s }) => ['query($s:String!){spaceLinks(spaceId:$s){count}}', { s }],
  },
  {
    name: "list a member's spaces", refuse: "a 'read' member",
    rest: ({ o, u }) => ['GET', `/v1/orgs/${o}/members/${u}/spaces`],
    gql: ({ o, u }) => ['query($o:String!,$u:String!){organizationMemberSpaces(organizationId:$o,userId:$u){count}}', { o, u }],
  },
];

async function unchanged(w: { o: string; space: { id: string }; collection: { id: string } }, { t }: Ids) {
  expect(await h.db.space.findUnique({ where: { id: w.space.id } })).toMatchObject({
    organizationId: w.o, collectionId: w.collection.id, title: 'Docs', deletedAt: null, defaultLevel: 'read', visibility: 'private',
  });
  expect(await h.db.space.count({ where: { organizationId: w.o } })).toBe(1);
  if (t !== w.o) expect(await h.db.space.count({ where: { organizationId: t } })).toBe(0);
}

refusalMatrix(OPS, {
  h,
  setup,
  ids: (w) => ({ o: w.o, s: w.space.id, u: w.admin.userId, t: w.o }),
  unknown: { o: UNKNOWN_ORG, s: UNKNOWN_SPACE, u: UNKNOWN_USER },
  outsiderIds: (_w, outsider) => ({ t: outsider.organizationId }),
  // 'read' is refused where edit or create is needed, 'create' where admin is needed — even as an admin
  // of the target organization.
  forbidden: async (w, refuse) => {
    const caller = refuse === "a 'read' member" ? w.reader : w.creator;
    const { organizationId: target } = await buildOrganization(h, 'Target');
    await addMember(h, target, caller, 'admin');
    return { callers: [caller], ids: { t: target } };
  },
  unchanged,
});

describe('POST /orgs/{o}/spaces (createSpace)', () => {
  it('REST: every documented field, the defaults, an empty first revision; 201 + Location', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const collection = await buildCollection(admin, o, { title: 'Guides' });
    h.clock.advance(1000);
    const res = await admin.rest('POST', spacesPath(o), { title: 'Handbook', emoji: '📘', parent: collection.id, editMode: 'locked' });
    const body = expectOk(res, 201, 'createSpace');
    const now = h.clock.now().toISOString();
    expect(body).toEqual({
      object: 'space',
      id: expect.any(String),
      title: 'Handbook',
      emoji: '📘',
      visibility: 'private',
      createdAt: now,
      updatedAt: now,
      editMode: 'locked',
      mergeRules: { type: 'inherit' },
      urls: { location: `${h.config.apiUrl}/spaces/${body.id}`, app: expect.stringMatching(/^http/) },
      organization: o,
      parent: collection.id,
      revision: expect.any(String),
      defaultLevel: 'read',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: { view: true, access: true, admin: true, viewInviteLinks: true, edit: true, triggerGitSync: true, comment: true, merge: true, review: true, installIntegration: true },
    });
    expect(res.headers.get('location')).toBe(body.urls.location);
    const revision = await h.db.revision.findUnique({ where: { id: body.revision } });
    expect(revision?.spaceId).toBe(body.id);
    expect(await pageCount(h.db, body.revision)).toBe(0);
    // Everything is optional: a top-level, live space with a title.
    const bare = await createSpace(admin, o);
    expect(bare).toMatchObject({ editMode: 'live', visibility: 'private', defaultLevel: 'read', organization: o });
    expect(bare.parent).toBeUndefined();
    expect(bare.title.length).toBeGreaterThan(0);
    expect(bare.revision).not.toBe(body.revision);
  });

  it('limits: title 50/51, emoji 50/51 and must be an emoji, editMode and parent checked — 400 naming the field', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const post = (body: unknown) => admin.rest('POST', spacesPath(o), body);
    expect((await createSpace(admin, o, { title: 'a'.repeat(50) })).title).toBe('a'.repeat(50));
    expect((await createSpace(admin, o, { emoji: '🎉'.repeat(50) })).emoji).toBe('🎉'.repeat(50));
    expect((await createSpace(admin, o, { emoji: '1f389' })).emoji).toBe('1f389');
    restError(await post({ title: 'a'.repeat(51) }), 400, 'title');
    restError(await post({ emoji: '🎉'.repeat(51) }), 400, 'emoji');
    restError(await post({ emoji: 'not an emoji' }), 400, 'emoji');
    restError(await post({ editMode: 'x' }), 400, 'editMode');
    restError(await post({ parent: 'unknownColl000000001' }), 400, 'parent');
    const other = await buildOrganization(h, 'Other');
    const foreign = await buildCollection(other.admin, other.organizationId);
    restError(await post({ parent: foreign.id }), 400, 'parent');
    expect(await h.db.space.count({ where: { organizationId: o } })).toBe(3);
    const q = 'mutation($o:String!,$t:String,$e:String){createSpace(organizationId:$o,title:$t,emoji:$e){id}}';
    gqlError(await admin.gql(q, { o, t: 'a'.repeat(51) }), 'BAD_REQUEST', 'title');
    gqlError(await admin.gql(q, { o, e: 'nope' }), 'BAD_REQUEST', 'emoji');
    gqlError(await admin.gql(`mutation($o:String!){createSpace(organizationId:$o,editMode:x){id}}`, { o }), 'BAD_REQUEST');
    expect(await h.db.space.count({ where: { organizationId: o } })).toBe(3);
  });

  it('GraphQL: creates with the same fields', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const res = await admin.gql(`mutation($o:String!){createSpace(organizationId:$o,title:"Graph",emoji:"🚀",editMode:live){${SPACE}}}`, { o });
    const data = gqlData(res, 'createSpace');
    expect(data).toMatchObject({
      object: 'space', title: 'Graph', emoji: '🚀', visibility: 'private', deletedAt: null, editMode: 'live', organization: o, parent: null,
      defaultLevel: 'read', comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0,
      urls: { location: `${h.config.apiUrl}/spaces/${data.id}`, published: null, public: null },
      permissions: { view: true, access: true, admin: true, viewInviteLinks: true, edit: true, triggerGitSync: true, comment: true, merge: true, review: true, installIntegration: true },
    });
    expect(await h.db.revision.count({ where: { id: data.revision, spaceId: data.id } })).toBe(1);
  });

  it("needs the organization's create role, or create level on the parent collection", async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const reader = await buildMember(h, o, 'read');
    const guest = await buildMember(h, o, null);
    const creator = await buildMember(h, o, 'create');
    const open = await buildCollection(admin, o, { title: 'Open' });
    const closed = await buildCollection(admin, o, { title: 'Closed' });
    await admin.rest('PATCH', `/v1/collections/${open.id}`, { defaultLevel: 'create' });
    restError(await reader.rest('POST', spacesPath(o), { title: 'Top' }), 403);
    restError(await reader.rest('POST', spacesPath(o), { title: 'Closed', parent: closed.id }), 403);
    restError(await guest.rest('POST', spacesPath(o), { title: 'Guest' }), 403);
    const inOpen = await createSpace(reader, o, { title: 'In open', parent: open.id });
    expect(inOpen).toMatchObject({ parent: open.id, permissions: { edit: true, admin: false } });
    expect((await createSpace(creator, o, { title: 'Top' })).permissions).toMatchObject({ edit: true, admin: false });
    expect((await orgSpaces(admin, o)).count).toBe(2);
  });
});

describe('GET /orgs/{o}/spaces (listSpacesInOrganizationById)', () => {
  it('REST: every live space of the organization, oldest first, with paging and limits', async () => {
    const { admin, o, reader, space } = await setup();
    const second = await createSpace(admin, o, { title: 'Second' });
    const third = await createSpace(admin, o, { title: 'Third' });
    const list = await orgSpaces(reader, o);
    expect(list.count).toBe(3);
    expect(ids(list)).toEqual([space.id, second.id, third.id]);
    expect(list.items[1]).toMatchObject({ object: 'space', title: 'Second', organization: o, permissions: { access: true, edit: false } });
    const page = expectOk(await reader.rest('GET', `${spacesPath(o)}?limit=2`), 200, 'listSpacesInOrganizationById');
    expect(ids(page)).toEqual([space.id, second.id]);
    const rest = expectOk(await reader.rest('GET', `${spacesPath(o)}?limit=2&page=${encodeURIComponent(page.next.page)}`), 200, 'listSpacesInOrganizationById');
    expect(ids(rest)).toEqual([third.id]);
    expect(rest.next).toBeUndefined();
    expect(expectOk(await reader.rest('GET', `${spacesPath(o)}?limit=1000`), 200, 'listSpacesInOrganizationById').count).toBe(3);
    restError(await reader.rest('GET', `${spacesPath(o)}?limit=1001`), 400, 'limit');
    restError(await reader.rest('GET', `${spacesPath(o)}?page=garbage`), 400, 'page');
  });

  it('GraphQL: organizationSpaces', async () => {
    const { admin, o, space } = await setup();
    const second = await createSpace(admin, o, { title: 'Second' });
    const data = gqlData(await admin.gql(`query($o:String!){organizationSpaces(organizationId:$o){count items{id title parent}}}`, { o }), 'organizationSpaces');
    expect(data).toEqual({ count: 2, items: [{ id: space.id, title: 'Docs', parent: space.parent }, { id: second.id, title: 'Second', parent: null }] });
    gqlError(await admin.gql(`query($o:String!){organizationSpaces(organizationId:$o,limit:1001){count}}`, { o }), 'BAD_REQUEST', 'limit');
  });
});

describe('GET /spaces/{id} (getSpaceById)', () => {
  it('REST and GraphQL agree on every documented field', async () => {
    const { admin, o, reader, collection, space } = await setup();
    const rest = await getSpace(reader, space.id);
    expect(rest).toEqual({
      object: 'space',
      id: space.id,
      title: 'Docs',
      emoji: '',
      visibility: 'private',
      createdAt: space.createdAt,
      updatedAt: space.updatedAt,
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      urls: { location: `${h.config.apiUrl}/spaces/${space.id}`, app: space.urls.app },
      organization: o,
      parent: collection.id,
      revision: space.revision,
      defaultLevel: 'read',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: { view: true, access: true, admin: false, viewInviteLinks: false, edit: false, triggerGitSync: false, comment: false, merge: false, review: false, installIntegration: false },
    });
    const gql = gqlData(await reader.gql(`query($s:String!){space(spaceId:$s){${SPACE}}}`, { s: space.id }), 'space');
    expect(gql).toEqual({ ...rest, deletedAt: null, urls: { ...rest.urls, published: null, public: null, icon: null } });
    expect((await getSpace(admin, space.id)).permissions).toEqual({ view: true, access: true, admin: true, viewInviteLinks: true, edit: true, triggerGitSync: true, comment: true, merge: true, review: true, installIntegration: true });
    // shareKey is accepted (it resolves published URLs once share-link sites exist).
    expect(expectOk(await reader.rest('GET', `${spacePath(space.id)}?shareKey=abc`), 200, 'getSpaceById').id).toBe(space.id);
  });

  it('a guest without a grant gets the same 404 as for an unknown space', async () => {
    const { o, space } = await setup();
    const guest = await buildMember(h, o, null);
    const hidden = await guest.rest('GET', spacePath(space.id));
    restError(hidden, 404);
    expect(masked(hidden, [space.id])).toEqual(masked(await guest.rest('GET', spacePath(UNKNOWN_SPACE)), [UNKNOWN_SPACE]));
  });
});

describe('PATCH /spaces/{id} (updateSpaceById)', () => {
  it('REST: title, emoji, editMode, defaultLevel; omitted fields stay; updatedAt moves', async () => {
    const { admin, space } = await setup();
    h.clock.advance(60_000);
    const res = expectOk(await admin.rest('PATCH', spacePath(space.id), { title: 'Renamed', emoji: '🚀', editMode: 'locked', defaultLevel: 'comment' }), 200, 'updateSpaceById');
    expect(res).toMatchObject({ id: space.id, title: 'Renamed', emoji: '🚀', editMode: 'locked', defaultLevel: 'comment', createdAt: space.createdAt });
    expect(res.updatedAt).toBe(h.clock.now().toISOString());
    const again = expectOk(await admin.rest('PATCH', spacePath(space.id), { editMode: 'live' }), 200, 'updateSpaceById');
    expect(again).toMatchObject({ title: 'Renamed', emoji: '🚀', editMode: 'live', defaultLevel: 'comment' });
    expect(await h.db.space.findUnique({ where: { id: space.id } })).toMatchObject({ title: 'Renamed', emoji: '🚀', editMode: 'live', defaultLevel: 'comment' });
    // null removes the emoji.
    expect(expectOk(await admin.rest('PATCH', spacePath(space.id), { emoji: null }), 200, 'updateSpaceById').emoji).toBe('');
  });

  it('limits and enums: 400 naming the field, nothing changes', async () => {
    const { admin, space } = await setup();
    const patch = (body: unknown) => admin.rest('PATCH', spacePath(space.id), body);
    expect(expectOk(await patch({ title: 't'.repeat(50) }), 200, 'updateSpaceById').title).toBe('t'.repeat(50));
    expect(expectOk(await patch({ emoji: '🎉'.repeat(50) }), 200, 'updateSpaceById').emoji).toBe('🎉'.repeat(50));
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 't'.repeat(51) }, 'title'],
      [{ title: null }, 'title'],
      [{ emoji: '🎉'.repeat(51) }, 'emoji'],
      [{ emoji: 'not an emoji' }, 'emoji'],
      [{ editMode: 'x' }, 'editMode'],
      [{ editMode: null }, 'editMode'],
      [{ visibility: 'nope' }, 'visibility'],
      [{ defaultLevel: 'owner' }, 'defaultLevel'],
      [{ defaultLevel: null }, 'defaultLevel'],
    ];
    for (const [body, field] of cases) restError(await patch(body), 400, field);
    expect(await h.db.space.findUnique({ where: { id: space.id } })).toMatchObject({
      title: 't'.repeat(50), emoji: '🎉'.repeat(50), editMode: 'live', visibility: 'private', defaultLevel: 'read',
    });
    const q = 'mutation($s:String!,$t:String){updateSpace(spaceId:$s,title:$t){title}}';
    expect(gqlData(await admin.gql(q, { s: space.id, t: 'g'.repeat(50) }), 'updateSpace')).toEqual({ title: 'g'.repeat(50) });
    gqlError(await admin.gql(q, { s: space.id, t: 'g'.repeat(51) }), 'BAD_REQUEST', 'title');
    gqlError(await admin.gql(`mutation($s:String!){updateSpace(spaceId:$s,editMode:x){id}}`, { s: space.id }), 'BAD_REQUEST');
    gqlError(await admin.gql(`mutation($s:String!){updateSpace(spaceId:$s,visibility:"nope"){id}}`, { s: space.id }), 'BAD_REQUEST');
    gqlError(await admin.gql(`mutation($s:String!){updateSpace(spaceId:$s,defaultLevel:owner){id}}`, { s: space.id }), 'BAD_REQUEST');
  });

  it("a 'read' member may edit the title of a space whose defaultLevel is 'edit', but not its access settings", async () => {
    const { admin, reader, space } = await setup();
    restError(await reader.rest('PATCH', spacePath(space.id), { title: 'Mine' }), 403);
    expectOk(await admin.rest('PATCH', spacePath(space.id), { defaultLevel: 'edit' }), 200, 'updateSpaceById');
    expect((await getSpace(reader, space.id)).permissions).toMatchObject({ edit: true, admin: false });
    expect(expectOk(await reader.rest('PATCH', spacePath(space.id), { title: 'Mine' }), 200, 'updateSpaceById').title).toBe('Mine');
    const gql = await reader.gql(`mutation($s:String!){updateSpace(spaceId:$s,emoji:"🎈",editMode:locked){title emoji editMode}}`, { s: space.id });
    expect(gqlData(gql, 'updateSpace')).toEqual({ title: 'Mine', emoji: '🎈', editMode: 'locked' });
    restError(await reader.rest('PATCH', spacePath(space.id), { defaultLevel: 'admin' }), 403);
    restError(await reader.rest('PATCH', spacePath(space.id), { visibility: 'public' }), 403);
    expect(await h.db.space.findUnique({ where: { id: space.id } })).toMatchObject({ defaultLevel: 'edit', visibility: 'private' });
  });

  it('GraphQL: updateSpace with every field', async () => {
    const { admin, space } = await setup();
    const res = await admin.gql(`mutation($s:String!){updateSpace(spaceId:$s,title:"G",emoji:"1f680",editMode:locked,defaultLevel:review,visibility:"unlisted"){title emoji editMode defaultLevel visibility}}`, { s: space.id });
    expect(gqlData(res, 'updateSpace')).toEqual({ title: 'G', emoji: '1f680', editMode: 'locked', defaultLevel: 'review', visibility: 'unlisted' });
  });
});

describe('visibility', () => {
  it("'in-collection' only for a space inside a collection; moving to the top level resets it to private", async () => {
    const { admin, o, space } = await setup();
    const top = await createSpace(admin, o, { title: 'Top' });
    restError(await admin.rest('PATCH', spacePath(top.id), { visibility: 'in-collection' }), 400, 'visibility');
    gqlError(await admin.gql(`mutation($s:String!){updateSpace(spaceId:$s,visibility:"in-collection"){id}}`, { s: top.id }), 'BAD_REQUEST', 'visibility');
    expect((await getSpace(admin, top.id)).visibility).toBe('private');

    const inside = expectOk(await admin.rest('PATCH', spacePath(space.id), { visibility: 'in-collection' }), 200, 'updateSpaceById');
    expect(inside.visibility).toBe('in-collection');
    expect(inside.urls.published).toEqual(expect.stringMatching(/^http/));
    expect(inside.urls.public).toBeUndefined();
    const moved = expectOk(await admin.rest('POST', `${spacePath(space.id)}/move`, { parent: null }), 200, 'moveSpace');
    expect(moved.parent).toBeUndefined();
    expect(moved.visibility).toBe('private');
    expect(moved.urls.published).toBeUndefined();
  });

  it('public and unlisted spaces get published URLs; only public ones a public URL', async () => {
    const { admin, space } = await setup();
    const pub = expectOk(await admin.rest('PATCH', spacePath(space.id), { visibility: 'public' }), 200, 'updateSpaceById');
    expect(pub.visibility).toBe('public');
    expect(pub.urls.published).toEqual(expect.stringMatching(/^http/));
    expect(pub.urls.public).toBe(pub.urls.published);
    const unlisted = expectOk(await admin.rest('PATCH', spacePath(space.id), { visibility: 'unlisted' }), 200, 'updateSpaceById');
    expect(unlisted.urls.published).toEqual(expect.stringMatching(/^http/));
    expect(unlisted.urls.public).toBeUndefined();
    for (const visibility of ['share-link', 'visitor-auth', 'private']) {
      expect(expectOk(await admin.rest('PATCH', spacePath(space.id), { visibility }), 200, 'updateSpaceById').visibility).toBe(visibility);
    }
  });
});

describe('DELETE /spaces/{id} and POST /spaces/{id}/restore', () => {
  it('REST: delete hides the space from lists and counts; admins still see it; restore brings it back whole', async () => {
    const { admin, o, reader, collection, space } = await setup();
    const other = await createSpace(admin, o, { title: 'Other', parent: collection.id });
    await addPages(space.revision, [
      { id: 'p1', title: 'One', path: 'one' },
      { id: 'p2', title: 'Two', path: 'one/two' },
    ]);
    const before = await pagesOf(space.revision);
    h.clock.advance(1000);
    expectOk(await admin.rest('DELETE', spacePath(space.id)), 204, 'deleteSpaceById');
    const deletedAt = h.clock.now().toISOString();

    expect(await orgSpaces(admin, o)).toMatchObject({ count: 1, items: [{ id: other.id }] });
    expect(await collectionSpaces(admin, collection.id)).toMatchObject({ count: 1, items: [{ id: other.id }] });
    const memberSpaces = expectOk(await admin.rest('GET', `/v1/orgs/${o}/members/${reader.userId}/spaces`), 200, 'listSpacesForOrganizationMember');
    expect(memberSpaces.count).toBe(1);
    expect(memberSpaces.items.map((i: any) => i.space.id)).toEqual([other.id]);
    // Members lose it entirely; admins read it with deletedAt.
    const hidden = await reader.rest('GET', spacePath(space.id));
    restError(hidden, 404);
    expect(masked(hidden, [space.id])).toEqual(masked(await reader.rest('GET', spacePath(UNKNOWN_SPACE)), [UNKNOWN_SPACE]));
    const seen = await getSpace(admin, space.id);
    expect(seen.deletedAt).toBe(deletedAt);
    expect(seen.parent).toBe(collection.id);
    // Deleting it again: it is gone for that purpose.
    restError(await admin.rest('DELETE', spacePath(space.id)), 404);
    restError(await admin.rest('PATCH', spacePath(space.id), { title: 'Zombie' }), 404);

    const restored = expectOk(await admin.rest('POST', `${spacePath(space.id)}/restore`), 200, 'restoreSpace');
    expect(restored).toMatchObject({ id: space.id, parent: collection.id, title: 'Docs', revision: space.revision });
    expect(restored.deletedAt).toBeUndefined();
    expect(await pagesOf(space.revision)).toEqual(before);
    expect(ids(await collectionSpaces(reader, collection.id))).toEqual([space.id, other.id]);
    expect((await orgSpaces(reader, o)).count).toBe(2);
    expect((await getSpace(reader, space.id)).id).toBe(space.id);
  });

  it('GraphQL: deleteSpace and restoreSpace; restoring a space that is not deleted is a conflict', async () => {
    const { admin, o, space } = await setup();
    expect(gqlData(await admin.gql(`mutation($s:String!){deleteSpace(spaceId:$s)}`, { s: space.id }), 'deleteSpace')).toBe(true);
    expect(gqlData(await admin.gql(`query($s:String!){space(spaceId:$s){deletedAt}}`, { s: space.id }), 'space').deletedAt).toBe(h.clock.now().toISOString());
    expect(gqlData(await admin.gql(`query($o:String!){organizationSpaces(organizationId:$o){count}}`, { o }), 'organizationSpaces').count).toBe(0);
    const restore = `mutation($s:String!){restoreSpace(spaceId:$s){id deletedAt parent}}`;
    const restored = gqlData(await admin.gql(restore, { s: space.id }), 'restoreSpace');
    expect(restored).toEqual({ id: space.id, deletedAt: null, parent: space.parent });
    gqlError(await admin.gql(restore, { s: space.id }), 'CONFLICT');
  });

  it('REST: restoring a space that is not deleted, or restored by a concurrent request, answers 409', async () => {
    const { admin, space } = await setup();
    expect(restError(await admin.rest('POST', `${spacePath(space.id)}/restore`), 409)).toContain('not deleted');
    expect(await h.db.space.findUnique({ where: { id: space.id } })).toMatchObject({ deletedAt: null, updatedAt: new Date(space.updatedAt) });
    expectOk(await admin.rest('DELETE', spacePath(space.id)), 204, 'deleteSpaceById');
    const both = await Promise.all([1, 2].map(() => admin.rest('POST', `${spacePath(space.id)}/restore`)));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(expectOk(both.find((r) => r.status === 200)!, 200, 'restoreSpace').deletedAt).toBeUndefined();
    restError(both.find((r) => r.status === 409)!, 409);
  });

  it('a non-admin cannot restore a deleted space: it is not found for them', async () => {
    const { admin, creator, space } = await setup();
    expectOk(await admin.rest('DELETE', spacePath(space.id)), 204, 'deleteSpaceById');
    restError(await creator.rest('POST', `${spacePath(space.id)}/restore`), 404);
    expect((await h.db.space.findUnique({ where: { id: space.id } }))!.deletedAt).not.toBeNull();
  });

  it('restores to the top level when its collection was deleted meanwhile, or deleted with it', async () => {
    const { admin, o, collection, space } = await setup();
    const alsoInside = await createSpace(admin, o, { title: 'Also inside', parent: collection.id });
    expectOk(await admin.rest('PATCH', spacePath(space.id), { visibility: 'in-collection' }), 200, 'updateSpaceById');
    await addPages(space.revision, [{ id: 'kept', title: 'Kept', path: 'kept' }]);
    expectOk(await admin.rest('DELETE', spacePath(space.id)), 204, 'deleteSpaceById');
    h.clock.advance(1000);
    expectOk(await admin.rest('DELETE', `/v1/collections/${collection.id}`), 204, 'deleteCollectionById');
    for (const s of [space, alsoInside]) {
      const restored = expectOk(await admin.rest('POST', `${spacePath(s.id)}/restore`), 200, 'restoreSpace');
      expect(restored.parent).toBeUndefined();
      expect(restored.deletedAt).toBeUndefined();
    }
    // "in-collection" means nothing at the top level.
    expect((await getSpace(admin, space.id)).visibility).toBe('private');
    expect(await pagesOf(space.revision)).toEqual([{ id: 'kept', title: 'Kept', path: 'kept', markdown: '# Kept' }]);
    expect(ids(await orgSpaces(admin, o)).sort()).toEqual([space.id, alsoInside.id].sort());
  });

  it('restore works until 7 days after deletion (7 days − 1 s) and not after (7 days + 1 ms)', async () => {
    const { admin, o, collection, space } = await setup();
    const late = await createSpace(admin, o, { title: 'Late', parent: collection.id });
    expectOk(await admin.rest('DELETE', spacePath(space.id)), 204, 'deleteSpaceById');
    expectOk(await admin.rest('DELETE', spacePath(late.id)), 204, 'deleteSpaceById');
    h.clock.advance(7 * DAY - 1000);
    expect(expectOk(await admin.rest('POST', `${spacePath(space.id)}/restore`), 200, 'restoreSpace').deletedAt).toBeUndefined();
    h.clock.advance(1000 + 1);
    restError(await admin.rest('POST', `${spacePath(late.id)}/restore`), 404);
    gqlError(await admin.gql(`mutation($s:String!){restoreSpace(spaceId:$s){id}}`, { s: late.id }), 'NOT_FOUND');
    expect((await h.db.space.findUnique({ where: { id: late.id } }))!.deletedAt).not.toBeNull();
    expect(ids(await collectionSpaces(admin, collection.id))).toEqual([space.id]);
  });

  it('the purge removes spaces and collections deleted more than 7 days ago, with their content, and keeps younger ones', async () => {
    const { admin, o, collection, space } = await setup();
    const young = await createSpace(admin, o, { title: 'Young' });
    const alive = await createSpace(admin, o, { title: 'Alive' });
    const standalone = await createSpace(admin, o, { title: 'Standalone' });
    await addPages(standalone.revision, [{ id: 'gone', title: 'Gone', path: 'gone' }]);
    expectOk(await admin.rest('DELETE', spacePath(standalone.id)), 204, 'deleteSpaceById');
    expectOk(await admin.rest('DELETE', `/v1/collections/${collection.id}`), 204, 'deleteCollectionById');
    h.clock.advance(DAY);
    expectOk(await admin.rest('DELETE', spacePath(young.id)), 204, 'deleteSpaceById');
    h.clock.advance(6 * DAY + 1);

    const purged = await purgeExpired(h.db, h.clock.now());
    expect(purged.spaces).toBeGreaterThanOrEqual(2);
    expect(purged.collections).toBeGreaterThanOrEqual(1);
    for (const id of [standalone.id, space.id]) expect(await h.db.space.findUnique({ where: { id } })).toBeNull();
    expect(await h.db.collection.findUnique({ where: { id: collection.id } })).toBeNull();
    expect(await h.db.revision.findUnique({ where: { id: standalone.revision } })).toBeNull();
    expect(await pageCount(h.db, standalone.revision)).toBe(0);
    restError(await admin.rest('GET', spacePath(standalone.id)), 404);
    restError(await admin.rest('POST', `${spacePath(standalone.id)}/restore`), 404);
    // Deleted 6 days ago: still stored and restorable; live spaces untouched.
    expect(await h.db.space.findUnique({ where: { id: young.id } })).not.toBeNull();
    expect(await h.db.space.findUnique({ where: { id: alive.id } })).toMatchObject({ deletedAt: null });
    expect(expectOk(await admin.rest('POST', `${spacePath(young.id)}/restore`), 200, 'restoreSpace').deletedAt).toBeUndefined();
    expect(ids(await orgSpaces(admin, o)).sort()).toEqual([young.id, alive.id].sort());
    // Idempotent.
    expect(await purgeExpired(h.db, h.clock.now())).toEqual({ spaces: 0, collections: 0 });
  });
});

describe('POST /spaces/{id}/duplicate (duplicateSpace)', () => {
  it('REST: a new space with the same settings and a copy of the content, right after the original', async () => {
    const { admin, o, collection, space } = await setup();
    const second = await createSpace(admin, o, { title: 'Second', parent: collection.id });
    const third = await createSpace(admin, o, { title: 'Third', parent: collection.id });
    expectOk(await admin.rest('PATCH', spacePath(space.id), { emoji: '📗', editMode: 'locked', defaultLevel: 'comment', visibility: 'unlisted' }), 200, 'updateSpaceById');
    await addPages(space.revision, [
      { id: 'intro', title: 'Intro', path: 'intro', markdown: 'Hello' },
      { id: 'deep', title: 'Deep', path: 'intro/deep', markdown: 'World' },
    ]);
    const res = await admin.rest('POST', `${spacePath(space.id)}/duplicate`);
    const copy = expectOk(res, 201, 'duplicateSpace');
    expect(res.headers.get('location')).toBe(copy.urls.location);
    expect(copy.id).not.toBe(space.id);
    expect(copy.title).toContain('Docs');
    expect(copy.title.length).toBeLessThanOrEqual(50);
    expect(copy).toMatchObject({ emoji: '📗', editMode: 'locked', defaultLevel: 'comment', visibility: 'unlisted', parent: collection.id, organization: o });
    expect(copy.revision).not.toBe(space.revision);
    expect(await pagesOf(copy.revision)).toEqual(await pagesOf(space.revision));
    expect((await pagesOf(copy.revision)).map((p) => p.title)).toEqual(['Deep', 'Intro']);
    expect(ids(await collectionSpaces(admin, collection.id))).toEqual([space.id, copy.id, second.id, third.id]);
    // The copy is independent of the original.
    const [changed] = await putDocuments(h.db, ['Changed']);
    await updatePageRow(h.db, copy.revision, 'intro', { documentHash: changed });
    expect((await pagesOf(space.revision)).find((p) => p.id === 'intro')!.markdown).toBe('Hello');
    // Duplicating the middle one places the copy right after it too.
    const secondCopy = expectOk(await admin.rest('POST', `${spacePath(second.id)}/duplicate`), 201, 'duplicateSpace');
    expect(ids(await collectionSpaces(admin, collection.id))).toEqual([space.id, copy.id, second.id, secondCopy.id, third.id]);
  });

  it("GraphQL: duplicateSpace; a 'create' member may duplicate", async () => {
    const { creator, space, collection } = await setup();
    await addPages(space.revision, [{ id: 'only', title: 'Only', path: 'only' }]);
    const data = gqlData(await creator.gql(`mutation($s:String!){duplicateSpace(spaceId:$s){id parent revision}}`, { s: space.id }), 'duplicateSpace');
    expect(data.parent).toBe(collection.id);
    expect(await pagesOf(data.revision)).toEqual([{ id: 'only', title: 'Only', path: 'only', markdown: '# Only' }]);
  });
});

describe('POST /spaces/{id}/move (moveSpace)', () => {
  it('keeps the order after several moves: before/after a space, after a collection, default end (REST and GraphQL lists)', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const col = await buildCollection(admin, o, { title: 'Col' });
    const spaces: { id: string }[] = [];
    for (const title of ['S1', 'S2', 'S3', 'S4']) spaces.push(await createSpace(admin, o, { title, parent: col.id }));
    const [a, b, c, d] = spaces.map((s) => s.id as string);
    const move = async (id: string, body: unknown) => expectOk(await admin.rest('POST', `${spacePath(id)}/move`, body), 200, 'moveSpace');
    const order = async () => ids(await collectionSpaces(admin, col.id));
    expect(await order()).toEqual([a, b, c, d]);
    await move(d, { parent: col.id, position: { before: { type: 'space', space: a } } });
    expect(await order()).toEqual([d, a, b, c]);
    await move(a, { parent: col.id, position: { after: { type: 'space', space: c } } });
    expect(await order()).toEqual([d, b, c, a]);
    await move(b, { parent: col.id });
    expect(await order()).toEqual([d, c, a, b]);
    // Position without parent: stays in its collection.
    await move(c, { position: { before: { type: 'space', space: d } } });
    expect(await order()).toEqual([c, d, a, b]);
    const nested = await buildCollection(admin, o, { title: 'Nested', parent: col.id });
    await move(b, { parent: col.id, position: { after: { type: 'collection', collection: nested.id } } });
    expect(await order()).toEqual([c, d, a, b]);
    await move(a, { parent: col.id, position: { before: { type: 'collection', collection: nested.id } } });
    expect(await order()).toEqual([c, d, a, b]);
    await move(d, { parent: col.id, position: { after: { type: 'collection', collection: nested.id } } });
    expect(await order()).toEqual([c, a, d, b]);
    const g = await admin.gql(`mutation($s:String!,$p:String,$pos:ContentPositionInput){moveSpace(spaceId:$s,parent:$p,position:$pos){id parent}}`, {
      s: b, p: col.id, pos: { before: { type: 'space', space: c } },
    });
    expect(gqlData(g, 'moveSpace')).toEqual({ id: b, parent: col.id });
    const expected = [b, c, a, d];
    expect(await order()).toEqual(expected);
    const graph = await admin.gql(`query($c:String!){collectionSpaces(collectionId:$c){items{id}} collection(collectionId:$c){spaces{items{id}}}}`, { c: col.id });
    expect(graph.body.data.collectionSpaces.items.map((i: any) => i.id)).toEqual(expected);
    expect(graph.body.data.collection.spaces.items.map((i: any) => i.id)).toEqual(expected);
    // Paging follows the same order.
    const page = expectOk(await admin.rest('GET', `/v1/collections/${col.id}/spaces?limit=3`), 200, 'listSpacesInCollectionById');
    const rest = expectOk(await admin.rest('GET', `/v1/collections/${col.id}/spaces?limit=3&page=${encodeURIComponent(page.next.page)}`), 200, 'listSpacesInCollectionById');
    expect([...ids(page), ...ids(rest)]).toEqual(expected);
  });

  it('moves between collections and to the top level; lists on both sides follow', async () => {
    const { admin, o, collection, space } = await setup();
    const target = await buildCollection(admin, o, { title: 'Target' });
    const there = await createSpace(admin, o, { title: 'There', parent: target.id });
    const moved = expectOk(await admin.rest('POST', `${spacePath(space.id)}/move`, { parent: target.id, position: { before: { type: 'space', space: there.id } } }), 200, 'moveSpace');
    expect(moved).toMatchObject({ id: space.id, parent: target.id });
    expect((await collectionSpaces(admin, collection.id)).count).toBe(0);
    expect(ids(await collectionSpaces(admin, target.id))).toEqual([space.id, there.id]);
    const top = expectOk(await admin.rest('POST', `${spacePath(space.id)}/move`, { parent: null }), 200, 'moveSpace');
    expect(top.parent).toBeUndefined();
    expect(ids(await collectionSpaces(admin, target.id))).toEqual([there.id]);
  });

  it('refuses a position naming an item not in the target parent, and an unknown or foreign parent (400)', async () => {
    const { admin, o, collection, space } = await setup();
    const target = await buildCollection(admin, o, { title: 'Target' });
    const elsewhere = await createSpace(admin, o, { title: 'Elsewhere' });
    restError(await admin.rest('POST', `${spacePath(space.id)}/move`, { parent: target.id, position: { after: { type: 'space', space: elsewhere.id } } }), 400, 'position');
    restError(await admin.rest('POST', `${spacePath(space.id)}/move`, { parent: target.id, position: { before: { type: 'collection', collection: collection.id } } }), 400, 'position');
    restError(await admin.rest('POST', `${spacePath(space.id)}/move`, { position: { before: { type: 'space', space: space.id } } }), 400, 'position');
    restError(await admin.rest('POST', `${spacePath(space.id)}/move`, { parent: 'unknownColl000000001' }), 400, 'parent');
    const other = await buildOrganization(h, 'Other');
    const foreign = await buildCollection(other.admin, other.organizationId);
    restError(await admin.rest('POST', `${spacePath(space.id)}/move`, { parent: foreign.id }), 400, 'parent');
    gqlError(await admin.gql(`mutation($s:String!,$p:String){moveSpace(spaceId:$s,parent:$p){id}}`, { s: space.id, p: foreign.id }), 'BAD_REQUEST', 'parent');
    expect((await h.db.space.findUnique({ where: { id: space.id } }))!.collectionId).toBe(collection.id);
  });
});

describe('POST /spaces/{id}/transfer', () => {
  async function twoOrgs() {
    const { admin, o, collection, space } = await setup();
    const stays = await createSpace(admin, o, { title: 'Stays' });
    const created = await admin.rest('POST', '/v1/orgs', { title: 'Target Org' });
    expect(created.status).toBe(201);
    return { admin, o, collection, space, stays, target: created.body.id as string };
  }

  it('REST: keeps the ID and content; the space lists under the target and not the source; counts update', async () => {
    const { admin, o, collection, space, stays, target } = await twoOrgs();
    await addPages(space.revision, [{ id: 'pg', title: 'Page', path: 'page' }]);
    expectOk(await admin.rest('PATCH', spacePath(space.id), { visibility: 'in-collection' }), 200, 'updateSpaceById');
    expect((await orgSpaces(admin, target)).count).toBe(0);
    const res = await admin.rest('POST', `${spacePath(space.id)}/transfer`, { organization: target });
    const moved = expectOk(res);
    expect(moved).toMatchObject({ object: 'space', id: space.id, organization: target, revision: space.revision, visibility: 'private' });
    expect(moved.parent).toBeUndefined();
    expectGitBookShape('getSpaceById', 200, moved);
    expect(await orgSpaces(admin, o)).toMatchObject({ count: 1, items: [{ id: stays.id }] });
    expect((await collectionSpaces(admin, collection.id)).count).toBe(0);
    expect(await orgSpaces(admin, target)).toMatchObject({ count: 1, items: [{ id: space.id, organization: target }] });
    expect(await pagesOf(space.revision)).toEqual([{ id: 'pg', title: 'Page', path: 'page', markdown: '# Page' }]);

    // And back, into a collection of the source organization.
    const back = expectOk(await admin.rest('POST', `${spacePath(space.id)}/transfer`, { organization: o, collection: collection.id }));
    expect(back).toMatchObject({ id: space.id, organization: o, parent: collection.id });
    expect(ids(await collectionSpaces(admin, collection.id))).toEqual([space.id]);
    expect((await orgSpaces(admin, target)).count).toBe(0);
  });

  it('GraphQL: transferSpace', async () => {
    const { admin, o, space, target } = await twoOrgs();
    const data = gqlData(await admin.gql(`mutation($s:String!,$t:String!){transferSpace(spaceId:$s,organization:$t){id organization parent}}`, { s: space.id, t: target }), 'transferSpace');
    expect(data).toEqual({ id: space.id, organization: target, parent: null });
    expect(gqlData(await admin.gql(`query($o:String!){organizationSpaces(organizationId:$o){count}}`, { o }), 'organizationSpaces').count).toBe(1);
  });

  it('needs create in both organizations (403), membership of the target (404) and a collection of the target (400)', async () => {
    const { admin, o, collection, space, target } = await twoOrgs();
    // Admin here, only 'read' in the target.
    const { admin: otherOwner, organizationId: readOnly } = await buildOrganization(h, 'Read Only');
    await addMember(h, readOnly, admin, 'read');
    restError(await admin.rest('POST', `${spacePath(space.id)}/transfer`, { organization: readOnly }), 403);
    gqlError(await admin.gql(`mutation($s:String!,$t:String!){transferSpace(spaceId:$s,organization:$t){id}}`, { s: space.id, t: readOnly }), 'FORBIDDEN');
    // Admin of the space (its defaultLevel) and of the target, but only 'read' in the source.
    const reader = await buildMember(h, o, 'read');
    await addMember(h, target, reader, 'admin');
    expectOk(await admin.rest('PATCH', spacePath(space.id), { defaultLevel: 'admin' }), 200, 'updateSpaceById');
    expect((await getSpace(reader, space.id)).permissions.admin).toBe(true);
    restError(await reader.rest('POST', `${spacePath(space.id)}/transfer`, { organization: target }), 403);
    // Not a member of the target: unknown to the caller.
    const notMine = await otherOwner.rest('POST', '/v1/orgs', { title: 'Not Mine' });
    restError(await admin.rest('POST', `${spacePath(space.id)}/transfer`, { organization: notMine.body.id }), 404);
    restError(await admin.rest('POST', `${spacePath(space.id)}/transfer`, {}), 400, 'organization');
    // A collection of another organization than the target.
    restError(await admin.rest('POST', `${spacePath(space.id)}/transfer`, { organization: target, collection: collection.id }), 400, 'collection');
    expect(await h.db.space.findUnique({ where: { id: space.id } })).toMatchObject({ organizationId: o, collectionId: collection.id });
  });
});

describe('GET /spaces/{id}/links', () => {
  async function linked() {
    const { admin, o, reader, space } = await setup();
    const inApp = `${h.config.appUrl}/o/${o}/s/${space.id}/`;
    // Bodies as the revision writer stores them: links it resolved to a page as `/pages/<id>`; one it
    // could not resolve (`missing.md`) as written, and broken.
    await addPages(space.revision, [
      { id: 'p-intro', title: 'Intro', path: 'intro', markdown: `See [setup](/pages/p-setup), [gone](missing.md), [site](https://example.com/docs) and [app](${inApp}).` },
      { id: 'p-setup', title: 'Setup', path: 'guide/setup', markdown: 'Back to [intro](/pages/p-intro#top) or [the site](https://example.com/docs).' },
    ]);
    return { admin, o, reader, space, inApp };
  }

  it('REST: every link target with its status and locations, stats over all links, and the status filter', async () => {
    const { reader, space, inApp } = await linked();
    const at = (page: string) => ({ kind: 'page', page, space: space.id });
    const intro = { status: 'ok', relation: 'reference', targetReference: at('p-intro'), locationReferences: [at('p-setup')] };
    const setupLink = { status: 'ok', relation: 'reference', targetReference: at('p-setup'), locationReferences: [at('p-intro')] };
    const app = { status: 'in-app', relation: 'reference', targetReference: { kind: 'url', url: inApp }, locationReferences: [at('p-intro')] };
    const site = { status: 'ok', relation: 'reference', targetReference: { kind: 'url', url: 'https://example.com/docs' }, locationReferences: [at('p-intro'), at('p-setup')] };
    const broken = { status: 'broken', relation: 'reference', targetReference: { kind: 'url', url: 'missing.md' }, locationReferences: [at('p-intro')] };
    const stats = { total: 5, broken: { total: 1, changeRequest: 0 } };
    const list = async (query = '') => expectOk(await reader.rest('GET', `${spacePath(space.id)}/links${query}`));

    const all = await list();
    expect(all.count).toBe(5);
    expect(all.stats).toEqual(stats);
    expect(all.items).toHaveLength(5);
    for (const item of [intro, setupLink, app, site, broken]) expect(all.items).toContainEqual(item);
    expect(all.next).toBeUndefined();

    const okOnly = await list('?status=ok');
    expect(okOnly.count).toBe(3);
    expect(okOnly.stats).toEqual(stats);
    expect(okOnly.items).toHaveLength(3);
    for (const item of [intro, setupLink, site]) expect(okOnly.items).toContainEqual(item);
    expect(await list('?status=broken')).toMatchObject({ count: 1, items: [broken], stats });
    expect(await list('?status=in-app')).toMatchObject({ count: 1, items: [app], stats });

    // Paging through all of them returns each once.
    const first = await list('?limit=2');
    expect(first.items).toHaveLength(2);
    const second = await list(`?limit=2&page=${encodeURIComponent(first.next.page)}`);
    const third = await list(`?limit=2&page=${encodeURIComponent(second.next.page)}`);
    expect(third.next).toBeUndefined();
    expect([...first.items, ...second.items, ...third.items]).toEqual(all.items);
  });

  it('limits and the status enum: 400 naming the parameter', async () => {
    const { reader, space } = await linked();
    expect(expectOk(await reader.rest('GET', `${spacePath(space.id)}/links?limit=1000`)).count).toBe(5);
    restError(await reader.rest('GET', `${spacePath(space.id)}/links?limit=1001`), 400, 'limit');
    restError(await reader.rest('GET', `${spacePath(space.id)}/links?status=fine`), 400, 'status');
  });

  it('GraphQL: spaceLinks with the filter', async () => {
    const { reader, space, inApp } = await linked();
    const q = `query($s:String!,$st:LinkStatus){spaceLinks(spaceId:$s,status:$st){count stats{total broken{total changeRequest}} items{status relation targetReference{kind url page} locationReferences{page}}}}`;
    const all = gqlData(await reader.gql(q, { s: space.id }), 'spaceLinks');
    expect(all.count).toBe(5);
    expect(all.stats).toEqual({ total: 5, broken: { total: 1, changeRequest: 0 } });
    const app = gqlData(await reader.gql(q, { s: space.id, st: 'in-app' }), 'spaceLinks');
    expect(app.items).toEqual([{ status: 'in-app', relation: 'reference', targetReference: { kind: 'url', url: inApp, page: null }, locationReferences: [{ page: 'p-intro' }] }]);
    const broken = gqlData(await reader.gql(q, { s: space.id, st: 'broken' }), 'spaceLinks');
    expect(broken.items.map((i: any) => i.targetReference.url)).toEqual(['missing.md']);
    gqlError(await reader.gql(q, { s: space.id, st: 'fine' }), 'BAD_REQUEST');
  });

  it('an empty space has no links', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await createSpace(admin, o);
    expect(expectOk(await admin.rest('GET', `${spacePath(space.id)}/links`))).toEqual({ count: 0, items: [], stats: { total: 0, broken: { total: 0, changeRequest: 0 } } });
  });
});

describe('GET /orgs/{o}/members/{u}/spaces (listSpacesForOrganizationMember)', () => {
  it("REST: {permission, space} items with the member's effective level, newest first by default", async () => {
    const { admin, o, reader, space } = await setup();
    const editable = await createSpace(admin, o, { title: 'Editable' });
    expectOk(await admin.rest('PATCH', spacePath(editable.id), { defaultLevel: 'edit' }), 200, 'updateSpaceById');
    const commentCol = await buildCollection(admin, o, { title: 'Comments' });
    expectOk(await admin.rest('PATCH', `/v1/collections/${commentCol.id}`, { defaultLevel: 'comment' }), 200, 'updateCollectionById');
    const inherited = await createSpace(admin, o, { title: 'Inherited', parent: commentCol.id });
    const path = `/v1/orgs/${o}/members/${reader.userId}/spaces`;
    const list = expectOk(await admin.rest('GET', path), 200, 'listSpacesForOrganizationMember');
    expect(list.count).toBe(3);
    expect(list.items.map((i: any) => [i.space.id, i.permission])).toEqual([
      [inherited.id, 'comment'],
      [editable.id, 'edit'],
      [space.id, 'read'],
    ]);
    expect(list.items[2].space).toMatchObject({ object: 'space', id: space.id, title: 'Docs', organization: o });
    // The member may list their own spaces; asc order reverses.
    const own = expectOk(await reader.rest('GET', `${path}?order=asc`), 200, 'listSpacesForOrganizationMember');
    expect(own.items.map((i: any) => i.space.id)).toEqual([space.id, editable.id, inherited.id]);
    // The admin's own level is admin everywhere.
    const mine = expectOk(await admin.rest('GET', `/v1/orgs/${o}/members/${admin.userId}/spaces`), 200, 'listSpacesForOrganizationMember');
    expect(mine.items.map((i: any) => i.permission)).toEqual(['admin', 'admin', 'admin']);
    const page = expectOk(await admin.rest('GET', `${path}?limit=2`), 200, 'listSpacesForOrganizationMember');
    expect(page.items).toHaveLength(2);
    const rest = expectOk(await admin.rest('GET', `${path}?limit=2&page=${encodeURIComponent(page.next.page)}`), 200, 'listSpacesForOrganizationMember');
    expect(rest.items.map((i: any) => i.space.id)).toEqual([space.id]);
    expect(expectOk(await admin.rest('GET', `${path}?limit=1000`), 200, 'listSpacesForOrganizationMember').count).toBe(3);
    restError(await admin.rest('GET', `${path}?limit=1001`), 400, 'limit');
    restError(await admin.rest('GET', `${path}?order=sideways`), 400, 'order');
    restError(await admin.rest('GET', `/v1/orgs/${o}/members/${UNKNOWN_USER}/spaces`), 404);
  });

  it('a guest reaches only the spaces granted to them, with the granted level', async () => {
    const { admin, o, space } = await setup();
    const granted = await createSpace(admin, o, { title: 'Granted' });
    const guest = await buildMember(h, o, null, 'Guest');
    await h.db.spaceUserGrant.create({ data: { spaceId: granted.id, organizationId: o, userId: guest.userId, role: 'comment' } });
    const own = expectOk(await guest.rest('GET', `/v1/orgs/${o}/members/${guest.userId}/spaces`), 200, 'listSpacesForOrganizationMember');
    expect(own.count).toBe(1);
    expect(own.items).toEqual([{ permission: 'comment', space: expect.objectContaining({ id: granted.id, title: 'Granted' }) }]);
    expect(own.items[0].space.permissions).toEqual({ view: true, access: true, admin: false, viewInviteLinks: false, edit: false, triggerGitSync: false, comment: true, merge: false, review: false, installIntegration: false });
    const seenByAdmin = expectOk(await admin.rest('GET', `/v1/orgs/${o}/members/${guest.userId}/spaces`), 200, 'listSpacesForOrganizationMember');
    expect(seenByAdmin.items.map((i: any) => [i.space.id, i.permission])).toEqual([[granted.id, 'comment']]);
    expect(await orgSpaces(guest, o)).toMatchObject({ count: 1, items: [{ id: granted.id }] });
    expect((await getSpace(guest, granted.id)).id).toBe(granted.id);
    restError(await guest.rest('GET', spacePath(space.id)), 404);
    restError(await guest.rest('PATCH', spacePath(granted.id), { title: 'No' }), 403);
  });

  it('GraphQL: organizationMemberSpaces', async () => {
    const { admin, o, reader, space } = await setup();
    const q = `query($o:String!,$u:String!){organizationMemberSpaces(organizationId:$o,userId:$u,order:asc){count items{permission space{id title}}}}`;
    expect(gqlData(await admin.gql(q, { o, u: reader.userId }), 'organizationMemberSpaces')).toEqual({
      count: 1,
      items: [{ permission: 'read', space: { id: space.id, title: 'Docs' } }],
    });
    gqlError(await reader.gql(q, { o, u: admin.userId }), 'FORBIDDEN');
  });
});

describe('access levels', () => {
  const ROLES: Role[] = ['read', 'comment', 'edit', 'review', 'create', 'admin'];
  const rank = (r: Role) => ROLES.indexOf(r);

  it('the permissions object of each role matches what the server lets the member do', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    for (const role of ROLES) {
      const member = await buildMember(h, o, role);
      const space = await createSpace(admin, o, { title: `For ${role}` });
      const perms = (await getSpace(member, space.id)).permissions;
      expect(perms, role).toEqual({
        view: true,
        access: true,
        comment: rank(role) >= rank('comment'),
        edit: rank(role) >= rank('edit'),
        merge: rank(role) >= rank('review'),
        triggerGitSync: rank(role) >= rank('review'),
        review: rank(role) >= rank('review'),
        admin: role === 'admin',
        viewInviteLinks: role === 'admin',
        installIntegration: role === 'admin',
      });
      const graph = gqlData(await member.gql(`query($s:String!){space(spaceId:$s){permissions{view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration}}}`, { s: space.id }), 'space');
      expect(graph.permissions, role).toEqual(perms);
      expect((await member.rest('PATCH', spacePath(space.id), { title: 'Edited' })).status, role).toBe(perms.edit ? 200 : 403);
      expect((await member.rest('PATCH', spacePath(space.id), { defaultLevel: 'read' })).status, role).toBe(perms.admin ? 200 : 403);
      expect((await member.rest('POST', `${spacePath(space.id)}/move`, { parent: null })).status, role).toBe(perms.admin ? 200 : 403);
      const org = (await member.rest('GET', `/v1/orgs/${o}`)).body;
      expect((await member.rest('POST', `${spacePath(space.id)}/duplicate`)).status, role).toBe(org.permissions.createContent ? 201 : 403);
      expect((await member.rest('DELETE', spacePath(space.id))).status, role).toBe(perms.admin ? 204 : 403);
      const listed = expectOk(await admin.rest('GET', `/v1/orgs/${o}/members/${member.userId}/spaces`), 200, 'listSpacesForOrganizationMember');
      expect(listed.items.every((i: any) => i.permission === role), role).toBe(true);
    }
  });

  it('levels inherit through nested collections, and the stronger level wins', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const reader = await buildMember(h, o, 'read');
    const reviewer = await buildMember(h, o, 'review');
    const outer = await buildCollection(admin, o, { title: 'Outer' });
    const inner = await buildCollection(admin, o, { title: 'Inner', parent: outer.id });
    const space = await createSpace(admin, o, { title: 'Deep', parent: inner.id });
    expectOk(await admin.rest('PATCH', `/v1/collections/${outer.id}`, { defaultLevel: 'edit' }), 200, 'updateCollectionById');
    expect((await getSpace(reader, space.id)).permissions).toEqual({ view: true, access: true, admin: false, viewInviteLinks: false, edit: true, triggerGitSync: false, comment: true, merge: false, review: false, installIntegration: false });
    expect(expectOk(await reader.rest('PATCH', spacePath(space.id), { title: 'Edited by reader' }), 200, 'updateSpaceById').title).toBe('Edited by reader');
    // The reviewer's own role is stronger than the inherited level.
    expect((await getSpace(reviewer, space.id)).permissions).toMatchObject({ edit: true, review: true, merge: true, admin: false });
    // Collection permissions follow the same levels.
    expect(expectOk(await reader.rest('GET', `/v1/collections/${inner.id}`), 200, 'getCollectionById').permissions).toEqual({ admin: false, create: false });
    expectOk(await admin.rest('PATCH', `/v1/collections/${outer.id}`, { defaultLevel: 'create' }), 200, 'updateCollectionById');
    expect(expectOk(await reader.rest('GET', `/v1/collections/${inner.id}`), 200, 'getCollectionById').permissions).toEqual({ admin: false, create: true });
    expect((await createSpace(reader, o, { title: 'By reader', parent: inner.id })).parent).toBe(inner.id);
    // Moving the space out of the collections drops the inherited level.
    expectOk(await admin.rest('POST', `${spacePath(space.id)}/move`, { parent: null }), 200, 'moveSpace');
    expect((await getSpace(reader, space.id)).permissions.edit).toBe(false);
    restError(await reader.rest('PATCH', spacePath(space.id), { title: 'Nope' }), 403);
  });
});
