import { getDocuments } from './store/document-store.ts';
import DataLoader from 'dataloader';
import type { Revision } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { keyedLoader } from '../../core/loaders.ts';
import type { PageNode } from './store/page-tree.ts';
import { revisionContents, type FileEntry } from './store/revision-content.ts';

/**
 * Per-request loaders of the graph's content fields (`Space.content`, `ChangeRequest.content`): one
 * statement per kind of row for every revision, page and body the operation reaches, whatever the
 * number of spaces, change requests or pages. Below its top level a page tree resolves synchronously
 * from the rows in memory, so the bodies asked for at every level of it join one batch.
 */

/** A revision's page tree, with each reachable page by ID (for `page(id)`). */
export interface PageTree {
  pages: PageNode[];
  byId: Map<string, PageNode>;
}

/** Which revision, and the space whose pages it holds (application URLs name the space). */
export interface RevisionKey {
  revisionId: string;
  spaceId: string;
}

/** The revision rows (parents, type, creation date), by ID. */
export function revisionLoader(ctx: Context): DataLoader<string, Revision | null> {
  return keyedLoader(ctx, 'content.revision', () =>
    new DataLoader<string, Revision | null>(
      async (ids) => {
        const rows = await ctx.db.revision.findMany({ where: { id: { in: [...ids] } } });
        const byId = new Map(rows.map((r) => [r.id, r]));
        return ids.map((id) => byId.get(id) ?? null);
      },
    ),
  );
}

/**
 * The page trees of revisions: each revision read whole once (from the cache, or one statement for
 * every revision of the operation not held), its tree made once and kept with it.
 */
export function pageTreeLoader(ctx: Context): DataLoader<RevisionKey, PageTree, string> {
  return keyedLoader(ctx, 'content.pageTree', () =>
    new DataLoader<RevisionKey, PageTree, string>(
      async (keys) => {
        const contents = await revisionContents(ctx.db, ctx.db, keys.map((key) => key.revisionId));
        return keys.map((key) => contents.get(key.revisionId)?.tree() ?? { pages: [], byId: new Map() });
      },
      { cacheKeyFn: (key) => key.revisionId },
    ),
  );
}

/** The files of revisions, each revision's by name (then ID): read with its pages, as above. */
export function revisionFilesLoader(ctx: Context): DataLoader<string, readonly FileEntry[]> {
  return keyedLoader(ctx, 'content.files', () =>
    new DataLoader<string, readonly FileEntry[]>(
      async (revisionIds) => {
        const contents = await revisionContents(ctx.db, ctx.db, revisionIds);
        return revisionIds.map((id) => contents.get(id)?.files.entries() ?? []);
      },
    ),
  );
}

/** Page bodies (markdown) by content hash: one statement for every body the operation selects. */
export function documentLoader(ctx: Context): DataLoader<string, string | null> {
  return keyedLoader(ctx, 'content.document', () =>
    new DataLoader<string, string | null>(
      async (hashes) => {
        const byHash = await getDocuments(ctx.db, hashes);
        return hashes.map((hash) => byHash.get(hash) ?? null);
      },
    ),
  );
}
