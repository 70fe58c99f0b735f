import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../core/context.ts';
import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { listArgs, listType } from '../../graphql/list.ts';
import { booleanOrKeywordScalar } from '../../graphql/string-enum.ts';
import { pageTreeShape, pageWithBodyShape } from './content-shapes.ts';
import { getFile, getPage, getRevision, listFiles, listPages, spaceContentSource } from './content.service.ts';
import { signedFileUrl } from './files/file-urls.ts';
import type { FileEntry } from './store/revision-content.ts';

export const RevisionPageTree = builder.simpleObject('RevisionPageTree', {
  description: 'The page tree of a revision',
  fields: (t) => ({
    pages: t.field({
      type: 'JSON',
      description: "GitBook's RevisionPage objects, each with its child pages (in order) under `pages`; no bodies",
      extensions: shaped(pageTreeShape),
    }),
  }),
});

export const DocumentFormatEnum = builder.enumType('DocumentFormat', {
  description: 'How a page body is returned: a structured document (default) or markdown',
  values: ['document', 'markdown'] as const,
});

const FileDimensions = builder.simpleObject('FileDimensions', {
  fields: (t) => ({ width: t.int(), height: t.int() }),
});

export const RevisionFileRef = builder.objectRef<FileEntry>('RevisionFile');
RevisionFileRef.implement({
  description: 'A file of a revision',
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    contentType: t.exposeString('contentType'),
    size: t.exposeInt('size'),
    dimensions: t.field({
      type: FileDimensions,
      nullable: true,
      description: 'Images only',
      resolve: (f) => (f.width !== null && f.height !== null ? { width: f.width, height: f.height } : null),
    }),
    downloadURL: t.string({
      description: 'Serves the bytes without a token, through a signature in the URL; valid for one to two hours',
      extensions: constrained({ format: 'uri' }),
      resolve: (f, _args, ctx) => signedFileUrl(ctx.db, ctx.config.publicUrl, { hash: f.blobHash, name: f.name, contentType: f.contentType }, ctx.clock.now()),
    }),
  }),
});
export const RevisionFileList = listType('RevisionFile', RevisionFileRef);

const RevisionUrls = builder.simpleObject('RevisionUrls', {
  fields: (t) => ({
    app: t.string({ description: 'The revision in the application', extensions: constrained({ format: 'uri' }) }),
    published: t.string({ nullable: true, description: 'Published URL; only when the space is not private', extensions: constrained({ format: 'uri' }) }),
    public: t.string({ nullable: true, description: 'Public URL; only when the space is public', extensions: constrained({ format: 'uri' }) }),
  }),
});

/** `reusableContents` and `tags`: always empty (there are none yet). */
const noneYet = { type: 'array', items: { type: 'object' } };

type RevisionView = Awaited<ReturnType<typeof getRevision>>;
export const RevisionRef = builder.objectRef<RevisionView>('Revision').implement({
  description: 'An immutable state of a space\'s content: its page tree and its files',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['revision'] }), resolve: () => 'revision' }),
    id: t.string({ resolve: (r) => r.revision.id }),
    parents: t.stringList({ description: 'The revisions it was made from (a merge has two)', resolve: (r) => r.revision.parents }),
    type: t.string({ description: 'edits, merge, rollback, update or computed', resolve: (r) => r.revision.type }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.revision.createdAt }),
    pages: t.field({
      type: 'JSON',
      description: "The page tree: GitBook's RevisionPage objects, children (in order) under `pages`; no bodies",
      extensions: shaped(pageTreeShape),
      resolve: (r) => r.pages,
    }),
    files: t.field({ type: [RevisionFileRef], resolve: (r) => r.files }),
    reusableContents: t.field({ type: 'JSON', description: 'Reusable content blocks (none yet)', extensions: shaped(noneYet), resolve: () => [] }),
    tags: t.field({ type: 'JSON', description: 'Tags of the revision (none yet)', extensions: shaped(noneYet), resolve: () => [] }),
    urls: t.field({ type: RevisionUrls, resolve: (r) => r.urls }),
  }),
});

