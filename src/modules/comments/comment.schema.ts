import type { Comment } from '../../generated/prisma/client.ts';
import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import type { Context } from '../../core/context.ts';
import { can } from '../../core/authorization.ts';
import { listArgs, listItemsQuery, listType, recordQuery } from '../../graphql/list.ts';
import { changeRequestArgs } from '../change-requests/index.ts';
import { DocumentFormatEnum } from '../content/index.ts';
import { documentShape } from '../content/index.ts';
import { documentBudget } from '../content/index.ts';
import { markdownToDocument } from '../content/index.ts';
import { spaceActor } from '../content-access/index.ts';
import { MemberList } from '../members/index.ts';
import { UserRef } from '../users/index.ts';
import { reactionsSelect, reactionSummaries, repliersOf, targetPageOf } from './comment.loaders.ts';
import { commentPolicy } from './comment.policy.ts';
import {
  type CommentTarget,
  deleteComment,
  deleteReply,
  getComment,
  getReply,
  listCommenters,
  listComments,
  listReplies,
  postComment,
  postReply,
  updateComment,
  updateReply,
  MAX_AUTHOR_ID,
  MAX_AUTHORS,
  MAX_COMMENT_CHARACTERS,
  MAX_EMOJI_LENGTH,
  MAX_REACTION_CHANGES,
} from './comment.service.ts';

/** How a comment's body is answered: REST's `format` reaches the body through the comment itself. */
type WithFormat = Comment & { bodyFormat?: 'markdown' | 'document' };
const withFormat = <T extends object>(comment: T, format: 'markdown' | 'document' | null | undefined): T =>
  Object.assign(comment, { bodyFormat: format ?? 'markdown' });

const CommentStatusEnum = builder.enumType('CommentStatus', { values: ['open', 'resolved'] as const });
export const CommentStatusFilter = builder.enumType('CommentStatusFilter', {
  description: 'all (default), open or resolved',
  values: ['all', 'open', 'resolved'] as const,
});
export const ListOrderEnum = builder.enumType('ListOrder', { description: 'asc or desc', values: ['asc', 'desc'] as const });

const CommentUrls = builder.simpleObject('CommentUrls', { fields: (t) => ({ location: t.string({ extensions: constrained({ format: 'uri' }) }) }) });
const CommentPermissions = builder.simpleObject('CommentPermissions', {
  fields: (t) => ({ view: t.boolean(), edit: t.boolean(), reply: t.boolean(), delete: t.boolean() }),
});

/** A comment's body in the format asked for (documents count against the request's budget: document-budget.ts). */
const bodyOf = (c: WithFormat, _args: unknown, ctx: Context) =>
  c.bodyFormat === 'document' ? { document: markdownToDocument(c.markdown, documentBudget(ctx)) } : { markdown: c.markdown };

/** What the caller may do with a comment or reply. The space and the caller's level on it are in the
 * request's loaders: the access check read them. */
async function permissionsOf(c: Comment, ctx: Context) {
  const space = await ctx.loaders.space.load(c.spaceId);
  const actor = { ...(await spaceActor(ctx, space!)), userId: ctx.viewer?.user.id ?? '' };
  return {
    view: can(commentPolicy, actor, 'read', c),
    edit: can(commentPolicy, actor, 'edit', c),
    reply: can(commentPolicy, actor, 'post', c),
    delete: can(commentPolicy, actor, 'delete', c),
  };
}

const user = { $ref: '#/components/schemas/User' };
const dateTime = { type: 'string', format: 'date-time' };

/** A body as bodyOf answers it: `{ markdown }` or, with format=document, `{ document }` (GitBook's `Document`). */
const bodyShape = shaped({
  oneOf: [
    { type: 'object', required: ['markdown'], properties: { markdown: { type: 'string' } } },
    { type: 'object', required: ['document'], properties: { document: documentShape } },
  ],
});

