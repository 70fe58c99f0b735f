import { builder } from '../../graphql/builder.ts';
import { getSpacePage, listSpacePages } from './content.service.ts';

const RevisionPageTree = builder.simpleObject('RevisionPageTree', {
  description: 'The page tree of a revision',
  fields: (t) => ({
    pages: t.field({
      type: 'JSON',
      description: "GitBook's RevisionPage objects, each with its child pages (in order) under `pages`; no bodies",
    }),
  }),
});

const DocumentFormatEnum = builder.enumType('DocumentFormat', {
  description: 'How a page body is returned: a structured document (default) or markdown',
  values: ['document', 'markdown'] as const,
});

const revisionReadArgs = builder.args((t) => ({
  metadata: t.boolean({ description: 'false leaves out git metadata (there is none yet)' }),
  computed: t.boolean({ description: 'false skips computed content (there is none yet)' }),
}));

builder.queryFields((t) => ({
  spaceContentPages: t.field({
    type: RevisionPageTree,
    description: "The page tree of a space's active revision, without bodies",
    args: { spaceId: t.arg.string({ required: true, description: 'ID of the space' }), ...revisionReadArgs },
    resolve: (_root, args, ctx) => listSpacePages(ctx, args.spaceId),
  }),
  spacePage: t.field({
    type: 'JSON',
    description:
      "A page of a space's active revision: GitBook's RevisionPage, with its child pages and (document pages) its body as `document` or `markdown`",
    args: {
      spaceId: t.arg.string({ required: true, description: 'ID of the space' }),
      pageId: t.arg.string({ required: true, description: 'ID of the page' }),
      format: t.arg({ type: DocumentFormatEnum, description: 'document (default) or markdown' }),
      ...revisionReadArgs,
    },
    resolve: (_root, args, ctx) => getSpacePage(ctx, args.spaceId, args.pageId, args.format ?? 'document'),
  }),
}));
