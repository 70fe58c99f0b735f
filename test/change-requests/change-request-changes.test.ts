// Issue 39 §2/§4: reviewers saw document hashes. A change request's semantic changes (GitBook's
// getChangeRequestChanges), its contributors (getContributorsByChangeRequestId), a unified diff of each
// page whose markdown it changes (ours), and merge revisions' changes naming the change request.
import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace, buildUser } from '../factories.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { useClientServer } from '../support/client-server.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

async function reviewedChange() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  const crs = `/v1/spaces/${space.id}/change-requests`;
  const first = expectOk(await admin.rest('POST', crs, { subject: 'Start' }), 201);
  const made = expectOk(
    await admin.rest('POST', `${crs}/${first.id}/content?compat=false`, {
      changes: [
        { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'one\ntwo\nthree\nfour\nfive\n' } },
        { operation: 'insert_page', ref: 'old', title: 'Old', document: { markdown: 'going away\n' } },
      ],
    }),
  );
  expectOk(await admin.rest('POST', `${crs}/${first.id}/merge`));
  const [guide, old] = made.changes.map((c: any) => c.page.id);
  const cr = expectOk(await admin.rest('POST', crs, { subject: 'Edit the guide' }), 201);
  const path = `${crs}/${cr.id}`;
  expectOk(await admin.rest('POST', `${path}/content`, { changes: [{ operation: 'update_page', page: guide, document: { markdown: 'one\ntwo\nTHREE\nfour\nfive\n' } }] }));
  expectOk(await admin.rest('POST', `${path}/content`, { changes: [{ operation: 'insert_page', title: 'New', document: { markdown: 'brand new\n' } }, { operation: 'delete_page', page: old }] }));
  const commenter = await buildMember(h, o, 'comment', 'Carla Commenter');
  expectOk(await commenter.rest('POST', `${path}/comments`, { body: { markdown: 'Looks good' } }));
  expectOk(await commenter.rest('POST', `${path}/comments`, { body: { markdown: 'One more thing' } }));
  return { admin, o, space, cr, path, guide, old, commenter };
}

