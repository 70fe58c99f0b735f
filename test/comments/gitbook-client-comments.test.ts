// The official client (`GitBookAPI` from @gitbook/api) holding a review conversation on a change
// request over a real HTTP listener: comments, replies, reactions, resolving, deleting.
import { describe, expect, it } from 'vitest';
import { expectApiError, useClientServer } from '../support/client-server.ts';

const s = useClientServer();

describe('official GitBookAPI client: change request comments', () => {
  it('drives post, list, update (reactions, resolve), reply, list replies, delete', async () => {
    const ada = await s.newUser('Ada');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Reviewers' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Review me' })).data;
    const content = (
      await api.spaces.updateChangeRequestContent(
        space.id,
        cr.id,
        { changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: '# Intro' } }] } as any,
        { compat: false },
      )
    ).data as any;
    const pageId = content.changes[0].page.id;

    const posted = await api.spaces.postCommentInChangeRequest(space.id, cr.id, { body: { markdown: 'Needs an example' }, page: pageId } as any);
    expect(posted.status).toBe(200);
    const comment = posted.data as any;
    expect(comment).toMatchObject({ object: 'comment', status: 'open', target: { page: { id: pageId } }, body: { markdown: 'Needs an example' } });

    const updated = (await api.spaces.updateCommentInChangeRequest(space.id, cr.id, comment.id, { addedReactions: ['👍'], resolved: true })).data as any;
    expect(updated).toMatchObject({ status: 'resolved', reactions: [{ emoji: '👍', count: 1 }] });

    const reply = (await api.spaces.postCommentReplyInChangeRequest(space.id, cr.id, comment.id, { body: { markdown: 'Added one' } } as any)).data as any;
    expect(reply.object).toBe('comment-reply');
    const replies = (await api.spaces.listCommentRepliesInChangeRequest(space.id, cr.id, comment.id)).data;
    expect(replies.items.map((r: any) => r.id)).toEqual([reply.id]);

    const listed = (await api.spaces.listCommentsInChangeRequest(space.id, cr.id, { status: 'resolved' } as any)).data;
    expect(listed.items.map((c: any) => [c.id, c.replies])).toEqual([[comment.id, 1]]);
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data.comments).toBe(1);

    await expectApiError(api.spaces.postCommentInChangeRequest(space.id, cr.id, { body: { markdown: '' } } as any), 400);
    const deleted = await api.spaces.deleteCommentInChangeRequest(space.id, cr.id, comment.id);
    expect(deleted.status).toBe(205);
    await expectApiError(api.spaces.getCommentInChangeRequest(space.id, cr.id, comment.id), 404);
  });
});
