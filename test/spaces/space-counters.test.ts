import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { buildOrganization } from '../factories.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

/** The counters on Space (kept by triggers) against counting the rows themselves. */
async function expectCountersMatchRows(spaceId: string, admin: { rest: (m: string, p: string) => Promise<any> }) {
  const [all, open, draft, comments] = await Promise.all([
    h.db.changeRequest.count({ where: { spaceId } }),
    h.db.changeRequest.count({ where: { spaceId, status: 'open' } }),
    h.db.changeRequest.count({ where: { spaceId, status: 'draft' } }),
    h.db.comment.count({ where: { spaceId, status: 'open', parentId: null } }),
  ]);
  const res = await admin.rest('GET', `/v1/spaces/${spaceId}`);
  expect(res.status).toBe(200);
  expect({ c: res.body.comments, a: res.body.changeRequests, o: res.body.changeRequestsOpen, d: res.body.changeRequestsDraft }).toEqual({
    c: comments,
    a: all,
    o: open,
    d: draft,
  });
}

describe('space counters (comments, change requests) follow the rows they count', () => {
  it('inserts, status changes and deletes (cascades included)', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Counters');
    const a = (await admin.rest('POST', `/v1/orgs/${o}/spaces`, { title: 'A' })).body;
    const b = (await admin.rest('POST', `/v1/orgs/${o}/spaces`, { title: 'B' })).body;
    const cr = async (spaceId: string, revision: string, number: number, status: 'draft' | 'open' | 'merged') =>
      h.db.changeRequest.create({ data: { id: newId(), spaceId, number, status, revisionId: revision, revisionInitialId: revision } });
    const crs = [await cr(a.id, a.revision, 1, 'draft'), await cr(a.id, a.revision, 2, 'open'), await cr(a.id, a.revision, 3, 'merged')];
    const top = await h.db.comment.create({ data: { id: newId(), spaceId: a.id, markdown: 'top' } });
    await h.db.comment.create({ data: { id: newId(), spaceId: a.id, markdown: 'reply', parentId: top.id } });
    const resolved = await h.db.comment.create({ data: { id: newId(), spaceId: a.id, markdown: 'r', changeRequestId: crs[1].id } });
    await expectCountersMatchRows(a.id, admin);
    expect((await admin.rest('GET', `/v1/spaces/${a.id}`)).body).toMatchObject({ comments: 2, changeRequests: 3, changeRequestsOpen: 1, changeRequestsDraft: 1 });

    await h.db.changeRequest.update({ where: { id: crs[0].id }, data: { status: 'open' } });
    await h.db.comment.update({ where: { id: resolved.id }, data: { status: 'resolved' } });
    await expectCountersMatchRows(a.id, admin);
    // Deleting a change request deletes its comments too (cascade): both counters follow.
    await h.db.changeRequest.delete({ where: { id: crs[1].id } });
    await h.db.comment.update({ where: { id: resolved.id }, data: { status: 'open' } }).catch(() => undefined);
    await expectCountersMatchRows(a.id, admin);
    await h.db.comment.deleteMany({ where: { id: top.id } });
    await expectCountersMatchRows(a.id, admin);

    const moved = await cr(b.id, b.revision, 1, 'open');
    await expectCountersMatchRows(b.id, admin);
    await h.db.$executeRawUnsafe(`UPDATE "ChangeRequest" SET "status" = 'draft' WHERE "id" = $1`, moved.id);
    await expectCountersMatchRows(b.id, admin);
    expect((await admin.rest('GET', `/v1/spaces/${b.id}`)).body).toMatchObject({ changeRequests: 1, changeRequestsOpen: 0, changeRequestsDraft: 1 });
  });
});
