import { describe, expect, it } from 'vitest';
import { purgeExpired } from '../../src/modules/spaces/space.lifecycle.ts';
import { expectGitBookShape, expectOk, gqlData, gqlError, masked, restError } from '../support/assertions.ts';
import { putDocuments } from '../../src/modules/content/store/document-store.ts';
import { addMember, buildCollection, buildMember, buildOrganization } from '../factories.ts';
import { useHarness } from '../support/harness.ts';
import { pageCount, updatePageRow } from '../support/content-rows.ts';
import { UNKNOWN_SPACE, DAY, spacePath, ids, spaceKit } from './space-kit.ts';

const h = useHarness();

const { createSpace, setup, getSpace, collectionSpaces, orgSpaces, addPages, pagesOf } = spaceKit(h);

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
