import type { ChangeRequest } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { atLeast } from '../organizations/roles.ts';
import type { ContentActor } from '../content-access/access-level.ts';
import { mayMerge, mayReview } from '../content-access/space.policy.ts';

/** The caller on a space's change requests: their effective level on the space, and who they are. */
export interface ChangeRequestActor extends ContentActor {
  userId: string;
}

export type ChangeRequestRecord = Pick<ChangeRequest, 'id' | 'createdById' | 'status'>;

const isAuthor = (actor: ChangeRequestActor, cr: ChangeRequestRecord) => cr.createdById === actor.userId;

/**
 * Who may do what with a space's change requests (docs/api/change-requests.md, "Change requests"): whoever can read the space
 * reads them; opening one and editing its subject and content needs `edit`; moving it between draft,
 * open and archived is its author's or an editor's; merging needs `review` (the space's `merge`
 * permission). Reviews (docs/api/change-requests.md, "Reviews"): asking someone for a review, or withdrawing
 * the request, is its author's or an editor's; reviewing needs `review`, the space's `review` permission
 * (the level that also merges: one rule, `mayReview`), and is not its author's. Callers who cannot read the space get its 404
 * (checked with the space, before this).
 */
export const changeRequestPolicy = definePolicy<ChangeRequestActor, ChangeRequestRecord>()({
  visible: ({ level }) => atLeast(level, 'read'),
  notFound: (cr) => `Change request "${cr.id}" not found`,
  rules: {
    read: ({ level }) => atLeast(level, 'read'),
    create: ({ level }) => atLeast(level, 'edit'),
    update: ({ level }) => atLeast(level, 'edit'),
    setStatus: (actor, cr) => atLeast(actor.level, 'edit') || isAuthor(actor, cr),
    merge: (actor) => mayMerge(actor),
    requestReview: (actor, cr) => atLeast(actor.level, 'edit') || isAuthor(actor, cr),
    review: (actor, cr) => mayReview(actor) && !isAuthor(actor, cr),
  },
  refusals: {
    read: 'This needs the "read" level on the space',
    create: 'Opening a change request needs the "edit" level on the space',
    update: 'Editing a change request needs the "edit" level on the space',
    setStatus: 'Only its author or an editor of the space can change the status of a change request',
    merge: 'Merging a change request needs the "review" level on the space',
    requestReview: 'Only its author or an editor of the space can ask for reviews of a change request',
    review: 'Reviewing a change request needs the "review" level on the space, and is not for its author',
  },
});
