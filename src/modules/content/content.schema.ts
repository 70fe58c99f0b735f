import { builder } from '../../graphql/builder.ts';
import { listSpacePages } from './content.service.ts';

const RevisionPageTree = builder.simpleObject('RevisionPageTree', {
  description: 'The page tree of a revision',
  fields: (t) => ({
    pages: t.field({
      type: 'JSON',
      description: "GitBook's RevisionPage objects, each with its child pages (in order) under `pages`; no bodies",
    }),
  }),
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
}));
