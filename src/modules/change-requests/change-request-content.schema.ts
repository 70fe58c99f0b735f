import { NotFoundError } from '../../core/errors.ts';
import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { listArgs } from '../../graphql/list.ts';
import { graphOnly } from '../../graphql/rest-fields.ts';
import { bodyArgs, getFile, getPage, getPageByPath, getRevision, listFiles, listPages, metaLinksShape, pageMetaLinks, pathArgs } from '../content/index.ts';
import {
  DocumentFormatEnum,
  RevisionFileList,
  RevisionFileRef,
  RevisionPageTree,
  mergedFromQuery,
  RevisionRef,
  revisionReadArgs,
} from '../content/index.ts';
import { pageWithBodyShape } from '../content/index.ts';
import { RevisionContentRef } from '../content/index.ts';
import { viewerCan } from '../content-access/index.ts';
import { changeRequestArgs, ChangeRequestRef } from './change-request.schema.ts';
import { changeRequestContentSource } from './change-request-content.ts';

builder.queryFields((t) => ({
  changeRequestContent: t.field({
    type: RevisionRef,
    description: "A change request's current revision: its page tree (without bodies) and its files",
    args: { ...changeRequestArgs, ...revisionReadArgs },
    resolve: async (_root, args, ctx, info) =>
      getRevision(ctx, await changeRequestContentSource(ctx, args.spaceId, args.changeRequestId), mergedFromQuery(ctx, info)),
  }),
  changeRequestContentPages: t.field({
    type: RevisionPageTree,
    description: "The page tree of a change request's revision, without bodies",
    args: { ...changeRequestArgs, ...revisionReadArgs },
    resolve: async (_root, args, ctx) => listPages(ctx, await changeRequestContentSource(ctx, args.spaceId, args.changeRequestId)),
  }),
  changeRequestFiles: t.field({
    type: RevisionFileList,
    description: "Files of a change request's revision, by name",
    args: { ...changeRequestArgs, ...listArgs, ...revisionReadArgs },
    resolve: async (_root, { spaceId, changeRequestId, page, limit }, ctx) =>
      listFiles(ctx, await changeRequestContentSource(ctx, spaceId, changeRequestId), { page, limit }),
  }),
  changeRequestFile: t.field({
    type: RevisionFileRef,
    description: "A file of a change request's revision",
    args: { ...changeRequestArgs, fileId: t.arg.string({ required: true, description: 'ID of the file' }), ...revisionReadArgs },
    resolve: async (_root, args, ctx) => getFile(ctx, await changeRequestContentSource(ctx, args.spaceId, args.changeRequestId), args.fileId),
  }),
  changeRequestPage: t.field({
    type: 'JSON',
    description:
      "A page of a change request's revision: GitBook's RevisionPage, with its child pages and (document pages) its body as `document` or `markdown`",
    extensions: shaped(pageWithBodyShape),
    args: {
      ...changeRequestArgs,
      pageId: t.arg.string({ required: true, description: 'ID of the page' }),
      format: t.arg({ type: DocumentFormatEnum, description: 'document (default) or markdown', extensions: constrained({ default: 'document' }) }),
      ...bodyArgs,
      ...revisionReadArgs,
    },
    resolve: async (_root, args, ctx) =>
      getPage(ctx, await changeRequestContentSource(ctx, args.spaceId, args.changeRequestId), args.pageId, args.format ?? 'document', args.computed ?? true),
  }),
  changeRequestPageByPath: t.field({
    type: 'JSON',
    description: "A document or group page of a change request's revision by its path (a link page has none): as changeRequestPage",
    extensions: shaped(pageWithBodyShape),
    args: { ...changeRequestArgs, ...pathArgs, ...bodyArgs, ...revisionReadArgs },
    resolve: async (_root, args, ctx) =>
      getPageByPath(ctx, await changeRequestContentSource(ctx, args.spaceId, args.changeRequestId), args.pagePath, args.format ?? 'document', args.computed ?? true),
  }),
  changeRequestPageMetaLinks: t.field({
    type: 'JSON',
    description: "A page of a change request's revision's alternates: as spacePageMetaLinks",
    extensions: shaped(metaLinksShape),
    args: { ...changeRequestArgs, pageId: t.arg.string({ required: true, description: 'ID of the page' }) },
    resolve: async (_root, args, ctx) => pageMetaLinks(ctx, await changeRequestContentSource(ctx, args.spaceId, args.changeRequestId), args.pageId),
  }),
}));

/**
 * `ChangeRequest.content` (GraphQL only): the change request's revision as a graph, like `Space.content`.
 * Change requests reach callers only through root fields that checked `read` on their space; the check
 * is asked again here, from the loaders that check filled (no statement).
 */
builder.prismaObjectFields(ChangeRequestRef, (t) => ({
  content: t.field({
    type: RevisionContentRef,
    extensions: graphOnly,
    description: "The change request's revision: pages (typed, to any depth) and files, read when selected and batched",
    resolve: async (cr, _args, ctx) => {
      const space = await ctx.loaders.space.load(cr.spaceId);
      if (!space || !(await viewerCan(ctx, space, 'read'))) throw new NotFoundError(`Change request "${cr.id}" not found`);
      return { revisionId: cr.revisionId, spaceId: cr.spaceId };
    },
  }),
}));
