// Comments on a space itself (issue 26 §3): GitBook's space-comments operations, through both doors,
// on the space's current content — the same service, rules, shapes and limits as change request
// comments (test/comments/change-request-comments.test.ts).
import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace, buildUser } from '../factories.ts';
import { DOORS, expectFailure, expectGitBookShape, expectOk, gqlData, restError, throughDoor } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller } from '../support/harness.ts';

const h = useHarness();

const spacePath = (s: string) => `/v1/spaces/${s}`;

/** Content changes merged into the space through a change request: its current revision moves. */
async function mergeChanges(admin: Caller, spaceId: string, changes: object[]) {
  const cr = expectOk(await admin.rest('POST', `${spacePath(spaceId)}/change-requests`, {}), 201);
  const edited = expectOk(await admin.rest('POST', `${spacePath(spaceId)}/change-requests/${cr.id}/content?compat=false`, { changes }));
  expectOk(await admin.rest('POST', `${spacePath(spaceId)}/change-requests/${cr.id}/merge`, {}));
  return { cr, edited };
}

/** A space whose current content holds one page, a commenter, an editor and a reader. */
async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  const { edited } = await mergeChanges(admin, space.id, [{ operation: 'insert_page', title: 'Guide', emoji: '📘', document: { markdown: 'one\ntwo' } }]);
  const pageId = edited.changes[0].page.id as string;
  const [commenter, editor, reader] = [await buildMember(h, o, 'comment'), await buildMember(h, o, 'edit'), await buildMember(h, o, 'read')];
  return { admin, o, space, pageId, commenter, editor, reader, path: `${spacePath(space.id)}/comments` };
}

const post = (caller: Caller, path: string, body: object) => caller.rest('POST', path, body);

