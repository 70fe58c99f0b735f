import type { Page } from '../../generated/prisma/client.ts';

/** A page of a revision with its child pages, in order: the shape of GitBook's `pages` trees. */
export interface PageNode<P extends Page = Page> {
  spaceId: string;
  page: P;
  pages: PageNode<P>[];
}

/**
 * The page tree of a revision from its page rows, read in one statement (no bodies) and sorted by
 * (position, id): each page under its parent, siblings in that order. A row whose parent is missing is
 * kept at the top level rather than lost; rows in a parent cycle (which no writer makes) are unreachable
 * and left out.
 */
export function buildPageTree<P extends Page>(spaceId: string, rows: readonly P[]): PageNode<P>[] {
  const nodes = new Map(rows.map((page) => [page.id, { spaceId, page, pages: [] } as PageNode<P>]));
  const roots: PageNode<P>[] = [];
  for (const node of nodes.values()) {
    const parent = node.page.parentId === null ? undefined : nodes.get(node.page.parentId);
    (parent && parent !== node ? parent.pages : roots).push(node);
  }
  return roots.filter((root) => root.page.parentId === null || !nodes.has(root.page.parentId));
}

/** The node of `pageId` anywhere in the tree, or undefined. */
export function findPage<P extends Page>(nodes: readonly PageNode<P>[], pageId: string): PageNode<P> | undefined {
  for (const node of nodes) {
    if (node.page.id === pageId) return node;
    const found = findPage(node.pages, pageId);
    if (found) return found;
  }
  return undefined;
}
