import type { AppServices } from '../../core/context.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { openSecret } from '../../db/instance-secrets.ts';
import type { GitSync, Prisma } from '../../generated/prisma/client.ts';
import { newId } from '../../lib/ids.ts';
import { applyChanges, type ContentChange } from '../change-requests/index.ts';
import {
  databaseFileStore,
  draftOf,
  getDocuments,
  lockSpaceAt,
  recordPagePathRedirects,
  rememberContent,
  revisionContent,
  RevisionDraft,
  writeRevision,
  type RevisionContent,
} from '../content/index.ts';
import { updateSearchIndex } from '../search/index.ts';
import { syncDraftTo } from './draft-sync.ts';
import { fetchRepositoryFiles, pushCommit, type RemoteRepository, type RepositoryBounds } from './git-remote.ts';
import { readGitBookRepository, type RepositoryFile } from './gitbook-repository.ts';
import { layOutRepository, pageFileText } from './repository-layout.ts';

/**
 * The two runs of Git Sync, each one job (git-sync.jobs.ts):
 *
 * - **import**: the branch's files read as GitBook content (gitbook-repository.ts) into a draft of
 *   their own, every page and file given the ID it had at the last sync (by path), then the space's
 *   content made the same (draft-sync.ts), writing only what differs. Straight to the space when the
 *   space has not changed since the last sync (or with `force`); otherwise both sides changed, and the
 *   repository's content becomes an open change request whose base is the last synced revision, so the
 *   three-way merge reconciles the two and shows conflicts as for any change request.
 * - **export**: the space's content laid out as files (repository-layout.ts) and pushed as one commit on
 *   the branch, by the person who asked for it.
 *
 * Each run's write is one transaction: a run killed half-way leaves the space as it was, and the job
 * is claimed again once its lease is over.
 */
export const CREDENTIALS_KEY = 'git-sync-credentials';

export const REPOSITORY_BOUNDS: RepositoryBounds = { maxBytes: 100 * 1024 * 1024, maxFiles: 20_000 };
/** Pages an import writes at most (a space's size stays within what its editors handle). */
export const MAX_IMPORT_PAGES = 5000;
/** The API's own limit on one file (content-changes.ts MAX_FILE_BYTES). */
const MAX_FILE_BYTES = 1024 * 1024;

export interface RunOptions {
  force?: boolean;
  standalone?: boolean;
  commitMessage?: string;
  /** Who asked (the author of an export's commit; the creator of an import's change request). */
  userId?: string | null;
}

export type ImportOutcome =
  | { kind: 'unchanged'; commit: string }
  | { kind: 'space'; commit: string; revisionId: string; pages: number; statements?: number }
  | { kind: 'change-request'; commit: string; revisionId: string; changeRequestId: string };

export async function remoteOf(services: Pick<AppServices, 'db'>, sync: Pick<GitSync, 'id' | 'url' | 'ref' | 'credentials'>): Promise<RemoteRepository & { ref: string }> {
  const credentials = sync.credentials ? (JSON.parse(await openSecret(services.db, CREDENTIALS_KEY, sync.credentials)) as { username?: string; password?: string }) : {};
  return { url: sync.url, ref: sync.ref, cacheKey: sync.id, ...credentials };
}

/** The refs a repository's pages and files had at the last sync, as IDs (`paths` of the row). */
const rememberedIds = (sync: GitSync) => new Map(Object.entries((sync.paths ?? {}) as Record<string, string>));

