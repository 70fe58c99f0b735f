import type { Comment } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { atLeast } from '../organizations/roles.ts';
import type { ContentActor } from '../content-access/access-level.ts';

/** The caller on a space's comments: their effective level on the space, and who they are. */
export interface CommentActor extends ContentActor {
  userId: string;
}

export type CommentRecord = Pick<Comment, 'id' | 'postedById'>;

const isAuthor = (actor: CommentActor, comment: CommentRecord) => comment.postedById !== null && comment.postedById === actor.userId;

/**
 * Who may do what with the comments of a space's change requests (issue "Review conversations"):
 * whoever reads the space reads them; the `comment` level posts, replies and reacts; a body is edited,
 * and a comment deleted, by its author or a space admin; resolving is the author's or an editor's.
 * Callers who cannot read the space get its 404 (checked with the space, before this).
 */
export const commentPolicy = definePolicy<CommentActor, CommentRecord>()({
  visible: ({ level }) => atLeast(level, 'read'),
  notFound: (comment) => `Comment "${comment.id}" not found`,
  rules: {
    read: ({ level }) => atLeast(level, 'read'),
    post: ({ level }) => atLeast(level, 'comment'),
    react: ({ level }) => atLeast(level, 'comment'),
    edit: (actor, comment) => isAuthor(actor, comment) || atLeast(actor.level, 'admin'),
    delete: (actor, comment) => isAuthor(actor, comment) || atLeast(actor.level, 'admin'),
    resolve: (actor, comment) => isAuthor(actor, comment) || atLeast(actor.level, 'edit'),
  },
  refusals: {
    read: 'This needs the "read" level on the space',
    post: 'Commenting needs the "comment" level on the space',
    react: 'Reacting needs the "comment" level on the space',
    edit: 'Only its author or an admin of the space can edit a comment',
    delete: 'Only its author or an admin of the space can delete a comment',
    resolve: 'Only its author or an editor of the space can resolve a comment',
  },
});
