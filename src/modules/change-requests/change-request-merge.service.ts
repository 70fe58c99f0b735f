import { publishDomainEvent } from '../../core/domain-events.ts';
import type { ChangeRequest, Prisma } from '../../generated/prisma/client.ts';
import { viewerOf, type Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { ConflictError } from '../../core/errors.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { getDocuments, RevisionDraft, rememberContent, revisionContents, type RevisionContent } from '../content/index.ts';
import { lockSpaceAt, recordPagePathRedirects, writeRevision } from '../content/index.ts';
import { updateSearchIndex } from '../search/index.ts';
import { hasConflictMarkers, hashesToMerge, mergeRevisions, type MergeConflict } from '../content/index.ts';
import { mergeRuleRefusal, mergeRulesOf, needsReviews } from '../spaces/index.ts';
import { changeRequestPolicy } from './change-request.policy.ts';
import { currentReviewsOf } from './change-request-reviews.service.ts';
import { findChangeRequest, spaceForChangeRequests } from './change-request.service.ts';
import { addContributor, advanceChangeRequest, assertEditable } from './change-request-content.service.ts';


/** The revision the change request last took main from: where both sides started. */
const baseOf = (cr: Pick<ChangeRequest, 'revisionMergedAncestorId' | 'revisionInitialId'>) => cr.revisionMergedAncestorId ?? cr.revisionInitialId;

/** Revisions read whole (from the cache when held: a revision never changes). */
async function contentsOf(ctx: Context, revisionIds: string[]): Promise<Map<string, RevisionContent>> {
  const contents = await revisionContents(ctx.db, ctx.db, revisionIds);
  for (const id of revisionIds) if (!contents.has(id)) throw new Error(`Revision "${id}" is missing`);
  return contents;
}

/** Merges main into the change request's content, in memory: the merged draft and its conflicts. */
async function mergeMain(ctx: Context, cr: ChangeRequest, mainRevisionId: string, now: Date) {
  const sides = await contentsOf(ctx, [baseOf(cr), cr.revisionId, mainRevisionId]);
  const [base, ours, theirs] = [sides.get(baseOf(cr))!, sides.get(cr.revisionId)!, sides.get(mainRevisionId)!];
  const hashes = hashesToMerge(base, ours, theirs);
  return mergeRevisions(base, ours, theirs, await getDocuments(ctx.db, hashes), now);
}

/** Pages of a revision whose bodies still hold conflict markers (of those a merge reported). */
async function unresolved(ctx: Context, revisionId: string, conflicts: MergeConflict[]): Promise<string[]> {
  const pages = conflicts.filter((c) => c.type === 'content').map((c) => c.page);
  if (!pages.length) return [];
  const content = (await contentsOf(ctx, [revisionId])).get(revisionId)!;
  const hashes = new Map(pages.flatMap((id) => {
    const hash = content.page(id)?.documentHash;
    return hash ? [[id, hash] as const] : [];
  }));
  const documents = await getDocuments(ctx.db, hashes.values());
  const marked = new Set([...documents].filter(([, markdown]) => hasConflictMarkers(markdown)).map(([hash]) => hash));
  return [...hashes].filter(([, hash]) => marked.has(hash)).map(([id]) => id);
}

const conflictsOf = (cr: ChangeRequest) => (Array.isArray(cr.conflicts) ? (cr.conflicts as unknown as MergeConflict[]) : []);

/**
 * `POST /spaces/{id}/change-requests/{cr}/update` (GitBook's `updateChangeRequest`): pulls what was
 * merged into the space since the change request's base into it, with a three-way merge, as a new
 * revision of the change request (type `update`, parents: its revision and main's). Conflicting lines
 * are kept with markers and listed; the answer's `result` is then `conflicts`.
 */
export async function updateChangeRequestFromMain(ctx: Context, spaceId: string, changeRequestId: string) {
  const { space, actor } = await spaceForChangeRequests(ctx, spaceId);
  const cr = await findChangeRequest(ctx, space.id, changeRequestId);
  authorize(changeRequestPolicy, actor, 'update', cr);
  assertEditable(cr);
  const main = space.revisionId!;
  if (baseOf(cr) === main) {
    const left = await unresolved(ctx, cr.revisionId, conflictsOf(cr));
    return { revision: cr.revisionId, result: left.length ? 'conflicts' : 'update', conflicts: conflictsOf(cr) };
  }
  const now = ctx.clock.now();
  const { draft, conflicts } = await mergeMain(ctx, cr, main, now);
  const revisionId = newId();
  const written = await ctx.db.$transaction(async (tx) => {
    const content = await writeRevision(tx, { id: revisionId, spaceId: space.id, parents: [cr.revisionId, main], type: 'update', createdById: viewerOf(ctx).user.id, createdAt: now, draft });
    await advanceChangeRequest(tx, cr, cr.revisionId, {
      revisionId,
      revisionMergedAncestorId: main,
      conflicts: conflicts as unknown as Prisma.InputJsonValue,
      updatedAt: now,
    });
    await addContributor(tx, cr.id, viewerOf(ctx).user.id, now);
    return content;
  }, TRANSACTION_OPTIONS);
  rememberContent(ctx.db, written);
  return { revision: revisionId, result: conflicts.some((c) => c.type === 'content') ? 'conflicts' : 'update', conflicts };
}

/**
 * `POST /spaces/{id}/change-requests/{cr}/merge` (GitBook's `mergeChangeRequest`): a new revision of
 * the space (type `merge`, parents: main's revision and the change request's) becomes the space's
 * content, and the change request is `merged`. A change request behind main is merged with main in the
 * same step when that merges cleanly; when it would conflict, or still holds conflict markers from an
 * update, the answer is 409 (update it and resolve them first). Two merges racing on one space: the
 * first moves the space's revision, the second finds it moved and answers 409 — its change request
 * stays open, now outdated, nothing lost. The space's merge rules (`Space.mergeRules`, e.g. an approved
 * review of the current content) must hold: 409 naming the rule otherwise. They hold for what the merge
 * writes: it lands only while the change request is still at the revision they were checked against.
 */
export async function mergeChangeRequest(ctx: Context, spaceId: string, changeRequestId: string) {
  const { space, actor } = await spaceForChangeRequests(ctx, spaceId);
  const cr = await findChangeRequest(ctx, space.id, changeRequestId);
  authorize(changeRequestPolicy, actor, 'merge', cr);
  if (cr.status === 'merged' || cr.status === 'archived') throw new ConflictError(`Change request #${cr.number} is ${cr.status}: it cannot be merged`);
  const rules = mergeRulesOf(space.mergeRules);
  const refusal = mergeRuleRefusal(rules, {
    subject: cr.subject,
    outdated: baseOf(cr) !== space.revisionId,
    currentReviews: needsReviews(rules) ? await currentReviewsOf(ctx, cr) : [],
  });
  if (refusal) throw new ConflictError(`Change request #${cr.number} cannot be merged: ${refusal}`);
  const left = await unresolved(ctx, cr.revisionId, conflictsOf(cr));
  if (left.length) {
    throw new ConflictError(`Change request #${cr.number} has unresolved conflicts in page(s) ${left.join(', ')}: resolve them before merging`);
  }
  const main = space.revisionId!;
  const now = ctx.clock.now();
  let draft: RevisionDraft;
  if (baseOf(cr) === main) {
    draft = new RevisionDraft((await contentsOf(ctx, [cr.revisionId])).get(cr.revisionId)!);
  } else {
    const merged = await mergeMain(ctx, cr, main, now);
    const blocking = merged.conflicts.filter((c) => c.type === 'content');
    if (blocking.length) {
      throw new ConflictError(
        `Change request #${cr.number} conflicts with the space's content in page(s) ${blocking.map((c) => c.page).join(', ')}: update it from main (POST …/update) and resolve them`,
      );
    }
    draft = merged.draft;
  }

  const revisionId = newId();
  const written = await ctx.db.$transaction(async (tx) => {
    // Only while main is still what was merged with: a merge (or import) that landed meanwhile wins.
    // The space row is locked first, FOR UPDATE: moving `revisionId` (a unique column) needs that lock,
    // and taking it after inserting the revision (whose foreign key share-locks the row) would let two
    // merges each hold what the other waits for.
    await lockSpaceAt(tx, space.id, main, () => new ConflictError(`The space's content changed while merging change request #${cr.number}: update it from main and merge again`));
    const content = await writeRevision(tx, { id: revisionId, spaceId: space.id, parents: [main, cr.revisionId], type: 'merge', createdById: viewerOf(ctx).user.id, createdAt: now, draft });
    await tx.space.update({ where: { id: space.id }, data: { revisionId, updatedAt: now } });
    await updateSearchIndex(tx, space.id, content, ctx.db);
    // Pages it moved or renamed keep their old paths working on published sites.
    await recordPagePathRedirects(tx, space.id, main, content, ctx.db);
    const { count } = await tx.changeRequest.updateMany({
      where: { id: cr.id, revisionId: cr.revisionId, status: { in: ['draft', 'open'] } },
      data: { status: 'merged', revisionMergedId: revisionId, mergedAt: now, mergedById: viewerOf(ctx).user.id, updatedAt: now, conflicts: [] },
    });
    if (count === 0) throw new ConflictError(`Change request #${cr.number} changed meanwhile: read it again and retry`);
    await publishDomainEvent(tx, 'changeRequest.merged', { spaceId: space.id, changeRequestId: cr.id, number: cr.number, subject: cr.subject, revisionId, mergedById: viewerOf(ctx).user.id, at: now });
    return content;
  }, TRANSACTION_OPTIONS);
  rememberContent(ctx.db, written);
  ctx.loaders.space.clear(space.id);
  return { revision: revisionId, result: 'merge' };
}