describe('space comments', () => {
  it('post, get, list: GitBook shapes, a page of the current content, counts, both doors alike', async () => {
    const { admin, space, pageId, commenter, path } = await setup();
    const onPage = expectOk(await post(commenter, path, { body: { markdown: 'Typo here' }, page: pageId, node: 'block-1' }), 200, 'postCommentInSpace');
    const current = expectOk(await admin.rest('GET', spacePath(space.id))).revision;
    expect(onPage).toMatchObject({
      object: 'comment',
      postedBy: { id: commenter.userId },
      body: { markdown: 'Typo here' },
      reactions: [],
      replies: 0,
      repliers: [],
      status: 'open',
      target: { space: space.id, revision: current, page: { id: pageId, title: 'Guide', emoji: '📘', path: 'guide', outdated: false }, node: { id: 'block-1' } },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(onPage.target.changeRequest).toBeUndefined();
    expect(onPage.urls.location).toBe(`${h.config.apiUrl}/spaces/${space.id}/comments/${onPage.id}`);
    h.clock.advance(1000);
    const general = expectOk(await post(admin, path, { body: { markdown: 'Looks good' } }), 200, 'postCommentInSpace');
    expect(general.target.page).toBeUndefined();

    expect(expectOk(await admin.rest('GET', `${path}/${onPage.id}`), 200, 'getCommentInSpace')).toEqual({ ...onPage, permissions: expect.any(Object) });
    const list = expectOk(await admin.rest('GET', path), 200, 'listCommentsInSpace');
    expect(list.items.map((c: any) => c.id)).toEqual([general.id, onPage.id]);
    expect(list.count).toBe(2);
    expect(expectOk(await admin.rest('GET', `${path}?order=asc`), 200, 'listCommentsInSpace').items.map((c: any) => c.id)).toEqual([onPage.id, general.id]);
    expect(expectOk(await admin.rest('GET', `${path}?targetPage=${pageId}`)).items.map((c: any) => c.id)).toEqual([onPage.id]);
    const asDocument = expectOk(await admin.rest('GET', `${path}/${onPage.id}?format=document`), 200, 'getCommentInSpace');
    expect(asDocument.body.document.object).toBe('document');
    // Keyset pages: nothing skipped or repeated.
    const page1 = expectOk(await admin.rest('GET', `${path}?limit=1`), 200, 'listCommentsInSpace');
    const page2 = expectOk(await admin.rest('GET', `${path}?limit=1&page=${page1.next.page}`), 200, 'listCommentsInSpace');
    expect([...page1.items, ...page2.items].map((c: any) => c.id)).toEqual([general.id, onPage.id]);
    expect(page2.next).toBeUndefined();
    expect(expectOk(await admin.rest('GET', spacePath(space.id))).comments).toBe(2);

    // GraphQL answers the same list as REST.
    for (const door of DOORS) {
      const res = await throughDoor(
        door,
        admin,
        ['GET', `${path}?order=asc&status=open`],
        ['spaceComments', 'query($s: String!) { spaceComments(spaceId: $s, order: asc, status: open) { count items { id object body target status postedBy { id } } } }', { s: space.id }],
        { dropNulls: true },
      );
      const body = expectOk(res, 200, door === 'rest' ? 'listCommentsInSpace' : undefined);
      expect(body.count).toBe(2);
      expect(body.items.map((c: any) => [c.id, c.object, c.body.markdown, c.target.page?.id ?? null, c.postedBy.id])).toEqual([
        [onPage.id, 'comment', 'Typo here', pageId, commenter.userId],
        [general.id, 'comment', 'Looks good', null, admin.userId],
      ]);
    }
  });

  it("keeps a space's own comments apart from its change requests' comments, both ways", async () => {
    const { admin, o, space, path } = await setup();
    const cr = expectOk(await admin.rest('POST', `${spacePath(space.id)}/change-requests`, {}), 201);
    const crPath = `${spacePath(space.id)}/change-requests/${cr.id}/comments`;
    const inCr = expectOk(await post(admin, crPath, { body: { markdown: 'In the change request' } }), 200, 'postCommentInChangeRequest');
    const onSpace = expectOk(await post(admin, path, { body: { markdown: 'On the space' } }), 200, 'postCommentInSpace');
    expect(expectOk(await admin.rest('GET', path)).items.map((c: any) => c.id)).toEqual([onSpace.id]);
    expect(expectOk(await admin.rest('GET', crPath)).items.map((c: any) => c.id)).toEqual([inCr.id]);
    restError(await admin.rest('GET', `${path}/${inCr.id}`), 404);
    restError(await admin.rest('PUT', `${path}/${inCr.id}`, { body: { markdown: 'x' } }), 404);
    // The space has no such comment (it is the change request's): nothing deleted.
    expect((await admin.rest('DELETE', `${path}/${inCr.id}`)).status).toBe(204);
    expectOk(await admin.rest('GET', `${crPath}/${inCr.id}`));
    restError(await admin.rest('GET', `${path}/${inCr.id}/replies`), 404);
    restError(await admin.rest('GET', `${crPath}/${onSpace.id}`), 404);
    expect(expectOk(await admin.rest('GET', `${crPath}/${inCr.id}`)).urls.location).toContain('/change-requests/');
    // Another space's comment is unknown here.
    const other = await buildSpace(admin, o, { title: 'Other' });
    const elsewhere = expectOk(await post(admin, `${spacePath(other.id)}/comments`, { body: { markdown: 'Elsewhere' } }));
    restError(await admin.rest('GET', `${path}/${elsewhere.id}`), 404);
    // The commenters of the space are those of its own comments.
    expect(expectOk(await admin.rest('GET', `${spacePath(space.id)}/commenters`), 200, 'listCommentersInSpace').items.map((m: any) => m.user.id)).toEqual([admin.userId]);
  });


  it.each(DOORS)("%s: authors filters by who posted (REST: the parameter repeated); 400 naming a bad list", async (door) => {
    const { admin, commenter, editor, path, space } = await setup();
    const byCommenter = expectOk(await post(commenter, path, { body: { markdown: 'One' } }));
    h.clock.advance(1000);
    const byEditor = expectOk(await post(editor, path, { body: { markdown: 'Two' } }));
    h.clock.advance(1000);
    expectOk(await post(admin, path, { body: { markdown: 'Three' } }));
    // A reply by the commenter does not make its parent theirs.
    expectOk(await post(commenter, `${path}/${byEditor.id}/replies`, { body: { markdown: 'Reply' } }));
    const list = (authors: string[]) =>
      throughDoor(door, admin, ['GET', `${path}?${authors.map((a) => `authors=${encodeURIComponent(a)}`).join('&')}`], [
        'spaceComments',
        'query($s: String!, $a: [String!]) { spaceComments(spaceId: $s, authors: $a) { count items { id postedBy { id } } } }',
        { s: space.id, a: authors },
      ]);
    const two = expectOk(await list([commenter.userId, editor.userId]), 200, door === 'rest' ? 'listCommentsInSpace' : undefined);
    expect([two.count, two.items.map((c: any) => c.id)]).toEqual([2, [byEditor.id, byCommenter.id]]);
    const one = expectOk(await list([commenter.userId]));
    expect([one.count, one.items.map((c: any) => c.id)]).toEqual([1, [byCommenter.id]]);
    expect(expectOk(await list(['unknownUser000000001'])).count).toBe(0);
    expect(expectOk(await list([])).count).toBe(3);
    expectFailure(await list(Array.from({ length: 101 }, (_, i) => `user${i}`)), 400, 'authors');
    expectFailure(await list([commenter.userId, 'x'.repeat(65)]), 400, 'authors');
  });
  it('400 names the field: body 1..10000 characters, a page of the current content, one emoji per reaction, limit, status, page', async () => {
    const { admin, pageId, path } = await setup();
    restError(await post(admin, path, {}), 400, 'body');
    restError(await post(admin, path, { body: {} }), 400, 'body.markdown');
    restError(await post(admin, path, { body: { markdown: '' } }), 400, 'body.markdown');
    restError(await post(admin, path, { body: { markdown: 'x'.repeat(10_001) } }), 400, 'body.markdown');
    expectOk(await post(admin, path, { body: { markdown: 'x'.repeat(10_000) } }), 200, 'postCommentInSpace');
    restError(await post(admin, path, { body: { markdown: 'x' }, page: 'notAPage' }), 400, 'page');
    restError(await post(admin, path, { body: { markdown: 'x' }, node: 'n'.repeat(101) }), 400, 'node');
    const comment = expectOk(await post(admin, path, { body: { markdown: 'x' }, page: pageId }));
    for (const bad of ['x', '👍👍', 'ab', '']) restError(await admin.rest('PUT', `${path}/${comment.id}`, { addedReactions: [bad] }), 400, 'addedReactions[0]');
    restError(await admin.rest('PUT', `${path}/${comment.id}`, { addedReactions: Array.from({ length: 21 }, () => '👍') }), 400, 'addedReactions');
    restError(await admin.rest('GET', `${path}?limit=1001`), 400, 'limit');
    restError(await admin.rest('GET', `${path}?status=closed`), 400, 'status');
    restError(await admin.rest('GET', `${path}?order=sideways`), 400, 'order');
    restError(await admin.rest('GET', `${path}?page=notACursor`), 400, 'page');
    restError(await admin.rest('GET', `${path}/unknownComment`), 404);
    const replies = `${path}/${comment.id}/replies`;
    restError(await post(admin, replies, {}), 400, 'body');
    restError(await post(admin, replies, { body: { markdown: 'x'.repeat(10_001) } }), 400, 'body.markdown');
    const reply = expectOk(await post(admin, replies, { body: { markdown: 'ok' } }), 200, 'postCommentReplyInSpace');
    restError(await admin.rest('PUT', `${replies}/${reply.id}`, { removedReactions: ['nope'] }), 400, 'removedReactions[0]');
    restError(await admin.rest('PUT', `${replies}/${reply.id}`, { body: { markdown: '' } }), 400, 'body.markdown');
    restError(await admin.rest('GET', `${replies}?limit=0`), 400, 'limit');
    restError(await admin.rest('GET', `${replies}/unknownReply`), 404);
    restError(await admin.rest('GET', `${path}/unknownComment/replies`), 404);
    restError(await admin.rest('GET', `/v1/spaces/${'unknownSpace'}/commenters?limit=0`), 400, 'limit');
    restError(await admin.rest('GET', `/v1/spaces/unknownSpace00000001/comments`), 404);
    // GraphQL: the same refusals.
    for (const door of DOORS) {
      const bad = await throughDoor(
        door,
        admin,
        ['POST', path, { body: { markdown: 'x' }, page: 'notAPage' }],
        ['postSpaceComment', 'mutation($s: String!) { postSpaceComment(spaceId: $s, body: { markdown: "x" }, page: "notAPage") { id } }', { s: comment.target.space }],
      );
      expectFailure(bad, 400, 'page');
    }
  });

  it('edit (author or admin), resolve (author or editor), reopen, reactions by two users; editedAt only on body edits', async () => {
    const { admin, commenter, editor, reader, space, path } = await setup();
    const comment = expectOk(await post(commenter, path, { body: { markdown: 'Mine' } }));
    const put = (c: Caller, body: object) => c.rest('PUT', `${path}/${comment.id}`, body);
    restError(await put(editor, { body: { markdown: 'Not yours' } }), 403);
    restError(await put(reader, { addedReactions: ['👍'] }), 403);
    h.clock.advance(1000);
    const edited = expectOk(await put(commenter, { body: { markdown: 'Mine, edited' } }), 200, 'updateCommentInSpace');
    expect(edited).toMatchObject({ body: { markdown: 'Mine, edited' }, editedAt: expect.any(String) });
    expectOk(await put(admin, { body: { markdown: 'Admin fix' } }), 200, 'updateCommentInSpace');

    expectOk(await put(admin, { addedReactions: ['👍', '🎉'] }), 200, 'updateCommentInSpace');
    h.clock.advance(1000);
    expectOk(await put(commenter, { addedReactions: ['👍'], removedReactions: ['🎉'] }), 200, 'updateCommentInSpace');
    const reacted = expectOk(await admin.rest('GET', `${path}/${comment.id}`), 200, 'getCommentInSpace');
    expect(reacted.reactions.map((r: any) => [r.emoji, r.count, r.users.map((u: any) => u.user.id)])).toEqual([
      ['👍', 2, [admin.userId, commenter.userId]],
      ['🎉', 1, [admin.userId]],
    ]);

    restError(await put(reader, { resolved: true }), 403);
    const resolved = expectOk(await put(editor, { resolved: true }), 200, 'updateCommentInSpace');
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: editor.userId }, resolvedAt: expect.any(String) });
    expect(expectOk(await admin.rest('GET', spacePath(space.id))).comments).toBe(0);
    expect(expectOk(await admin.rest('GET', `${path}?status=resolved`), 200, 'listCommentsInSpace').items).toHaveLength(1);
    expect(expectOk(await admin.rest('GET', `${path}?status=open`)).items).toHaveLength(0);
    const reopened = expectOk(await put(commenter, { resolved: false }), 200, 'updateCommentInSpace');
    expect(reopened.status).toBe('open');
    expect(reopened.resolvedAt).toBeUndefined();
    expect(expectOk(await admin.rest('GET', spacePath(space.id))).comments).toBe(1);
  });

  it('replies: post, list, get, edit, react, delete; deleting a comment takes its replies and reactions; commenters', async () => {
    const { admin, commenter, editor, reader, path, space } = await setup();
    const comment = expectOk(await post(admin, path, { body: { markdown: 'Question?' } }));
    const replies = `${path}/${comment.id}/replies`;
    restError(await post(reader, replies, { body: { markdown: 'no' } }), 403);
    const first = expectOk(await post(commenter, replies, { body: { markdown: 'Answer' } }), 200, 'postCommentReplyInSpace');
    expect(first).toMatchObject({ object: 'comment-reply', postedBy: { id: commenter.userId }, body: { markdown: 'Answer' }, reactions: [] });
    expect(first.urls.location).toBe(`${h.config.apiUrl}/spaces/${space.id}/comments/${comment.id}/replies/${first.id}`);
    h.clock.advance(1000);
    const second = expectOk(await post(admin, `${replies}?format=document`, { body: { markdown: 'Thanks' } }), 200, 'postCommentReplyInSpace');
    expect(second.body.document.object).toBe('document');
    const listed = expectOk(await admin.rest('GET', replies), 200, 'listCommentRepliesInSpace');
    expect(listed.items.map((r: any) => r.id)).toEqual([first.id, second.id]);
    const firstPage = expectOk(await admin.rest('GET', `${replies}?limit=1`), 200, 'listCommentRepliesInSpace');
    expect(expectOk(await admin.rest('GET', `${replies}?limit=1&page=${firstPage.next.page}`)).items.map((r: any) => r.id)).toEqual([second.id]);
    expect(expectOk(await reader.rest('GET', `${replies}/${first.id}`), 200, 'getCommentReplyInSpace')).toMatchObject({
      id: first.id,
      permissions: { view: true, edit: false, reply: false, delete: false },
    });
    restError(await editor.rest('PUT', `${replies}/${first.id}`, { body: { markdown: 'no' } }), 403);
    const editedReply = expectOk(await commenter.rest('PUT', `${replies}/${first.id}`, { body: { markdown: 'Answer, edited' }, addedReactions: ['✅'] }), 200, 'updateCommentReplyInSpace');
    expect(editedReply).toMatchObject({ body: { markdown: 'Answer, edited' }, editedAt: expect.any(String), reactions: [{ emoji: '✅', count: 1 }] });

    const withReplies = expectOk(await admin.rest('GET', `${path}/${comment.id}`), 200, 'getCommentInSpace');
    expect(withReplies.replies).toBe(2);
    expect(withReplies.repliers.map((r: any) => [r.user.id, r.count])).toEqual(expect.arrayContaining([[commenter.userId, 1], [admin.userId, 1]]));
    expect(expectOk(await admin.rest('GET', spacePath(space.id))).comments).toBe(1);

    // Commenters: members who posted a comment or a reply on the space, as GitBook's OrganizationMember.
    const commenters = expectOk(await reader.rest('GET', `${spacePath(space.id)}/commenters`), 200, 'listCommentersInSpace');
    expect(commenters.items.map((m: any) => m.user.id).sort()).toEqual([admin.userId, commenter.userId].sort());
    expect(commenters.count).toBe(2);
    const c1 = expectOk(await reader.rest('GET', `${spacePath(space.id)}/commenters?limit=1`), 200, 'listCommentersInSpace');
    const c2 = expectOk(await reader.rest('GET', `${spacePath(space.id)}/commenters?limit=1&page=${c1.next.page}`), 200, 'listCommentersInSpace');
    expect([...c1.items, ...c2.items].map((m: any) => m.id)).toEqual(commenters.items.map((m: any) => m.id));
    const viaGraph = gqlData(await reader.gql('query($s: String!) { spaceCommenters(spaceId: $s) { count items { id role user { id } } } }', { s: space.id }), 'spaceCommenters');
    expect(viaGraph.items.map((m: any) => m.id)).toEqual(commenters.items.map((m: any) => m.id));

    restError(await editor.rest('DELETE', `${replies}/${second.id}`), 403);
    // GitBook's statuses: 205 when something was deleted, 204 when there was nothing to delete.
    expect((await admin.rest('DELETE', `${replies}/${second.id}`)).status).toBe(205);
    expect((await admin.rest('DELETE', `${replies}/${second.id}`)).status).toBe(204);
    restError(await admin.rest('GET', `${replies}/${second.id}`), 404);
    restError(await commenter.rest('DELETE', `${path}/${comment.id}`), 403);
    expect((await admin.rest('DELETE', `${path}/${comment.id}`)).status).toBe(205);
    expect(await h.db.comment.count({ where: { spaceId: space.id } })).toBe(0);
    expect(await h.db.commentReaction.count({ where: { commentId: first.id } })).toBe(0);
    restError(await admin.rest('GET', replies), 404);
    expect((await admin.rest('DELETE', `${path}/${comment.id}`)).status).toBe(204);
    // Nothing to delete is still refused to those who may not read the comments, and unknown spaces are 404.
    restError(await (await buildUser(h)).rest('DELETE', `${path}/${comment.id}`), 404);
    restError(await admin.rest('DELETE', `/v1/spaces/noSuchSpace/comments/${comment.id}`), 404);
    expect(expectOk(await reader.rest('GET', `${spacePath(space.id)}/commenters`), 200, 'listCommentersInSpace')).toMatchObject({ items: [], count: 0 });
  });

  it("a comment on a page the space's content later changes or deletes is outdated; its revision stays the one it was posted on", async () => {
    const { admin, space, pageId, path } = await setup();
    const comment = expectOk(await post(admin, path, { body: { markdown: 'About this page' }, page: pageId }));
    expect(comment.target.page.outdated).toBe(false);
    await mergeChanges(admin, space.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'one\nTWO' } }]);
    const changed = expectOk(await admin.rest('GET', `${path}/${comment.id}`), 200, 'getCommentInSpace');
    expect(changed.target).toMatchObject({ revision: comment.target.revision, page: { id: pageId, outdated: true } });
    expect(expectOk(await admin.rest('GET', spacePath(space.id))).revision).not.toBe(comment.target.revision);
    await mergeChanges(admin, space.id, [{ operation: 'delete_page', page: pageId }]);
    expect(expectOk(await admin.rest('GET', path), 200, 'listCommentsInSpace').items[0].target.page.outdated).toBe(true);
    // A page no longer in the current content cannot be commented on.
    restError(await post(admin, path, { body: { markdown: 'x' }, page: pageId }), 400, 'page');
  });

  it('a page of 100 comments with reactions and replies costs the statements of a page of 5 (REST and GraphQL)', async () => {
    const { admin, commenter, o } = await setup();
    const spaces = [];
    for (const n of [5, 100]) {
      const space = await buildSpace(admin, o, { title: `S${n}` });
      const rows = Array.from({ length: n }, (_, i) => ({
        id: `s${n}x${i}`,
        spaceId: space.id,
        postedById: i % 2 ? admin.userId : commenter.userId,
        markdown: `Comment ${i}`,
        targetRevisionId: space.revision,
        postedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      }));
      await h.db.comment.createMany({ data: rows });
      await h.db.comment.createMany({ data: rows.map((r) => ({ ...r, id: `${r.id}r`, parentId: r.id })) });
      await h.db.commentReaction.createMany({ data: rows.flatMap((r) => [admin, commenter].map((u) => ({ commentId: r.id, userId: u.userId, emoji: '👍' }))) });
      spaces.push(space);
    }
    const count = async (request: () => Promise<{ status: number; text: string }>) => {
      await request();
      await new Promise((r) => setTimeout(r, 50));
      const before = h.store.queries.length;
      const res = await request();
      expect(res.status, res.text).toBe(200);
      await new Promise((r) => setTimeout(r, 50));
      return h.store.queries.length - before;
    };
    const [small, large] = spaces;
    const rest = (s: { id: string }) => () => admin.rest('GET', `${spacePath(s.id)}/comments?limit=100`);
    const restCount = await count(rest(large));
    expect(restCount).toBe(await count(rest(small)));
    expect(restCount).toBeLessThanOrEqual(4);
    const query = `query($s: String!) { spaceComments(spaceId: $s, limit: 100) {
      items { id postedBy { id } reactions repliers replies target status resolvedBy { id } permissions { edit } } } }`;
    const gql = (s: { id: string }) => () => admin.gql(query, { s: s.id });
    expect(await count(gql(large))).toBe(await count(gql(small)));
    const listed = expectOk(await admin.rest('GET', `${spacePath(large.id)}/comments?limit=100`), 200, 'listCommentsInSpace');
    expect(listed.items).toHaveLength(100);
    expect(listed.items[0]).toMatchObject({ replies: 1, reactions: [{ emoji: '👍', count: 2 }] });
    const commenters = (s: { id: string }) => () => admin.rest('GET', `${spacePath(s.id)}/commenters?limit=100`);
    const commentersCount = await count(commenters(large));
    expect(commentersCount).toBe(await count(commenters(small)));
    expect(commentersCount).toBeLessThanOrEqual(4);
    expectGitBookShape('listCommentersInSpace', 200, (await commenters(large)()).body);
  });

  it('GraphQL: the same operations', async () => {
    const { admin, space, commenter } = await setup();
    const s = { s: space.id };
    const posted = gqlData(
      await commenter.gql('mutation($s: String!) { postSpaceComment(spaceId: $s, body: { markdown: "Hi" }) { id object body postedBy { id } status urls { location } } }', s),
      'postSpaceComment',
    );
    expect(posted).toMatchObject({ object: 'comment', body: { markdown: 'Hi' }, postedBy: { id: commenter.userId }, status: 'open' });
    expect(posted.urls.location).toBe(`${h.config.apiUrl}/spaces/${space.id}/comments/${posted.id}`);
    const m = { ...s, m: posted.id };
    const updated = gqlData(
      await admin.gql('mutation($s: String!, $m: String!) { updateSpaceComment(spaceId: $s, commentId: $m, resolved: true, addedReactions: ["👍"]) { status reactions resolvedBy { id } } }', m),
      'updateSpaceComment',
    );
    expect(updated).toMatchObject({ status: 'resolved', resolvedBy: { id: admin.userId }, reactions: [{ emoji: '👍', count: 1 }] });
    const reply = gqlData(
      await admin.gql('mutation($s: String!, $m: String!) { postSpaceCommentReply(spaceId: $s, commentId: $m, body: { markdown: "Done" }) { id object } }', m),
      'postSpaceCommentReply',
    );
    expect(reply.object).toBe('comment-reply');
    expect(gqlData(await admin.gql('query($s: String!) { spaceComments(spaceId: $s, status: resolved) { count items { id replies } } }', s), 'spaceComments')).toEqual({
      count: 1,
      items: [{ id: posted.id, replies: 1 }],
    });
    expect(gqlData(await admin.gql('query($s: String!, $m: String!) { spaceComment(spaceId: $s, commentId: $m, format: document) { id body } }', m), 'spaceComment').body.document.object).toBe('document');
    expect(gqlData(await admin.gql('query($s: String!, $m: String!) { spaceCommentReplies(spaceId: $s, commentId: $m) { count items { id } } }', m), 'spaceCommentReplies')).toEqual({
      count: 1,
      items: [{ id: reply.id }],
    });
    const r = { ...m, r: reply.id };
    const vars = 'query($s: String!, $m: String!, $r: String!)';
    const replyFields = 'spaceId: $s, commentId: $m, commentReplyId: $r';
    expect(gqlData(await admin.gql(`${vars} { spaceCommentReply(${replyFields}) { body } }`, r), 'spaceCommentReply')).toEqual({ body: { markdown: 'Done' } });
    const edited = gqlData(
      await admin.gql(`${vars.replace('query', 'mutation')} { updateSpaceCommentReply(${replyFields}, body: { markdown: "Done!" }, addedReactions: ["🎉"]) { body editedAt reactions } }`, r),
      'updateSpaceCommentReply',
    );
    expect(edited).toMatchObject({ body: { markdown: 'Done!' }, editedAt: expect.any(String), reactions: [{ emoji: '🎉', count: 1 }] });
    const badReply = await admin.gql(`${vars.replace('query', 'mutation')} { updateSpaceCommentReply(${replyFields}, addedReactions: ["nope"]) { id } }`, r);
    expect(badReply.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(gqlData(await admin.gql(`${vars.replace('query', 'mutation')} { deleteSpaceCommentReply(${replyFields}) }`, r), 'deleteSpaceCommentReply')).toBe(true);
    expect(gqlData(await admin.gql('mutation($s: String!, $m: String!) { deleteSpaceComment(spaceId: $s, commentId: $m) }', m), 'deleteSpaceComment')).toBe(true);
  });
});

