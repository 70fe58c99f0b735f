import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller } from '../support/harness.ts';
import { pageRows } from '../support/content-rows.ts';

const h = useHarness();

const crsPath = (s: string) => `/v1/spaces/${s}/change-requests`;

async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  return { admin, o, space };
}

/** Opens a change request, applies `changes`, answers it (as the REST body). */
async function openWith(caller: Caller, spaceId: string, changes: object[] = []) {
  const cr = expectOk(await caller.rest('POST', crsPath(spaceId), {}), 201);
  if (!changes.length) return cr;
  return expectOk(await caller.rest('POST', `${crsPath(spaceId)}/${cr.id}/content`, { changes }));
}

async function merge(caller: Caller, spaceId: string, crId: string) {
  return expectOk(await caller.rest('POST', `${crsPath(spaceId)}/${crId}/merge`), 200, 'mergeChangeRequest');
}

/** The space's page tree as [title, path, children…]. */
async function spaceTree(caller: Caller, spaceId: string, crId?: string): Promise<any[]> {
  const base = crId ? `${crsPath(spaceId)}/${crId}` : `/v1/spaces/${spaceId}`;
  const shape = (pages: any[]): any[] => pages.map((p) => (p.pages.length ? [p.title, p.path, shape(p.pages)] : [p.title, p.path]));
  return shape(expectOk(await caller.rest('GET', `${base}/content/pages`)).pages);
}

async function bodyOf(caller: Caller, spaceId: string, pageId: string, crId?: string): Promise<string> {
  const base = crId ? `${crsPath(spaceId)}/${crId}` : `/v1/spaces/${spaceId}`;
  return expectOk(await caller.rest('GET', `${base}/content/page/${pageId}?format=markdown`)).markdown;
}

/** A space whose main content has one page "Doc" with five numbered lines; answers its page ID. */
async function spaceWithDoc() {
  const w = await setup();
  const seed = await openWith(w.admin, w.space.id, [{ operation: 'insert_page', ref: 'doc', title: 'Doc', document: { markdown: 'one\ntwo\nthree\nfour\nfive' } }]);
  await merge(w.admin, w.space.id, seed.id);
  const pageId = (await pageRows(h.db, (await h.db.space.findUniqueOrThrow({ where: { id: w.space.id } })).revisionId!)).find((p) => p.title === 'Doc')!.id;
  return { ...w, pageId };
}

