import { builder } from '../../graphql/builder.ts';
import { listArgs } from '../../graphql/list.ts';
import { graphOnly } from '../../graphql/rest-fields.ts';
import { OrganizationRef } from '../organizations/index.ts';
import { organizationPage } from '../organizations/index.ts';
import { collectionTreeDepth, reachableSpacesWhere } from '../content-access/index.ts';
import { SpaceList } from './space.schema.ts';
import { SPACE_LIST_ORDER } from './space.service.ts';

/** `Organization.spaces` (GraphQL only): the spaces the caller can access, reached from their organization. */
builder.prismaObjectFields(OrganizationRef, (t) => ({
  // One filter serves every organization in the batch: members with a role reach every live space,
  // guests those granted to them (or their teams).
  spaces: t.field({
    type: SpaceList,
    description: 'Spaces of the organization the caller can access',
    args: listArgs,
    extensions: graphOnly,
    resolve: async (org, args, ctx, info) => {
      // The filter climbs the collection tree as deep as it goes (loaded with the access check anyway);
      // organizations of one depth share a batch.
      const depth = collectionTreeDepth(await ctx.loaders.organizationCollections.load(org.id));
      return organizationPage(
        ctx,
        info,
        org.id,
        { name: `Organization.spaces@${depth}`, relation: 'spaces', keys: () => SPACE_LIST_ORDER, where: () => reachableSpacesWhere(ctx.viewer?.user.id ?? '', depth) },
        args,
      );
    },
  }),
}));
