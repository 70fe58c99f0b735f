import type { PageEntry } from './entries.ts';

/** A page of a revision with its child pages, in order: the shape of GitBook's `pages` trees. */
export interface PageNode<P extends PageEntry = PageEntry> {
  spaceId: string;
  page: P;
  pages: PageNode<P>[];
}

/**
 * The page tree of pages given depth first (a revision's page sequence, or a slice of it): each page
 * under its parent, siblings in the order given. A page whose parent is not among them is at the top.
 */
export function buildPageTree<P extends PageEntry>(spaceId: string, pages: readonly P[]): PageNode<P>[] {
  const nodes = new Map<string, PageNode<P>>();
  const roots: PageNode<P>[] = [];
  for (const page of pages) {
    const node: PageNode<P> = { spaceId, page, pages: [] };
    nodes.set(page.id, node);
    const parent = page.parentId === null ? undefined : nodes.get(page.parentId);
    (parent ? parent.pages : roots).push(node);
  }
  return roots;
}

/** The node of `pageId` anywhere in the tree, or undefined. */
export function findPage<P extends PageEntry>(nodes: readonly PageNode<P>[], pageId: string): PageNode<P> | undefined {
  for (const node of nodes) {
    if (node.page.id === pageId) return node;
    const found = findPage(node.pages, pageId);
    if (found) return found;
  }
  return undefined;
}