/** Reactions as reactionSummaries answers them (GitBook's `EmojiReactions`): one entry per emoji, in order of first reaction. */
const reactionsShape = shaped({
  type: 'array',
  items: {
    type: 'object',
    required: ['emoji', 'count', 'users'],
    properties: {
      emoji: { type: 'string' },
      count: { type: 'integer' },
      users: { type: 'array', items: { type: 'object', required: ['user', 'reactedAt'], properties: { user, reactedAt: dateTime } } },
    },
  },
});

/** Repliers as repliersOf answers them (GitBook's `UserContributor`). */
const repliersShape = shaped({
  type: 'array',
  items: { type: 'object', required: ['user', 'count', 'updatedAt'], properties: { user, count: { type: 'integer' }, updatedAt: dateTime } },
});

/** A comment's target as `Comment.target` builds it; `page` and `node` only when the comment is on one. */
const targetShape = shaped({
  type: 'object',
  required: ['space', 'revision'],
  properties: {
    changeRequest: { type: 'string' },
    space: { type: 'string' },
    revision: { type: 'string' },
    page: {
      type: 'object',
      required: ['id', 'title', 'path', 'outdated'],
      properties: { id: { type: 'string' }, title: { type: 'string' }, emoji: { type: 'string' }, path: { type: 'string' }, outdated: { type: 'boolean' } },
    },
    node: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
  },
});

/** Where a comment's routes are: under its change request, or under its space for the space's own. */
const commentsPath = (c: Comment, apiUrl: string) =>
  c.changeRequestId ? `${apiUrl}/spaces/${c.spaceId}/change-requests/${c.changeRequestId}/comments` : `${apiUrl}/spaces/${c.spaceId}/comments`;

export const CommentRef = builder.prismaObject('Comment', {
  description: 'A comment on a space or on one of its change requests, possibly on one of its pages',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['comment'] }), resolve: () => 'comment' }),
    id: t.exposeID('id'),
    postedBy: t.relation('postedBy', { type: UserRef, nullable: true, description: 'NULL once the author is deleted' }),
    postedAt: t.expose('postedAt', { type: 'DateTime' }),
    editedAt: t.expose('editedAt', { type: 'DateTime', nullable: true, description: 'Set when the body is edited' }),
    body: t.field({
      type: 'JSON',
      description: '{ markdown } (default) or { document } (format=document)',
      extensions: bodyShape,
      resolve: bodyOf,
    }),
    reactions: t.field({
      type: 'JSON',
      description: 'Emoji reactions: [{ emoji, count, users: [{ user, reactedAt }] }]',
      extensions: reactionsShape,
      // Read with the comment: a join in its own statement.
      select: reactionsSelect,
      resolve: (c, _args, ctx) => reactionSummaries(c.reactions, ctx.config.apiUrl),
    }),
    replies: t.relationCount('replies', { description: 'Replies to it' }),
    repliers: t.field({
      type: 'JSON',
      description: 'Who replied: [{ user, count, updatedAt }]',
      extensions: repliersShape,
      resolve: (c, _args, ctx) => repliersOf(ctx, c.id),
    }),
    target: t.field({
      type: 'JSON',
      description: 'What it is about: { changeRequest, space, revision, page?: { id, title, emoji, path, outdated }, node?: { id } }',
      extensions: targetShape,
      resolve: async (c, _args, ctx) => {
        const page = c.targetPageId ? await targetPageOf(ctx, c.id) : null;
        return {
          ...(c.changeRequestId ? { changeRequest: c.changeRequestId } : {}),
          space: c.spaceId,
          revision: c.targetRevisionId,
          ...(page ? { page: { id: page.id, title: page.title, ...(page.emoji ? { emoji: page.emoji } : {}), path: page.path, outdated: page.outdated } } : {}),
          ...(c.targetNodeId ? { node: { id: c.targetNodeId } } : {}),
        };
      },
    }),
    status: t.expose('status', { type: CommentStatusEnum }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
    resolvedBy: t.relation('resolvedBy', { type: UserRef, nullable: true }),
    urls: t.field({
      type: CommentUrls,
      resolve: (c, _args, ctx) => ({ location: `${commentsPath(c, ctx.config.apiUrl)}/${c.id}` }),
    }),
    permissions: t.field({
      type: CommentPermissions,
      description: 'What the caller may do with it',
      resolve: (c, _args, ctx) => permissionsOf(c, ctx),
    }),
  }),
});