export async function importRun(services: AppServices, sync: GitSync, options: RunOptions): Promise<ImportOutcome> {
  const { db, config, clock } = services;
  const { commit, files } = await fetchRepositoryFiles(await remoteOf(services, sync), config.fetch, REPOSITORY_BOUNDS);
  if (commit !== sync.fetchedCommit) await db.gitSync.update({ where: { id: sync.id }, data: { fetchedCommit: commit } });
  // Already in the space, or already the open change request's: nothing to do.
  if ((commit === sync.syncedCommit || commit === sync.changeRequestCommit) && !options.force) return { kind: 'unchanged', commit };
  const repository = readGitBookRepository(files, { projectDirectory: sync.projectDirectory, limits: { maxPages: MAX_IMPORT_PAGES, maxFileBytes: MAX_FILE_BYTES } });
  const remembered = rememberedIds(sync);
  const now = clock.now();

  // The repository alone, in a draft of its own: every rule of the content API checked here, before
  // the transaction.
  const target = new RevisionDraft();
  const applied = await applyChanges(target, repository.changes as ContentChange[], {
    now,
    revisionPages: async () => null,
    baseRevisionId: '',
    specExists: async () => false,
    idOfRef: (ref) => remembered.get(ref),
  });
  const blobs = new Map(applied.insertedFiles.map((file, i) => [file.blobHash, applied.blobs[i]]));
  const paths = pathsOf(repository.changes as ContentChange[], applied);

  const revisionId = newId();
  let written: RevisionContent | null = null;
  const outcome = await db.$transaction(async (tx): Promise<ImportOutcome> => {
    const current = await lockSpaceAt(tx as never, sync.spaceId, null, () => new Error('the space was deleted'));
    const [row] = await tx.$queryRaw<{ syncedRevisionId: string | null }[]>`SELECT "syncedRevisionId" FROM "GitSync" WHERE "id" = ${sync.id} FOR UPDATE`;
    const base = row?.syncedRevisionId ?? null;
    const straight = options.force || !base || base === current;
    const draft = await draftOf(tx as never, straight ? current : base!, db);
    const changed = syncDraftTo(draft, target, blobs, now);
    const nothing = !changed.pagesAdded && !changed.pagesChanged && !changed.pagesRemoved && !changed.filesChanged;
    if (straight && nothing) {
      await tx.gitSync.update({ where: { id: sync.id }, data: { syncedCommit: commit, syncedRevisionId: current, paths, updatedAt: now } });
      return { kind: 'space', commit, revisionId: current, pages: 0 };
    }
    const content = await writeRevision(tx as never, {
      id: revisionId,
      spaceId: sync.spaceId,
      parents: [straight ? current : base!],
      type: 'edits',
      createdById: options.userId ?? null,
      createdAt: now,
      draft,
      blobs: changed.blobs,
    }, databaseFileStore);
    await tx.revision.update({ where: { id: revisionId }, data: { gitOid: commit, gitMessage: `Imported from ${sync.url} at ${commit.slice(0, 7)}` } });
    written = content;
    if (straight) {
      await tx.space.update({ where: { id: sync.spaceId }, data: { revisionId, updatedAt: now } });
      await updateSearchIndex(tx as never, sync.spaceId, content, db);
      await recordPagePathRedirects(tx as never, sync.spaceId, current, content, db);
      await recordRepositoryRedirects(tx, sync.spaceId, repository.redirects, paths, content);
      await tx.gitSync.update({ where: { id: sync.id }, data: { syncedCommit: commit, syncedRevisionId: revisionId, paths, updatedAt: now } });
      return { kind: 'space', commit, revisionId, pages: changed.pagesAdded + changed.pagesChanged + changed.pagesRemoved };
    }
    // Both sides changed since the last sync: the repository's side as a change request to merge (the
    // open one, when an earlier import made it). The last sync stays the base until it is merged.
    const changeRequestId =
      (await advanceOpenChangeRequest(tx, sync.changeRequestId, revisionId, now)) ??
      (await openChangeRequest(tx, sync, { base: base!, revisionId, commit, userId: options.userId ?? null, now }));
    await tx.gitSync.update({ where: { id: sync.id }, data: { changeRequestId, changeRequestCommit: commit, paths, updatedAt: now } });
    return { kind: 'change-request', commit, revisionId, changeRequestId };
  }, TRANSACTION_OPTIONS);
  if (written) rememberContent(db, written);
  return outcome;
}

