import type { ChangeRequest, Prisma } from '../../generated/prisma/client.ts';
import { viewerOf, type Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { ConflictError } from '../../core/errors.ts';
import type { ItemQuery } from '../../core/pagination.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { draftOf, hasConflictMarkers, rememberContent, revisionContent, writeRevision, type MergeConflict, type RevisionDraft } from '../content/index.ts';
import { applyChanges, type AffectedPage } from './apply-changes.ts';
import { changeRequestPolicy } from './change-request.policy.ts';
import { findChangeRequest, spaceForChangeRequests } from './change-request.service.ts';
import { parseChanges } from './content-changes.ts';

type Db = Prisma.TransactionClient;

/** A change request still takes edits while it is a draft or open. */
export function assertEditable(cr: Pick<ChangeRequest, 'number' | 'status'>) {
  if (cr.status === 'merged' || cr.status === 'archived') {
    throw new ConflictError(`Change request #${cr.number} is ${cr.status}: its content cannot change`);
  }
}

/** Records an edit by `userId` among the change request's contributors (how many, when last), in the caller's transaction. */
export async function addContributor(db: Db, changeRequestId: string, userId: string, at: Date = new Date()) {
  await db.changeRequestContributor.upsert({
    where: { changeRequestId_userId: { changeRequestId, userId } },
    create: { changeRequestId, userId, lastEditedAt: at },
    update: { edits: { increment: 1 }, lastEditedAt: at },
  });
}

/**
 * Moves a change request from the revision it was read at to a new one, in the caller's transaction:
 * only while it still points at `from` and takes edits. Otherwise a concurrent write came first, and
 * this one answers 409 (the transaction rolls back with the revision it wrote).
 */
export async function advanceChangeRequest(db: Db, cr: Pick<ChangeRequest, 'id' | 'number'>, from: string, data: Prisma.ChangeRequestUncheckedUpdateManyInput & { revisionId: string }) {
  const { count } = await db.changeRequest.updateMany({ where: { id: cr.id, revisionId: from, status: { in: ['draft', 'open'] } }, data });
  if (count === 0) throw new ConflictError(`Change request #${cr.number} changed meanwhile: read it again and retry`);
}

/**
 * `POST /spaces/{id}/change-requests/{cr}/content` (GitBook's `updateChangeRequestContent`): a batch
 * of 1..50 page and file changes, applied in order, all or nothing, as one new revision of the change
 * request. Answers the change request and what the batch did to which page.
 */
export async function updateChangeRequestContent(ctx: Context, spaceId: string, changeRequestId: string, input: { changes: unknown }, query?: ItemQuery) {
  const changes = parseChanges(input.changes);
  const { space, actor } = await spaceForChangeRequests(ctx, spaceId);
  const cr = await findChangeRequest(ctx, space.id, changeRequestId);
  authorize(changeRequestPolicy, actor, 'update', cr);
  assertEditable(cr);

  const draft = await draftOf(ctx.db, cr.revisionId, ctx.db);
  const now = ctx.clock.now();
  const applied = await applyChanges(draft, changes, {
    now,
    baseRevisionId: cr.revisionMergedAncestorId ?? cr.revisionInitialId,
    specExists: async (slug) => (await ctx.db.openAPISpec.count({ where: { organizationId: space.organizationId, slug } })) > 0,
    revisionPages: async (revisionId) => {
      const content = await revisionContent(ctx.db, ctx.db, revisionId);
      return content?.revision.spaceId === space.id ? content : null;
    },
  });

  // Before the revision is written: writing stores the new bodies and leaves the draft without them.
  const conflicts = conflictsAfterEdits(cr, draft, applied.affected);
  const revisionId = newId();
  const written = await ctx.db.$transaction(async (tx) => {
    const content = await writeRevision(tx, {
      id: revisionId,
      spaceId: space.id,
      parents: [cr.revisionId],
      type: 'edits',
      createdById: viewerOf(ctx).user.id,
      createdAt: now,
      draft,
      blobs: applied.blobs,
    });
    await advanceChangeRequest(tx, cr, cr.revisionId, { revisionId, updatedAt: now, ...(conflicts ? { conflicts: conflicts as unknown as Prisma.InputJsonValue } : {}) });
    await addContributor(tx, cr.id, viewerOf(ctx).user.id, now);
    return content;
  }, TRANSACTION_OPTIONS);
  rememberContent(ctx.db, written);

  const location = (pageId: string) => `${ctx.config.apiUrl}/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}`;
  return {
    changeRequest: await findChangeRequest(ctx, space.id, cr.id, query),
    changes: applied.affected.map((change) =>
      change.object === 'deleted_page'
        ? { object: change.object, page: change.id }
        : { object: change.object, page: { object: 'page', id: change.id, urls: { location: location(change.id) } }, ...('ref' in change && change.ref ? { ref: change.ref } : {}) },
    ),
    insertedFiles: applied.insertedFiles.map((file) => ({ ...file, revisionId })),
  };
}

/**
 * The conflicts a change request still lists once a batch of edits is applied, or null when the batch
 * touched none of them. A page's conflict is over when the page is deleted, when a page kept after a
 * deletion on one side is edited (someone decided), or when a body that had conflict markers is written
 * without them (someone resolved it).
 */
export function conflictsAfterEdits(cr: ChangeRequest, draft: RevisionDraft, affected: readonly AffectedPage[]): MergeConflict[] | null {
  const listed = Array.isArray(cr.conflicts) ? (cr.conflicts as unknown as MergeConflict[]) : [];
  const touched = new Map(affected.map((change) => [change.id, change.object]));
  if (!listed.some((conflict) => touched.has(conflict.page))) return null;
  return listed.filter((conflict) => {
    const change = touched.get(conflict.page);
    if (!change) return true;
    if (change === 'deleted_page') return false;
    if (conflict.type !== 'content') return false;
    const markdown = draft.pages.get(conflict.page)?.markdown;
    // A batch that did not write the body (a title, a move) leaves its markers where they were.
    return markdown === undefined || hasConflictMarkers(markdown);
  });
}
