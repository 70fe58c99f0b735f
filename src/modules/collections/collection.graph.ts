import type { ListArgs } from '../../core/pagination.ts';
import { builder } from '../../graphql/builder.ts';
import { listArgs } from '../../graphql/list.ts';
import { graphOnly } from '../../graphql/rest-fields.ts';
import { OrganizationRef } from '../organizations/index.ts';
import { organizationPage } from '../organizations/index.ts';
import { heldRoleBy } from '../spaces/index.ts';
import { CollectionList } from './collection.schema.ts';
import { SIBLING_ORDER } from './collection.service.ts';

/** `Organization.collections` (GraphQL only), reached from their organization. */
builder.prismaObjectFields(OrganizationRef, (t) => ({
  collections: t.field({
    type: CollectionList,
    description: 'Collections of the organization (nested ones too unless nested: false)',
    args: { ...listArgs, nested: t.arg.boolean({ description: 'false: top-level collections only' }) },
    extensions: graphOnly,
    resolve: (org, args, ctx, info) =>
      organizationPage<ListArgs & { nested?: boolean | null }>(
        ctx,
        info,
        org.id,
        {
          name: 'Organization.collections',
          relation: 'collections',
          keys: () => SIBLING_ORDER,
          // Collections are organization-wide structure: every member with a role sees them.
          where: (a) => ({ deletedAt: null, ...(a.nested === false ? { parentId: null } : {}), ...heldRoleBy(ctx.viewer?.user.id ?? '') }),
        },
        args,
      ),
  }),
}));