export const CommentReplyRef = builder.prismaObject('Comment', {
  variant: 'CommentReply',
  description: 'A reply to a comment',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['comment-reply'] }), resolve: () => 'comment-reply' }),
    id: t.exposeID('id'),
    postedBy: t.relation('postedBy', { type: UserRef, nullable: true, description: 'NULL once the author is deleted' }),
    postedAt: t.expose('postedAt', { type: 'DateTime' }),
    editedAt: t.expose('editedAt', { type: 'DateTime', nullable: true, description: 'Set when the body is edited' }),
    body: t.field({ type: 'JSON', description: '{ markdown } (default) or { document } (format=document)', extensions: bodyShape, resolve: bodyOf }),
    reactions: t.field({
      type: 'JSON',
      description: 'Emoji reactions: [{ emoji, count, users: [{ user, reactedAt }] }]',
      extensions: reactionsShape,
      // Read with the comment: a join in its own statement.
      select: reactionsSelect,
      resolve: (c, _args, ctx) => reactionSummaries(c.reactions, ctx.config.apiUrl),
    }),
    urls: t.field({
      type: CommentUrls,
      resolve: (c, _args, ctx) => ({ location: `${commentsPath(c, ctx.config.apiUrl)}/${c.parentId}/replies/${c.id}` }),
    }),
    permissions: t.field({ type: CommentPermissions, description: 'What the caller may do with it', resolve: (c, _args, ctx) => permissionsOf(c, ctx) }),
  }),
});

const CommentList = listType('Comment', CommentRef);
const markdownByDefault = constrained({ default: 'markdown' });
const reactionChanges = constrained({ maxItems: MAX_REACTION_CHANGES, items: { minLength: 1, maxLength: MAX_EMOJI_LENGTH } });
const authorsBounds = constrained({ maxItems: MAX_AUTHORS, items: { minLength: 1, maxLength: MAX_AUTHOR_ID } });
const CommentReplyList = listType('CommentReply', CommentReplyRef);
const BodyInput = builder.inputType('CommentBodyInput', {
  description: 'A comment body: its markdown',
  fields: (t) => ({ markdown: t.string({ description: `1..10000 characters`, extensions: constrained({ minLength: 1, maxLength: MAX_COMMENT_CHARACTERS }) }) }),
});

const spacePath = builder.args((t) => ({ spaceId: t.string({ required: true, description: 'ID of the space' }) }));

/**
 * Where a family of comment operations hangs (a change request, or the space itself): the arguments of
 * its path, the target they name, the names of its root fields and what descriptions call it. Both
 * families are the same fields over the same service (comment.service.ts).
 */
interface CommentDoor {
  /** The path's arguments: `spaceId`, and `changeRequestId` for a change request. */
  pathArgs: typeof spacePath;
  target: (args: { spaceId: string; changeRequestId?: string }) => CommentTarget;
  on: string;
  /** What `page` must be a page of. */
  pages: string;
  names: {
    list: string;
    get: string;
    post: string;
    update: string;
    delete: string;
    replies: string;
    reply: string;
    postReply: string;
    updateReply: string;
    deleteReply: string;
    commenters?: string;
  };
}

