import { builder } from '../../graphql/builder.ts';
import { ChangeRequestReviewRef } from '../change-requests/index.ts';
import { CommentRef } from './comment.schema.ts';

/**
 * A review's comment (GitBook's `ChangeRequestReview.comment`): the change request comment posted with
 * it, read with the review (a join in its own statement). Absent without one, or once it is deleted.
 */
builder.prismaObjectField(ChangeRequestReviewRef, 'comment', (t) =>
  t.relation('comment', { type: CommentRef, nullable: true, description: 'The comment posted with the review, if any' }),
);