/** The open change request of an earlier import, given the repository's newer content; null when there is none. */
async function advanceOpenChangeRequest(tx: Prisma.TransactionClient, changeRequestId: string | null, revisionId: string, now: Date): Promise<string | null> {
  if (!changeRequestId) return null;
  const { count } = await tx.changeRequest.updateMany({ where: { id: changeRequestId, status: { in: ['draft', 'open'] } }, data: { revisionId, updatedAt: now } });
  return count ? changeRequestId : null;
}

/** A change request holding the repository's content, based on the last synced revision. */
async function openChangeRequest(
  tx: Prisma.TransactionClient,
  sync: GitSync,
  input: { base: string; revisionId: string; commit: string; userId: string | null; now: Date },
): Promise<string> {
  const { lastChangeRequestNumber: number } = await tx.space.update({
    where: { id: sync.spaceId },
    data: { lastChangeRequestNumber: { increment: 1 } },
    select: { lastChangeRequestNumber: true },
  });
  const id = newId();
  const user = input.userId ? await tx.user.findUnique({ where: { id: input.userId }, select: { id: true } }) : null;
  await tx.changeRequest.create({
    data: {
      id,
      spaceId: sync.spaceId,
      number,
      status: 'open',
      subject: `Changes from Git (${input.commit.slice(0, 7)})`,
      createdById: user?.id ?? null,
      revisionId: input.revisionId,
      revisionInitialId: input.base,
      createdAt: input.now,
      updatedAt: input.now,
      ...(user ? { contributors: { create: { userId: user.id, lastEditedAt: input.now } } } : {}),
    },
  });
  return id;
}

/**
 * `.gitbook.yaml` redirects: an old path leads to the page its file is now (PagePathRedirect, what a
 * published site's URL lookup follows), unless a page holds that path. One statement, when there are any.
 */
async function recordRepositoryRedirects(tx: Prisma.TransactionClient, spaceId: string, redirects: readonly { source: string; destination: string }[], paths: Record<string, string>, content: RevisionContent) {
  const rows = redirects
    .map((redirect) => ({ path: redirect.source.replace(/^\/+|\/+$/g, '').replace(/(\/README)?\.md$/i, ''), pageId: paths[redirect.destination] }))
    .filter((row) => row.path && row.pageId && !content.pageAtPath(row.path));
  if (!rows.length) return;
  await tx.$executeRaw`
    INSERT INTO "PagePathRedirect" ("spaceId", "path", "pageId")
    SELECT ${spaceId}, r."path", r."pageId" FROM unnest(${rows.map((r) => r.path)}::text[], ${rows.map((r) => r.pageId)}::text[]) AS r("path", "pageId")
    ON CONFLICT ("spaceId", "path") DO UPDATE SET "pageId" = EXCLUDED."pageId", "createdAt" = CURRENT_TIMESTAMP`;
}

/** What the next sync remembers: each page's and file's ref (its path) → the ID it has now. */
function pathsOf(changes: readonly ContentChange[], applied: Awaited<ReturnType<typeof applyChanges>>): Record<string, string> {
  const paths: Record<string, string> = {};
  for (const page of applied.affected) if (page.object === 'created_page' && page.ref) paths[page.ref] = page.id;
  const fileRefs = changes.flatMap((change) => (change.operation === 'insert_files' ? change.files.map((file) => file.ref) : []));
  applied.insertedFiles.forEach((file, i) => {
    if (fileRefs[i]) paths[fileRefs[i]!] = file.id;
  });
  return paths;
}

