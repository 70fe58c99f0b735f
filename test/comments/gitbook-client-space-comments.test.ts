// The official client (`GitBookAPI` from @gitbook/api) holding a conversation on a space's own content
// over a real HTTP listener (issue 26 §3): comments, replies, reactions, resolving, commenters, deleting.
import { describe, expect, it } from 'vitest';
import { expectApiError, useClientServer } from '../support/client-server.ts';
import { expectGitBookShape } from '../support/assertions.ts';

const s = useClientServer();

describe('official GitBookAPI client: space comments', () => {
  it('drives post, get, list, update (reactions, resolve), reply, list/get/update/delete replies, commenters, delete', async () => {
    const ada = await s.newUser('Ada');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Writers' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
    // A page in the space's current content: written in a change request, merged.
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Intro' })).data;
    const content = (
      await api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: '# Intro' } }] } as any, {
        compat: false,
      })
    ).data as any;
    const pageId = content.changes[0].page.id;
    await api.spaces.mergeChangeRequest(space.id, cr.id);

    const posted = await api.spaces.postCommentInSpace(space.id, { body: { markdown: 'Needs an example' }, page: pageId } as any);
    expect(posted.status).toBe(200);
    const comment = posted.data as any;
    expectGitBookShape('postCommentInSpace', 200, comment);
    expect(comment).toMatchObject({ object: 'comment', status: 'open', target: { space: space.id, page: { id: pageId } }, body: { markdown: 'Needs an example' } });
    expect((await api.spaces.getCommentInSpace(space.id, comment.id, { format: 'document' })).data.body).toMatchObject({ document: { object: 'document' } });

    const updated = (await api.spaces.updateCommentInSpace(space.id, comment.id, { addedReactions: ['👍'], resolved: true })).data as any;
    expect(updated).toMatchObject({ status: 'resolved', reactions: [{ emoji: '👍', count: 1 }] });

    const reply = (await api.spaces.postCommentReplyInSpace(space.id, comment.id, { body: { markdown: 'Added one' } } as any)).data as any;
    expect(reply.object).toBe('comment-reply');
    const replies = (await api.spaces.listCommentRepliesInSpace(space.id, comment.id)).data;
    expect(replies.items.map((r: any) => r.id)).toEqual([reply.id]);
    expect((await api.spaces.getCommentReplyInSpace(space.id, comment.id, reply.id)).data.id).toBe(reply.id);
    const editedReply = (await api.spaces.updateCommentReplyInSpace(space.id, comment.id, reply.id, { body: { markdown: 'Added two' } } as any)).data as any;
    expect(editedReply.body).toEqual({ markdown: 'Added two' });

    const listed = (await api.spaces.listCommentsInSpace(space.id, { status: 'resolved' })).data;
    expect(listed.items.map((c: any) => [c.id, c.replies])).toEqual([[comment.id, 1]]);
    expect((await api.spaces.listCommentsInSpace(space.id, { status: 'open' })).data.items).toEqual([]);
    const commenters = (await api.spaces.listCommentersInSpace(space.id)).data;
    expectGitBookShape('listCommentersInSpace', 200, commenters);
    expect(commenters.items.map((m) => m.user.id)).toEqual([ada.id]);

    await expectApiError(api.spaces.postCommentInSpace(space.id, { body: { markdown: '' } } as any), 400);
    await expectApiError(api.spaces.getCommentInSpace(space.id, 'unknownComment'), 404);
    expect((await api.spaces.deleteCommentReplyInSpace(space.id, comment.id, reply.id)).status).toBe(205);
    expect((await api.spaces.deleteCommentReplyInSpace(space.id, comment.id, reply.id)).status).toBe(204);
    await expectApiError(api.spaces.getCommentReplyInSpace(space.id, comment.id, reply.id), 404);
    expect((await api.spaces.deleteCommentInSpace(space.id, comment.id)).status).toBe(205);
    expect((await api.spaces.deleteCommentInSpace(space.id, comment.id)).status).toBe(204);
    await expectApiError(api.spaces.getCommentInSpace(space.id, comment.id), 404);
  });
});
