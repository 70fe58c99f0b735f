import type { Prisma } from '../../generated/prisma/client.ts';
import { newId } from '../../lib/ids.ts';
import { contentHash } from '../content/index.ts';
import { detectImage } from '../content/index.ts';
import { leadingTitleOf, resolveLinks } from '../content/index.ts';
import { RevisionDraft, slugify, type DraftPage, type FileEntry, type RevisionContent } from '../content/index.ts';
import { FrontMatterError, splitFrontMatter, type FrontMatter } from './page-front-matter.ts';
import { changeError, MAX_FILE_BYTES, type ComputedSource, type ContentChange, type InsertFilesChange, type InsertPageChange, type UpdatePageChange } from './content-changes.ts';

/**
 * Applies a batch of content changes to a change request's draft, in order, in memory: every rule is
 * checked here (400 naming the change), so the transaction that writes the result cannot fail half-way.
 */
export type AffectedPage = { object: 'created_page'; id: string; ref?: string } | { object: 'updated_page'; id: string } | { object: 'deleted_page'; id: string };

export interface AppliedChanges {
  affected: AffectedPage[];
  insertedFiles: FileEntry[];
  blobs: Uint8Array<ArrayBuffer>[];
}

export interface ApplyContext {
  now: Date;
  /** Another revision of the space (for `revert_page`), or null when it is not one. */
  revisionPages: (revisionId: string) => Promise<RevisionContent | null>;
  /** The revision `revert_page` reverts to when none is named: the change request's base. */
  baseRevisionId: string;
  /** Whether the space's organization has an OpenAPI spec of this slug (a computed page's source). */
  specExists: (slug: string) => Promise<boolean>;
  /**
   * The ID a page or file inserted with this `ref` takes, when it is one that already exists elsewhere
   * (Git Sync: the page a repository file was before, so that an import changes only what changed);
   * a new ID when absent or undefined.
   */
  idOfRef?: (ref: string) => string | undefined;
}

/** A change's markdown split from its front matter (a 400 naming the change's body when it is wrong). */
function frontMatterOf(markdown: string | undefined, index: number): { meta: FrontMatter; markdown: string | undefined } {
  if (markdown === undefined) return { meta: {}, markdown };
  try {
    const { meta, body } = splitFrontMatter(markdown);
    return { meta: meta ?? {}, markdown: body };
  } catch (error) {
    if (error instanceof FrontMatterError) throw changeError(index, 'document.markdown', error.message);
    throw error;
  }
}

/**
 * A body's leading `# Title` is the page's title (leading-title.ts): taken as the title unless another
 * one is given, and kept out of the body unless the given title differs from it (then both were meant).
 */
function titleAndBody(given: string | undefined, markdown: string | undefined): { title: string | undefined; markdown: string | undefined } {
  const leading = markdown === undefined ? null : leadingTitleOf(markdown);
  if (!leading || (given !== undefined && given !== '' && given !== leading.title)) return { title: given || undefined, markdown };
  return { title: leading.title, markdown: leading.body };
}

