import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { DOORS, expectFailure, expectOk, gqlData, restError, throughDoor } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller } from '../support/harness.ts';

const h = useHarness();

const crPath = (s: string, c: string) => `/v1/spaces/${s}/change-requests/${c}`;

/** A space with a change request holding one page, a commenter, an editor and a reader. */
async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, {}), 201);
  const edited = expectOk(
    await admin.rest('POST', `${crPath(space.id, cr.id)}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Guide', emoji: '📘', document: { markdown: 'one\ntwo' } }],
    }),
  );
  const pageId = edited.changes[0].page.id as string;
  const [commenter, editor, reader] = [await buildMember(h, o, 'comment'), await buildMember(h, o, 'edit'), await buildMember(h, o, 'read')];
  return { admin, o, space, cr, pageId, commenter, editor, reader, path: `${crPath(space.id, cr.id)}/comments` };
}

const post = (caller: Caller, path: string, body: object) => caller.rest('POST', path, body);

describe('change request comments', () => {
  it("commenters (listCommentersInChangeRequest): the members who posted a comment or a reply on this change request only; both doors", async () => {
    const { admin, space, path, commenter, editor, reader } = await setup();
    const commenters = `${path.replace(/\/comments$/, '')}/commenters`;
    expect(expectOk(await reader.rest('GET', commenters), 200, 'listCommentersInChangeRequest')).toEqual({ items: [], count: 0 });
    const first = expectOk(await post(commenter, path, { body: { markdown: 'One' } }));
    h.clock.advance(1000);
    expectOk(await post(editor, `${path}/${first.id}/replies`, { body: { markdown: 'Reply' } }));
    // Comments elsewhere (the space's own, another change request's) are not this change request's.
    expectOk(await post(admin, `/v1/spaces/${space.id}/comments`, { body: { markdown: 'On the space' } }));
    const other = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, {}), 201);
    expectOk(await post(admin, `${crPath(space.id, other.id)}/comments`, { body: { markdown: 'Elsewhere' } }));

    const listed = expectOk(await reader.rest('GET', commenters), 200, 'listCommentersInChangeRequest');
    expect(listed.count).toBe(2);
    expect(listed.items.map((m: any) => m.user.id).sort()).toEqual([commenter.userId, editor.userId].sort());
    const gql = gqlData(
      await reader.gql('query($s: String!, $c: String!) { changeRequestCommenters(spaceId: $s, changeRequestId: $c) { count items { user { id } } } }', {
        s: space.id,
        c: path.split('/')[5],
      }),
      'changeRequestCommenters',
    );
    expect(gql.count).toBe(2);

    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    restError(await outsider.rest('GET', commenters), 404);
    restError(await reader.rest('GET', `${crPath(space.id, 'unknownChangeRequest')}/commenters`), 404);
    restError(await reader.rest('GET', `${commenters}?limit=0`), 400, 'limit');
  });

  it('post, get, list: GitBook shapes, page target, counts', async () => {
    const { admin, space, cr, pageId, commenter, path } = await setup();
    const onPage = expectOk(await post(commenter, path, { body: { markdown: 'Typo here' }, page: pageId, node: 'block-1' }), 200, 'postCommentInChangeRequest');
    expect(onPage).toMatchObject({
      object: 'comment',
      postedBy: { id: commenter.userId },
      body: { markdown: 'Typo here' },
      reactions: [],
      replies: 0,
      repliers: [],
      status: 'open',
      target: { changeRequest: cr.id, space: space.id, page: { id: pageId, title: 'Guide', emoji: '📘', path: 'guide', outdated: false }, node: { id: 'block-1' } },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(onPage.urls.location).toBe(`${h.config.apiUrl}${path.slice(3)}/${onPage.id}`);
    expect(onPage.editedAt).toBeUndefined();
    h.clock.advance(1000);
    const general = expectOk(await post(admin, path, { body: { markdown: 'Looks good' } }), 200, 'postCommentInChangeRequest');
    expect(general.target.page).toBeUndefined();

    expect(expectOk(await admin.rest('GET', `${path}/${onPage.id}`), 200, 'getCommentInChangeRequest')).toEqual({ ...onPage, permissions: expect.any(Object) });
    const list = expectOk(await admin.rest('GET', path), 200, 'listCommentsInChangeRequest');
    expect(list.items.map((c: any) => c.id)).toEqual([general.id, onPage.id]);
    expect(expectOk(await admin.rest('GET', `${path}?order=asc`)).items.map((c: any) => c.id)).toEqual([onPage.id, general.id]);
    expect(expectOk(await admin.rest('GET', `${path}?targetPage=${pageId}`)).items.map((c: any) => c.id)).toEqual([onPage.id]);
    const asDocument = expectOk(await admin.rest('GET', `${path}/${onPage.id}?format=document`), 200, 'getCommentInChangeRequest');
    expect(asDocument.body.document.object).toBe('document');
    const page1 = expectOk(await admin.rest('GET', `${path}?limit=1`));
    const page2 = expectOk(await admin.rest('GET', `${path}?limit=1&page=${page1.next.page}`));
    expect([...page1.items, ...page2.items].map((c: any) => c.id)).toEqual([general.id, onPage.id]);

    expect(expectOk(await admin.rest('GET', crPath(space.id, cr.id))).comments).toBe(2);
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}`)).comments).toBe(2);
  });

  it.each(DOORS)('%s: authors filters by who posted (REST: the parameter repeated); 400 naming a bad list', async (door) => {
    const { admin, space, cr, commenter, editor, path } = await setup();
    const byCommenter = expectOk(await post(commenter, path, { body: { markdown: 'One' } }));
    h.clock.advance(1000);
    const byEditor = expectOk(await post(editor, path, { body: { markdown: 'Two' } }));
    h.clock.advance(1000);
    expectOk(await post(admin, path, { body: { markdown: 'Three' } }));
    const list = (authors: string[]) =>
      throughDoor(door, commenter, ['GET', `${path}?${authors.map((a) => `authors=${encodeURIComponent(a)}`).join('&')}`], [
        'changeRequestComments',
        'query($s: String!, $c: String!, $a: [String!]) { changeRequestComments(spaceId: $s, changeRequestId: $c, authors: $a) { count items { id } } }',
        { s: space.id, c: cr.id, a: authors },
      ]);
    const two = expectOk(await list([editor.userId, commenter.userId]), 200, door === 'rest' ? 'listCommentsInChangeRequest' : undefined);
    expect([two.count, two.items.map((c: any) => c.id)]).toEqual([2, [byEditor.id, byCommenter.id]]);
    expect(expectOk(await list([editor.userId])).items.map((c: any) => c.id)).toEqual([byEditor.id]);
    expect(expectOk(await list([])).count).toBe(3);
    expectFailure(await list(Array.from({ length: 101 }, (_, i) => `user${i}`)), 400, 'authors');
    expectFailure(await list(['']), 400, 'authors');
  });

  it('400 names the field: body 1..10000 characters, a page of the change request, one emoji per reaction, limit', async () => {
    const { admin, pageId, path } = await setup();
    restError(await post(admin, path, {}), 400, 'body');
    restError(await post(admin, path, { body: {} }), 400, 'body.markdown');
    restError(await post(admin, path, { body: { markdown: '' } }), 400, 'body.markdown');
    restError(await post(admin, path, { body: { markdown: 'x'.repeat(10_001) } }), 400, 'body.markdown');
    expectOk(await post(admin, path, { body: { markdown: 'x'.repeat(10_000) } }));
    restError(await post(admin, path, { body: { markdown: 'x' }, page: 'notAPage' }), 400, 'page');
    const comment = expectOk(await post(admin, path, { body: { markdown: 'x' }, page: pageId }));
    for (const bad of ['x', '👍👍', 'ab', '']) restError(await admin.rest('PUT', `${path}/${comment.id}`, { addedReactions: [bad] }), 400, 'addedReactions[0]');
    restError(await admin.rest('GET', `${path}?limit=1001`), 400, 'limit');
    restError(await admin.rest('GET', `${path}?status=closed`), 400, 'status');
    restError(await admin.rest('GET', `${path}/unknownComment`), 404);
    // Replies: the same body and reaction rules.
    const replies = `${path}/${comment.id}/replies`;
    restError(await post(admin, replies, {}), 400, 'body');
    restError(await post(admin, replies, { body: { markdown: 'x'.repeat(10_001) } }), 400, 'body.markdown');
    const reply = expectOk(await post(admin, replies, { body: { markdown: 'ok' } }));
    restError(await admin.rest('PUT', `${replies}/${reply.id}`, { removedReactions: ['nope'] }), 400, 'removedReactions[0]');
    restError(await admin.rest('PUT', `${replies}/${reply.id}`, { body: { markdown: '' } }), 400, 'body.markdown');
    restError(await admin.rest('GET', `${replies}?limit=0`), 400, 'limit');
    restError(await admin.rest('GET', `${replies}/unknownReply`), 404);
  });

  it('reactions by two users: adding twice and removing one never added change nothing', async () => {
    const { admin, commenter, path } = await setup();
    const comment = expectOk(await post(admin, path, { body: { markdown: 'React' } }));
    const put = (c: Caller, body: object) => c.rest('PUT', `${path}/${comment.id}`, body);
    expectOk(await put(admin, { addedReactions: ['👍', '🎉'] }), 200, 'updateCommentInChangeRequest');
    h.clock.advance(1000);
    expectOk(await put(commenter, { addedReactions: ['👍', '👍🏽'] }));
    expectOk(await put(commenter, { addedReactions: ['👍'], removedReactions: ['🎉'] }));
    const reacted = expectOk(await admin.rest('GET', `${path}/${comment.id}`), 200, 'getCommentInChangeRequest');
    const summary = reacted.reactions.map((r: any) => [r.emoji, r.count, r.users.map((u: any) => u.user.id)]);
    expect(summary).toEqual([
      ['👍', 2, [admin.userId, commenter.userId]],
      ['🎉', 1, [admin.userId]],
      ['👍🏽', 1, [commenter.userId]],
    ]);
    expectOk(await put(admin, { removedReactions: ['👍'] }));
    const after = expectOk(await admin.rest('GET', `${path}/${comment.id}`)).reactions;
    expect(after.find((r: any) => r.emoji === '👍')).toMatchObject({ count: 1, users: [{ user: { id: commenter.userId } }] });
  });

  it('edit (author or admin), resolve (author or editor), reopen; editedAt only on body edits', async () => {
    const { admin, commenter, editor, reader, space, path } = await setup();
    const comment = expectOk(await post(commenter, path, { body: { markdown: 'Mine' } }));
    const put = (c: Caller, body: object) => c.rest('PUT', `${path}/${comment.id}`, body);
    restError(await put(editor, { body: { markdown: 'Not yours' } }), 403);
    restError(await put(reader, { addedReactions: ['👍'] }), 403);
    h.clock.advance(1000);
    const edited = expectOk(await put(commenter, { body: { markdown: 'Mine, edited' } }), 200, 'updateCommentInChangeRequest');
    expect(edited).toMatchObject({ body: { markdown: 'Mine, edited' }, editedAt: expect.any(String) });
    expectOk(await put(admin, { body: { markdown: 'Admin fix' } }));

    restError(await put(reader, { resolved: true }), 403);
    const resolved = expectOk(await put(editor, { resolved: true }), 200, 'updateCommentInChangeRequest');
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: editor.userId }, resolvedAt: expect.any(String) });
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}`)).comments).toBe(0);
    expect(expectOk(await admin.rest('GET', `${path}?status=resolved`)).items).toHaveLength(1);
    expect(expectOk(await admin.rest('GET', `${path}?status=open`)).items).toHaveLength(0);
    const reopened = expectOk(await put(commenter, { resolved: false }), 200, 'updateCommentInChangeRequest');
    expect(reopened.status).toBe('open');
    expect(reopened.resolvedAt).toBeUndefined();
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}`)).comments).toBe(1);
  });

  it('replies: post, list, get, edit, react, delete; deleting a comment takes its replies and reactions', async () => {
    const { admin, commenter, editor, path, cr, space } = await setup();
    const comment = expectOk(await post(admin, path, { body: { markdown: 'Question?' } }));
    const replies = `${path}/${comment.id}/replies`;
    const first = expectOk(await post(commenter, replies, { body: { markdown: 'Answer' } }), 200, 'postCommentReplyInChangeRequest');
    expect(first).toMatchObject({ object: 'comment-reply', postedBy: { id: commenter.userId }, body: { markdown: 'Answer' }, reactions: [] });
    expect(first.urls.location).toBe(`${h.config.apiUrl}${replies.slice(3)}/${first.id}`);
    h.clock.advance(1000);
    const second = expectOk(await post(admin, `${replies}?format=document`, { body: { markdown: 'Thanks' } }), 200, 'postCommentReplyInChangeRequest');
    expect(second.body.document.object).toBe('document');
    const listed = expectOk(await admin.rest('GET', replies), 200, 'listCommentRepliesInChangeRequest');
    expect(listed.items.map((r: any) => r.id)).toEqual([first.id, second.id]);
    expect(expectOk(await admin.rest('GET', `${replies}/${first.id}`), 200, 'getCommentReplyInChangeRequest').id).toBe(first.id);
    restError(await editor.rest('PUT', `${replies}/${first.id}`, { body: { markdown: 'no' } }), 403);
    expectOk(await commenter.rest('PUT', `${replies}/${first.id}`, { body: { markdown: 'Answer, edited' }, addedReactions: ['✅'] }), 200, 'updateCommentReplyInChangeRequest');

    const withReplies = expectOk(await admin.rest('GET', `${path}/${comment.id}`));
    expect(withReplies.replies).toBe(2);
    expect(withReplies.repliers.map((r: any) => [r.user.id, r.count])).toEqual(expect.arrayContaining([[commenter.userId, 1], [admin.userId, 1]]));
    // Replies do not count as comments.
    expect(expectOk(await admin.rest('GET', crPath(space.id, cr.id))).comments).toBe(1);

    restError(await editor.rest('DELETE', `${replies}/${second.id}`), 403);
    expect((await admin.rest('DELETE', `${replies}/${second.id}`)).status).toBe(205);
    expect((await admin.rest('DELETE', `${replies}/${second.id}`)).status).toBe(204);
    restError(await admin.rest('GET', `${replies}/${second.id}`), 404);
    restError(await commenter.rest('DELETE', `${path}/${comment.id}`), 403);
    expect((await admin.rest('DELETE', `${path}/${comment.id}`)).status).toBe(205);
    expect((await admin.rest('DELETE', `${path}/${comment.id}`)).status).toBe(204);
    expect(await h.db.comment.count({ where: { changeRequestId: cr.id } })).toBe(0);
    expect(await h.db.commentReaction.count({ where: { commentId: first.id } })).toBe(0);
    restError(await admin.rest('GET', replies), 404);
  });

  it('a comment on a page the change request later changes or deletes is outdated', async () => {
    const { admin, space, cr, pageId, path } = await setup();
    const comment = expectOk(await post(admin, path, { body: { markdown: 'About this page' }, page: pageId }));
    expect(comment.target.page.outdated).toBe(false);
    await admin.rest('POST', `${crPath(space.id, cr.id)}/content`, { changes: [{ operation: 'update_page', page: pageId, document: { markdown: 'one\nTWO' } }] });
    expect(expectOk(await admin.rest('GET', `${path}/${comment.id}`)).target.page).toMatchObject({ id: pageId, outdated: true });
    await admin.rest('POST', `${crPath(space.id, cr.id)}/content`, { changes: [{ operation: 'delete_page', page: pageId }] });
    expect(expectOk(await admin.rest('GET', `${path}/${comment.id}`)).target.page.outdated).toBe(true);
  });

  it('a page of 100 comments with reactions and replies costs the statements of a page of 5 (REST and GraphQL)', async () => {
    const { admin, commenter, space, pageId } = await setup();
    const crs = [];
    for (const n of [5, 100]) {
      const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, {}), 201);
      await admin.rest('POST', `${crPath(space.id, cr.id)}/content`, { changes: [{ operation: 'insert_page', title: 'P', document: { markdown: 'p' } }] });
      const path = `${crPath(space.id, cr.id)}/comments`;
      const rows = Array.from({ length: n }, (_, i) => ({
        id: `c${n}x${i}`,
        spaceId: space.id,
        changeRequestId: cr.id,
        postedById: i % 2 ? admin.userId : commenter.userId,
        markdown: `Comment ${i}`,
        targetRevisionId: space.revision,
        targetPageId: null,
        postedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      }));
      await h.db.comment.createMany({ data: rows });
      await h.db.comment.createMany({ data: rows.map((r) => ({ ...r, id: `${r.id}r`, parentId: r.id })) });
      await h.db.commentReaction.createMany({ data: rows.flatMap((r) => [admin, commenter].map((u) => ({ commentId: r.id, userId: u.userId, emoji: '👍' }))) });
      crs.push({ n, path, cr });
    }
    void pageId;
    const count = async (request: () => Promise<{ status: number; text: string }>) => {
      await request();
      await new Promise((r) => setTimeout(r, 50));
      const before = h.store.queries.length;
      const res = await request();
      expect(res.status, res.text).toBe(200);
      await new Promise((r) => setTimeout(r, 50));
      return h.store.queries.length - before;
    };
    const query = `query($s: String!, $c: String!) { changeRequestComments(spaceId: $s, changeRequestId: $c, limit: 100) {
      items { id postedBy { id } reactions repliers replies target status resolvedBy { id } permissions { edit } } } }`;
    const [small, large] = crs;
    const restCount = await count(() => admin.rest('GET', `${large.path}?limit=100`));
    expect(restCount).toBe(await count(() => admin.rest('GET', `${small.path}?limit=100`)));
    // Token, access, the change request with its page of comments and their count, repliers and target pages.
    expect(restCount).toBeLessThanOrEqual(4);
    const gql = (cr: { id: string }) => () => admin.gql(query, { s: space.id, c: cr.id });
    expect(await count(gql(large.cr))).toBe(await count(gql(small.cr)));
    const listed = expectOk(await admin.rest('GET', `${large.path}?limit=100`), 200, 'listCommentsInChangeRequest');
    expect(listed.items).toHaveLength(100);
    expect(listed.items[0]).toMatchObject({ replies: 1, reactions: [{ emoji: '👍', count: 2 }] });
  });

  it('GraphQL: ChangeRequest.commentList and Comment.replyList, loaded with their parents', async () => {
    const { admin, space, cr, commenter, path } = await setup();
    const first = expectOk(await post(commenter, path, { body: { markdown: 'First' } }));
    h.clock.advance(1000);
    const second = expectOk(await post(admin, path, { body: { markdown: 'Second' } }));
    await post(admin, `${path}/${first.id}/replies`, { body: { markdown: 'Re' } });
    await admin.rest('PUT', `${path}/${second.id}`, { resolved: true });
    const query = `query($s: String!, $c: String!) { spaceChangeRequest(spaceId: $s, changeRequestId: $c) {
      all: commentList(limit: 20) { id body replyList(limit: 10) { body postedBy { id } } }
      open: commentList(status: open, order: asc) { id } } }`;
    const data = gqlData(await admin.gql(query, { s: space.id, c: cr.id }), 'spaceChangeRequest');
    expect(data.all.map((c: any) => c.id)).toEqual([second.id, first.id]);
    expect(data.all[1].replyList).toEqual([{ body: { markdown: 'Re' }, postedBy: { id: admin.userId } }]);
    expect(data.open.map((c: any) => c.id)).toEqual([first.id]);
    // GraphQL only: the REST change request keeps GitBook's count.
    expect(expectOk(await admin.rest('GET', crPath(space.id, cr.id))).comments).toBe(2);
  });

  it('GraphQL: the same operations', async () => {
    const { admin, space, cr, commenter } = await setup();
    const ids = { s: space.id, c: String(cr.number) };
    const posted = gqlData(
      await commenter.gql(
        'mutation($s: String!, $c: String!) { postChangeRequestComment(spaceId: $s, changeRequestId: $c, body: { markdown: "Hi" }) { id object body postedBy { id } status } }',
        ids,
      ),
      'postChangeRequestComment',
    );
    expect(posted).toMatchObject({ object: 'comment', body: { markdown: 'Hi' }, postedBy: { id: commenter.userId }, status: 'open' });
    const updated = gqlData(
      await admin.gql(
        'mutation($s: String!, $c: String!, $m: String!) { updateChangeRequestComment(spaceId: $s, changeRequestId: $c, commentId: $m, resolved: true, addedReactions: ["👍"]) { status reactions resolvedBy { id } } }',
        { ...ids, m: posted.id },
      ),
      'updateChangeRequestComment',
    );
    expect(updated).toMatchObject({ status: 'resolved', resolvedBy: { id: admin.userId }, reactions: [{ emoji: '👍', count: 1 }] });
    const reply = gqlData(
      await admin.gql(
        'mutation($s: String!, $c: String!, $m: String!) { postChangeRequestCommentReply(spaceId: $s, changeRequestId: $c, commentId: $m, body: { markdown: "Done" }) { id object } }',
        { ...ids, m: posted.id },
      ),
      'postChangeRequestCommentReply',
    );
    expect(reply.object).toBe('comment-reply');
    const list = gqlData(
      await admin.gql('query($s: String!, $c: String!) { changeRequestComments(spaceId: $s, changeRequestId: $c, status: resolved) { count items { id replies } } }', ids),
      'changeRequestComments',
    );
    expect(list).toEqual({ count: 1, items: [{ id: posted.id, replies: 1 }] });
    const r = { ...ids, m: posted.id, r: reply.id };
    expect(
      gqlData(await admin.gql('query($s: String!, $c: String!, $m: String!) { changeRequestComment(spaceId: $s, changeRequestId: $c, commentId: $m, format: document) { id body } }', r), 'changeRequestComment').body.document.object,
    ).toBe('document');
    expect(
      gqlData(await admin.gql('query($s: String!, $c: String!, $m: String!) { changeRequestCommentReplies(spaceId: $s, changeRequestId: $c, commentId: $m) { count items { id } } }', r), 'changeRequestCommentReplies'),
    ).toEqual({ count: 1, items: [{ id: reply.id }] });
    const replyFields = 'spaceId: $s, changeRequestId: $c, commentId: $m, commentReplyId: $r';
    const vars = 'query($s: String!, $c: String!, $m: String!, $r: String!)';
    expect(gqlData(await admin.gql(`${vars} { changeRequestCommentReply(${replyFields}) { body } }`, r), 'changeRequestCommentReply')).toEqual({ body: { markdown: 'Done' } });
    const edited = gqlData(
      await admin.gql(`${vars.replace('query', 'mutation')} { updateChangeRequestCommentReply(${replyFields}, body: { markdown: "Done!" }, addedReactions: ["🎉"]) { body editedAt reactions } }`, r),
      'updateChangeRequestCommentReply',
    );
    expect(edited).toMatchObject({ body: { markdown: 'Done!' }, editedAt: expect.any(String), reactions: [{ emoji: '🎉', count: 1 }] });
    const badReply = await admin.gql(`${vars.replace('query', 'mutation')} { updateChangeRequestCommentReply(${replyFields}, addedReactions: ["nope"]) { id } }`, r);
    expect(badReply.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(gqlData(await admin.gql(`${vars.replace('query', 'mutation')} { deleteChangeRequestCommentReply(${replyFields}) }`, r), 'deleteChangeRequestCommentReply')).toBe(true);
    expect(
      gqlData(await admin.gql('mutation($s: String!, $c: String!, $m: String!) { deleteChangeRequestComment(spaceId: $s, changeRequestId: $c, commentId: $m) }', { ...ids, m: posted.id }), 'deleteChangeRequestComment'),
    ).toBe(true);
  });
});

