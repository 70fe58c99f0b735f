import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listItemsQuery, listType, recordQuery } from '../../graphql/list.ts';
import { UserRef } from '../users/index.ts';
import { changeRequestArgs, ChangeRequestRef } from './change-request.schema.ts';
import { MAX_SUBJECT } from './change-request.service.ts';
import {
  getReview,
  listRequestedReviewers,
  listReviews,
  MAX_REVIEW_COMMENT,
  removeRequestedReviewer,
  requestedReviewersOf,
  requestReviewers,
  REVIEW_STATUSES,
  reviewStatusOf,
  submitReview,
  toApiReviewStatus,
} from './change-request-reviews.service.ts';

const reviewStatus = constrained({ enum: [...REVIEW_STATUSES] });

export const ChangeRequestReviewRef = builder.prismaObject('ChangeRequestReview', {
  description: "A review of a change request (GitBook's ChangeRequestReview): of the revision it had then",
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['change-request-review'] }), resolve: () => 'change-request-review' }),
    id: t.exposeID('id'),
    revision: t.string({ description: 'The revision this review was made against', resolve: (r) => r.revisionId }),
    reviewer: t.relation('reviewer', { type: UserRef }),
    requestedBy: t.relation('requestedBy', { type: UserRef, nullable: true, description: 'Who asked the reviewer; absent when the review was not requested' }),
    status: t.string({ description: 'changes-requested or approved', extensions: reviewStatus, resolve: (r) => toApiReviewStatus(r.status) }),
    outdated: t.boolean({
      description: "True once the change request's content changed after the review",
      // The change request's current revision comes with the review's own statement (a join).
      select: { changeRequest: { select: { revisionId: true } } },
      resolve: (r) => r.revisionId !== r.changeRequest.revisionId,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    urls: t.field({
      type: builder.simpleObject('ChangeRequestReviewUrls', {
        fields: (u) => ({ location: u.string({ description: 'The review in the API', extensions: constrained({ format: 'uri' }) }) }),
      }),
      select: { changeRequest: { select: { spaceId: true } } },
      resolve: (r, _args, ctx) => ({ location: `${ctx.config.apiUrl}/spaces/${r.changeRequest.spaceId}/change-requests/${r.changeRequestId}/reviews/${r.id}` }),
    }),
  }),
});

