import type { CommentStatus, Prisma } from '../../generated/prisma/client.ts';
import { viewerOf, type Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import { paginate, type ItemQuery, type ListArgs } from '../../core/pagination.ts';
import { checkArraySize, checkLength } from '../../core/validate.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { findChangeRequest, spaceForChangeRequests } from '../change-requests/index.ts';
import { pageExists } from '../content/index.ts';
import { commentPolicy, type CommentActor } from './comment.policy.ts';

/** At most this many characters in a comment body (issue "Review conversations"). */
export const MAX_COMMENT_CHARACTERS = 10_000;
/** At most this many reactions added or removed by one request. */
export const MAX_REACTION_CHANGES = 20;
/**
 * The longest reaction taken, in UTF-16 code units: real emoji are far shorter (a subdivision flag, 🏴
 * with its tag characters, is 14; a family of four with skin tones, joined by ZWJs, 19). Checked before
 * segmenting, whose cost grows faster than the length.
 */
export const MAX_EMOJI_LENGTH = 64;

/** The change request a comment hangs on, the caller as the comment policy sees them. */
export async function commentScope(ctx: Context, spaceId: string, changeRequestId: string) {
  const { space, actor } = await spaceForChangeRequests(ctx, spaceId);
  const changeRequest = await findChangeRequest(ctx, space.id, changeRequestId, {
    select: { id: true, number: true, revisionId: true, spaceId: true },
  });
  return { space, changeRequest, actor: actor satisfies CommentActor };
}

async function findComment(ctx: Context, changeRequestId: string, commentId: string, query?: ItemQuery) {
  const comment = await ctx.db.comment.findFirst({ where: { id: commentId, changeRequestId, parentId: null }, ...(query as object) });
  if (!comment) throw new NotFoundError(`Comment "${commentId}" not found`);
  return comment;
}

function checkBody(body: { markdown?: string | null } | null | undefined, required: boolean): string | undefined {
  if (body === undefined || body === null) {
    if (required) throw new BadRequestError('Invalid "body": { "markdown": "…" } is required');
    return undefined;
  }
  if (typeof body.markdown !== 'string') throw new BadRequestError('Invalid "body.markdown": required, a string');
  checkLength('body.markdown', body.markdown, 1, MAX_COMMENT_CHARACTERS);
  return body.markdown;
}

/**
 * One emoji per reaction: a single grapheme made of emoji (with modifiers, variation selectors and
 * zero-width joiners, as in 👍🏽 or 👩‍💻).
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
function isOneGrapheme(value: string): boolean {
  const segments = segmenter.segment(value)[Symbol.iterator]();
  return !segments.next().done && segments.next().done === true;
}
const EMOJI_GRAPHEME = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|[#*0-9]\uFE0F?\u20E3)(?:\p{Emoji_Modifier}|\uFE0F|\u200D(?:\p{Extended_Pictographic})|\p{Regional_Indicator}|[\u{E0020}-\u{E007F}])*$/u;
function checkEmojis(field: string, values: string[] | null | undefined): string[] {
  checkArraySize(field, values, 0, MAX_REACTION_CHANGES);
  for (const [i, value] of (values ?? []).entries()) {
    if (typeof value !== 'string' || value.length > MAX_EMOJI_LENGTH || !isOneGrapheme(value) || !EMOJI_GRAPHEME.test(value)) {
      throw new BadRequestError(`Invalid "${field}[${i}]": must be one emoji`);
    }
  }
  return [...new Set(values ?? [])];
}

export interface CommentListArgs extends ListArgs {
  order?: 'asc' | 'desc' | null;
  status?: 'all' | CommentStatus | null;
  targetPage?: string | null;
}

/** `GET …/change-requests/{cr}/comments`: top-level comments, by `postedAt` (newest first by default). */
export async function listComments(ctx: Context, spaceId: string, changeRequestId: string, args: CommentListArgs, query?: ItemQuery) {
  const { changeRequest } = await commentScope(ctx, spaceId, changeRequestId);
  const direction = args.order ?? 'desc';
  return paginate({
    args,
    keys: [
      { field: 'postedAt', direction, type: 'date' },
      { field: 'id', direction },
    ],
    where: {
      changeRequestId: changeRequest.id,
      parentId: null,
      ...(args.status && args.status !== 'all' ? { status: args.status } : {}),
      ...(args.targetPage ? { targetPageId: args.targetPage } : {}),
    },
    model: ctx.db.comment,
    query,
  });
}

export async function getComment(ctx: Context, spaceId: string, changeRequestId: string, commentId: string, query?: ItemQuery) {
  const { changeRequest } = await commentScope(ctx, spaceId, changeRequestId);
  return findComment(ctx, changeRequest.id, commentId, query);
}

/**
 * `POST …/change-requests/{cr}/comments`: a comment on the change request, on one of the pages of its
 * current revision when `page` is given (400 for a page it does not have), on a `node` of it if given.
 */
export async function postComment(
  ctx: Context,
  spaceId: string,
  changeRequestId: string,
  input: { body?: { markdown?: string | null } | null; page?: string | null; node?: string | null },
  query?: ItemQuery,
) {
  const markdown = checkBody(input.body, true)!;
  checkLength('node', input.node, 1, 100);
  const { space, changeRequest, actor } = await commentScope(ctx, spaceId, changeRequestId);
  authorize(commentPolicy, actor, 'post', { id: '', postedById: null });
  if (input.page) {
    if (!(await pageExists(ctx, changeRequest.revisionId, input.page))) throw new BadRequestError(`Invalid "page": no page "${input.page}" in change request #${changeRequest.number}`);
  }
  const id = newId();
  await ctx.db.comment.create({
    data: {
      id,
      spaceId: space.id,
      changeRequestId: changeRequest.id,
      postedById: viewerOf(ctx).user.id,
      markdown,
      targetRevisionId: changeRequest.revisionId,
      targetPageId: input.page ?? null,
      targetNodeId: input.node ?? null,
      postedAt: ctx.clock.now(),
    },
  });
  return findComment(ctx, changeRequest.id, id, query);
}

/**
 * `PUT …/comments/{commentId}`: `body` (its author or a space admin), `resolved` (its author or an
 * editor), `addedReactions` / `removedReactions` (the caller's own, `comment` level; adding one twice
 * or removing one never added changes nothing). One transaction.
 */
export async function updateComment(
  ctx: Context,
  spaceId: string,
  changeRequestId: string,
  commentId: string,
  input: { body?: { markdown?: string | null } | null; resolved?: boolean | null; addedReactions?: string[] | null; removedReactions?: string[] | null },
  query?: ItemQuery,
) {
  const markdown = checkBody(input.body, false);
  const added = checkEmojis('addedReactions', input.addedReactions);
  const removed = checkEmojis('removedReactions', input.removedReactions);
  const { changeRequest, actor } = await commentScope(ctx, spaceId, changeRequestId);
  const comment = await findComment(ctx, changeRequest.id, commentId);
  if (markdown !== undefined) authorize(commentPolicy, actor, 'edit', comment);
  if (input.resolved !== undefined && input.resolved !== null) authorize(commentPolicy, actor, 'resolve', comment);
  if (added.length || removed.length) authorize(commentPolicy, actor, 'react', comment);
  const now = ctx.clock.now();
  const userId = viewerOf(ctx).user.id;
  const data: Prisma.CommentUncheckedUpdateInput = {};
  if (markdown !== undefined) Object.assign(data, { markdown, editedAt: now });
  if (input.resolved === true && comment.status !== 'resolved') Object.assign(data, { status: 'resolved', resolvedAt: now, resolvedById: userId });
  if (input.resolved === false && comment.status !== 'open') Object.assign(data, { status: 'open', resolvedAt: null, resolvedById: null });
  await ctx.db.$transaction(async (tx) => {
    if (Object.keys(data).length) await tx.comment.update({ where: { id: comment.id }, data });
    if (added.length) {
      await tx.commentReaction.createMany({ data: added.map((emoji) => ({ commentId: comment.id, userId, emoji, reactedAt: now })), skipDuplicates: true });
    }
    if (removed.length) await tx.commentReaction.deleteMany({ where: { commentId: comment.id, userId, emoji: { in: removed } } });
  }, TRANSACTION_OPTIONS);
  return findComment(ctx, changeRequest.id, comment.id, query);
}

/** `DELETE …/comments/{commentId}`: its author or a space admin; its replies and reactions go with it. */
export async function deleteComment(ctx: Context, spaceId: string, changeRequestId: string, commentId: string) {
  const { changeRequest, actor } = await commentScope(ctx, spaceId, changeRequestId);
  const comment = await findComment(ctx, changeRequest.id, commentId);
  authorize(commentPolicy, actor, 'delete', comment);
  await ctx.db.comment.deleteMany({ where: { id: comment.id } });
  return true;
}

// ---- Replies: comments with a parent, the same rules (a reply is never resolved on its own) ----

async function findReply(ctx: Context, parentId: string, replyId: string, query?: ItemQuery) {
  const reply = await ctx.db.comment.findFirst({ where: { id: replyId, parentId }, ...(query as object) });
  if (!reply) throw new NotFoundError(`Reply "${replyId}" not found`);
  return reply;
}

/** `GET …/comments/{commentId}/replies`: oldest first, as a conversation reads. */
export async function listReplies(ctx: Context, spaceId: string, changeRequestId: string, commentId: string, args: ListArgs, query?: ItemQuery) {
  const { changeRequest } = await commentScope(ctx, spaceId, changeRequestId);
  const comment = await findComment(ctx, changeRequest.id, commentId, { select: { id: true } });
  return paginate({
    args,
    keys: [
      { field: 'postedAt', direction: 'asc', type: 'date' },
      { field: 'id', direction: 'asc' },
    ],
    where: { parentId: comment.id },
    model: ctx.db.comment,
    query,
  });
}

export async function getReply(ctx: Context, spaceId: string, changeRequestId: string, commentId: string, replyId: string, query?: ItemQuery) {
  const { changeRequest } = await commentScope(ctx, spaceId, changeRequestId);
  const comment = await findComment(ctx, changeRequest.id, commentId, { select: { id: true } });
  return findReply(ctx, comment.id, replyId, query);
}

/** `POST …/comments/{commentId}/replies`: `comment` level, `body.markdown` 1..10000 characters. */
export async function postReply(
  ctx: Context,
  spaceId: string,
  changeRequestId: string,
  commentId: string,
  input: { body?: { markdown?: string | null } | null },
  query?: ItemQuery,
) {
  const markdown = checkBody(input.body, true)!;
  const { space, changeRequest, actor } = await commentScope(ctx, spaceId, changeRequestId);
  const comment = await findComment(ctx, changeRequest.id, commentId);
  authorize(commentPolicy, actor, 'post', comment);
  const id = newId();
  await ctx.db.comment.create({
    data: {
      id,
      spaceId: space.id,
      changeRequestId: changeRequest.id,
      parentId: comment.id,
      postedById: viewerOf(ctx).user.id,
      markdown,
      targetRevisionId: comment.targetRevisionId,
      postedAt: ctx.clock.now(),
    },
  });
  return findReply(ctx, comment.id, id, query);
}

/** `PUT …/replies/{replyId}`: `body` (its author or a space admin) and the caller's reactions. */
export async function updateReply(
  ctx: Context,
  spaceId: string,
  changeRequestId: string,
  commentId: string,
  replyId: string,
  input: { body?: { markdown?: string | null } | null; addedReactions?: string[] | null; removedReactions?: string[] | null },
  query?: ItemQuery,
) {
  const markdown = checkBody(input.body, false);
  const added = checkEmojis('addedReactions', input.addedReactions);
  const removed = checkEmojis('removedReactions', input.removedReactions);
  const { changeRequest, actor } = await commentScope(ctx, spaceId, changeRequestId);
  const comment = await findComment(ctx, changeRequest.id, commentId, { select: { id: true } });
  const reply = await findReply(ctx, comment.id, replyId);
  if (markdown !== undefined) authorize(commentPolicy, actor, 'edit', reply);
  if (added.length || removed.length) authorize(commentPolicy, actor, 'react', reply);
  const now = ctx.clock.now();
  const userId = viewerOf(ctx).user.id;
  await ctx.db.$transaction(async (tx) => {
    if (markdown !== undefined) await tx.comment.update({ where: { id: reply.id }, data: { markdown, editedAt: now } });
    if (added.length) {
      await tx.commentReaction.createMany({ data: added.map((emoji) => ({ commentId: reply.id, userId, emoji, reactedAt: now })), skipDuplicates: true });
    }
    if (removed.length) await tx.commentReaction.deleteMany({ where: { commentId: reply.id, userId, emoji: { in: removed } } });
  }, TRANSACTION_OPTIONS);
  return findReply(ctx, comment.id, reply.id, query);
}

/** `DELETE …/replies/{replyId}` (GitBook's addition): its author or a space admin. */
export async function deleteReply(ctx: Context, spaceId: string, changeRequestId: string, commentId: string, replyId: string) {
  const { changeRequest, actor } = await commentScope(ctx, spaceId, changeRequestId);
  const comment = await findComment(ctx, changeRequest.id, commentId, { select: { id: true } });
  const reply = await findReply(ctx, comment.id, replyId);
  authorize(commentPolicy, actor, 'delete', reply);
  await ctx.db.comment.deleteMany({ where: { id: reply.id } });
  return true;
}
