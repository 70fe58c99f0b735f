import { builder } from '../../graphql/builder.ts';
import { graphOnly } from '../../graphql/rest-fields.ts';
import { OrganizationRef } from '../organizations/index.ts';
import { organizationPage, withoutOrganization } from '../organizations/index.ts';
import { memberListArgs, MemberList } from './member.schema.ts';
import { memberListWhere, memberSortKeys, type MemberListFilter } from './member.service.ts';

/** `Organization.members` (GraphQL only): the members list, reached from its organization. */
builder.prismaObjectFields(OrganizationRef, (t) => ({
  members: t.field({
    type: MemberList,
    description: 'Members of the organization (same arguments as the members list)',
    args: memberListArgs,
    extensions: graphOnly,
    resolve: (org, args, ctx, info) =>
      organizationPage<MemberListFilter>(
        ctx,
        info,
        org.id,
        { name: 'Organization.members', relation: 'members', keys: memberSortKeys, where: (a) => withoutOrganization(memberListWhere(org.id, a)) },
        args,
        'listMembers',
      ),
  }),
}));
