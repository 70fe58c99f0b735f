import type { ListArgs } from '../../core/pagination.ts';
import { builder } from '../../graphql/builder.ts';
import { listArgs } from '../../graphql/list.ts';
import { graphOnly } from '../../graphql/rest-fields.ts';
import { OrganizationRef } from '../organizations/index.ts';
import { organizationPage } from '../organizations/index.ts';
import { collectionTreeDepth, reachableCollectionsWhere } from '../content-access/index.ts';
import { CollectionList } from './collection.schema.ts';
import { SIBLING_ORDER } from './collection.service.ts';

/** `Organization.collections` (GraphQL only), reached from their organization. */
builder.prismaObjectFields(OrganizationRef, (t) => ({
  collections: t.field({
    type: CollectionList,
    description: 'Collections of the organization (nested ones too unless nested: false)',
    args: { ...listArgs, nested: t.arg.boolean({ description: 'false: top-level collections only' }) },
    extensions: graphOnly,
    resolve: async (org, args, ctx, info) => {
      // The filter climbs the collection tree as deep as it goes (loaded with the access check anyway);
      // organizations of one depth share a batch.
      const depth = collectionTreeDepth(await ctx.loaders.organizationCollections.load(org.id));
      return organizationPage<ListArgs & { nested?: boolean | null }>(
        ctx,
        info,
        org.id,
        {
          name: `Organization.collections@${depth}`,
          relation: 'collections',
          keys: () => SIBLING_ORDER,
          // Collections are organization-wide structure: every member with a role sees them; guests those
          // granted to them (or their teams) and what those contain.
          where: (a) => ({ ...(a.nested === false ? { parentId: null } : {}), ...reachableCollectionsWhere(ctx.viewer?.user.id ?? '', depth) }),
        },
        args,
      );
    },
  }),
}));