describe("a change request's changes, for its reviewers", () => {
  it("semantic changes from its base: GitBook's RevisionSemanticChanges, through both doors; limit and more", async () => {
    const { admin, space, cr, path, guide, old } = await reviewedChange();
    const res = await admin.rest('GET', `${path}/changes`);
    expect(validateGitBookResponse('getChangeRequestChanges', res.status, res.body)).toEqual([]);
    const kinds = res.body.changes.map((c: any) => [c.type, c.page.title]);
    expect(kinds).toEqual(expect.arrayContaining([['page_edited', 'Guide'], ['page_created', 'New'], ['page_deleted', 'Old']]));
    expect(res.body.changes.find((c: any) => c.page.id === guide).attributes.document).toEqual({ before: expect.any(String), after: expect.any(String) });
    expect(res.body.changes.find((c: any) => c.page.id === old).type).toBe('page_deleted');
    const limited = expectOk(await admin.rest('GET', `${path}/changes?limit=1`));
    expect(limited.changes).toHaveLength(1);
    expect(limited.more).toBe(res.body.changes.length - 1);
    restError(await admin.rest('GET', `${path}/changes?limit=0`), 400, 'limit');
    const graph = gqlData(await admin.gql('query($s: String!, $c: String!) { changeRequestChanges(spaceId: $s, changeRequestId: $c) { changes more mergedFrom { id } } }', { s: space.id, c: cr.id }), 'changeRequestChanges');
    expect(graph.changes).toEqual(res.body.changes);
    expect(graph.mergedFrom).toBeNull();
  });

  it('contributors: who edited and who commented, how often and when last; GitBook shape', async () => {
    const { admin, path, commenter } = await reviewedChange();
    const res = await admin.rest('GET', `${path}/contributors`);
    expect(validateGitBookResponse('getContributorsByChangeRequestId', res.status, res.body)).toEqual([]);
    const byAction = Object.fromEntries(res.body.items.map((c: any) => [`${c.user.id}:${c.actionType}`, c.count]));
    // Opening it and two content writes; two comments.
    expect(byAction).toEqual({ [`${admin.userId}:edit`]: 3, [`${commenter.userId}:comment`]: 2 });
    expect(res.body.items[0].actionType).toBe('comment'); // the most recent first
    expect(res.body.count).toBe(2);
  });

  it('a unified diff of each page whose markdown it changes (REST and GraphQL); moves and renames are not listed', async () => {
    const { admin, space, cr, path, guide } = await reviewedChange();
    const res = expectOk(await admin.rest('GET', `${path}/diff`));
    const byTitle = Object.fromEntries(res.pages.map((p: any) => [p.page.title, p]));
    expect(Object.keys(byTitle).sort()).toEqual(['Guide', 'New', 'Old']);
    expect(byTitle.Guide.change).toBe('edited');
    expect(byTitle.Guide.page.id).toBe(guide);
    expect(byTitle.Guide.diff).toContain('--- a/guide.md\n+++ b/guide.md\n');
    expect(byTitle.Guide.diff).toContain('-three\n+THREE\n');
    expect(byTitle.New).toMatchObject({ change: 'created' });
    expect(byTitle.New.diff).toContain('--- /dev/null');
    expect(byTitle.New.diff).toContain('+brand new');
    expect(byTitle.Old).toMatchObject({ change: 'deleted' });
    expect(byTitle.Old.diff).toContain('-going away');
    expect(res.more).toBe(0);
    const graph = gqlData(
      await admin.gql('query($s: String!, $c: String!) { changeRequestDiff(spaceId: $s, changeRequestId: $c, limit: 1) { more pages { change diff page { id title path } } } }', { s: space.id, c: cr.id }),
      'changeRequestDiff',
    );
    expect(graph.pages).toHaveLength(1);
    expect(graph.more).toBe(2);
    // A rename alone changes no markdown.
    expectOk(await admin.rest('POST', `${path}/content`, { changes: [{ operation: 'update_page', page: guide, title: 'Guide, renamed' }] }));
    expect(expectOk(await admin.rest('GET', `${path}/diff`)).pages.map((p: any) => p.page.title).sort()).toEqual(['Guide, renamed', 'New', 'Old']);
    restError(await admin.rest('GET', `${path}/diff?limit=101`), 400, 'limit');
  });

  it('outsiders learn nothing; a merge revision\'s changes name the change request it merged', async () => {
    const { admin, space, cr, path } = await reviewedChange();
    const outsider = await buildUser(h);
    for (const route of ['changes', 'contributors', 'diff']) restError(await outsider.rest('GET', `${path}/${route}`), 404);
    const merged = expectOk(await admin.rest('POST', `${path}/merge`));
    const res = await admin.rest('GET', `/v1/spaces/${space.id}/revisions/${merged.revision}/changes`);
    expect(validateGitBookResponse('getRevisionSemanticChanges', res.status, res.body)).toEqual([]);
    expect(res.body.mergedFrom).toMatchObject({ object: 'change-request', id: cr.id, subject: 'Edit the guide' });
  });
});

describe('official GitBookAPI client', () => {
  const s = useClientServer();
  it('getChangeRequestChanges and getContributorsByChangeRequestId', async () => {
    const { api } = await s.newUser('Reviewer');
    const org = (await api.orgs.createOrganization({ title: 'Reviews' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Book' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Pages' })).data;
    await api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'A', document: { markdown: 'A' } }] } as any);
    const changes = (await api.spaces.getChangeRequestChanges(space.id, cr.id)).data;
    expect(changes.changes.map((c: any) => c.type)).toEqual(['page_created']);
    const contributors = (await api.spaces.getContributorsByChangeRequestId(space.id, cr.id)).data;
    expect(contributors.items.map((c: any) => [c.actionType, c.count])).toEqual([['edit', 2]]);
  });
});