/**
 * What the selection reads of a merge revision's change request (`Revision.mergedFrom`, added by the
 * change-requests module), as a Prisma query, so that `getRevision` reads it in its one statement.
 */
export function mergedFromQuery(ctx: Context, info: GraphQLResolveInfo): object {
  return queryFromInfo({ context: ctx, info, path: ['mergedFrom'] }) as object;
}

const EvaluatedScalar = booleanOrKeywordScalar('EvaluatedMode', 'deterministic-only', 'Whether expressions in the document are evaluated');
const DereferencedScalar = booleanOrKeywordScalar('DereferencedMode', 'reusable-contents', 'Whether references in the document are expanded');

/**
 * GitBook's `evaluated` and `dereferenced` of every page read: accepted with every value GitBook
 * declares (its renderer sends "deterministic-only" and "reusable-contents"); documents here hold no
 * expressions and no reusable content, so each value answers the same document.
 */
export const bodyArgs = builder.args((t) => ({
  evaluated: t.field({ type: EvaluatedScalar, description: 'Accepted for compatibility: documents hold no expressions to evaluate', extensions: constrained({ default: false }) }),
  dereferenced: t.field({ type: DereferencedScalar, description: 'Accepted for compatibility: documents hold no reusable content to expand', extensions: constrained({ default: false }) }),
}));

export const revisionReadArgs = builder.args((t) => ({
  metadata: t.boolean({ description: 'false leaves out git metadata (there is none yet)', extensions: constrained({ default: true }) }),
  computed: t.boolean({
    description: "false leaves a computed page as stored (its source, no content); true (default) makes its content from its OpenAPI spec",
    extensions: constrained({ default: true }),
  }),
}));

builder.queryFields((t) => ({
  spaceContent: t.field({
    type: RevisionRef,
    description: "A space's active revision: its page tree (without bodies) and its files",
    args: { spaceId: t.arg.string({ required: true, description: 'ID of the space' }), ...revisionReadArgs },
    resolve: async (_root, args, ctx, info) => getRevision(ctx, await spaceContentSource(ctx, args.spaceId), mergedFromQuery(ctx, info)),
  }),
  spaceContentPages: t.field({
    type: RevisionPageTree,
    description: "The page tree of a space's active revision, without bodies",
    args: { spaceId: t.arg.string({ required: true, description: 'ID of the space' }), ...revisionReadArgs },
    resolve: async (_root, args, ctx) => listPages(ctx, await spaceContentSource(ctx, args.spaceId)),
  }),
  spaceFiles: t.field({
    type: RevisionFileList,
    description: "Files of a space's active revision, by name",
    args: { spaceId: t.arg.string({ required: true, description: 'ID of the space' }), ...listArgs, ...revisionReadArgs },
    resolve: async (_root, { spaceId, page, limit }, ctx) => listFiles(ctx, await spaceContentSource(ctx, spaceId), { page, limit }),
  }),
  spaceFile: t.field({
    type: RevisionFileRef,
    description: "A file of a space's active revision",
    args: {
      spaceId: t.arg.string({ required: true, description: 'ID of the space' }),
      fileId: t.arg.string({ required: true, description: 'ID of the file' }),
      ...revisionReadArgs,
    },
    resolve: async (_root, args, ctx) => getFile(ctx, await spaceContentSource(ctx, args.spaceId), args.fileId),
  }),
  spacePage: t.field({
    type: 'JSON',
    description:
      "A page of a space's active revision: GitBook's RevisionPage, with its child pages and (document pages) its body as `document` or `markdown`",
    extensions: shaped(pageWithBodyShape),
    args: {
      spaceId: t.arg.string({ required: true, description: 'ID of the space' }),
      pageId: t.arg.string({ required: true, description: 'ID of the page' }),
      format: t.arg({ type: DocumentFormatEnum, description: 'document (default) or markdown', extensions: constrained({ default: 'document' }) }),
      ...bodyArgs,
      ...revisionReadArgs,
    },
    resolve: async (_root, args, ctx) => getPage(ctx, await spaceContentSource(ctx, args.spaceId), args.pageId, args.format ?? 'document', args.computed ?? true),
  }),
}));
