import type { Prisma } from '../../../generated/prisma/client.ts';
import { revisionContents, type PageEntry, type RevisionContent } from '../store/revision-content.ts';
import { sequenceChanges } from './three-way-merge.ts';

type Tx = Prisma.TransactionClient;

/**
 * Old paths keep working (`PagePathRedirect`): when a revision becomes a space's content (a merge, an
 * import), every page whose path it changed — moved, given another slug, or below one that was — leaves
 * its former path behind, pointing at the page; a published site's URL lookup redirects that path to
 * the page's path now (sites/published-lookup.ts). A path that is a page's again (created there, or
 * moved back) loses its row in the same write, so a row never hides content. Only what changed is
 * looked at: the two page trees are compared by the leaves they do not share (`sequenceChanges`), and
 * a write that moves no page and creates none costs no statement; else one.
 */

/** A path leads somewhere only for these (a link page has no page of its own). */
const hasOwnPage = (page: PageEntry) => page.type !== 'link';

export interface PathChanges {
  /** Former paths, each with the page that was there. */
  moved: { path: string; pageId: string }[];
  /** Paths that are pages' paths now (new pages, or pages that moved there). */
  taken: string[];
}

/** What changed in the paths between two revisions' pages (compared by the leaves they do not share). */
export function pathChanges(previous: RevisionContent, next: RevisionContent): PathChanges {
  const moved: PathChanges['moved'] = [];
  const taken = new Set<string>();
  for (const [id, change] of sequenceChanges(previous.pages, next.pages, (a, b) => a.path === b.path)) {
    if (change.after) taken.add(change.after.path);
    if (change.before && change.after && hasOwnPage(change.before)) moved.push({ path: change.before.path, pageId: id });
  }
  // A page's former path that another page (or it) holds now leads to that page: no row.
  return { moved: moved.filter((m) => !taken.has(m.path)), taken: [...taken] };
}

/**
 * Records the paths `next` moved away from, in the writer's transaction (which holds the space row and
 * moves the space from `previousRevisionId` to `next`). `cacheOwner`: the client whose content cache
 * serves the previous revision (the writer read it to merge, the search index reads it too).
 */
export async function recordPagePathRedirects(tx: Tx, spaceId: string, previousRevisionId: string | null, next: RevisionContent, cacheOwner: object): Promise<void> {
  if (!previousRevisionId || previousRevisionId === next.id) return;
  const previous = (await revisionContents(tx, cacheOwner, [previousRevisionId])).get(previousRevisionId);
  if (!previous) return;
  const { moved, taken } = pathChanges(previous, next);
  if (!moved.length && !taken.length) return;
  // One statement: rows at paths taken again go, former paths are (re)pointed at their page.
  await tx.$executeRaw`
    WITH cleared AS (
      DELETE FROM "PagePathRedirect" WHERE "spaceId" = ${spaceId} AND "path" = ANY(${taken}::text[])
    )
    INSERT INTO "PagePathRedirect" ("spaceId", "path", "pageId")
    SELECT ${spaceId}, m."path", m."pageId" FROM unnest(${moved.map((m) => m.path)}::text[], ${moved.map((m) => m.pageId)}::text[]) AS m("path", "pageId")
    ON CONFLICT ("spaceId", "path") DO UPDATE SET "pageId" = EXCLUDED."pageId", "createdAt" = CURRENT_TIMESTAMP`;
}
