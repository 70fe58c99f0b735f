import type { Prisma, RevisionType } from '../../generated/prisma/client.ts';
import { putDocuments } from './document-store.ts';
import { databaseFileStore, type FileStore } from './file-store.ts';
import { RevisionDraft } from './revision-draft.ts';

type Db = Prisma.TransactionClient;

export interface NewRevision {
  id: string;
  spaceId: string;
  parents: string[];
  type: RevisionType;
  createdById: string | null;
  createdAt: Date;
  draft: RevisionDraft;
  /** Bytes of files the draft added, stored before the rows that point at them. */
  blobs?: readonly Uint8Array<ArrayBuffer>[];
}

/**
 * Writes a draft as a new, immutable revision, inside the caller's transaction. Bodies and bytes are
 * content-addressed: only a markdown or a file no revision holds yet adds a Document or FileBlob row,
 * so a one-page change of a 500-page space writes one document. The page rows (the tree: titles,
 * slugs, order) are the revision's own and written in one statement.
 */
export async function writeRevision(db: Db, revision: NewRevision, store: FileStore = databaseFileStore) {
  const { draft } = revision;
  for (const bytes of revision.blobs ?? []) await store.put(db, bytes);

  const walked = [...draft.walk()];
  const withNewBody = walked.filter(({ page }) => page.markdown !== undefined);
  const hashes = await putDocuments(db, withNewBody.map(({ page }) => page.markdown!));
  withNewBody.forEach(({ page }, i) => {
    page.documentHash = hashes[i];
    delete page.markdown;
  });

  await db.revision.create({
    data: {
      id: revision.id,
      spaceId: revision.spaceId,
      parents: revision.parents,
      type: revision.type,
      createdById: revision.createdById,
      createdAt: revision.createdAt,
    },
  });
  if (walked.length) {
    await db.page.createMany({
      data: walked.map(({ page, path, position }) => ({
        revisionId: revision.id,
        id: page.id,
        parentId: page.parentId,
        position,
        type: page.type,
        title: page.title,
        emoji: page.emoji,
        slug: page.slug,
        path,
        description: page.description,
        documentHash: page.documentHash,
        hidden: page.hidden,
        layout: page.layout ?? undefined,
        computed: page.computed ?? undefined,
        createdAt: page.createdAt,
        updatedAt: page.updatedAt,
      })),
    });
  }
  if (draft.files.size) {
    await db.file.createMany({ data: [...draft.files.values()].map((file) => ({ ...file, revisionId: revision.id })) });
  }
}

/** The draft of a stored revision, to change and write as a new one: its page and file rows (two statements). */
export async function draftOf(db: Db, revisionId: string): Promise<RevisionDraft> {
  const [pages, files] = await Promise.all([db.page.findMany({ where: { revisionId } }), db.file.findMany({ where: { revisionId } })]);
  return RevisionDraft.fromRows(pages, files);
}

/**
 * Locks a space's row for a writer that will move its active revision (FOR UPDATE: `revisionId` is a
 * unique column), as the first statement of its transaction, and answers the revision it holds. With
 * `expected`, a space that moved on meanwhile (or is gone) fails with `conflict()` before anything is
 * written.
 */
export async function lockSpaceAt(db: Db, spaceId: string, expected: string | null, conflict: () => Error): Promise<string> {
  const [row] = await db.$queryRaw<{ revisionId: string | null; deletedAt: Date | null }[]>`
    SELECT "revisionId", "deletedAt" FROM "Space" WHERE "id" = ${spaceId} FOR UPDATE`;
  if (!row?.revisionId || row.deletedAt || (expected !== null && row.revisionId !== expected)) throw conflict();
  return row.revisionId;
}