type Ids = { s: string; m: string; r: string };
const OPS: RefusalOp<Ids>[] = [
  { name: 'list comments', rest: ({ s }) => ['GET', `${spacePath(s)}/comments`], gql: ({ s }) => ['query($s: String!) { spaceComments(spaceId: $s) { count } }', { s }] },
  {
    name: 'post a comment',
    rest: ({ s }) => ['POST', `${spacePath(s)}/comments`, { body: { markdown: 'x' } }],
    gql: ({ s }) => ['mutation($s: String!) { postSpaceComment(spaceId: $s, body: { markdown: "x" }) { id } }', { s }],
    refuse: 'reader',
  },
  { name: 'get a comment', rest: ({ s, m }) => ['GET', `${spacePath(s)}/comments/${m}`], gql: ({ s, m }) => ['query($s: String!, $m: String!) { spaceComment(spaceId: $s, commentId: $m) { id } }', { s, m }] },
  {
    name: 'edit a comment',
    rest: ({ s, m }) => ['PUT', `${spacePath(s)}/comments/${m}`, { body: { markdown: 'y' } }],
    gql: ({ s, m }) => ['mutation($s: String!, $m: String!) { updateSpaceComment(spaceId: $s, commentId: $m, body: { markdown: "y" }) { id } }', { s, m }],
    refuse: 'not the author',
  },
  {
    name: 'resolve a comment',
    rest: ({ s, m }) => ['PUT', `${spacePath(s)}/comments/${m}`, { resolved: true }],
    gql: ({ s, m }) => ['mutation($s: String!, $m: String!) { updateSpaceComment(spaceId: $s, commentId: $m, resolved: true) { id } }', { s, m }],
    refuse: 'reader',
  },
  {
    name: 'delete a comment',
    rest: ({ s, m }) => ['DELETE', `${spacePath(s)}/comments/${m}`],
    gql: ({ s, m }) => ['mutation($s: String!, $m: String!) { deleteSpaceComment(spaceId: $s, commentId: $m) }', { s, m }],
    refuse: 'not the author',
  },
  { name: 'list replies', rest: ({ s, m }) => ['GET', `${spacePath(s)}/comments/${m}/replies`], gql: ({ s, m }) => ['query($s: String!, $m: String!) { spaceCommentReplies(spaceId: $s, commentId: $m) { count } }', { s, m }] },
  {
    name: 'post a reply',
    rest: ({ s, m }) => ['POST', `${spacePath(s)}/comments/${m}/replies`, { body: { markdown: 'x' } }],
    gql: ({ s, m }) => ['mutation($s: String!, $m: String!) { postSpaceCommentReply(spaceId: $s, commentId: $m, body: { markdown: "x" }) { id } }', { s, m }],
    refuse: 'reader',
  },
  {
    name: 'get a reply',
    rest: ({ s, m, r }) => ['GET', `${spacePath(s)}/comments/${m}/replies/${r}`],
    gql: ({ s, m, r }) => ['query($s: String!, $m: String!, $r: String!) { spaceCommentReply(spaceId: $s, commentId: $m, commentReplyId: $r) { id } }', { s, m, r }],
  },
  {
    name: 'edit a reply',
    rest: ({ s, m, r }) => ['PUT', `${spacePath(s)}/comments/${m}/replies/${r}`, { body: { markdown: 'y' } }],
    gql: ({ s, m, r }) => ['mutation($s: String!, $m: String!, $r: String!) { updateSpaceCommentReply(spaceId: $s, commentId: $m, commentReplyId: $r, body: { markdown: "y" }) { id } }', { s, m, r }],
    refuse: 'not the author',
  },
  {
    name: 'delete a reply',
    rest: ({ s, m, r }) => ['DELETE', `${spacePath(s)}/comments/${m}/replies/${r}`],
    gql: ({ s, m, r }) => ['mutation($s: String!, $m: String!, $r: String!) { deleteSpaceCommentReply(spaceId: $s, commentId: $m, commentReplyId: $r) }', { s, m, r }],
    refuse: 'not the author',
  },
  {
    name: 'list commenters',
    rest: ({ s }) => ['GET', `${spacePath(s)}/commenters`],
    gql: ({ s }) => ['query($s: String!) { spaceCommenters(spaceId: $s) { count items { id } } }', { s }],
  },
];

refusalMatrix(OPS, {
  h,
  setup: async () => {
    const w = await setup();
    const comment = expectOk(await post(w.commenter, w.path, { body: { markdown: 'kept' } }));
    const reply = expectOk(await post(w.commenter, `${w.path}/${comment.id}/replies`, { body: { markdown: 'kept reply' } }));
    return { ...w, comment, reply };
  },
  ids: (w) => ({ s: w.space.id, m: w.comment.id, r: w.reply.id }),
  unknown: { s: 'unknownSpace00000001' },
  forbidden: async (w, refuse) => ({ callers: refuse === 'reader' ? [w.reader] : [w.editor, w.reader] }),
  unchanged: async (w) => {
    const rows = await h.db.comment.findMany({ where: { spaceId: w.space.id }, orderBy: { postedAt: 'asc' } });
    expect(rows.map((r) => `${r.markdown}: ${r.status}`).sort()).toEqual(['kept reply: open', 'kept: open']);
  },
});
