import type { ChangeRequest, ChangeRequestReviewStatus } from '../../generated/prisma/client.ts';
import { viewerOf, type Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import { pageQuery, toPage, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkArraySize, checkLength } from '../../core/validate.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { collectionTreeDepth, reachableSpacesWhere } from '../content-access/index.ts';
import { changeRequestPolicy } from './change-request.policy.ts';
import { changeRequestNotFound, changeRequestWhere, findChangeRequest, MAX_SUBJECT, spaceForChangeRequests, unlessMissing } from './change-request.service.ts';
import { assertEditable } from './change-request-content.service.ts';

/** At most this many users per request for reviews. */
export const MAX_REVIEWERS_PER_REQUEST = 20;
/** A review's comment, as a change request comment: 1..10000 characters. */
export const MAX_REVIEW_COMMENT = 10_000;
/** GitBook's ChangeRequestReviewStatus spellings, and the enum's. */
export const REVIEW_STATUSES = ['changes-requested', 'approved'] as const;
export type ApiReviewStatus = (typeof REVIEW_STATUSES)[number];
export const toApiReviewStatus = (status: ChangeRequestReviewStatus): ApiReviewStatus => (status === 'changes_requested' ? 'changes-requested' : 'approved');

/** The space, the change request (by ID or number) and the caller as the change-request policy sees them. */
async function reviewScope(ctx: Context, spaceId: string, changeRequestId: string) {
  const { space, actor } = await spaceForChangeRequests(ctx, spaceId);
  const changeRequest = await findChangeRequest(ctx, space.id, changeRequestId);
  return { space, changeRequest, actor };
}

/**
 * Each reviewer's latest review of `revisionId`, from reviews newest first: what counts for the change
 * request's review status and its merge rules (older reviews, and reviews of earlier content, do not).
 */
export function currentReviews<T extends { reviewerId: string; revisionId: string }>(newestFirst: T[], revisionId: string): T[] {
  const seen = new Set<string>();
  return newestFirst.filter((r) => r.revisionId === revisionId && !seen.has(r.reviewerId) && seen.add(r.reviewerId));
}

/**
 * `ChangeRequest.reviewStatus` (an addition): `changes-requested` when a current review asks for
 * changes, else `approved` when one approves, else `requested` while reviewers were asked, else null.
 */
export function reviewStatusOf(revisionId: string, newestFirst: { reviewerId: string; revisionId: string; status: ChangeRequestReviewStatus }[], requested: boolean) {
  const current = currentReviews(newestFirst, revisionId);
  if (current.some((r) => r.status === 'changes_requested')) return 'changes-requested';
  if (current.length) return 'approved';
  return requested ? 'requested' : null;
}

/** The current reviews of a change request (for its merge rules), in the caller's database or transaction. */
export async function currentReviewsOf(ctx: Context, cr: Pick<ChangeRequest, 'id' | 'revisionId'>) {
  const reviews = await ctx.db.changeRequestReview.findMany({
    where: { changeRequestId: cr.id, revisionId: cr.revisionId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { reviewerId: true, revisionId: true, status: true },
  });
  return currentReviews(reviews, cr.revisionId);
}

/**
 * `POST …/change-requests/{cr}/requested-reviewers` (GitBook's requestReviewersForChangeRequest): asks
 * 1..20 users for a review of the change request as it is now (its author or an editor; a merged or
 * archived one: 409). Each must be able to read the space, as the access rules decide (else 400, the
 * same for an unknown user: the caller learns nothing of users they could not ask). Asking again
 * renews the request (its revision, who asked, when). `subject` also renames the change request
 * (edit level). One transaction.
 */
export async function requestReviewers(ctx: Context, spaceId: string, changeRequestId: string, input: { users: string[]; subject?: string | null }) {
  checkArraySize('users', input.users, 1, MAX_REVIEWERS_PER_REQUEST);
  checkLength('subject', input.subject, 0, MAX_SUBJECT);
  const { space, changeRequest: cr, actor } = await reviewScope(ctx, spaceId, changeRequestId);
  authorize(changeRequestPolicy, actor, 'requestReview', cr);
  if (input.subject !== undefined && input.subject !== null) authorize(changeRequestPolicy, actor, 'update', cr);
  assertEditable(cr);
  const users = [...new Set(input.users)];
  // The climb to granted collections goes as deep as this organization's tree (it came with the access check).
  const depth = collectionTreeDepth(await ctx.loaders.organizationCollections.load(space.organizationId));
  const readers = await Promise.all(
    users.map(async (userId) => (await ctx.db.space.count({ where: { id: space.id, ...reachableSpacesWhere(userId, depth) } })) > 0),
  );
  const refused = users.findIndex((_, i) => !readers[i]);
  if (refused >= 0) throw new BadRequestError(`Invalid "users[${input.users.indexOf(users[refused])}]": user "${users[refused]}" cannot read this space`);
  const now = ctx.clock.now();
  const requestedById = viewerOf(ctx).user.id;
  await ctx.db.$transaction(async (tx) => {
    for (const userId of users) {
      const data = { requestedById, revisionId: cr.revisionId, createdAt: now };
      await tx.changeRequestRequestedReviewer.upsert({
        where: { changeRequestId_userId: { changeRequestId: cr.id, userId } },
        create: { changeRequestId: cr.id, userId, ...data },
        update: data,
      });
    }
    if (input.subject !== undefined && input.subject !== null) {
      await tx.changeRequest.update({ where: { id: cr.id }, data: { subject: input.subject, updatedAt: now } });
    }
  }, TRANSACTION_OPTIONS);
  return { changeRequestId: cr.id, userIds: users };
}

/** The requested reviewers `requestReviewers` wrote, read with what their shape needs (one statement). */
export function requestedReviewersOf(ctx: Context, changeRequestId: string, userIds: string[], query?: ItemQuery) {
  return ctx.db.changeRequestRequestedReviewer.findMany({
    relationLoadStrategy: 'join',
    where: { changeRequestId, userId: { in: userIds } },
    orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
    ...(query as object),
  });
}

/** `GET …/change-requests/{cr}/requested-reviewers`: whoever reads the space; oldest request first, paged. */
export async function listRequestedReviewers(ctx: Context, spaceId: string, changeRequestId: string, args: ListArgs, query?: ItemQuery) {
  const { space } = await spaceForChangeRequests(ctx, spaceId);
  const keys: SortKey[] = [
    { field: 'createdAt', direction: 'asc', type: 'date' },
    { field: 'userId', direction: 'asc' },
  ];
  const page = await unlessMissing(ctx, space.id, changeRequestId, () => pageQuery(args, keys, {}));
  // The change request (404 if none), its page of requests and their count: one statement.
  const cr = await ctx.db.changeRequest.findFirst({
    relationLoadStrategy: 'join',
    where: changeRequestWhere(space.id, changeRequestId),
    select: { requestedReviewers: { ...(query as object), ...page.query }, _count: { select: { requestedReviewers: true } } },
  });
  if (!cr) throw changeRequestNotFound(changeRequestId);
  return toPage(cr.requestedReviewers, cr._count.requestedReviewers, page.limit, keys);
}

/**
 * `DELETE …/requested-reviewers/{userId}` (GitBook's removeRequestedReviewerFromChangeRequest): withdraws
 * the request (its author or an editor; the reviewer may also decline their own). True when there was
 * one (REST: 205), false otherwise (204).
 */
export async function removeRequestedReviewer(ctx: Context, spaceId: string, changeRequestId: string, userId: string) {
  const { changeRequest: cr, actor } = await reviewScope(ctx, spaceId, changeRequestId);
  if (userId !== actor.userId) authorize(changeRequestPolicy, actor, 'requestReview', cr);
  const { count } = await ctx.db.changeRequestRequestedReviewer.deleteMany({ where: { changeRequestId: cr.id, userId } });
  return count > 0;
}

/**
 * `POST …/change-requests/{cr}/reviews` (GitBook's submitChangeRequestReview): the caller approves the
 * change request's content as it is now, or asks for changes (`review` level; not its author: 403; a
 * merged or archived one: 409). The review names that revision and is outdated once the change request
 * moves on. `comment: { markdown }` posts a comment on the change request with it, in the same
 * transaction. The reviewer's open request, if any, is named as `requestedBy`.
 */
export async function submitReview(
  ctx: Context,
  spaceId: string,
  changeRequestId: string,
  input: { status: string; comment?: { markdown?: string | null } | null },
  query?: ItemQuery,
) {
  if (!(REVIEW_STATUSES as readonly string[]).includes(input.status)) throw new BadRequestError(`Invalid "status": one of ${REVIEW_STATUSES.join(', ')}`);
  const markdown = input.comment?.markdown ?? null;
  checkLength('comment.markdown', markdown, 1, MAX_REVIEW_COMMENT);
  const { space, changeRequest: cr, actor } = await reviewScope(ctx, spaceId, changeRequestId);
  authorize(changeRequestPolicy, actor, 'review', cr);
  assertEditable(cr);
  const id = newId();
  const now = ctx.clock.now();
  await ctx.db.$transaction(async (tx) => {
    const request = await tx.changeRequestRequestedReviewer.findUnique({
      where: { changeRequestId_userId: { changeRequestId: cr.id, userId: actor.userId } },
      select: { requestedById: true },
    });
    const commentId = markdown === null ? null : newId();
    if (commentId) {
      await tx.comment.create({
        data: { id: commentId, spaceId: space.id, changeRequestId: cr.id, postedById: actor.userId, markdown: markdown!, targetRevisionId: cr.revisionId, postedAt: now },
      });
    }
    await tx.changeRequestReview.create({
      data: {
        id,
        changeRequestId: cr.id,
        reviewerId: actor.userId,
        requestedById: request?.requestedById ?? null,
        revisionId: cr.revisionId,
        status: input.status === 'approved' ? 'approved' : 'changes_requested',
        commentId,
        createdAt: now,
        updatedAt: now,
      },
    });
  }, TRANSACTION_OPTIONS);
  return findReview(ctx, cr.id, id, query);
}

async function findReview(ctx: Context, changeRequestId: string, reviewId: string, query?: ItemQuery) {
  const review = await ctx.db.changeRequestReview.findFirst({ relationLoadStrategy: 'join', where: { id: reviewId, changeRequestId }, ...(query as object) });
  if (!review) throw new NotFoundError(`Review "${reviewId}" not found`);
  return review;
}

/** `GET …/change-requests/{cr}/reviews`: whoever reads the space; newest first; `outdated` filters. */
export async function listReviews(ctx: Context, spaceId: string, changeRequestId: string, args: ListArgs & { outdated?: boolean | null }, query?: ItemQuery) {
  const { space } = await spaceForChangeRequests(ctx, spaceId);
  const named = changeRequestWhere(space.id, changeRequestId);
  // A review of the current content is one whose revision is the change request's: said as a relation
  // filter, so that the change request need not be read first.
  const current = { revision: { changeRequests: { some: named } } };
  const where = args.outdated === true ? { NOT: current } : args.outdated === false ? current : {};
  const keys: SortKey[] = [
    { field: 'createdAt', direction: 'desc', type: 'date' },
    { field: 'id', direction: 'desc' },
  ];
  const page = await unlessMissing(ctx, space.id, changeRequestId, () => pageQuery(args, keys, where));
  // The change request (404 if none), its page of reviews and their count: one statement.
  const cr = await ctx.db.changeRequest.findFirst({
    relationLoadStrategy: 'join',
    where: named,
    select: { reviews: { ...(query as object), ...page.query }, _count: { select: { reviews: { where } } } },
  });
  if (!cr) throw changeRequestNotFound(changeRequestId);
  return toPage(cr.reviews, cr._count.reviews, page.limit, keys);
}

/** `GET …/change-requests/{cr}/reviews/{reviewId}`: whoever reads the space; 404 for a review of another change request. */
export async function getReview(ctx: Context, spaceId: string, changeRequestId: string, reviewId: string, query?: ItemQuery) {
  const { changeRequest } = await reviewScope(ctx, spaceId, changeRequestId);
  return findReview(ctx, changeRequest.id, reviewId, query);
}
