import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { listArgs } from '../../graphql/list.ts';
import { NotFoundError } from '../../core/errors.ts';
import { documentShape, pageWithBodyShape } from './content-shapes.ts';
import { bodyArgs, DocumentFormatEnum, mergedFromQuery, RevisionFileList, RevisionFileRef, RevisionPageTree, RevisionRef, revisionReadArgs } from './content.schema.ts';
import { getFile, getPage, getPageByPath, getRevision, listFiles, listPages, revisionContentSource, spaceContentSource } from './content.service.ts';
import { pageMetaLinks } from './page-meta-links.ts';
import { documentOfSpace, MAX_SEMANTIC_CHANGES, revisionSemanticChanges, type SemanticChanges } from './merge/revision-changes.ts';

/**
 * Content addressed by revision (GitBook's `…/revisions/{revisionId}/…`): any revision of a space the
 * caller may read. A revision never changes, so the REST door gives these answers an ETag
 * (content.rest.ts: `immutable`).
 */
const revisionArgs = builder.args((t) => ({
  spaceId: t.string({ required: true, description: 'ID of the space' }),
  revisionId: t.string({ required: true, description: 'ID of a revision of the space' }),
}));

/** A page by its path: the rest of the URL, slashes included. */
export const pathArgs = builder.args((t) => ({
  pagePath: t.string({ required: true, description: 'The page path, slashes included', extensions: constrained({ maxLength: 2048 }) }),
  format: t.field({ type: DocumentFormatEnum, description: 'document (default) or markdown', extensions: constrained({ default: 'document' }) }),
}));

/** GitBook's RevisionPageMetaLinks: `alternates` (and `canonical`) as content references to pages. */
export const metaLinksShape = (() => {
  const target = { type: 'object', required: ['kind', 'page'], properties: { kind: { type: 'string', enum: ['page'] }, page: { type: 'string' }, space: { type: 'string' } } };
  return { type: 'object', required: ['alternates'], properties: { canonical: target, alternates: { type: 'array', items: target } } };
})();

/**
 * GitBook's RevisionSemanticChanges. `changes` is one JSON value (each change's shape depends on its
 * type, GitBook's union of nine); the change-requests module adds `mergedFrom` for merge revisions.
 */
export const RevisionSemanticChangesRef = builder.objectRef<SemanticChanges>('RevisionSemanticChanges');
RevisionSemanticChangesRef.implement({
  description: "What a revision changed (GitBook's RevisionSemanticChanges)",
  fields: (t) => ({
    changes: t.field({
      type: 'JSON',
      description: 'page_created, page_deleted, page_moved, page_edited (title, emoji, slug, description, document), file_created, file_deleted, file_edited',
      extensions: shaped({ type: 'array', items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } }),
      resolve: (r) => r.changes,
    }),
    more: t.int({ nullable: true, description: 'How many changes were left out past the limit', resolve: (r) => r.more ?? null }),
  }),
});

