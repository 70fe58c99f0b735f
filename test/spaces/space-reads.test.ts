import { describe, expect, it } from 'vitest';
import { expectOk, gqlData, gqlError, restError } from '../support/assertions.ts';
import { buildCollection, buildMember, buildOrganization } from '../factories.ts';
import { useHarness } from '../support/harness.ts';
import { UNKNOWN_USER, spacePath, spaceKit } from './space-kit.ts';

const h = useHarness();

const { createSpace, setup, getSpace, orgSpaces, addPages } = spaceKit(h);

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
