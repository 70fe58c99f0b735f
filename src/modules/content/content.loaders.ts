import DataLoader from 'dataloader';
import type { File, Revision } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { keyedLoader } from '../../core/loaders.ts';
import { buildPageTree, type PageNode } from './page-tree.ts';
import { groupBy } from '../../lib/group-by.ts';

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

function indexTree(pages: PageNode[]): PageTree {
  const byId = new Map<string, PageNode>();
  const stack = [...pages];
  for (let node = stack.pop(); node; node = stack.pop()) {
    byId.set(node.page.id, node);
    stack.push(...node.pages);
  }
  return { pages, byId };
}

const uniqueRevisions = (keys: readonly RevisionKey[]) => [...new Set(keys.map((k) => k.revisionId))];

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

/** The page trees of revisions: one statement for every revision asked for (no bodies). */
export function pageTreeLoader(ctx: Context): DataLoader<RevisionKey, PageTree, string> {
  return keyedLoader(ctx, 'content.pageTree', () =>
    new DataLoader<RevisionKey, PageTree, string>(
      async (keys) => {
        const rows = await ctx.db.page.findMany({
          where: { revisionId: { in: uniqueRevisions(keys) } },
          orderBy: [{ revisionId: 'asc' }, { position: 'asc' }, { id: 'asc' }],
        });
        const byRevision = groupBy(rows, (row) => row.revisionId);
        return keys.map((key) => indexTree(buildPageTree(key.spaceId, byRevision.get(key.revisionId) ?? [])));
      },
      { cacheKeyFn: (key) => key.revisionId },
    ),
  );
}

/** The files of revisions, each revision's by name (then ID). */
export function revisionFilesLoader(ctx: Context): DataLoader<string, File[]> {
  return keyedLoader(ctx, 'content.files', () =>
    new DataLoader<string, File[]>(
      async (revisionIds) => {
        const rows = await ctx.db.file.findMany({
          where: { revisionId: { in: [...revisionIds] } },
          orderBy: [{ revisionId: 'asc' }, { name: 'asc' }, { id: 'asc' }],
        });
        const byRevision = groupBy(rows, (row) => row.revisionId);
        return revisionIds.map((id) => byRevision.get(id) ?? []);
      },
    ),
  );
}

/** Page bodies (markdown) by content hash: one statement for every body the operation selects. */
export function documentLoader(ctx: Context): DataLoader<string, string | null> {
  return keyedLoader(ctx, 'content.document', () =>
    new DataLoader<string, string | null>(
      async (hashes) => {
        const rows = await ctx.db.document.findMany({ where: { hash: { in: [...hashes] } }, select: { hash: true, markdown: true } });
        const byHash = new Map(rows.map((r) => [r.hash, r.markdown]));
        return hashes.map((hash) => byHash.get(hash) ?? null);
      },
    ),
  );
}
