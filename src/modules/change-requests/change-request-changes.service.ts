import { createTwoFilesPatch } from 'diff';
import type { User } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { getDocuments, revisionContents, semanticChangesBetween, sequenceChanges, type PageEntry, type SemanticChanges } from '../content/index.ts';
import { changeRequestContentSource } from './change-request-content.ts';
import { findChangeRequest, spaceForChangeRequests } from './change-request.service.ts';

/**
 * What a change request changes, for its reviewers: GitBook's `getChangeRequestChanges` (the semantic
 * changes of its revision from the one it is based on), `getContributorsByChangeRequestId`, and beyond
 * GitBook a unified diff of each page whose markdown it changes, so a reviewer reads what changed
 * without fetching both sides.
 */

/** `GET …/change-requests/{cr}/changes`: its revision's changes from its base (the last main it pulled, else where it started). */
export async function changeRequestChanges(ctx: Context, spaceId: string, changeRequestId: string, limit: number): Promise<SemanticChanges> {
  const source = await changeRequestContentSource(ctx, spaceId, changeRequestId);
  return semanticChangesBetween(ctx, source.changeRequest!.baseRevisionId, source.revisionId!, source.space.id, limit);
}

export interface Contributor {
  user: User;
  actionType: 'edit' | 'comment';
  count: number;
  updatedAt: Date;
}

/**
 * `GET …/change-requests/{cr}/contributors`: who edited it (each content write, update from main
 * included) and who commented on it (comments and replies), with how many times and when last; most
 * recent first. Two statements after the change request's: the contributions, then their users.
 */
export async function changeRequestContributors(ctx: Context, spaceId: string, changeRequestId: string): Promise<{ items: Contributor[]; count: number }> {
  const { space } = await spaceForChangeRequests(ctx, spaceId);
  const cr = await findChangeRequest(ctx, space.id, changeRequestId, { select: { id: true } });
  const rows = await ctx.db.$queryRaw<{ userId: string; actionType: 'edit' | 'comment'; count: number; updatedAt: Date }[]>`
    SELECT "userId", 'edit' AS "actionType", "edits" AS "count", "lastEditedAt" AS "updatedAt"
      FROM "ChangeRequestContributor" WHERE "changeRequestId" = ${cr.id}
    UNION ALL
    SELECT "postedById" AS "userId", 'comment' AS "actionType", count(*)::int AS "count", max("postedAt") AS "updatedAt"
      FROM "Comment" WHERE "changeRequestId" = ${cr.id} AND "postedById" IS NOT NULL GROUP BY "postedById"
    ORDER BY "updatedAt" DESC, "userId", "actionType"`;
  const users = new Map((await ctx.db.user.findMany({ where: { id: { in: [...new Set(rows.map((row) => row.userId))] } } })).map((user) => [user.id, user]));
  const items = rows.flatMap((row) => {
    const user = users.get(row.userId);
    return user ? [{ user, actionType: row.actionType, count: row.count, updatedAt: row.updatedAt }] : [];
  });
  return { items, count: items.length };
}

/** Diffs past these are not computed (a diff is O(N·D)): the page is listed, its diff says why not. */
const MAX_EDIT_LENGTH = 5000;
const DIFF_TIMEOUT_MS = 500;
export const MAX_DIFF_PAGES = 100;

export interface PageDiff {
  page: { id: string; type: string; title: string; path: string };
  change: 'created' | 'edited' | 'deleted';
  /** The unified diff of the page's markdown (`a/<path>.md` → `b/<path>.md`), or null when too large to compute. */
  diff: string | null;
}

/**
 * `GET …/change-requests/{cr}/diff` (ours): each document page whose body the change request creates,
 * changes or deletes, with the unified diff of its markdown, in the order of the tree; at most `limit`
 * pages (`more`: how many were left out). Bodies come in one statement; pages whose body is unchanged
 * (moved, renamed) are not listed — `…/changes` names them.
 */
export async function changeRequestDiff(ctx: Context, spaceId: string, changeRequestId: string, limit: number): Promise<{ pages: PageDiff[]; more: number }> {
  const source = await changeRequestContentSource(ctx, spaceId, changeRequestId);
  const baseId = source.changeRequest!.baseRevisionId;
  const headId = source.revisionId!;
  const contents = await revisionContents(ctx.db, ctx.db, [baseId, headId]);
  const base = contents.get(baseId)!;
  const head = contents.get(headId)!;
  const changed: { before?: PageEntry; after?: PageEntry }[] = [];
  let more = 0;
  const sameBody = (a: PageEntry, b: PageEntry) => a.type === b.type && a.documentHash === b.documentHash;
  for (const { before, after } of sequenceChanges(base.pages, head.pages, sameBody).values()) {
    const bodyOf = (page?: PageEntry) => (page?.type === 'document' ? page.documentHash : null);
    if (bodyOf(before) === bodyOf(after)) continue;
    if (changed.length < limit) changed.push({ before, after });
    else more++;
  }
  const bodies = await getDocuments(ctx.db, changed.flatMap(({ before, after }) => [before?.documentHash, after?.documentHash].filter((hash): hash is string => Boolean(hash))));
  const markdownOf = (page?: PageEntry) => (page?.type === 'document' && page.documentHash ? (bodies.get(page.documentHash) ?? '') : '');
  const pages = changed.map(({ before, after }): PageDiff => {
    const page = (after ?? before)!;
    const path = `${page.path || page.slug}.md`;
    const diff = createTwoFilesPatch(before ? `a/${path}` : '/dev/null', after ? `b/${path}` : '/dev/null', markdownOf(before), markdownOf(after), undefined, undefined, {
      context: 3,
      maxEditLength: MAX_EDIT_LENGTH,
      timeout: DIFF_TIMEOUT_MS,
    });
    return { page: { id: page.id, type: page.type, title: page.title, path: page.path }, change: !before ? 'created' : !after ? 'deleted' : 'edited', diff: diff ?? null };
  });
  return { pages, more };
}
