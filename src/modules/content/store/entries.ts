import type { PageType, Prisma } from '../../../generated/prisma/client.ts';

type JsonValue = Prisma.JsonValue;

/**
 * A page of a revision, as its page tree holds it (src/modules/content/store/content-tree.ts): pages are
 * stored depth first, each after its parent and before its next sibling, with what a reader needs
 * without the rest of the tree — its path (slugs from the top level), its number of descendants (the
 * pages after it that are below it), and its previous sibling (so that a change of order changes the
 * entries it concerns, which is what merges compare).
 */
export interface PageEntry {
  readonly id: string;
  readonly parentId: string | null;
  readonly prev: string | null;
  readonly type: PageType;
  readonly title: string;
  readonly emoji: string | null;
  /** GitBook's page icon (an icon name), set instead of or beside the emoji. */
  readonly icon: string | null;
  readonly slug: string;
  readonly path: string;
  readonly description: string | null;
  /** The body (a `Document`), for pages that have one. */
  readonly documentHash: string | null;
  readonly hidden: boolean;
  /** Left out of search (GitBook's `noIndex`), and of search engines' indexes (`noRobotsIndex`). */
  readonly noIndex: boolean;
  readonly noRobotsIndex: boolean;
  /** GitBook's RevisionPageDocumentCover: the image above the page. */
  readonly cover: JsonValue | null;
  readonly layout: JsonValue | null;
  /** A computed page's source (type `computed`). */
  readonly computed: JsonValue | null;
  readonly descendants: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A file of a revision (its bytes in `FileBlob`, by hash). Files are kept by name, then ID. */
export interface FileEntry {
  readonly id: string;
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
  readonly width: number | null;
  readonly height: number | null;
  readonly blobHash: string;
  readonly createdAt: Date;
}
