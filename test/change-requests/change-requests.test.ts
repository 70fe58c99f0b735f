import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

const crsPath = (s: string) => `/v1/spaces/${s}/change-requests`;
const CR = 'object id number status subject createdBy { id } space revision revisionInitial comments outdated urls { app location }';

async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  const editor = await buildMember(h, o, 'edit');
  const commenter = await buildMember(h, o, 'comment');
  return { admin, o, space, editor, commenter };
}

describe('change requests: create, list, get, update', () => {
  it('REST: create answers 201 with Location, numbers 1, 2, …; get by ID or number; GitBook shapes', async () => {
    const { admin, space } = await setup();
    const res = await admin.rest('POST', crsPath(space.id), { subject: 'First' });
    const first = expectOk(res, 201, 'createChangeRequest');
    expect(res.headers.get('location')).toBe(first.urls.location);
    expect(first).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'draft',
      subject: 'First',
      createdBy: { id: admin.userId },
      space: space.id,
      revision: space.revision,
      revisionInitial: space.revision,
      comments: 0,
      outdated: false,
    });
    const second = expectOk(await admin.rest('POST', crsPath(space.id), {}), 201, 'createChangeRequest');
    expect([second.number, second.subject]).toEqual([2, '']);

    expect(expectOk(await admin.rest('GET', `${crsPath(space.id)}/${first.id}`), 200, 'getChangeRequestById')).toEqual(first);
    expect(expectOk(await admin.rest('GET', `${crsPath(space.id)}/1`), 200, 'getChangeRequestById')).toEqual(first);
    restError(await admin.rest('GET', `${crsPath(space.id)}/3`), 404);

    // The space's counters follow.
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}`))).toMatchObject({ changeRequests: 2, changeRequestsDraft: 2, changeRequestsOpen: 0 });
  });

  it('numbers are unique under concurrent creation', async () => {
    const { admin, space } = await setup();
    const created = await Promise.all(Array.from({ length: 8 }, () => admin.rest('POST', crsPath(space.id), {})));
    expect(created.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(created.map((r) => r.body.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('list: status (default open), creator, most recently updated first (orderBy), paging; GraphQL alike', async () => {
    const { admin, space, editor } = await setup();
    const a = expectOk(await admin.rest('POST', crsPath(space.id), { subject: 'a' }), 201);
    h.clock.advance(1000);
    const b = expectOk(await editor.rest('POST', crsPath(space.id), { subject: 'b' }), 201);
    h.clock.advance(1000);
    expectOk(await admin.rest('POST', crsPath(space.id), { subject: 'c' }), 201);
    expect(expectOk(await admin.rest('GET', crsPath(space.id)), 200, 'listChangeRequestsForSpace')).toEqual({ items: [], count: 0 });
    for (const cr of [a, b]) {
      h.clock.advance(1000);
      expectOk(await admin.rest('PATCH', `${crsPath(space.id)}/${cr.id}`, { status: 'open' }), 200, 'updateChangeRequestById');
    }
    const open = expectOk(await admin.rest('GET', crsPath(space.id)), 200, 'listChangeRequestsForSpace');
    expect(open.items.map((cr: { subject: string }) => cr.subject)).toEqual(['b', 'a']);
    const drafts = expectOk(await admin.rest('GET', `${crsPath(space.id)}?status=draft`));
    expect(drafts.items.map((cr: { subject: string }) => cr.subject)).toEqual(['c']);
    const mine = expectOk(await admin.rest('GET', `${crsPath(space.id)}?creator=${editor.userId}`));
    expect(mine.items.map((cr: { subject: string }) => cr.subject)).toEqual(['b']);
    // Contributors: the author, and whoever changes the content. The editor writes into "a".
    const subjects = async (query: string) => expectOk(await admin.rest('GET', `${crsPath(space.id)}?${query}`)).items.map((cr: { subject: string }) => cr.subject);
    expect(await subjects(`contributor=${editor.userId}`)).toEqual(['b']);
    h.clock.advance(1000);
    expectOk(await editor.rest('POST', `${crsPath(space.id)}/${a.id}/content`, { changes: [{ operation: 'insert_page', title: 'E', document: { markdown: 'e' } }] }));
    // GitBook's default order: the most recently updated first ("a" now); orderBy=createdAt: the newest.
    expect(await subjects(`contributor=${editor.userId}`)).toEqual(['a', 'b']);
    expect(await subjects(`contributor=${editor.userId}&orderBy=createdAt`)).toEqual(['b', 'a']);
    expect(await subjects(`contributor=${admin.userId}`)).toEqual(['a']);
    expect(await subjects(`contributor=${admin.userId}&creator=${editor.userId}`)).toEqual([]);
    const page1 = expectOk(await admin.rest('GET', `${crsPath(space.id)}?limit=1`));
    const page2 = expectOk(await admin.rest('GET', `${crsPath(space.id)}?limit=1&page=${page1.next.page}`));
    expect([...page1.items, ...page2.items].map((cr: { subject: string }) => cr.subject)).toEqual(['a', 'b']);
    restError(await admin.rest('GET', `${crsPath(space.id)}?status=closed`), 400, 'status');

    const graph = gqlData(await admin.gql(`query($s: String!) { spaceChangeRequests(spaceId: $s) { count items { ${CR} } } }`, { s: space.id }), 'spaceChangeRequests');
    expect(graph.items.map((cr: { subject: string }) => cr.subject)).toEqual(['a', 'b']);
  });

  it('update: subject (1..100), status draft ↔ open ↔ archived; archived and merged are not reopened (409)', async () => {
    const { admin, space } = await setup();
    const cr = expectOk(await admin.rest('POST', crsPath(space.id), { subject: 'x' }), 201);
    const path = `${crsPath(space.id)}/${cr.id}`;
    expect(expectOk(await admin.rest('PATCH', path, { subject: 'Better' }), 200, 'updateChangeRequestById').subject).toBe('Better');
    // GitBook's Prefer: return=minimal: the change is made, the answer is an empty 204.
    const minimal = await h.app.fetch(`http://localhost${path}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json', prefer: 'return=minimal' },
      body: JSON.stringify({ subject: 'Minimal' }),
    });
    expect([minimal.status, await minimal.text(), minimal.headers.get('preference-applied')]).toEqual([204, '', 'return=minimal']);
    expect((await h.db.changeRequest.findUniqueOrThrow({ where: { id: cr.id } })).subject).toBe('Minimal');
    expect(expectOk(await admin.rest('PATCH', path, { subject: 'Better' })).subject).toBe('Better');
    restError(await admin.rest('PATCH', path, { subject: 'x'.repeat(101) }), 400, 'subject');
    restError(await admin.rest('POST', crsPath(space.id), { subject: 'x'.repeat(101) }), 400, 'subject');
    restError(await admin.rest('PATCH', path, { status: 'merged' }), 400, 'status');
    expect(expectOk(await admin.rest('PATCH', path, { status: 'open' })).status).toBe('open');
    expect(expectOk(await admin.rest('PATCH', path, { status: 'draft' })).status).toBe('draft');
    expect(expectOk(await admin.rest('PATCH', path, { status: 'archived' })).status).toBe('archived');
    restError(await admin.rest('PATCH', path, { status: 'open' }), 409);
    await h.db.changeRequest.update({ where: { id: cr.id }, data: { status: 'merged' } });
    restError(await admin.rest('PATCH', path, { status: 'draft' }), 409);

    const graph = gqlData(
      await admin.gql(`mutation($s: String!) { createChangeRequest(spaceId: $s, subject: "g") { ${CR} } }`, { s: space.id }),
      'createChangeRequest',
    );
    const updated = gqlData(
      await admin.gql(`mutation($s: String!, $c: String!) { updateChangeRequest(spaceId: $s, changeRequestId: $c, status: open) { status subject } }`, {
        s: space.id,
        c: String(graph.number),
      }),
      'updateChangeRequest',
    );
    expect(updated).toEqual({ status: 'open', subject: 'g' });
  });

  it('outdated once the space moved on since the change request started', async () => {
    const { admin, space } = await setup();
    const cr = expectOk(await admin.rest('POST', crsPath(space.id), {}), 201);
    const next = await h.db.revision.create({ data: { id: 'moved-on-revision-0001', spaceId: space.id, parents: [space.revision] } });
    await h.db.space.update({ where: { id: space.id }, data: { revisionId: next.id } });
    expect(expectOk(await admin.rest('GET', `${crsPath(space.id)}/${cr.id}`)).outdated).toBe(true);
  });

  it('who may: readers read; opening and editing need edit; status is the author’s or an editor’s', async () => {
    const { admin, o, space, editor, commenter } = await setup();
    const reader = await buildMember(h, o, 'read');
    const cr = expectOk(await editor.rest('POST', crsPath(space.id), { subject: 'by editor' }), 201);
    expectOk(await reader.rest('GET', `${crsPath(space.id)}/${cr.id}`));
    restError(await commenter.rest('POST', crsPath(space.id), {}), 403);
    restError(await commenter.rest('PATCH', `${crsPath(space.id)}/${cr.id}`, { subject: 'no' }), 403);
    restError(await commenter.rest('PATCH', `${crsPath(space.id)}/${cr.id}`, { status: 'open' }), 403);
    // The author keeps control of its status after losing the edit level.
    await admin.rest('PATCH', `/v1/orgs/${o}/members/${editor.userId}`, { role: 'comment' });
    expect(expectOk(await editor.rest('PATCH', `${crsPath(space.id)}/${cr.id}`, { status: 'open' })).status).toBe('open');
    restError(await editor.rest('PATCH', `${crsPath(space.id)}/${cr.id}`, { subject: 'now no' }), 403);
  });
});