describe('merge: the change request becomes the space content', () => {
  it('a new space revision with two parents; the change request is merged; GitBook shapes', async () => {
    const { admin, space } = await setup();
    const cr = await openWith(admin, space.id, [{ operation: 'insert_page', title: 'Hello', document: { markdown: '# Hello' } }]);
    const merged = await merge(admin, space.id, cr.id);
    expect(merged.result).toBe('merge');

    const after = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}`));
    expect(after.revision).toBe(merged.revision);
    const revision = await h.db.revision.findUniqueOrThrow({ where: { id: merged.revision } });
    expect(revision).toMatchObject({ type: 'merge', parents: [space.revision, cr.revision] });
    const content = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content`));
    // GitBook's revision pages carry a body; ours do not in trees (the rule), the rest validates.
    expect(validateGitBookResponse('getCurrentRevision', 200, content, { ignoreMissing: ['MarkdownDocument.markdown'] })).toEqual([]);
    expect(content).toMatchObject({ id: merged.revision, type: 'merge', parents: [space.revision, cr.revision], mergedFrom: { id: cr.id } });
    expect(await spaceTree(admin, space.id)).toEqual([['Hello', 'hello']]);
    // mergedFrom (with its author) is read in the revision's one statement: the route keeps its budget.
    const before = h.store.queries.length;
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content`)).mergedFrom.createdBy.id).toBe(admin.userId);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.store.queries.length - before).toBeLessThanOrEqual(3);

    const done = expectOk(await admin.rest('GET', `${crsPath(space.id)}/${cr.id}`), 200, 'getChangeRequestById');
    expect(done).toMatchObject({ status: 'merged', revisionMerged: merged.revision, outdated: false, mergedBy: { id: admin.userId } });
    expect(done.mergedAt).toBeDefined();
    restError(await admin.rest('POST', `${crsPath(space.id)}/${cr.id}/merge`), 409);
    restError(await admin.rest('POST', `${crsPath(space.id)}/${cr.id}/content`, { changes: [{ operation: 'delete_page', page: 'x' }] }), 409);
  });

  it('outdated change requests: update pulls main in (result update), then merges; a clean outdated one merges in one step', async () => {
    const { admin, space } = await setup();
    const first = await openWith(admin, space.id, [{ operation: 'insert_page', title: 'First', document: { markdown: 'first' } }]);
    const second = await openWith(admin, space.id, [{ operation: 'insert_page', title: 'Second', document: { markdown: 'second' } }]);
    const third = await openWith(admin, space.id, [{ operation: 'insert_page', title: 'Third', document: { markdown: 'third' } }]);
    const merged = await merge(admin, space.id, first.id);

    expect(expectOk(await admin.rest('GET', `${crsPath(space.id)}/${second.id}`)).outdated).toBe(true);
    const updated = expectOk(await admin.rest('POST', `${crsPath(space.id)}/${second.id}/update`), 200, 'updateChangeRequest');
    expect(updated.result).toBe('update');
    const cr = expectOk(await admin.rest('GET', `${crsPath(space.id)}/${second.id}`));
    expect(cr).toMatchObject({ revision: updated.revision, revisionMergedAncestor: merged.revision, outdated: false });
    expect(await h.db.revision.findUniqueOrThrow({ where: { id: updated.revision } })).toMatchObject({ type: 'update', parents: [second.revision, merged.revision] });
    expect(await spaceTree(admin, space.id, second.id)).toEqual([
      ['First', 'first'],
      ['Second', 'second'],
    ]);
    // Nothing new on main: an update is a no-op answering the current revision.
    expect(expectOk(await admin.rest('POST', `${crsPath(space.id)}/${second.id}/update`))).toMatchObject({ revision: updated.revision, result: 'update' });
    await merge(admin, space.id, second.id);
    // The third never updated: it merges with main in the same step.
    await merge(admin, space.id, third.id);
    expect(await spaceTree(admin, space.id)).toEqual([
      ['First', 'first'],
      ['Second', 'second'],
      ['Third', 'third'],
    ]);
  });

  it('both sides edit different lines of one page: merged line by line', async () => {
    const { admin, space, pageId } = await spaceWithDoc();
    const top = await openWith(admin, space.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'ONE\ntwo\nthree\nfour\nfive' } }]);
    const bottom = await openWith(admin, space.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'one\ntwo\nthree\nfour\nFIVE' } }]);
    await merge(admin, space.id, top.id);
    expect(expectOk(await admin.rest('POST', `${crsPath(space.id)}/${bottom.id}/update`)).result).toBe('update');
    expect(await bodyOf(admin, space.id, pageId, bottom.id)).toBe('ONE\ntwo\nthree\nfour\nFIVE');
    await merge(admin, space.id, bottom.id);
    expect(await bodyOf(admin, space.id, pageId)).toBe('ONE\ntwo\nthree\nfour\nFIVE');
  });

  it('both sides edit the same line: conflict markers, reported; merge refused (409) until resolved', async () => {
    const { admin, space, pageId } = await spaceWithDoc();
    const mine = await openWith(admin, space.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'one\ntwo\nTHREE (mine)\nfour\nfive' } }]);
    const theirs = await openWith(admin, space.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'one\ntwo\nTHREE (theirs)\nfour\nfive' } }]);
    await merge(admin, space.id, theirs.id);
    // Merging straight away is refused: it would conflict.
    restError(await admin.rest('POST', `${crsPath(space.id)}/${mine.id}/merge`), 409);

    const updated = expectOk(await admin.rest('POST', `${crsPath(space.id)}/${mine.id}/update`), 200, 'updateChangeRequest');
    expect(updated).toMatchObject({ result: 'conflicts', conflicts: [{ page: pageId, title: 'Doc', type: 'content' }] });
    expect(await bodyOf(admin, space.id, pageId, mine.id)).toBe(
      'one\ntwo\n<<<<<<< change request\nTHREE (mine)\n=======\nTHREE (theirs)\n>>>>>>> main\nfour\nfive',
    );
    const conflicts = gqlData(
      await admin.gql('query($s: String!, $c: String!) { spaceChangeRequest(spaceId: $s, changeRequestId: $c) { conflicts outdated } }', { s: space.id, c: mine.id }),
      'spaceChangeRequest',
    );
    expect(conflicts).toEqual({ conflicts: [{ page: pageId, title: 'Doc', type: 'content' }], outdated: false });
    restError(await admin.rest('POST', `${crsPath(space.id)}/${mine.id}/merge`), 409);

    // A change that leaves the markers (a new title) keeps the conflict listed.
    expectOk(await admin.rest('POST', `${crsPath(space.id)}/${mine.id}/content`, { changes: [{ operation: 'update_page', page: pageId, title: 'Doc, retitled' }] }));
    expect(expectOk(await admin.rest('GET', `${crsPath(space.id)}/${mine.id}`)).conflicts).toEqual([{ page: pageId, title: 'Doc', type: 'content' }]);
    // Resolving the markers takes the page off the list (issue 39 §2: it stayed listed) and lets it merge.
    expectOk(await admin.rest('POST', `${crsPath(space.id)}/${mine.id}/content`, {
      changes: [{ operation: 'update_page', page: pageId, document: { markdown: 'one\ntwo\nTHREE (both)\nfour\nfive' } }],
    }));
    const resolved = gqlData(
      await admin.gql('query($s: String!, $c: String!) { spaceChangeRequest(spaceId: $s, changeRequestId: $c) { conflicts } }', { s: space.id, c: mine.id }),
      'spaceChangeRequest',
    );
    expect(resolved).toEqual({ conflicts: [] });
    expect(expectOk(await admin.rest('POST', `${crsPath(space.id)}/${mine.id}/update`))).toMatchObject({ result: 'update', conflicts: [] });
    await merge(admin, space.id, mine.id);
    expect(await bodyOf(admin, space.id, pageId)).toBe('one\ntwo\nTHREE (both)\nfour\nfive');
  });

  it('a page deleted on one side and edited on the other is kept, edited, and reported', async () => {
    const { admin, space, pageId } = await spaceWithDoc();
    const deleting = await openWith(admin, space.id, [{ operation: 'delete_page', page: pageId }]);
    const editing = await openWith(admin, space.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'edited' } }]);
    await merge(admin, space.id, deleting.id);
    expect(await spaceTree(admin, space.id)).toEqual([]);
    const updated = expectOk(await admin.rest('POST', `${crsPath(space.id)}/${editing.id}/update`));
    expect(updated).toMatchObject({ result: 'update', conflicts: [{ page: pageId, type: 'deleted-on-main' }] });
    await merge(admin, space.id, editing.id);
    expect(await bodyOf(admin, space.id, pageId)).toBe('edited');

    // The other way round: deleted in the change request, edited on main.
    const deleting2 = await openWith(admin, space.id, [{ operation: 'delete_page', page: pageId }]);
    const editing2 = await openWith(admin, space.id, [{ operation: 'update_page', page: pageId, title: 'Renamed' }]);
    await merge(admin, space.id, editing2.id);
    expect(expectOk(await admin.rest('POST', `${crsPath(space.id)}/${deleting2.id}/update`)).conflicts).toEqual([
      { page: pageId, title: 'Renamed', type: 'deleted-in-change-request' },
    ]);
    // A page deleted on one side and untouched on the other goes.
    const untouched = await openWith(admin, space.id, [{ operation: 'insert_page', title: 'Other', document: { markdown: '' } }]);
    const deleting3 = await openWith(admin, space.id, [{ operation: 'delete_page', page: pageId }]);
    await merge(admin, space.id, deleting3.id);
    await merge(admin, space.id, untouched.id);
    expect(await spaceTree(admin, space.id)).toEqual([['Other', 'other']]);
  });

  it('moves on one side and edits on the other both land; each side keeps its order', async () => {
    const { admin, space } = await setup();
    const seed = await openWith(admin, space.id, [
      { operation: 'insert_page', title: 'Guides', document: { markdown: '' } },
      { operation: 'insert_page', title: 'Intro', document: { markdown: 'intro' } },
      { operation: 'insert_page', title: 'Setup', document: { markdown: 'setup' } },
    ]);
    await merge(admin, space.id, seed.id);
    const rows = await pageRows(h.db, (await h.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId!);
    const id = (title: string) => rows.find((r) => r.title === title)!.id;
    const moving = await openWith(admin, space.id, [{ operation: 'update_page', page: id('Setup'), into: id('Guides') }]);
    const editing = await openWith(admin, space.id, [
      { operation: 'update_page', page: id('Setup'), document: { markdown: 'setup, edited' } },
      { operation: 'insert_page', title: 'FAQ', at: 0, document: { markdown: 'faq' } },
    ]);
    await merge(admin, space.id, moving.id);
    await merge(admin, space.id, editing.id);
    expect(await spaceTree(admin, space.id)).toEqual([['FAQ', 'faq'], ['Guides', 'guides', [['Setup', 'guides/setup']]], ['Intro', 'intro']]);
    expect(await bodyOf(admin, space.id, id('Setup'))).toBe('setup, edited');
  });

  it('GraphQL: update and merge, with their results', async () => {
    const { admin, space } = await setup();
    const a = await openWith(admin, space.id, [{ operation: 'insert_page', title: 'A', document: { markdown: 'a' } }]);
    const b = await openWith(admin, space.id, [{ operation: 'insert_page', title: 'B', document: { markdown: 'b' } }]);
    const mergeA = gqlData(
      await admin.gql('mutation($s: String!, $c: String!) { mergeChangeRequest(spaceId: $s, changeRequestId: $c) { revision result } }', { s: space.id, c: String(a.number) }),
      'mergeChangeRequest',
    );
    expect(mergeA.result).toBe('merge');
    const updateB = gqlData(
      await admin.gql('mutation($s: String!, $c: String!) { updateChangeRequestFromMain(spaceId: $s, changeRequestId: $c) { revision result conflicts } }', { s: space.id, c: b.id }),
      'updateChangeRequestFromMain',
    );
    expect(updateB).toMatchObject({ result: 'update', conflicts: [] });
  });
});

const OPS: RefusalOp<{ s: string; c: string }>[] = [
  {
    name: 'mergeChangeRequest',
    rest: ({ s, c }) => ['POST', `${crsPath(s)}/${c}/merge`],
    gql: ({ s, c }) => ['mutation($s: String!, $c: String!) { mergeChangeRequest(spaceId: $s, changeRequestId: $c) { result } }', { s, c }],
    refuse: 'below review',
  },
  {
    name: 'updateChangeRequestFromMain',
    rest: ({ s, c }) => ['POST', `${crsPath(s)}/${c}/update`],
    gql: ({ s, c }) => ['mutation($s: String!, $c: String!) { updateChangeRequestFromMain(spaceId: $s, changeRequestId: $c) { result } }', { s, c }],
    refuse: 'below edit',
  },
];

refusalMatrix(OPS, {
  h,
  setup: async () => {
    const w = await setup();
    const cr = await openWith(w.admin, w.space.id, [{ operation: 'insert_page', title: 'T', document: { markdown: 't' } }]);
    // Main moves on, so that an update would have something to do.
    const other = await openWith(w.admin, w.space.id, [{ operation: 'insert_page', title: 'U', document: { markdown: 'u' } }]);
    await merge(w.admin, w.space.id, other.id);
    const space = expectOk(await w.admin.rest('GET', `/v1/spaces/${w.space.id}`));
    return { ...w, cr, mainRevision: space.revision as string };
  },
  ids: (w) => ({ s: w.space.id, c: w.cr.id }),
  unknown: { s: 'unknownSpace00000001' },
  forbidden: async (w, refuse) => ({
    callers:
      refuse === 'below review'
        ? [await buildMember(h, w.o, 'edit'), await buildMember(h, w.o, 'read')]
        : [await buildMember(h, w.o, 'comment'), await buildMember(h, w.o, 'read')],
  }),
  unchanged: async (w) => {
    const cr = await h.db.changeRequest.findUniqueOrThrow({ where: { id: w.cr.id } });
    expect([cr.revisionId, cr.status]).toEqual([w.cr.revision, w.cr.status]);
    expect((await h.db.space.findUniqueOrThrow({ where: { id: w.space.id } })).revisionId).toBe(w.mainRevision);
  },
});
