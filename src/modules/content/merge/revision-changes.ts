import type { Context } from '../../../core/context.ts';
import { NotFoundError } from '../../../core/errors.ts';
import { Prisma } from '../../../generated/prisma/client.ts';
import type { ContentSource } from '../content.service.ts';
import { documentBudget } from '../markdown/document-budget.ts';
import { signedFileUrl } from '../files/file-urls.ts';
import { markdownToDocument } from '../markdown/markdown-document.ts';
import { revisionContents, type FileEntry, type PageEntry } from '../store/revision-content.ts';
import { emptyContent } from '../store/revision-draft.ts';
import { sequenceChanges } from './three-way-merge.ts';

/**
 * What a revision changed from its first parent (GitBook's getRevisionSemanticChanges): pages created,
 * deleted, moved (another parent or another place among its siblings) and edited (title, description,
 * slug, emoji, body — a body is named by its document's ID), files created, deleted and edited (name,
 * bytes). The two trees are compared by what differs between them: leaves they share are skipped by
 * their hash (three-way-merge.ts `sequenceChanges`). A first revision changed everything from nothing.
 */

type ChangedPage = { id: string; type: string; title: string; path: string };
const changedPage = (page: PageEntry): ChangedPage => ({ id: page.id, type: page.type, title: page.title, path: page.path });

/** Every difference counts here (a page's place too), unlike the merge's comparison. */
const samePage = (a: PageEntry, b: PageEntry) => JSON.stringify(a) === JSON.stringify(b);
const sameFile = (a: FileEntry, b: FileEntry) => a.name === b.name && a.blobHash === b.blobHash && a.contentType === b.contentType;

export const MAX_SEMANTIC_CHANGES = 1000;

/** GitBook's RevisionSemanticChanges: the changes (at most `limit`) and how many more there were. */
export interface SemanticChanges {
  changes: object[];
  more?: number;
  /** The revision whose changes these are (to name the change request a merge revision merged). */
  revisionId: string;
  spaceId: string;
}

/** What a revision changed from its first parent (getRevisionSemanticChanges). */
export async function revisionSemanticChanges(ctx: Context, source: ContentSource, limit: number): Promise<SemanticChanges> {
  const contents = await revisionContents(ctx.db, ctx.db, [source.revisionId!]);
  const content = contents.get(source.revisionId!);
  if (!content) throw new NotFoundError(`Revision "${source.revisionId}" not found in this space`);
  return semanticChangesBetween(ctx, content.revision.parents[0] ?? null, source.revisionId!, source.space.id, limit);
}

/**
 * What `afterId` changed from `beforeId` (null: from nothing), revisions of one space. A change request's
 * changes (getChangeRequestChanges) are those of its revision from the one it started from (or last
 * pulled main at).
 */
export async function semanticChangesBetween(ctx: Context, beforeId: string | null, afterId: string, spaceId: string, limit: number): Promise<SemanticChanges> {
  const contents = await revisionContents(ctx.db, ctx.db, beforeId ? [beforeId, afterId] : [afterId]);
  const content = contents.get(afterId);
  if (!content) throw new NotFoundError(`Revision "${afterId}" not found in this space`);
  const before = (beforeId ? contents.get(beforeId) : undefined) ?? emptyContent();

  const changes: object[] = [];
  let more = 0;
  const add = (change: object) => {
    if (changes.length < limit) changes.push(change);
    else more++;
  };
  const pageChanges = sequenceChanges(before.pages, content.pages, samePage);
  for (const change of pageChanges.values()) {
    const { before: was, after: now } = change;
    if (!was && now) add({ type: 'page_created', page: changedPage(now) });
    else if (was && !now) add({ type: 'page_deleted', page: changedPage(was) });
    else if (was && now) {
      if (was.parentId !== now.parentId || was.prev !== now.prev) {
        const parentOf = (of: typeof before, parentPage: string | null) => {
          const page = parentPage ? of.page(parentPage) : undefined;
          return page ? changedPage(page) : undefined;
        };
        add({ type: 'page_moved', page: changedPage(now), parent: { before: parentOf(before, was.parentId), after: parentOf(content, now.parentId) } });
      }
      const attributes: Record<string, { before?: unknown; after?: unknown }> = {};
      const attribute = (name: string, a: unknown, b: unknown) => {
        if (a !== b) attributes[name] = { ...(a !== null && a !== undefined ? { before: a } : {}), ...(b !== null && b !== undefined ? { after: b } : {}) };
      };
      attribute('title', was.title, now.title);
      attribute('emoji', was.emoji, now.emoji);
      attribute('slug', was.slug, now.slug);
      if (now.type === 'document') {
        attribute('description', was.description, now.description);
        attribute('document', was.documentHash, now.documentHash);
      }
      if (Object.keys(attributes).length > 0) add({ type: 'page_edited', page: changedPage(now), attributes });
    }
  }
  const fileChanges = sequenceChanges(before.files, content.files, sameFile);
  const url = (file: FileEntry) => signedFileUrl(ctx.db, ctx.config.publicUrl, { hash: file.blobHash, name: file.name, contentType: file.contentType }, ctx.clock.now());
  const changedFile = async (file: FileEntry) => ({ id: file.id, name: file.name, contentType: file.contentType, downloadURL: await url(file) });
  for (const { before: was, after: now } of fileChanges.values()) {
    // Past the limit only counted: no URL is signed for a change nobody gets.
    if (changes.length >= limit) {
      more++;
      continue;
    }
    if (!was && now) add({ type: 'file_created', file: await changedFile(now) });
    else if (was && !now) add({ type: 'file_deleted', file: await changedFile(was) });
    else if (was && now) {
      const attributes: Record<string, object> = {};
      if (was.name !== now.name) attributes.name = { before: was.name, after: now.name };
      if (was.blobHash !== now.blobHash || was.contentType !== now.contentType) attributes.downloadURL = { before: await url(was), after: await url(now) };
      add({ type: 'file_edited', file: await changedFile(now), attributes });
    }
  }
  return { changes, ...(more ? { more } : {}), revisionId: afterId, spaceId };
}

/**
 * A document by its ID (GitBook's getDocumentById): here a document's ID is the hash of its body, and
 * the space must hold it — a page of its active revision has it (the index of documents per leaf finds
 * it without reading the tree); else it is as unknown as a document that does not exist.
 */
export async function documentOfSpace(ctx: Context, source: ContentSource, documentId: string) {
  const [row] = await ctx.db.$queryRaw<{ markdown: string }[]>(Prisma.sql`
    SELECT d."markdown" FROM "Document" d
    WHERE d."hash" = ${documentId} AND EXISTS (
      SELECT 1 FROM "Revision" r CROSS JOIN LATERAL content_leaves(r."pageTree") l
      JOIN "ContentNode" n ON n."hash" = l."hash" AND n."documents" @> ARRAY[${documentId}]::text[]
      WHERE r."id" = ${source.revisionId ?? ''})`);
  if (!row) throw new NotFoundError(`Document "${documentId}" not found in this space`);
  return markdownToDocument(row.markdown, documentBudget(ctx));
}