const OPS: RefusalOp<{ s: string; c: string }>[] = [
  { name: 'list change requests', rest: ({ s }) => ['GET', crsPath(s)], gql: ({ s }) => ['query($s: String!) { spaceChangeRequests(spaceId: $s) { count } }', { s }] },
  { name: 'get change request', rest: ({ s, c }) => ['GET', `${crsPath(s)}/${c}`], gql: ({ s, c }) => ['query($s: String!, $c: String!) { spaceChangeRequest(spaceId: $s, changeRequestId: $c) { id } }', { s, c }] },
  {
    name: 'create change request',
    rest: ({ s }) => ['POST', crsPath(s), { subject: 'x' }],
    gql: ({ s }) => ['mutation($s: String!) { createChangeRequest(spaceId: $s, subject: "x") { id } }', { s }],
    refuse: 'below edit',
  },
  {
    name: 'update change request',
    rest: ({ s, c }) => ['PATCH', `${crsPath(s)}/${c}`, { subject: 'y' }],
    gql: ({ s, c }) => ['mutation($s: String!, $c: String!) { updateChangeRequest(spaceId: $s, changeRequestId: $c, subject: "y") { id } }', { s, c }],
    refuse: 'below edit',
  },
];

refusalMatrix(OPS, {
  h,
  setup: async () => {
    const w = await setup();
    const cr = expectOk(await w.admin.rest('POST', crsPath(w.space.id), { subject: 'kept' }), 201);
    return { ...w, cr };
  },
  ids: (w) => ({ s: w.space.id, c: w.cr.id }),
  unknown: { s: 'unknownSpace00000001' },
  forbidden: async (w) => ({ callers: [w.commenter, await buildMember(h, w.o, 'read')] }),
  unchanged: async (w) => {
    const rows = await h.db.changeRequest.findMany({ where: { spaceId: w.space.id } });
    expect(rows.map((r) => [r.id, r.subject])).toEqual([[w.cr.id, 'kept']]);
  },
});
