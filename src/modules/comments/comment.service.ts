import type { CommentStatus, Prisma } from '../../generated/prisma/client.ts';
import { viewerOf, type Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import { pageQuery, paginate, toPage, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkArraySize, checkLength } from '../../core/validate.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { changeRequestNotFound, changeRequestWhere, findChangeRequest, spaceForChangeRequests, unlessMissing } from '../change-requests/index.ts';
import { pageExists } from '../content/index.ts';
import { spaceFor } from '../content-access/index.ts';
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

/**
 * What comments hang on: a change request of a space (`changeRequestId`: its ID or number), or the
 * space itself (no `changeRequestId`), whose comments are on its current content. Both share every
 * operation below, its rules, shapes and limits; only the scope differs.
 */
export interface CommentTarget {
  spaceId: string;
  changeRequestId?: string;
}

/**
 * The scope of a target: the space, the caller as the comment policy sees them, the change request
 * (`null` for comments on the space), the revision whose pages comments may target (the change
 * request's, or the space's current one) and how a refusal names it.
 */
export interface CommentScope {
  space: { id: string; organizationId: string; revisionId: string | null };
  actor: CommentActor;
  changeRequestId: string | null;
  revisionId: string | null;
  label: string;
}

export async function commentScope(ctx: Context, target: CommentTarget): Promise<CommentScope> {
  if (target.changeRequestId === undefined) {
    const { space, actor } = await spaceFor(ctx, target.spaceId, 'read');
    const scoped = { ...actor, userId: viewerOf(ctx).user.id } satisfies CommentActor;
    return { space, actor: scoped, changeRequestId: null, revisionId: space.revisionId, label: 'the space' };
  }
  const { space, actor } = await spaceForChangeRequests(ctx, target.spaceId);
  const changeRequest = await findChangeRequest(ctx, space.id, target.changeRequestId, {
    select: { id: true, number: true, revisionId: true, spaceId: true },
  });
  return { space, actor: actor satisfies CommentActor, changeRequestId: changeRequest.id, revisionId: changeRequest.revisionId, label: `change request #${changeRequest.number}` };
}

/** A top-level comment of the scope: a change request's comments and a space's own are apart. */
async function findComment(ctx: Context, scope: CommentScope, commentId: string, query?: ItemQuery) {
  const comment = await ctx.db.comment.findFirst({
    relationLoadStrategy: 'join',
    where: { id: commentId, spaceId: scope.space.id, changeRequestId: scope.changeRequestId, parentId: null },
    ...(query as object),
  });
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

/** At most this many user IDs in a comment list's `authors` filter, each at most this long (ours are 20). */
export const MAX_AUTHORS = 100;
export const MAX_AUTHOR_ID = 64;

export interface CommentListArgs extends ListArgs {
  order?: 'asc' | 'desc' | null;
  status?: 'all' | CommentStatus | null;
  targetPage?: string | null;
  /** GitBook's `authors`: only comments posted by these users (none given: any author). */
  authors?: string[] | null;
}

/** The `authors` filter, checked: at most 100 IDs, each 1..64 characters; duplicates dropped. */
function authorsFilter(authors: string[] | null | undefined): string[] {
  checkArraySize('authors', authors, 0, MAX_AUTHORS);
  for (const [i, author] of (authors ?? []).entries()) checkLength(`authors[${i}]`, author, 1, MAX_AUTHOR_ID);
  return [...new Set(authors ?? [])];
}

/**
 * `GET …/comments` (of a change request or a space): top-level comments, by `postedAt` (newest first by
 * default). The parent (the space, or the change request: 404 if none), its page of comments and their
 * count come in one statement.
 */
export async function listComments(ctx: Context, target: CommentTarget, args: CommentListArgs, query?: ItemQuery) {
  const authors = authorsFilter(args.authors);
  const direction = args.order ?? 'desc';
  const keys: SortKey[] = [
    { field: 'postedAt', direction, type: 'date' },
    { field: 'id', direction },
  ];
  const where: Prisma.CommentWhereInput = {
    parentId: null,
    ...(args.status && args.status !== 'all' ? { status: args.status } : {}),
    ...(args.targetPage ? { targetPageId: args.targetPage } : {}),
    ...(authors.length ? { postedById: { in: authors } } : {}),
  };
  if (target.changeRequestId === undefined) {
    const { space } = await spaceFor(ctx, target.spaceId, 'read');
    // A space's own comments by its index (spaceId, …), those of its change requests left out.
    const own = { ...where, changeRequestId: null };
    const page = pageQuery(args, keys, own);
    const row = await ctx.db.space.findUniqueOrThrow({
      relationLoadStrategy: 'join',
      where: { id: space.id },
      select: { comments: { ...(query as object), ...page.query }, _count: { select: { comments: { where: own } } } },
    });
    return toPage(row.comments, row._count.comments, page.limit, keys);
  }
  const { space } = await spaceForChangeRequests(ctx, target.spaceId);
  // A change request's comments by their index (changeRequestId, parentId, postedAt, id).
  const page = await unlessMissing(ctx, space.id, target.changeRequestId, () => pageQuery(args, keys, where));
  const cr = await ctx.db.changeRequest.findFirst({
    relationLoadStrategy: 'join',
    where: changeRequestWhere(space.id, target.changeRequestId),
    select: { comments: { ...(query as object), ...page.query }, _count: { select: { comments: { where } } } },
  });
  if (!cr) throw changeRequestNotFound(target.changeRequestId);
  return toPage(cr.comments, cr._count.comments, page.limit, keys);
}

export async function getComment(ctx: Context, target: CommentTarget, commentId: string, query?: ItemQuery) {
  return findComment(ctx, await commentScope(ctx, target), commentId, query);
}

/**
 * `POST …/comments`: a comment on the change request (or the space), on one of the pages of its current
 * revision when `page` is given (400 for a page it does not have), on a `node` of it if given.
 */
export async function postComment(
  ctx: Context,
  target: CommentTarget,
  input: { body?: { markdown?: string | null } | null; page?: string | null; node?: string | null },
  query?: ItemQuery,
) {
  const markdown = checkBody(input.body, true)!;
  checkLength('node', input.node, 1, 100);
  const scope = await commentScope(ctx, target);
  authorize(commentPolicy, scope.actor, 'post', { id: '', postedById: null });
  if (input.page) {
    if (!scope.revisionId || !(await pageExists(ctx, scope.revisionId, input.page))) throw new BadRequestError(`Invalid "page": no page "${input.page}" in ${scope.label}`);
  }
  const id = newId();
  await ctx.db.comment.create({
    data: {
      id,
      spaceId: scope.space.id,
      changeRequestId: scope.changeRequestId,
      postedById: viewerOf(ctx).user.id,
      markdown,
      targetRevisionId: scope.revisionId,
      targetPageId: input.page ?? null,
      targetNodeId: input.node ?? null,
      postedAt: ctx.clock.now(),
    },
  });
  return findComment(ctx, scope, id, query);
}

/**
 * `PUT …/comments/{commentId}`: `body` (its author or a space admin), `resolved` (its author or an
 * editor), `addedReactions` / `removedReactions` (the caller's own, `comment` level; adding one twice
 * or removing one never added changes nothing). One transaction.
 */
export async function updateComment(
  ctx: Context,
  target: CommentTarget,
  commentId: string,
  input: { body?: { markdown?: string | null } | null; resolved?: boolean | null; addedReactions?: string[] | null; removedReactions?: string[] | null },
  query?: ItemQuery,
) {
  const markdown = checkBody(input.body, false);
  const added = checkEmojis('addedReactions', input.addedReactions);
  const removed = checkEmojis('removedReactions', input.removedReactions);
  const scope = await commentScope(ctx, target);
  const { actor } = scope;
  const comment = await findComment(ctx, scope, commentId);
  const resolves = input.resolved !== undefined && input.resolved !== null;
  if (markdown !== undefined) authorize(commentPolicy, actor, 'edit', comment);
  if (resolves) authorize(commentPolicy, actor, 'resolve', comment);
  // Reactions — and an update naming nothing, which needs the least any change needs (a write route never answers 200 to someone who could not write through it).
  if (added.length || removed.length || (markdown === undefined && !resolves)) authorize(commentPolicy, actor, 'react', comment);
  const now = ctx.clock.now();
  const userId = viewerOf(ctx).user.id;
  const data: Prisma.CommentUncheckedUpdateInput = {};
  if (markdown !== undefined) Object.assign(data, { markdown, editedAt: now });
  if (input.resolved === true && comment.status !== 'resolved') Object.assign(data, { status: 'resolved', resolvedAt: now, resolvedById: userId });
  if (input.resolved === false && comment.status !== 'open') Object.assign(data, { status: 'open', resolvedAt: null, resolvedById: null });
  await writeChanges(ctx, comment.id, userId, now, data, added, removed);
  return findComment(ctx, scope, comment.id, query);
}

/** A comment's or reply's new fields and the caller's reaction changes, in one transaction. */
async function writeChanges(ctx: Context, commentId: string, userId: string, now: Date, data: Prisma.CommentUncheckedUpdateInput, added: string[], removed: string[]) {
  await ctx.db.$transaction(async (tx) => {
    if (Object.keys(data).length) await tx.comment.update({ where: { id: commentId }, data });
    if (added.length) {
      await tx.commentReaction.createMany({ data: added.map((emoji) => ({ commentId, userId, emoji, reactedAt: now })), skipDuplicates: true });
    }
    if (removed.length) await tx.commentReaction.deleteMany({ where: { commentId, userId, emoji: { in: removed } } });
  }, TRANSACTION_OPTIONS);
}

/** `DELETE …/comments/{commentId}`: its author or a space admin; its replies and reactions go with it. */
/**
 * Deletes a comment: true when it was there (REST 205), false when there was nothing to delete (204),
 * as GitBook answers `deleteCommentInSpace`. Someone who may read the comments learns only that.
 */
export async function deleteComment(ctx: Context, target: CommentTarget, commentId: string) {
  const scope = await commentScope(ctx, target);
  const comment = await findOrNothing(() => findComment(ctx, scope, commentId));
  if (!comment) return nothingToDelete(scope);
  authorize(commentPolicy, scope.actor, 'delete', comment);
  return (await ctx.db.comment.deleteMany({ where: { id: comment.id } })).count > 0;
}

async function findOrNothing<T>(find: () => Promise<T>): Promise<T | null> {
  try {
    return await find();
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** Nothing to delete: false, for whoever may read the scope's comments (the others are refused as ever). */
function nothingToDelete(scope: Awaited<ReturnType<typeof commentScope>>): false {
  authorize(commentPolicy, scope.actor, 'read', { id: '', postedById: null });
  return false;
}

// ---- Replies: comments with a parent, the same rules (a reply is never resolved on its own) ----

async function findReply(ctx: Context, parentId: string, replyId: string, query?: ItemQuery) {
  const reply = await ctx.db.comment.findFirst({ relationLoadStrategy: 'join', where: { id: replyId, parentId }, ...(query as object) });
  if (!reply) throw new NotFoundError(`Reply "${replyId}" not found`);
  return reply;
}

const REPLY_KEYS: SortKey[] = [
  { field: 'postedAt', direction: 'asc', type: 'date' },
  { field: 'id', direction: 'asc' },
];

/**
 * `GET …/comments/{commentId}/replies`: oldest first, as a conversation reads. The comment (404 if the
 * scope has none), its page of replies and their count come in one statement (as `listComments`).
 */
export async function listReplies(ctx: Context, target: CommentTarget, commentId: string, args: ListArgs, query?: ItemQuery) {
  const scope = await commentScope(ctx, target);
  let page: ReturnType<typeof pageQuery>;
  try {
    page = pageQuery(args, REPLY_KEYS, {});
  } catch (error) {
    // An unknown comment is a 404 before a bad cursor is a 400.
    await findComment(ctx, scope, commentId, { select: { id: true } });
    throw error;
  }
  const comment = await ctx.db.comment.findFirst({
    relationLoadStrategy: 'join',
    where: { id: commentId, spaceId: scope.space.id, changeRequestId: scope.changeRequestId, parentId: null },
    select: { replies: { ...(query as object), ...(page.query as object) }, _count: { select: { replies: true } } },
  });
  if (!comment) throw new NotFoundError(`Comment "${commentId}" not found`);
  return toPage(comment.replies, comment._count.replies, page.limit, REPLY_KEYS);
}

export async function getReply(ctx: Context, target: CommentTarget, commentId: string, replyId: string, query?: ItemQuery) {
  const comment = await findComment(ctx, await commentScope(ctx, target), commentId, { select: { id: true } });
  return findReply(ctx, comment.id, replyId, query);
}

/** `POST …/comments/{commentId}/replies`: `comment` level, `body.markdown` 1..10000 characters. */
export async function postReply(
  ctx: Context,
  target: CommentTarget,
  commentId: string,
  input: { body?: { markdown?: string | null } | null },
  query?: ItemQuery,
) {
  const markdown = checkBody(input.body, true)!;
  const scope = await commentScope(ctx, target);
  const comment = await findComment(ctx, scope, commentId);
  authorize(commentPolicy, scope.actor, 'post', comment);
  const id = newId();
  await ctx.db.comment.create({
    data: {
      id,
      spaceId: scope.space.id,
      changeRequestId: scope.changeRequestId,
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
  target: CommentTarget,
  commentId: string,
  replyId: string,
  input: { body?: { markdown?: string | null } | null; addedReactions?: string[] | null; removedReactions?: string[] | null },
  query?: ItemQuery,
) {
  const markdown = checkBody(input.body, false);
  const added = checkEmojis('addedReactions', input.addedReactions);
  const removed = checkEmojis('removedReactions', input.removedReactions);
  const scope = await commentScope(ctx, target);
  const comment = await findComment(ctx, scope, commentId, { select: { id: true } });
  const reply = await findReply(ctx, comment.id, replyId);
  if (markdown !== undefined) authorize(commentPolicy, scope.actor, 'edit', reply);
  // Reactions — and an update naming nothing: a write route never answers 200 to someone who could not write through it.
  if (added.length || removed.length || markdown === undefined) authorize(commentPolicy, scope.actor, 'react', reply);
  const now = ctx.clock.now();
  const data: Prisma.CommentUncheckedUpdateInput = markdown !== undefined ? { markdown, editedAt: now } : {};
  await writeChanges(ctx, reply.id, viewerOf(ctx).user.id, now, data, added, removed);
  return findReply(ctx, comment.id, reply.id, query);
}

/** `DELETE …/replies/{replyId}`: its author or a space admin. */
export async function deleteReply(ctx: Context, target: CommentTarget, commentId: string, replyId: string) {
  const scope = await commentScope(ctx, target);
  const comment = await findComment(ctx, scope, commentId, { select: { id: true } });
  const reply = await findOrNothing(() => findReply(ctx, comment.id, replyId));
  if (!reply) return nothingToDelete(scope);
  authorize(commentPolicy, scope.actor, 'delete', reply);
  return (await ctx.db.comment.deleteMany({ where: { id: reply.id } })).count > 0;
}

// ---- Commenters ----

/**
 * `GET /spaces/{id}/commenters` and `GET /spaces/{id}/change-requests/{cr}/commenters`: the members of the
 * space's organization who posted a comment or a reply on the target (a space's own comments: not those
 * of its change requests; a change request's: only its own), as the members list
 * orders them (joined most recently first). Whoever reads the comments reads who wrote them.
 */
export async function listCommenters(ctx: Context, target: CommentTarget, args: ListArgs, query?: ItemQuery) {
  const scope = await commentScope(ctx, target);
  authorize(commentPolicy, scope.actor, 'read', { id: '', postedById: null });
  const posted = scope.changeRequestId ? { changeRequestId: scope.changeRequestId } : { spaceId: scope.space.id, changeRequestId: null };
  return paginate({
    args,
    keys: [
      { field: 'joinedAt', direction: 'desc', type: 'date' },
      { field: 'userId', direction: 'desc' },
    ],
    where: { organizationId: scope.space.organizationId, user: { commentsPosted: { some: posted } } },
    model: ctx.db.member,
    query,
  });
}
