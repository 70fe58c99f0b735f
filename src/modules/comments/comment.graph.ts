import { builder } from '../../graphql/builder.ts';
import { graphOnly } from '../../graphql/rest-fields.ts';
import { ChangeRequestRef } from '../change-requests/index.ts';
import { CommentRef, CommentReplyRef, CommentStatusFilter, ListOrderEnum } from './comment.schema.ts';

/**
 * GraphQL only: a change request's comments and a comment's replies as lists under their parents,
 * loaded with the parent's query by the Prisma plugin (one statement for a page of parents). The
 * names differ from GitBook's `comments` and `replies`, which are counts in its REST shapes.
 */
builder.prismaObjectFields(ChangeRequestRef, (t) => ({
  commentList: t.relation('comments', {
    description: 'Its comments (not replies): the newest first by default, at most `limit` (default 50, up to 1000)',
    extensions: graphOnly,
    args: {
      status: t.arg({ type: CommentStatusFilter, description: 'all (default), open or resolved' }),
      order: t.arg({ type: ListOrderEnum, description: 'By postedAt: desc (default) or asc' }),
      limit: t.arg.int({ description: 'At most this many (1..1000, default 50)' }),
    },
    query: (args) => ({
      where: { parentId: null, ...(args.status && args.status !== 'all' ? { status: args.status } : {}) },
      orderBy: [{ postedAt: args.order ?? 'desc' }, { id: args.order ?? 'desc' }],
      take: Math.min(Math.max(args.limit ?? 50, 1), 1000),
    }),
  }),
}));

builder.prismaObjectFields(CommentRef, (t) => ({
  replyList: t.relation('replies', {
    type: CommentReplyRef,
    description: 'Its replies, oldest first, at most `limit` (default 50, up to 1000)',
    extensions: graphOnly,
    args: { limit: t.arg.int({ description: 'At most this many (1..1000, default 50)' }) },
    query: (args) => ({ orderBy: [{ postedAt: 'asc' }, { id: 'asc' }], take: Math.min(Math.max(args.limit ?? 50, 1), 1000) }),
  }),
}));