function commentOperations({ pathArgs, target, on, pages, names }: CommentDoor) {
  const commentArgs = builder.args((t) => ({ ...pathArgs, commentId: t.string({ required: true, description: 'ID of the comment' }) }));
  const replyArgs = builder.args((t) => ({ ...commentArgs, commentReplyId: t.string({ required: true, description: 'ID of the reply' }) }));

  builder.queryFields((t) => ({
    [names.list]: t.field({
      type: CommentList,
      description: `Comments on ${on} (not replies), newest first by default`,
      args: {
        ...pathArgs,
        ...listArgs,
        order: t.arg({ type: ListOrderEnum, description: 'By postedAt: desc (default) or asc', extensions: constrained({ default: 'desc' }) }),
        status: t.arg({ type: CommentStatusFilter, description: 'all (default), open or resolved', extensions: constrained({ default: 'all' }) }),
        targetPage: t.arg.string({ description: 'Only comments on this page' }),
        authors: t.arg.stringList({
          description: `Only comments posted by these users (IDs, at most ${MAX_AUTHORS}; REST: repeat the parameter)`,
          extensions: authorsBounds,
        }),
        format: t.arg({ type: DocumentFormatEnum, description: 'Bodies as markdown (default) or document', extensions: markdownByDefault }),
      },
      resolve: async (_root, { format, ...args }, ctx, info) => {
        const list = await listComments(ctx, target(args), args, listItemsQuery(ctx, info));
        for (const item of list.items) withFormat(item, format);
        return list;
      },
    }),
    [names.get]: t.field({
      type: CommentRef,
      description: `A comment on ${on}`,
      args: { ...commentArgs, format: t.arg({ type: DocumentFormatEnum, description: 'Body as markdown (default) or document', extensions: markdownByDefault }) },
      resolve: async (_root, args, ctx, info) => withFormat(await getComment(ctx, target(args), args.commentId, recordQuery(ctx, info)), args.format),
    }),
    [names.replies]: t.field({
      type: CommentReplyList,
      description: 'Replies to a comment, oldest first',
      args: { ...commentArgs, ...listArgs, format: t.arg({ type: DocumentFormatEnum, description: 'Bodies as markdown (default) or document', extensions: markdownByDefault }) },
      resolve: async (_root, { format, ...args }, ctx, info) => {
        const list = await listReplies(ctx, target(args), args.commentId, args, listItemsQuery(ctx, info));
        for (const item of list.items) withFormat(item, format);
        return list;
      },
    }),
    [names.reply]: t.field({
      type: CommentReplyRef,
      description: 'A reply to a comment',
      args: { ...replyArgs, format: t.arg({ type: DocumentFormatEnum, description: 'Body as markdown (default) or document', extensions: markdownByDefault }) },
      resolve: async (_root, args, ctx, info) =>
        withFormat(await getReply(ctx, target(args), args.commentId, args.commentReplyId, recordQuery(ctx, info)), args.format),
    }),
    ...(names.commenters
      ? {
          [names.commenters]: t.field({
            type: MemberList,
            description: `Members of the organization who posted a comment or a reply on ${on}`,
            args: { ...pathArgs, ...listArgs },
            resolve: (_root, args, ctx, info) => listCommenters(ctx, target(args), args, listItemsQuery(ctx, info)),
          }),
        }
      : {}),
  }));

  builder.mutationFields((t) => ({
    [names.postReply]: t.field({
      type: CommentReplyRef,
      description: 'Replies to a comment (comment level)',
      args: {
        ...commentArgs,
        body: t.arg({ type: BodyInput, required: true, description: '{ markdown }: 1..10000 characters' }),
        format: t.arg({ type: DocumentFormatEnum, description: 'Body of the answer as markdown (default) or document', extensions: markdownByDefault }),
      },
      resolve: async (_root, args, ctx, info) => withFormat(await postReply(ctx, target(args), args.commentId, args, recordQuery(ctx, info)), args.format),
    }),
    [names.updateReply]: t.field({
      type: CommentReplyRef,
      description: 'Edits the body of a reply (author or space admin), adds or removes the caller’s reactions',
      args: {
        ...replyArgs,
        body: t.arg({ type: BodyInput, description: '{ markdown }: 1..10000 characters' }),
        addedReactions: t.arg.stringList({ description: 'Emoji to add (one emoji each; adding twice changes nothing)', extensions: reactionChanges }),
        removedReactions: t.arg.stringList({ description: 'Emoji to remove (removing one never added changes nothing)', extensions: reactionChanges }),
      },
      resolve: async (_root, args, ctx, info) =>
        withFormat(await updateReply(ctx, target(args), args.commentId, args.commentReplyId, args, recordQuery(ctx, info)), 'markdown'),
    }),
    [names.deleteReply]: t.boolean({
      description: 'Deletes a reply (author or space admin): true when it was there, false when there was none (REST: 205 / 204)',
      args: replyArgs,
      resolve: (_root, args, ctx) => deleteReply(ctx, target(args), args.commentId, args.commentReplyId),
    }),
    [names.post]: t.field({
      type: CommentRef,
      description: `Posts a comment on ${on} (comment level), on one of its pages when \`page\` is given`,
      args: {
        ...pathArgs,
        body: t.arg({ type: BodyInput, required: true, description: '{ markdown }: 1..10000 characters' }),
        page: t.arg.string({ description: pages }),
        node: t.arg.string({ description: 'A node (block) of that page', extensions: constrained({ minLength: 1, maxLength: 100 }) }),
      },
      resolve: async (_root, args, ctx, info) => withFormat(await postComment(ctx, target(args), args, recordQuery(ctx, info)), 'markdown'),
    }),
    [names.update]: t.field({
      type: CommentRef,
      description: 'Edits the body (author or space admin), resolves or reopens (author or editor), adds or removes the caller’s reactions',
      args: {
        ...commentArgs,
        body: t.arg({ type: BodyInput, description: '{ markdown }: 1..10000 characters' }),
        resolved: t.arg.boolean({ description: 'true resolves it, false reopens it' }),
        addedReactions: t.arg.stringList({ description: 'Emoji to add (one emoji each; adding twice changes nothing)', extensions: reactionChanges }),
        removedReactions: t.arg.stringList({ description: 'Emoji to remove (removing one never added changes nothing)', extensions: reactionChanges }),
      },
      resolve: async (_root, args, ctx, info) => withFormat(await updateComment(ctx, target(args), args.commentId, args, recordQuery(ctx, info)), 'markdown'),
    }),
    [names.delete]: t.boolean({
      description: 'Deletes a comment with its replies and reactions (author or space admin): true when it was there, false when there was none (REST: 205 / 204)',
      args: commentArgs,
      resolve: (_root, args, ctx) => deleteComment(ctx, target(args), args.commentId),
    }),
  }));
}