export async function applyChanges(draft: RevisionDraft, changes: readonly ContentChange[], context: ApplyContext): Promise<AppliedChanges> {
  const affected = new Map<string, AffectedPage>();
  const pageRefs = new Map<string, string>();
  const fileRefs = new Map<string, string>();
  const newBodies = new Set<string>();
  const result: AppliedChanges = { affected: [], insertedFiles: [], blobs: [] };
  const touch = (id: string, object: 'created_page' | 'updated_page', ref?: string) => {
    if (!affected.has(id)) affected.set(id, object === 'created_page' ? { object, id, ...(ref ? { ref } : {}) } : { object, id });
  };
  const otherRevisions = new Map<string, RevisionContent | null>();
  const idFor = (ref: string | undefined) => (ref !== undefined ? context.idOfRef?.(ref) : undefined) ?? newId();

  for (const [index, change] of changes.entries()) {
    switch (change.operation) {
      case 'insert_page':
        if (change.computed) await checkSpec(change.computed, index, context);
        insertPage(draft, change, index, context.now, pageRefs, fileRefs, touch, newBodies, idFor);
        break;
      case 'update_page':
        if (change.computed) await checkSpec(change.computed, index, context);
        updatePage(draft, change, index, context.now, pageRefs, touch, newBodies);
        break;
      case 'delete_page': {
        if (!draft.pages.has(change.page)) throw changeError(index, 'page', `no page "${change.page}" in this change request`);
        for (const id of draft.remove(change.page)) {
          // A page made and removed in one batch never existed for the caller.
          if (affected.get(id)?.object === 'created_page') affected.delete(id);
          else affected.set(id, { object: 'deleted_page', id });
          newBodies.delete(id);
        }
        break;
      }
      case 'revert_page': {
        const revisionId = change.revision ?? context.baseRevisionId;
        if (!otherRevisions.has(revisionId)) otherRevisions.set(revisionId, await context.revisionPages(revisionId));
        const rows = otherRevisions.get(revisionId);
        if (!rows) throw changeError(index, 'revision', `no revision "${revisionId}" in this space`);
        const outcome = revertPage(draft, change.page, rows, context.now);
        if (!outcome) throw changeError(index, 'page', `no page "${change.page}" in this change request or in revision "${revisionId}"`);
        if (outcome === 'removed') affected.set(change.page, { object: 'deleted_page', id: change.page });
        else touch(change.page, 'updated_page');
        newBodies.delete(change.page);
        break;
      }
      case 'insert_files':
        insertFiles(draft, change, index, context.now, pageRefs, fileRefs, result, idFor);
        break;
    }
  }

  // Links resolve against the tree as the whole batch left it: a ref works whatever the order of changes.
  for (const id of newBodies) {
    const page = draft.pages.get(id);
    if (page?.markdown !== undefined) page.markdown = resolveLinks(page.markdown, id, { draft, pageRefs, fileRefs });
  }
  result.affected = [...affected.values()];
  return result;
}

/** A computed page's spec must be one of the organization's. */
async function checkSpec(source: ComputedSource, index: number, context: ApplyContext) {
  const slug = source.dependencies.spec.ref.spec;
  if (!(await context.specExists(slug))) throw changeError(index, 'computed.dependencies.spec.ref.spec', `no OpenAPI spec "${slug}" in this organization`);
}

/** `into` names a page by ID, or by the `ref` of a page inserted earlier in the same batch. */
function parentIdOf(into: string, pageRefs: ReadonlyMap<string, string>): string {
  return pageRefs.get(into) ?? into;
}

function checkParent(draft: RevisionDraft, index: number, into: string | null | undefined, movingId?: string) {
  if (into === undefined || into === null) return;
  const parent = draft.pages.get(into);
  if (!parent) throw changeError(index, 'into', `no page "${into}" in this change request`);
  if (parent.type === 'link') throw changeError(index, 'into', 'a link page cannot hold pages');
  // GitBook's groups are headings of the top level: never inside another page.
  if (movingId && draft.pages.get(movingId)?.type === 'group') throw changeError(index, 'into', 'a group stays at the top level');
  if (movingId && draft.isWithin(into, movingId)) throw changeError(index, 'into', 'a page cannot move into itself or below itself');
}