builder.queryFields((t) => ({
  spacePageMetaLinks: t.field({
    type: 'JSON',
    description: "A page's alternates: the page at the same path in the space's other variants on its sites",
    extensions: shaped(metaLinksShape),
    args: { spaceId: t.arg.string({ required: true, description: 'ID of the space' }), pageId: t.arg.string({ required: true, description: 'ID of the page' }) },
    resolve: async (_root, args, ctx) => pageMetaLinks(ctx, await spaceContentSource(ctx, args.spaceId), args.pageId),
  }),
  revisionPageMetaLinks: t.field({
    type: 'JSON',
    description: "A page of a revision's alternates: as spacePageMetaLinks",
    extensions: shaped(metaLinksShape),
    args: { ...revisionArgs, pageId: t.arg.string({ required: true, description: 'ID of the page' }) },
    resolve: async (_root, args, ctx) => pageMetaLinks(ctx, await revisionContentSource(ctx, args.spaceId, args.revisionId), args.pageId),
  }),
  revision: t.field({
    type: RevisionRef,
    description: 'A revision of a space by ID: its page tree (without bodies) and its files',
    args: { ...revisionArgs, ...revisionReadArgs },
    resolve: async (_root, args, ctx, info) => getRevision(ctx, await revisionContentSource(ctx, args.spaceId, args.revisionId, true), mergedFromQuery(ctx, info)),
  }),
  revisionPages: t.field({
    type: RevisionPageTree,
    description: 'The page tree of a revision, without bodies',
    args: { ...revisionArgs, ...revisionReadArgs },
    resolve: async (_root, args, ctx) => listPages(ctx, await revisionContentSource(ctx, args.spaceId, args.revisionId, true)),
  }),
  revisionPage: t.field({
    type: 'JSON',
    description: "A page of a revision: GitBook's RevisionPage, with its child pages and (document pages) its body as `document` or `markdown`",
    extensions: shaped(pageWithBodyShape),
    args: {
      ...revisionArgs,
      pageId: t.arg.string({ required: true, description: 'ID of the page' }),
      format: t.arg({ type: DocumentFormatEnum, description: 'document (default) or markdown', extensions: constrained({ default: 'document' }) }),
      ...bodyArgs,
      ...revisionReadArgs,
    },
    resolve: async (_root, args, ctx) =>
      getPage(ctx, await revisionContentSource(ctx, args.spaceId, args.revisionId), args.pageId, args.format ?? 'document', args.computed ?? true),
  }),
  revisionPageDocument: t.field({
    type: 'JSON',
    description: "The body of a document page of a revision, as a structured document (GitBook's JSONDocument)",
    extensions: shaped(documentShape),
    args: { ...revisionArgs, pageId: t.arg.string({ required: true, description: 'ID of the page' }), ...bodyArgs, ...revisionReadArgs },
    resolve: async (_root, args, ctx) => {
      const page = (await getPage(ctx, await revisionContentSource(ctx, args.spaceId, args.revisionId), args.pageId, 'document', args.computed ?? true)) as {
        document?: unknown;
      };
      if (!page.document) throw new NotFoundError(`Page "${args.pageId}" has no document`);
      return page.document;
    },
  }),
  revisionPageByPath: t.field({
    type: 'JSON',
    description: 'A document or group page of a revision by its path (a link page has none): as revisionPage',
    extensions: shaped(pageWithBodyShape),
    args: { ...revisionArgs, ...pathArgs, ...bodyArgs, ...revisionReadArgs },
    resolve: async (_root, args, ctx) =>
      getPageByPath(ctx, await revisionContentSource(ctx, args.spaceId, args.revisionId), args.pagePath, args.format ?? 'document', args.computed ?? true),
  }),
  spacePageByPath: t.field({
    type: 'JSON',
    description: "A document or group page of the space's current content by its path: as spacePage",
    extensions: shaped(pageWithBodyShape),
    args: { spaceId: t.arg.string({ required: true, description: 'ID of the space' }), ...pathArgs, ...bodyArgs, ...revisionReadArgs },
    resolve: async (_root, args, ctx) => getPageByPath(ctx, await spaceContentSource(ctx, args.spaceId), args.pagePath, args.format ?? 'document', args.computed ?? true),
  }),
  revisionChanges: t.field({
    type: RevisionSemanticChangesRef,
    description: "What a revision changed from its first parent: pages created, deleted, moved and edited, files created, deleted and edited (GitBook's RevisionSemanticChanges)",
    args: {
      ...revisionArgs,
      limit: t.arg.int({ description: `At most this many changes (default 10, at most ${MAX_SEMANTIC_CHANGES})`, extensions: constrained({ minimum: 1, maximum: MAX_SEMANTIC_CHANGES, default: 10 }) }),
      ...revisionReadArgs,
    },
    resolve: async (_root, args, ctx) => revisionSemanticChanges(ctx, await revisionContentSource(ctx, args.spaceId, args.revisionId, true), args.limit ?? 10),
  }),
  spaceDocument: t.field({
    type: 'JSON',
    description: "A document of the space's current content by its ID (the hash of its body), as GitBook's JSONDocument",
    extensions: shaped(documentShape),
    args: {
      spaceId: t.arg.string({ required: true, description: 'ID of the space' }),
      documentId: t.arg.string({ required: true, description: 'ID of the document' }),
      schema: t.arg.string({ description: 'current or next (the same here)', extensions: constrained({ enum: ['current', 'next'] }) }),
    },
    resolve: async (_root, args, ctx) => documentOfSpace(ctx, await spaceContentSource(ctx, args.spaceId), args.documentId),
  }),
  revisionFiles: t.field({
    type: RevisionFileList,
    description: 'Files of a revision, by name',
    args: { ...revisionArgs, ...listArgs, ...revisionReadArgs },
    resolve: async (_root, { spaceId, revisionId, page, limit }, ctx) => listFiles(ctx, await revisionContentSource(ctx, spaceId, revisionId), { page, limit }),
  }),
  revisionFile: t.field({
    type: RevisionFileRef,
    description: 'A file of a revision',
    args: { ...revisionArgs, fileId: t.arg.string({ required: true, description: 'ID of the file' }), ...revisionReadArgs },
    resolve: async (_root, args, ctx) => getFile(ctx, await revisionContentSource(ctx, args.spaceId, args.revisionId), args.fileId),
  }),
}));
