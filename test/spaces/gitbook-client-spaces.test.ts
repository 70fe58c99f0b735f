// The official client (`GitBookAPI` from @gitbook/api) driving collections and spaces on a real HTTP
// listener: the client's own URL building, JSON bodies, parsing and error handling all go over the wire.
import { GitBookAPI, MemberRole, SpaceEditMode } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { expectApiError, useClientServer } from '../support/client-server.ts';
import { addPages, pagesOf } from '../factories.ts';
import { pageCount } from '../support/content-rows.ts';

const s = useClientServer();
const newUser = (displayName: string) => s.newUser(displayName);

describe('official GitBookAPI client: collections and spaces', () => {
  it('drives createCollection, createSpace, get/update/move/duplicate/delete/restore and the collection lists', async () => {
    const ada = await newUser('Ada');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Content Co' })).data;

    // createCollection
    const created = await api.orgs.createCollection(org.id, { title: 'Guides' });
    expect(created.status).toBe(201);
    const collection = created.data;
    expect(collection).toMatchObject({ object: 'collection', title: 'Guides', organization: org.id, defaultLevel: 'read' });
    expect(collection.urls.location).toBe(`${s.endpoint}/v1/collections/${collection.id}`);
    expect(created.headers.get('location')).toBe(collection.urls.location);
    expect(collection.permissions).toMatchObject({ admin: true, create: true });
    const nested = (await api.orgs.createCollection(org.id, { title: 'Nested', parent: collection.id })).data;
    expect(nested.parent).toBe(collection.id);

    // getCollectionById
    const gotCollection = await api.collections.getCollectionById(collection.id);
    expect(gotCollection.status).toBe(200);
    expect(gotCollection.data).toMatchObject({ id: collection.id, title: 'Guides', organization: org.id });
    expect(gotCollection.data.parent).toBeUndefined();

    // createSpace (with every documented input)
    s.clock.advance(1000);
    const createdSpace = await api.orgs.createSpace(org.id, { title: 'Handbook', emoji: '📘', parent: collection.id, editMode: SpaceEditMode.Live });
    expect(createdSpace.status).toBe(201);
    const space = createdSpace.data;
    expect(space).toMatchObject({
      object: 'space', title: 'Handbook', emoji: '📘', visibility: 'private', editMode: 'live', organization: org.id, parent: collection.id,
      defaultLevel: 'read', comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0,
    });
    expect(space.revision).toEqual(expect.any(String));
    expect(space.urls.location).toBe(`${s.endpoint}/v1/spaces/${space.id}`);
    expect(createdSpace.headers.get('location')).toBe(space.urls.location);
    expect(space.permissions).toMatchObject({ access: true, admin: true, edit: true });
    s.clock.advance(1000);
    const second = (await api.orgs.createSpace(org.id, { title: 'Second', parent: collection.id })).data;

    // getSpaceById
    const got = await api.spaces.getSpaceById(space.id);
    expect(got.status).toBe(200);
    expect(got.data).toMatchObject({ id: space.id, title: 'Handbook', revision: space.revision, parent: collection.id });
    expect(got.data.deletedAt).toBeUndefined();

    // updateSpaceById, read back
    const updated = await api.spaces.updateSpaceById(space.id, { title: 'Handbook v2', editMode: SpaceEditMode.Locked, defaultLevel: MemberRole.Comment, emoji: '📗' });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ id: space.id, title: 'Handbook v2', editMode: 'locked', defaultLevel: 'comment', emoji: '📗' });
    expect((await api.spaces.getSpaceById(space.id)).data).toMatchObject({ title: 'Handbook v2', editMode: 'locked' });

    // listSpacesInCollectionById: creation order
    const listed = await api.collections.listSpacesInCollectionById(collection.id);
    expect(listed.status).toBe(200);
    expect(listed.data.count).toBe(2);
    expect(listed.data.items.map((s) => s.id)).toEqual([space.id, second.id]);
    const paged = await api.collections.listSpacesInCollectionById(collection.id, { limit: 1 });
    expect(paged.data.items.map((s) => s.id)).toEqual([space.id]);
    const nextPage = await api.collections.listSpacesInCollectionById(collection.id, { limit: 1, page: paged.data.next!.page });
    expect(nextPage.data.items.map((s) => s.id)).toEqual([second.id]);

    // moveSpace: before the other one, then into the nested collection, then to the top level
    const moved = await api.spaces.moveSpace(second.id, { parent: collection.id, position: { before: { type: 'space', space: space.id } } });
    expect(moved.status).toBe(200);
    expect(moved.data).toMatchObject({ id: second.id, parent: collection.id });
    expect((await api.collections.listSpacesInCollectionById(collection.id)).data.items.map((s) => s.id)).toEqual([second.id, space.id]);
    expect((await api.spaces.moveSpace(second.id, { parent: nested.id })).data.parent).toBe(nested.id);
    expect((await api.collections.listSpacesInCollectionById(nested.id)).data.items.map((s) => s.id)).toEqual([second.id]);
    const top = await api.spaces.moveSpace(second.id, { parent: null });
    expect(top.data.parent).toBeUndefined();
    expect((await api.collections.listSpacesInCollectionById(nested.id)).data.count).toBe(0);
    await expectApiError(api.spaces.moveSpace(second.id, { parent: collection.id, position: { after: { type: 'space', space: 'unknownSpace00000001' } } }), 400);

    // duplicateSpace: same settings and content, right after the original
    await addPages(s.store.database.prisma, space.revision, [{ id: 'welcome', title: 'Welcome', path: 'welcome', markdown: '# Welcome' }]);
    const third = (await api.orgs.createSpace(org.id, { title: 'Third', parent: collection.id })).data;
    const duplicated = await api.spaces.duplicateSpace(space.id);
    expect([200, 201]).toContain(duplicated.status);
    const copy = duplicated.data;
    expect(copy.id).not.toBe(space.id);
    expect(copy).toMatchObject({ emoji: '📗', editMode: 'locked', defaultLevel: 'comment', parent: collection.id, organization: org.id });
    expect(copy.revision).not.toBe(space.revision);
    const copiedPages = await pagesOf(s.store.database.prisma, copy.revision);
    expect(copiedPages.map((p) => [p.id, p.title, p.markdown])).toEqual([['welcome', 'Welcome', '# Welcome']]);
    expect((await api.collections.listSpacesInCollectionById(collection.id)).data.items.map((s) => s.id)).toEqual([space.id, copy.id, third.id]);

    // deleteSpaceById: "No Content"; hidden from lists, still readable with deletedAt by its admin
    const deleted = await api.spaces.deleteSpaceById(space.id);
    expect(deleted.status).toBe(204);
    expect(deleted.data).toBeNull();
    expect((await api.collections.listSpacesInCollectionById(collection.id)).data.items.map((s) => s.id)).toEqual([copy.id, third.id]);
    const trashed = await api.spaces.getSpaceById(space.id);
    expect(trashed.data.deletedAt).toBe(s.clock.now().toISOString());

    // restoreSpace: back in its collection with its content
    const restored = await api.spaces.restoreSpace(space.id);
    expect(restored.status).toBe(200);
    expect(restored.data).toMatchObject({ id: space.id, parent: collection.id, title: 'Handbook v2', revision: space.revision });
    expect(restored.data.deletedAt).toBeUndefined();
    expect(await pageCount(s.store.database.prisma, space.revision)).toBe(1);
    expect((await api.collections.listSpacesInCollectionById(collection.id)).data.count).toBe(3);

    // Past the 7-day window, restoring is refused.
    await api.spaces.deleteSpaceById(third.id);
    s.clock.advance(7 * 24 * 60 * 60 * 1000 + 1);
    await expectApiError(api.spaces.restoreSpace(third.id), 404);

    // The rest of the collection API through the client.
    const renamed = await api.collections.updateCollectionById(collection.id, { title: 'Manuals', description: 'All manuals', defaultLevel: MemberRole.Edit });
    expect(renamed.data).toMatchObject({ id: collection.id, title: 'Manuals', description: 'All manuals', defaultLevel: 'edit' });
    const all = await api.orgs.listCollectionsInOrganizationById(org.id);
    expect(all.data.count).toBe(2);
    const topOnly = await api.orgs.listCollectionsInOrganizationById(org.id, { nested: false });
    expect(topOnly.data.items.map((c) => c.id)).toEqual([collection.id]);
    await expectApiError(api.collections.moveCollection(collection.id, { parent: nested.id }), 400);
    const movedCollection = await api.collections.moveCollection(nested.id, { parent: null });
    expect(movedCollection.data.parent).toBeUndefined();
    expect((await api.orgs.listCollectionsInOrganizationById(org.id, { nested: false })).data.items.map((c) => c.id)).toEqual([collection.id, nested.id]);
    const orgSpaces = await api.orgs.listSpacesInOrganizationById(org.id);
    expect(orgSpaces.data.items.map((s) => s.id).sort()).toEqual([space.id, second.id, copy.id].sort());
  });

  it('transfers a collection with its spaces to another organization, keeping IDs', async () => {
    const { api } = await newUser('Grace');
    const source = (await api.orgs.createOrganization({ title: 'Source' })).data;
    const target = (await api.orgs.createOrganization({ title: 'Target' })).data;
    const collection = (await api.orgs.createCollection(source.id, { title: 'Moving' })).data;
    const space = (await api.orgs.createSpace(source.id, { title: 'Along', parent: collection.id })).data;
    const res = await api.collections.transferCollection(collection.id, { organization: target.id });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: collection.id, organization: target.id });
    expect((await api.spaces.getSpaceById(space.id)).data).toMatchObject({ id: space.id, organization: target.id, parent: collection.id });
    expect((await api.orgs.listCollectionsInOrganizationById(source.id)).data.count).toBe(0);
    expect((await api.orgs.listSpacesInOrganizationById(source.id)).data.count).toBe(0);
    expect((await api.orgs.listSpacesInOrganizationById(target.id)).data.items.map((s) => s.id)).toEqual([space.id]);
  });

  it('reports errors as GitBookAPIError: 400 for limits, 401 without a token, 403 without the level, 404 for strangers', async () => {
    const owner = await newUser('Owner');
    const org = (await owner.api.orgs.createOrganization({ title: 'Guarded' })).data;
    const collection = (await owner.api.orgs.createCollection(org.id, { title: 'C' })).data;
    const space = (await owner.api.orgs.createSpace(org.id, { title: 'S', parent: collection.id })).data;

    await expectApiError(owner.api.orgs.createSpace(org.id, { title: 'x'.repeat(51) }), 400);
    await expectApiError(owner.api.orgs.createCollection(org.id, { title: 'x'.repeat(51) }), 400);
    await expectApiError(owner.api.spaces.updateSpaceById(space.id, { emoji: 'not an emoji' }), 400);
    await expectApiError(owner.api.collections.updateCollectionById(collection.id, { description: 'd'.repeat(101) }), 400);
    await expectApiError(owner.api.collections.listSpacesInCollectionById(collection.id, { limit: 1001 }), 400);

    await expectApiError(new GitBookAPI({ endpoint: s.endpoint }).spaces.getSpaceById(space.id), 401);

    const reader = await newUser('Reader');
    await s.store.database.prisma.member.create({ data: { organizationId: org.id, userId: reader.id, role: 'read' } });
    expect((await reader.api.spaces.getSpaceById(space.id)).data.permissions).toMatchObject({ access: true, edit: false, admin: false });
    await expectApiError(reader.api.spaces.updateSpaceById(space.id, { title: 'Mine' }), 403);
    await expectApiError(reader.api.spaces.deleteSpaceById(space.id), 403);
    await expectApiError(reader.api.orgs.createSpace(org.id, { title: 'Mine' }), 403);
    await expectApiError(reader.api.spaces.duplicateSpace(space.id), 403);

    const stranger = await newUser('Stranger');
    await expectApiError(stranger.api.spaces.getSpaceById(space.id), 404);
    await expectApiError(stranger.api.collections.getCollectionById(collection.id), 404);
    await expectApiError(stranger.api.collections.listSpacesInCollectionById(collection.id), 404);
    await expectApiError(stranger.api.spaces.restoreSpace(space.id), 404);
    await expectApiError(stranger.api.spaces.moveSpace(space.id, { parent: null }), 404);
    expect((await owner.api.spaces.getSpaceById(space.id)).data).toMatchObject({ title: 'S', parent: collection.id });
  });
});