/** The space's content as the files of its repository (under the content root), and the paths to remember. */
export async function repositoryFilesOf(services: Pick<AppServices, 'db'>, content: RevisionContent, remembered: ReadonlyMap<string, string>) {
  const pages = content.pages.entries();
  const files = content.files.entries();
  const rememberedById = new Map([...remembered].map(([file, id]) => [id, file]));
  const layout = layOutRepository({ pages, children: (parentId) => content.children(parentId), files, remembered: rememberedById });
  const bodies = await getDocuments(services.db, pages.map((page) => page.documentHash));
  const out = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  out.set('SUMMARY.md', encoder.encode(layout.summary));
  for (const page of pages) {
    const file = layout.pageFile.get(page.id);
    if (!file) continue;
    out.set(file, encoder.encode(pageFileText(page, (page.documentHash && bodies.get(page.documentHash)) || '', file, layout)));
  }
  for (const file of files) {
    const bytes = await databaseFileStore.get(services.db as never, file.blobHash);
    if (bytes) out.set(layout.fileFile.get(file.id)!, bytes);
  }
  return { files: out, paths: layout.paths };
}

/** An export that must wait for an import: the branch moved since the last sync. */
export class ExportDeferred extends Error {
  constructor(readonly head: string) {
    super(`the branch has commits not imported yet (${head.slice(0, 7)}): they are imported first`);
  }
}

export async function exportRun(services: AppServices, sync: GitSync, options: RunOptions): Promise<{ commit: string; changed: boolean; revisionId: string | null }> {
  const { db, config, clock } = services;
  const space = await db.space.findUnique({ where: { id: sync.spaceId }, select: { revisionId: true } });
  const revisionId = space?.revisionId ?? null;
  const content = revisionId ? await revisionContent(db, db, revisionId) : null;
  const author = options.userId ? await db.user.findUnique({ where: { id: options.userId }, select: { displayName: true, email: true } }) : null;
  let paths: Record<string, string> = {};
  const root = sync.projectDirectory.replace(/^\/+|\/+$/g, '');
  const result = await pushCommit(await remoteOf(services, sync), config.fetch, REPOSITORY_BOUNDS, async (existing: RepositoryFile[], head) => {
    // The branch has commits the space has not taken in: pushing would overwrite them. They are
    // imported first (a change request when both sides changed); the export runs when it is merged.
    if (sync.syncedCommit && head && head !== sync.syncedCommit && !options.force) throw new ExportDeferred(head);
    const contentRoot = join(root, rootOf(existing, root));
    const laidOut = content ? await repositoryFilesOf(services, content, rememberedIds(sync)) : { files: new Map<string, Uint8Array>(), paths: {} };
    paths = laidOut.paths;
    const write = new Map([...laidOut.files].map(([file, bytes]) => [join(contentRoot, file), bytes]));
    // Ours to replace: the markdown and the assets under the content root; everything else stays.
    const inRoot = (file: string) => !contentRoot || file.startsWith(`${contentRoot}/`);
    const relative = (file: string) => (contentRoot ? file.slice(contentRoot.length + 1) : file);
    const remove = existing.map((file) => file.path).filter((file) => inRoot(file) && (/\.md$/i.test(file) || relative(file).startsWith('.gitbook/assets/')));
    return {
      write,
      remove,
      message: options.commitMessage?.trim() || 'Update from GitBook',
      author: { name: author?.displayName || 'Docs platform', email: author?.email || 'git-sync@localhost' },
    };
  });
  await db.gitSync.update({
    where: { id: sync.id },
    data: { syncedCommit: result.commit, ...(revisionId ? { syncedRevisionId: revisionId } : {}), paths, updatedAt: clock.now() },
  });
  return { ...result, revisionId };
}

const join = (...parts: string[]) => parts.filter(Boolean).join('/');

/** `root` of the repository's `.gitbook.yaml` (in the project directory), when it sets one. */
function rootOf(files: readonly RepositoryFile[], projectDirectory: string): string {
  const config = files.find((file) => file.path === join(projectDirectory, '.gitbook.yaml'));
  if (!config) return '';
  const match = /^root:\s*['"]?\.?\/?([^'"\n#]*?)\/?['"]?\s*(#.*)?$/m.exec(new TextDecoder().decode(config.bytes));
  return match ? match[1].trim() : '';
}
