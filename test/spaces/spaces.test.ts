import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/generated/prisma/client.ts';
import { expectOk, gqlData, gqlError, masked, restError } from '../support/assertions.ts';
import { addMember, buildCollection, buildMember, buildOrganization } from '../factories.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness } from '../support/harness.ts';
import { pageCount } from '../support/content-rows.ts';
import { SPACE, UNKNOWN_ORG, UNKNOWN_SPACE, UNKNOWN_USER, spacesPath, spacePath, ids, type Ids, spaceKit } from './space-kit.ts';

const h = useHarness();

const { createSpace, setup, getSpace, orgSpaces } = spaceKit(h);


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
