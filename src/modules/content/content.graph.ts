import { builder } from '../../graphql/builder.ts';
import { graphOnly } from '../../graphql/rest-fields.ts';
import { viewerCan } from '../content-access/index.ts';
import { SpaceRef } from '../spaces/index.ts';
import { RevisionContentRef } from './revision-content.schema.ts';

/**
 * `Space.content` (GraphQL only): the active revision as a graph. A space object is not proof that its
 * content may be read (its admins still get a deleted space), so the field asks the space policy, from
 * what the loaders already hold for a page of spaces.
 */
builder.prismaObjectFields(SpaceRef, (t) => ({
  content: t.field({
    type: RevisionContentRef,
    nullable: true,
    extensions: graphOnly,
    description:
      "The space's active revision: pages (typed, to any depth) and files, read when selected and batched over every space of the operation. Null when the space has no content, or its content may not be read (a deleted space)",
    resolve: (space, _args, ctx) => {
      const { revisionId } = space;
      if (!revisionId) return null;
      const content = { revisionId, spaceId: space.id };
      const allowed = viewerCan(ctx, space, 'read');
      return typeof allowed === 'boolean' ? (allowed ? content : null) : allowed.then((ok) => (ok ? content : null));
    },
  }),
}));