function insertPage(
  draft: RevisionDraft,
  change: InsertPageChange,
  index: number,
  now: Date,
  pageRefs: Map<string, string>,
  fileRefs: Map<string, string>,
  touch: (id: string, object: 'created_page', ref?: string) => void,
  newBodies: Set<string>,
  idFor: (ref: string | undefined) => string,
) {
  const parentId = change.into === undefined ? null : parentIdOf(change.into, pageRefs);
  checkParent(draft, index, parentId);
  if (change.ref !== undefined) {
    if (pageRefs.has(change.ref) || fileRefs.has(change.ref)) throw changeError(index, 'ref', `"${change.ref}" is used twice in this batch`);
    if (draft.pageAtPath(change.ref.replace(/\.md$/, ''))) throw changeError(index, 'ref', `"${change.ref}" is the path of an existing page`);
  }
  const computed = change.type === 'computed';
  const group = change.type === 'group';
  if (group && change.into !== undefined && change.into !== null) throw changeError(index, 'into', 'a group stays at the top level');
  const written = frontMatterOf(computed || group ? undefined : change.document!.markdown!, index);
  const { meta } = written;
  const { title: titled, markdown } = titleAndBody(meta.title ?? change.title, written.markdown);
  const title = titled ?? 'Untitled';
  let slug: string;
  if (change.slug) {
    if (draft.slugTaken(parentId, change.slug)) throw changeError(index, 'slug', `a sibling page already has the slug "${change.slug}"`);
    slug = change.slug;
  } else slug = draft.freeSlug(parentId, slugify(title));
  const page: DraftPage = {
    id: idFor(change.ref),
    type: computed ? 'computed' : group ? 'group' : 'document',
    title,
    emoji: (meta.emoji ?? change.emoji) || null,
    icon: (meta.icon ?? change.icon) || null,
    description: (meta.description ?? change.description) || null,
    hidden: meta.hidden ?? change.hidden ?? false,
    noIndex: meta.noIndex ?? change.noIndex ?? false,
    noRobotsIndex: meta.noRobotsIndex ?? change.noRobotsIndex ?? false,
    cover: meta.cover ?? null,
    layout: meta.layout ?? null,
    computed: computed ? (change.computed as Prisma.JsonValue) : null,
    slug,
    documentHash: null,
    ...(markdown === undefined ? {} : { markdown }),
    parentId,
    createdAt: now,
    updatedAt: now,
  };
  draft.insert(page, change.at);
  if (change.ref !== undefined) pageRefs.set(change.ref, page.id);
  if (markdown !== undefined) newBodies.add(page.id);
  touch(page.id, 'created_page', change.ref);
}

function updatePage(
  draft: RevisionDraft,
  change: UpdatePageChange,
  index: number,
  now: Date,
  pageRefs: ReadonlyMap<string, string>,
  touch: (id: string, object: 'updated_page') => void,
  newBodies: Set<string>,
) {
  const page = draft.pages.get(change.page);
  if (!page) throw changeError(index, 'page', `no page "${change.page}" in this change request`);
  const parentId = change.into === undefined ? page.parentId : change.into === null ? null : parentIdOf(change.into, pageRefs);
  if (change.into !== undefined) checkParent(draft, index, parentId, page.id);
  if (parentId !== page.parentId || change.at !== undefined) draft.move(page.id, parentId, change.at ?? (parentId === page.parentId ? draft.indexOf(page.id) : undefined));
  if (change.title !== undefined) page.title = change.title;
  if (change.emoji !== undefined) page.emoji = change.emoji || null;
  if (change.description !== undefined) page.description = change.description || null;
  if (change.hidden !== undefined) page.hidden = change.hidden;
  if (change.icon !== undefined) page.icon = change.icon || null;
  if (change.noIndex !== undefined) page.noIndex = change.noIndex;
  if (change.noRobotsIndex !== undefined) page.noRobotsIndex = change.noRobotsIndex;
  if (change.slug) {
    if (draft.slugTaken(parentId, change.slug, page.id)) throw changeError(index, 'slug', `a sibling page already has the slug "${change.slug}"`);
    page.slug = change.slug;
  } else if (change.slug === '' || draft.slugTaken(parentId, page.slug, page.id)) {
    // An empty slug asks for one derived from the title; a move next to a namesake gets a free one.
    page.slug = draft.freeSlug(parentId, change.slug === '' ? slugify(page.title) : page.slug, page.id);
  }
  if (change.computed) {
    if (page.type !== 'computed') throw changeError(index, 'computed', `a ${page.type} page has no source: only computed pages do`);
    page.computed = change.computed as Prisma.JsonValue;
  }
  if (change.document?.markdown !== undefined) {
    if (page.type !== 'document') throw changeError(index, 'document', `a ${page.type} page has no body`);
    const written = frontMatterOf(change.document.markdown, index);
    applyFrontMatter(page, written.meta);
    const { title, markdown } = titleAndBody(written.meta.title || change.title, written.markdown);
    if (title !== undefined) page.title = title;
    page.markdown = markdown;
    newBodies.add(page.id);
  }
  page.updatedAt = now;
  touch(page.id, 'updated_page');
}