type Ids = { s: string; c: string; m: string; r: string };
const OPS: RefusalOp<Ids>[] = [
  { name: 'list comments', rest: ({ s, c }) => ['GET', `${crPath(s, c)}/comments`], gql: ({ s, c }) => ['query($s: String!, $c: String!) { changeRequestComments(spaceId: $s, changeRequestId: $c) { count } }', { s, c }] },
  {
    name: 'post a comment',
    rest: ({ s, c }) => ['POST', `${crPath(s, c)}/comments`, { body: { markdown: 'x' } }],
    gql: ({ s, c }) => ['mutation($s: String!, $c: String!) { postChangeRequestComment(spaceId: $s, changeRequestId: $c, body: { markdown: "x" }) { id } }', { s, c }],
    refuse: 'reader',
  },
  { name: 'get a comment', rest: ({ s, c, m }) => ['GET', `${crPath(s, c)}/comments/${m}`], gql: ({ s, c, m }) => ['query($s: String!, $c: String!, $m: String!) { changeRequestComment(spaceId: $s, changeRequestId: $c, commentId: $m) { id } }', { s, c, m }] },
  {
    name: 'edit a comment',
    rest: ({ s, c, m }) => ['PUT', `${crPath(s, c)}/comments/${m}`, { body: { markdown: 'y' } }],
    gql: ({ s, c, m }) => ['mutation($s: String!, $c: String!, $m: String!) { updateChangeRequestComment(spaceId: $s, changeRequestId: $c, commentId: $m, body: { markdown: "y" }) { id } }', { s, c, m }],
    refuse: 'not the author',
  },
  {
    name: 'delete a comment',
    rest: ({ s, c, m }) => ['DELETE', `${crPath(s, c)}/comments/${m}`],
    gql: ({ s, c, m }) => ['mutation($s: String!, $c: String!, $m: String!) { deleteChangeRequestComment(spaceId: $s, changeRequestId: $c, commentId: $m) }', { s, c, m }],
    refuse: 'not the author',
  },
  { name: 'list replies', rest: ({ s, c, m }) => ['GET', `${crPath(s, c)}/comments/${m}/replies`], gql: ({ s, c, m }) => ['query($s: String!, $c: String!, $m: String!) { changeRequestCommentReplies(spaceId: $s, changeRequestId: $c, commentId: $m) { count } }', { s, c, m }] },
  {
    name: 'post a reply',
    rest: ({ s, c, m }) => ['POST', `${crPath(s, c)}/comments/${m}/replies`, { body: { markdown: 'x' } }],
    gql: ({ s, c, m }) => ['mutation($s: String!, $c: String!, $m: String!) { postChangeRequestCommentReply(spaceId: $s, changeRequestId: $c, commentId: $m, body: { markdown: "x" }) { id } }', { s, c, m }],
    refuse: 'reader',
  },
  {
    name: 'get a reply',
    rest: ({ s, c, m, r }) => ['GET', `${crPath(s, c)}/comments/${m}/replies/${r}`],
    gql: ({ s, c, m, r }) => ['query($s: String!, $c: String!, $m: String!, $r: String!) { changeRequestCommentReply(spaceId: $s, changeRequestId: $c, commentId: $m, commentReplyId: $r) { id } }', { s, c, m, r }],
  },
  {
    name: 'edit a reply',
    rest: ({ s, c, m, r }) => ['PUT', `${crPath(s, c)}/comments/${m}/replies/${r}`, { body: { markdown: 'y' } }],
    gql: ({ s, c, m, r }) => [
      'mutation($s: String!, $c: String!, $m: String!, $r: String!) { updateChangeRequestCommentReply(spaceId: $s, changeRequestId: $c, commentId: $m, commentReplyId: $r, body: { markdown: "y" }) { id } }',
      { s, c, m, r },
    ],
    refuse: 'not the author',
  },
  {
    name: 'delete a reply',
    rest: ({ s, c, m, r }) => ['DELETE', `${crPath(s, c)}/comments/${m}/replies/${r}`],
    gql: ({ s, c, m, r }) => ['mutation($s: String!, $c: String!, $m: String!, $r: String!) { deleteChangeRequestCommentReply(spaceId: $s, changeRequestId: $c, commentId: $m, commentReplyId: $r) }', { s, c, m, r }],
    refuse: 'not the author',
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
  ids: (w) => ({ s: w.space.id, c: w.cr.id, m: w.comment.id, r: w.reply.id }),
  unknown: { s: 'unknownSpace00000001' },
  forbidden: async (w, refuse) => ({ callers: refuse === 'reader' ? [w.reader] : [w.editor, w.reader] }),
  unchanged: async (w) => {
    const rows = await h.db.comment.findMany({ where: { changeRequestId: w.cr.id }, orderBy: { postedAt: 'asc' } });
    expect(rows.map((r) => r.markdown).sort()).toEqual(['kept', 'kept reply']);
  },
});
