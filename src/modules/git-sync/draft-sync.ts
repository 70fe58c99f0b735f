import { contentHash, type DraftPage, type FileEntry, type RevisionDraft } from '../content/index.ts';

/**
 * Makes `draft` hold what `target` holds (an import: the repository read into a draft of its own),
 * touching only what differs, so that a push that changed one page writes one page: pages are matched
 * by ID (the import gave every page the ID it had at the last sync, gitbook-repository refs), a page's
 * fields and body are copied only when they differ, a list of children is set only when it differs,
 * and pages and files that are not in `target` are taken out.
 */
export interface DraftSyncOutcome {
  pagesChanged: number;
  pagesAdded: number;
  pagesRemoved: number;
  filesChanged: number;
  /** Bytes of the files added or changed, for the revision writer. */
  blobs: Uint8Array<ArrayBuffer>[];
}

const FIELDS = ['type', 'title', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'slug'] as const;
const JSON_FIELDS = ['cover', 'layout', 'computed'] as const;

export function syncDraftTo(draft: RevisionDraft, target: RevisionDraft, targetBlobs: ReadonlyMap<string, Uint8Array<ArrayBuffer>>, now: Date): DraftSyncOutcome {
  const outcome: DraftSyncOutcome = { pagesChanged: 0, pagesAdded: 0, pagesRemoved: 0, filesChanged: 0, blobs: [] };
  const wanted = new Set<string>();
  const parents: (string | null)[] = [null];
  const visit = (parentId: string | null) => {
    for (const id of target.children(parentId)) {
      wanted.add(id);
      parents.push(id);
      visit(id);
    }
  };
  visit(null);

  for (const id of wanted) {
    const next = target.peek(id)!;
    const current = draft.peek(id);
    if (!current) {
      draft.put({ ...(next as DraftPage), createdAt: now, updatedAt: now });
      outcome.pagesAdded++;
      continue;
    }
    const bodyDiffers = next.markdown !== undefined ? contentHash(next.markdown) !== current.documentHash : next.documentHash !== current.documentHash;
    const fieldDiffers =
      FIELDS.some((field) => (next[field] ?? null) !== (current[field] ?? null)) ||
      JSON_FIELDS.some((field) => JSON.stringify(next[field] ?? null) !== JSON.stringify(current[field] ?? null));
    if (!bodyDiffers && !fieldDiffers) continue;
    const page = draft.own(id)!;
    for (const field of FIELDS) (page as unknown as Record<string, unknown>)[field] = next[field] ?? null;
    for (const field of JSON_FIELDS) (page as unknown as Record<string, unknown>)[field] = next[field] ?? null;
    if (bodyDiffers) {
      if (next.markdown !== undefined) page.markdown = next.markdown;
      else page.documentHash = next.documentHash;
    }
    page.updatedAt = now;
    outcome.pagesChanged++;
  }

  // Pages gone from the repository: taken out one by one (their sub-pages that stay are re-listed below).
  const existing: string[] = [];
  const collect = (parentId: string | null) => {
    for (const id of draft.base.children(parentId)) {
      existing.push(id);
      collect(id);
    }
  };
  collect(null);
  for (const id of existing) {
    if (wanted.has(id)) continue;
    draft.drop(id);
    outcome.pagesRemoved++;
  }

  for (const parentId of parents) {
    const next = target.children(parentId);
    const current = draft.children(parentId);
    if (next.length === current.length && next.every((id, i) => current[i] === id)) continue;
    draft.setChildren(parentId, next);
  }

  const wantedFiles = new Set<string>();
  for (const file of target.files.added.values()) {
    wantedFiles.add(file.id);
    const current = draft.files.get(file.id);
    if (current && sameFile(current, file)) continue;
    draft.files.set(file.id, current ? { ...file, createdAt: current.createdAt } : file);
    const bytes = targetBlobs.get(file.blobHash);
    if (bytes) outcome.blobs.push(bytes);
    outcome.filesChanged++;
  }
  for (const file of draft.base.files.entries()) {
    if (wantedFiles.has(file.id)) continue;
    draft.files.delete(file.id);
    outcome.filesChanged++;
  }
  return outcome;
}

const sameFile = (a: FileEntry, b: FileEntry) => a.name === b.name && a.blobHash === b.blobHash && a.contentType === b.contentType;
