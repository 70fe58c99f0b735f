import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listItemsQuery, listType, recordQuery } from '../../graphql/list.ts';
import { MAX_CONDITION } from './adaptive-content.ts';
import { SECTION_PATH } from './site-inputs.ts';
import { shareKeyBounds, SiteSpaceRef } from './site-section.schema.ts';
import { addSiteSpace, deleteSiteSpace, listSiteSpaces, updateSiteSpace } from './site-space.service.ts';
import { sitePath } from './site.schema.ts';

/** Site spaces: the variants (languages, versions) of a site's sections (site-space.service.ts). */

const SiteSpaceList = listType('SiteSpace', SiteSpaceRef);
const idBounds = constrained({ minLength: 1, maxLength: 64 });

const siteSpacePath = builder.args((t) => ({
  ...sitePath,
  siteSpaceId: t.string({ required: true, description: 'ID of the site space', extensions: idBounds }),
}));

const unsupported = builder.args((t) => ({
  draft: t.boolean({ description: 'Only false: draft site spaces are not supported (400 for true)' }),
  pageId: t.string({ description: 'Only null: a custom home page is not supported (400 for an ID)', extensions: idBounds }),
}));

builder.queryFields((t) => ({
  siteSpaces: t.field({
    type: SiteSpaceList,
    description: "A site's site spaces (its sections' variants), oldest first: who reads its sections (members; anyone once it is published for them)",
    args: {
      ...sitePath,
      ...listArgs,
      shareKey: t.arg.string({ description: 'Key of an active share link of a share-link site', extensions: shareKeyBounds }),
      default: t.arg.boolean({ description: 'true: only the default site space of each section; false: only the others; absent: all' }),
      sectionId: t.arg.string({ description: 'Only the site spaces of this section', extensions: idBounds }),
      spaceId: t.arg.string({ description: 'Only the site spaces publishing this space', extensions: idBounds }),
    },
    resolve: (_root, { organizationId, siteId, ...args }, ctx, info) => listSiteSpaces(ctx, organizationId, siteId, args, listItemsQuery(ctx, info)),
  }),
}));

builder.mutationFields((t) => ({
  addSiteSpace: t.field({
    type: SiteSpaceRef,
    description:
      "Add an existing space of the organization to the site as a variant of a section (default: the default section; a site without sections gets one) (edit on the site)",
    args: {
      ...sitePath,
      ...unsupported,
      spaceId: t.arg.string({ description: 'An existing space of the organization the caller can read (null, a new space, is not supported)', extensions: idBounds }),
      sectionId: t.arg.string({ description: 'The section the space becomes a variant of (default: the default section)', extensions: idBounds }),
      title: t.arg.string({ description: "The variant's title (2..128; default: the space's); its path is made from it", extensions: constrained({ minLength: 2, maxLength: 128 }) }),
      template: t.arg({ type: 'JSON', description: 'Only with spaceId: null, which is not supported (400)' }),
    },
    resolve: (_root, { organizationId, siteId, ...input }, ctx, info) => addSiteSpace(ctx, organizationId, siteId, input, recordQuery(ctx, info)),
  }),
  updateSiteSpace: t.field({
    type: SiteSpaceRef,
    description: "Change a site space: its path, its condition (null removes it), the space it publishes (edit on the site)",
    args: {
      ...siteSpacePath,
      ...unsupported,
      path: t.arg.string({
        description: 'Its path in its section (1..100), unique among the section\'s site spaces',
        extensions: constrained({ minLength: 1, maxLength: 100, pattern: SECTION_PATH.source }),
      }),
      condition: t.arg.string({
        description: 'Who sees it: an expression over visitor.claims (1..1024); null removes it',
        extensions: constrained({ minLength: 1, maxLength: MAX_CONDITION }),
      }),
      spaceId: t.arg.string({ description: 'Another space of the organization the caller can read: the site space publishes it', extensions: idBounds }),
      hidden: t.arg.boolean({ description: 'Only false: hidden site spaces are not supported (400 for true)' }),
    },
    resolve: (_root, { organizationId, siteId, siteSpaceId, ...input }, ctx, info) =>
      updateSiteSpace(ctx, organizationId, siteId, siteSpaceId, input, recordQuery(ctx, info)),
  }),
  deleteSiteSpace: t.boolean({
    description:
      "Delete a site space: true when it was deleted (REST 205), false when there was none (204). The next becomes its section's default; a section left with none goes (edit on the site)",
    args: siteSpacePath,
    resolve: (_root, args, ctx) => deleteSiteSpace(ctx, args.organizationId, args.siteId, args.siteSpaceId),
  }),
}));