export const ChangeRequestRequestedReviewerRef = builder.prismaObject('ChangeRequestRequestedReviewer', {
  description: "A user asked to review a change request (GitBook's ChangeRequestRequestedReviewer, kind user)",
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['change-request-requested-reviewer'] }), resolve: () => 'change-request-requested-reviewer' }),
    kind: t.string({ extensions: constrained({ enum: ['user'] }), resolve: () => 'user' }),
    user: t.relation('user', { type: UserRef }),
    revision: t.string({ description: 'The revision of the content when the request was made', resolve: (r) => r.revisionId }),
    requestedBy: t.relation('requestedBy', { type: UserRef, nullable: true, description: 'Who asked (NULL once that user is deleted)' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const ReviewList = listType('ChangeRequestReview', ChangeRequestReviewRef);
const RequestedReviewerList = listType('ChangeRequestRequestedReviewer', ChangeRequestRequestedReviewerRef);

const RequestedReviewersResultRef = builder.objectRef<{ changeRequestId: string; userIds: string[] }>('ChangeRequestReviewersRequested').implement({
  description: 'The review requests that were made',
  fields: (t) => ({
    users: t.field({
      type: [ChangeRequestRequestedReviewerRef],
      description: 'In the order they were asked',
      resolve: async (r, _args, ctx, info) => {
        const rows = await requestedReviewersOf(ctx, r.changeRequestId, r.userIds, queryFromInfo({ context: ctx, info }) as object);
        return rows.sort((a, b) => r.userIds.indexOf(a.userId) - r.userIds.indexOf(b.userId));
      },
    }),
  }),
});

const ReviewCommentInput = builder.inputType('ChangeRequestReviewCommentInput', {
  description: "The review's comment (GitBook's Document as markdown; {} for none)",
  fields: (t) => ({ markdown: t.string({ description: `1..${MAX_REVIEW_COMMENT} characters`, extensions: constrained({ maxLength: MAX_REVIEW_COMMENT }) }) }),
});

builder.queryFields((t) => ({
  changeRequestRequestedReviewers: t.field({
    type: RequestedReviewerList,
    description: 'Users asked to review the change request, oldest request first',
    args: { ...changeRequestArgs, ...listArgs },
    resolve: (_root, { spaceId, changeRequestId, ...args }, ctx, info) => listRequestedReviewers(ctx, spaceId, changeRequestId, args, listItemsQuery(ctx, info)),
  }),
  changeRequestReviews: t.field({
    type: ReviewList,
    description: 'Reviews of the change request, newest first',
    args: {
      ...changeRequestArgs,
      ...listArgs,
      outdated: t.arg.boolean({ description: 'Only outdated reviews (true) or only reviews of its current content (false)' }),
    },
    resolve: (_root, { spaceId, changeRequestId, ...args }, ctx, info) => listReviews(ctx, spaceId, changeRequestId, args, listItemsQuery(ctx, info)),
  }),
  changeRequestReview: t.field({
    type: ChangeRequestReviewRef,
    description: 'A review of the change request',
    args: { ...changeRequestArgs, reviewId: t.arg.string({ required: true, description: 'ID of the review' }) },
    resolve: (_root, { spaceId, changeRequestId, reviewId }, ctx, info) => getReview(ctx, spaceId, changeRequestId, reviewId, recordQuery(ctx, info)),
  }),
}));

builder.mutationFields((t) => ({
  requestChangeRequestReviewers: t.field({
    type: RequestedReviewersResultRef,
    description: 'Asks users who can read the space to review the change request (its author or an editor)',
    args: {
      ...changeRequestArgs,
      users: t.arg.stringList({ required: true, description: 'IDs of the users asked (1..20)', extensions: constrained({ minItems: 1, maxItems: 20 }) }),
      subject: t.arg.string({ description: 'Also renames the change request (edit level)', extensions: constrained({ maxLength: MAX_SUBJECT }) }),
    },
    resolve: (_root, { spaceId, changeRequestId, ...input }, ctx) => requestReviewers(ctx, spaceId, changeRequestId, input),
  }),
  removeChangeRequestRequestedReviewer: t.boolean({
    description: 'Withdraws a review request (its author, an editor, or the reviewer): true when there was one',
    args: { ...changeRequestArgs, userId: t.arg.string({ required: true, description: 'ID of the requested reviewer' }) },
    resolve: (_root, { spaceId, changeRequestId, userId }, ctx) => removeRequestedReviewer(ctx, spaceId, changeRequestId, userId),
  }),
  submitChangeRequestReview: t.field({
    type: ChangeRequestReviewRef,
    description: "Approves the change request's current content or asks for changes (review level), with an optional comment",
    args: {
      ...changeRequestArgs,
      status: t.arg.string({ required: true, description: 'approved or changes-requested', extensions: reviewStatus }),
      comment: t.arg({ type: ReviewCommentInput, description: 'Posted as a comment on the change request with the review' }),
    },
    resolve: (_root, { spaceId, changeRequestId, ...input }, ctx, info) => submitReview(ctx, spaceId, changeRequestId, input, recordQuery(ctx, info)),
  }),
}));

// The change request's review status, from its reviews read with it (a join in its own statement).
builder.prismaObjectField(ChangeRequestRef, 'reviewStatus', (t) =>
  t.string({
    nullable: true,
    description:
      'An addition: changes-requested when a current review (of its current content) asks for changes, else approved when one approves, else requested while reviewers are asked; null otherwise',
    extensions: constrained({ enum: ['changes-requested', 'approved', 'requested'] }),
    select: {
      revisionId: true,
      // The latest reviews decide; 100 reviews of one change request is far more than a review round has.
      reviews: { select: { reviewerId: true, revisionId: true, status: true }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 100 },
      requestedReviewers: { select: { userId: true }, take: 1 },
    },
    resolve: (cr) => reviewStatusOf(cr.revisionId, cr.reviews, cr.requestedReviewers.length > 0),
  }),
);