/** The page metadata a body's front matter sets (it takes precedence over the change's fields). */
function applyFrontMatter(page: DraftPage, meta: FrontMatter) {
  if (meta.title !== undefined && meta.title !== '') page.title = meta.title;
  if (meta.emoji !== undefined) page.emoji = meta.emoji || null;
  if (meta.icon !== undefined) page.icon = meta.icon || null;
  if (meta.description !== undefined) page.description = meta.description || null;
  if (meta.hidden !== undefined) page.hidden = meta.hidden;
  if (meta.noIndex !== undefined) page.noIndex = meta.noIndex;
  if (meta.noRobotsIndex !== undefined) page.noRobotsIndex = meta.noRobotsIndex;
  if (meta.cover !== undefined) page.cover = meta.cover;
  if (meta.layout !== undefined) page.layout = meta.layout;
}

/** Puts a page back as it is in `rows` (another revision): 'removed' when it was not there, null when in neither. */
function revertPage(draft: RevisionDraft, pageId: string, other: RevisionContent, now: Date): 'removed' | 'restored' | null {
  const then = other.page(pageId);
  const current = draft.pages.get(pageId);
  if (!then && !current) return null;
  if (!then) {
    draft.remove(pageId);
    return 'removed';
  }
  const parentId = then.parentId !== null && draft.pages.has(then.parentId) && !draft.isWithin(then.parentId, pageId) ? then.parentId : null;
  const at = other.children(then.parentId).indexOf(pageId);
  const restored: DraftPage = {
    id: then.id,
    type: then.type,
    title: then.title,
    emoji: then.emoji,
    icon: then.icon,
    description: then.description,
    hidden: then.hidden,
    noIndex: then.noIndex,
    noRobotsIndex: then.noRobotsIndex,
    cover: then.cover,
    layout: then.layout,
    computed: then.computed,
    slug: then.slug,
    documentHash: then.documentHash,
    parentId,
    createdAt: then.createdAt,
    updatedAt: now,
  };
  if (current) {
    Object.assign(current, restored);
    delete current.markdown;
    draft.move(pageId, parentId, at);
  } else draft.insert(restored, at);
  const page = draft.pages.get(pageId)!;
  if (draft.slugTaken(parentId, page.slug, pageId)) page.slug = draft.freeSlug(parentId, page.slug, pageId);
  return 'restored';
}

function insertFiles(
  draft: RevisionDraft,
  change: InsertFilesChange,
  index: number,
  now: Date,
  pageRefs: Map<string, string>,
  fileRefs: Map<string, string>,
  result: AppliedChanges,
  idFor: (ref: string | undefined) => string,
) {
  for (const [fileIndex, input] of change.files.entries()) {
    const field = (name: string) => `files[${fileIndex}].${name}`;
    const bytes = new Uint8Array(Buffer.from(input.base64, 'base64'));
    if (bytes.byteLength > MAX_FILE_BYTES) throw changeError(index, field('base64'), `a file is at most ${MAX_FILE_BYTES} bytes (got ${bytes.byteLength})`);
    if (input.ref !== undefined) {
      if (pageRefs.has(input.ref) || fileRefs.has(input.ref)) throw changeError(index, field('ref'), `"${input.ref}" is used twice in this batch`);
      if (draft.pageAtPath(input.ref)) throw changeError(index, field('ref'), `"${input.ref}" is the path of an existing page`);
    }
    const contentType = input.contentType.toLowerCase();
    let dimensions: { width: number; height: number } | null = null;
    if (contentType.startsWith('image/')) {
      const detected = detectImage(bytes);
      if (!detected) throw changeError(index, field('contentType'), `the bytes are not a ${contentType} image`);
      if (!detected.accepted.includes(contentType)) {
        throw changeError(index, field('contentType'), `the bytes are a ${detected.contentType} image, not ${contentType}`);
      }
      dimensions = { width: detected.width, height: detected.height };
    }
    const file = {
      id: idFor(input.ref),
      name: input.name,
      contentType,
      size: bytes.byteLength,
      width: dimensions?.width ?? null,
      height: dimensions?.height ?? null,
      blobHash: contentHash(bytes),
      createdAt: now,
    };
    draft.files.set(file.id, file);
    if (input.ref !== undefined) fileRefs.set(input.ref, file.id);
    result.insertedFiles.push(file);
    result.blobs.push(bytes);
  }
}