/** Comments in a change request's review conversation. */
commentOperations({
  pathArgs: changeRequestArgs,
  target: ({ spaceId, changeRequestId }) => ({ spaceId, changeRequestId }),
  on: 'a change request',
  pages: 'A page of the change request',
  names: {
    list: 'changeRequestComments',
    get: 'changeRequestComment',
    post: 'postChangeRequestComment',
    update: 'updateChangeRequestComment',
    delete: 'deleteChangeRequestComment',
    replies: 'changeRequestCommentReplies',
    reply: 'changeRequestCommentReply',
    postReply: 'postChangeRequestCommentReply',
    updateReply: 'updateChangeRequestCommentReply',
    deleteReply: 'deleteChangeRequestCommentReply',
    commenters: 'changeRequestCommenters',
  },
});

/** Comments on a space itself: on its current content (issue 26 §3). */
commentOperations({
  pathArgs: spacePath,
  target: ({ spaceId }) => ({ spaceId }),
  on: 'the space',
  pages: "A page of the space's current content",
  names: {
    list: 'spaceComments',
    get: 'spaceComment',
    post: 'postSpaceComment',
    update: 'updateSpaceComment',
    delete: 'deleteSpaceComment',
    replies: 'spaceCommentReplies',
    reply: 'spaceCommentReply',
    postReply: 'postSpaceCommentReply',
    updateReply: 'updateSpaceCommentReply',
    deleteReply: 'deleteSpaceCommentReply',
    commenters: 'spaceCommenters',
  },
});
