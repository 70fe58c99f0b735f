import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace, buildUser } from '../factories.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { useHarness } from '../support/harness.ts';

// GET /orgs/{o}/change-requests (GitBook's listChangeRequestsForOrganization): every readable space's
// change requests in one list, with the space list's filters and a few of the organization's own.
const h = useHarness();

const orgCrs = (o: string, query = '') => `/v1/orgs/${o}/change-requests${query}`;
const crsPath = (s: string) => `/v1/spaces/${s}/change-requests`;

async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const docs = await buildSpace(admin, o, { title: 'Docs' });
  const api = await buildSpace(admin, o, { title: 'API' });
  const editor = await buildMember(h, o, 'edit');
  const create = async (caller: typeof admin, spaceId: string, subject: string, status = 'open') => {
    const cr = expectOk(await caller.rest('POST', crsPath(spaceId), { subject }), 201);
    if (status !== 'draft') expectOk(await caller.rest('PATCH', `${crsPath(spaceId)}/${cr.id}`, { status }), 200);
    h.clock.advance(1000);
    return cr.id as string;
  };
  return { admin, o, docs, api, editor, create };
}
const ids = (list: { items: { id: string }[] }) => list.items.map((cr) => cr.id);

describe('GET /orgs/{o}/change-requests (listChangeRequestsForOrganization)', () => {
  it('every space, open by default, most recently updated first; status as a set; paging; GraphQL alike', async () => {
    const { admin, o, docs, api, editor, create } = await setup();
    const a = await create(admin, docs.id, 'a');
    const b = await create(editor, api.id, 'b');
    const draft = await create(admin, docs.id, 'draft', 'draft');
    const archived = await create(admin, api.id, 'old', 'archived');

    const open = expectOk(await admin.rest('GET', orgCrs(o)), 200, 'listChangeRequestsForOrganization');
    expect(ids(open)).toEqual([b, a]);
    expect(open.count).toBe(2);
    expect(open.items[0]).toMatchObject({ object: 'change-request', subject: 'b', space: api.id, status: 'open', createdBy: { id: editor.userId } });

    const several = expectOk(await admin.rest('GET', orgCrs(o, '?status=draft&status=archived&status=open')), 200, 'listChangeRequestsForOrganization');
    expect(ids(several)).toEqual([archived, draft, b, a]);
    expect(ids(expectOk(await admin.rest('GET', orgCrs(o, '?status=draft'))))).toEqual([draft]);

    // Touching one moves it up (updatedAt); createdAt keeps the creation order.
    expectOk(await admin.rest('PATCH', `${crsPath(docs.id)}/${a}`, { subject: 'a, again' }), 200);
    expect(ids(expectOk(await admin.rest('GET', orgCrs(o))))).toEqual([a, b]);
    expect(ids(expectOk(await admin.rest('GET', orgCrs(o, '?orderBy=createdAt'))))).toEqual([b, a]);

    // Keyset paging across spaces: every item once, the count of all of them on each page.
    const first = expectOk(await admin.rest('GET', orgCrs(o, '?status=open&status=draft&status=archived&limit=3')));
    expect(first.items).toHaveLength(3);
    expect(first.count).toBe(4);
    const second = expectOk(await admin.rest('GET', orgCrs(o, `?status=open&status=draft&status=archived&limit=3&page=${first.next.page}`)));
    expect(second.next).toBeUndefined();
    expect(new Set([...ids(first), ...ids(second)])).toEqual(new Set([a, b, draft, archived]));

    const query = `query($o: String!) { organizationChangeRequests(organizationId: $o, status: [open, draft]) { count items { id subject space } } }`;
    const graph = gqlData(await admin.gql(query, { o }), 'organizationChangeRequests');
    expect(graph.count).toBe(3);
    expect(graph.items.map((cr: { id: string }) => cr.id)).toEqual([a, draft, b]);
  });

  it('filters: space, creator, contributor, requested reviewer, site; topic and style-guide run find none here', async () => {
    const { admin, o, docs, api, editor, create } = await setup();
    const a = await create(admin, docs.id, 'a');
    const b = await create(editor, api.id, 'b');
    const list = async (query: string) => ids(expectOk(await admin.rest('GET', orgCrs(o, query)), 200, 'listChangeRequestsForOrganization'));

    expect(await list(`?space=${docs.id}`)).toEqual([a]);
    expect(await list(`?creator=${editor.userId}`)).toEqual([b]);
    expect(await list(`?contributor=${admin.userId}`)).toEqual([a]);
    expect(await list('?space=unknown-space')).toEqual([]);

    expectOk(await admin.rest('POST', `${crsPath(api.id)}/${b}/requested-reviewers`, { users: [admin.userId] }), 200);
    expect(await list(`?requestedReviewer=${admin.userId}`)).toEqual([b]);
    expect(await list(`?requestedReviewer=${editor.userId}`)).toEqual([]);

    const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'API site', spaces: [api.id] }), 201);
    expect(await list(`?site=${site.id}`)).toEqual([b]);
    expect(await list('?site=unknown-site')).toEqual([]);

    expect(await list('?topic=any-topic')).toEqual([]);
    expect(ids(expectOk(await admin.rest('GET', `${crsPath(docs.id)}?topic=any-topic`), 200, 'listChangeRequestsForSpace'))).toEqual([]);
    expect(ids(expectOk(await admin.rest('GET', crsPath(docs.id)), 200, 'listChangeRequestsForSpace'))).toEqual([a]);
    expect(await list('?styleguideRun=any-run')).toEqual([]);
    expect(await list('?finding=all')).toEqual([b, a]);
    expect(await list('?finding=none')).toEqual([b, a]);
  });

  it("each caller sees the change requests of the spaces they can read: a guest only its granted space's", async () => {
    const { admin, o, docs, api, create } = await setup();
    const a = await create(admin, docs.id, 'a');
    const b = await create(admin, api.id, 'b');
    const reader = await buildMember(h, o, 'read');
    expect(ids(expectOk(await reader.rest('GET', orgCrs(o))))).toEqual([b, a]);

    const guest = await buildMember(h, o, null);
    expect(expectOk(await guest.rest('GET', orgCrs(o)))).toEqual({ items: [], count: 0 });
    expectOk(await admin.rest('POST', `/v1/spaces/${api.id}/permissions`, { role: 'read', users: [guest.userId] }), 204);
    expect(ids(expectOk(await guest.rest('GET', orgCrs(o))))).toEqual([b]);
    // Asking for the other space by its ID does not reach it either.
    expect(ids(expectOk(await guest.rest('GET', orgCrs(o, `?space=${docs.id}`))))).toEqual([]);

    // A deleted space's change requests leave the list with it.
    expectOk(await admin.rest('DELETE', `/v1/spaces/${docs.id}`), 204);
    expect(ids(expectOk(await admin.rest('GET', orgCrs(o))))).toEqual([b]);
  });

  it('outsiders learn nothing (404, as for an unknown organization); bad arguments are 400 naming the field', async () => {
    const { admin, o } = await setup();
    const outsider = await buildUser(h);
    const unknown = restError(await outsider.rest('GET', orgCrs('no-such-org')), 404);
    expect(restError(await outsider.rest('GET', orgCrs(o)), 404)).toBe(unknown.replace('no-such-org', o));
    restError(await admin.rest('GET', orgCrs(o, '?status=closed')), 400, 'status');
    restError(await admin.rest('GET', orgCrs(o, '?orderBy=title')), 400, 'orderBy');
    restError(await admin.rest('GET', orgCrs(o, '?finding=some')), 400, 'finding');
    restError(await admin.rest('GET', orgCrs(o, `?creator=${'x'.repeat(65)}`)), 400, 'creator');
    restError(await admin.rest('GET', orgCrs(o, `?site=${'x'.repeat(65)}`)), 400, 'site');
    restError(await admin.rest('GET', orgCrs(o, '?status=open&status=open&status=open&status=open&status=open')), 400, 'status');
    restError(await admin.rest('GET', orgCrs(o, '?limit=0')), 400, 'limit');
  });
});
