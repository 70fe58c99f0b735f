import { builder } from '../../graphql/builder.ts';
import type { Context } from '../../graphql/context.ts';
import { NotFoundError } from '../../graphql/errors.ts';
import { loadRelationPage } from '../../graphql/relation-page.ts';
import { graphOnly } from '../../graphql/rest-fields.ts';
import { memberListArgs, MemberList } from '../members/member.schema.ts';
import { memberListWhere, memberSortKeys, type MemberListFilter } from '../members/member.service.ts';
import { loadOrganizationTeamsPage } from '../teams/team.graph.ts';
import { teamListArgs, TeamList } from '../teams/team.schema.ts';
import { OrganizationRef } from './organization.schema.ts';
import { listArgs } from '../../graphql/list.ts';
import { SpaceList } from '../spaces/space.schema.ts';
import { SPACE_LIST_ORDER } from '../spaces/space.service.ts';
import { CollectionList } from '../collections/collection.schema.ts';
import { SIBLING_ORDER } from '../collections/collection.service.ts';
import { canReadOrganization } from './organization.policy.ts';
import { assertNotBlockedBySso } from './organization.access.ts';
import { heldRoleBy, reachableSpacesWhere } from '../spaces/content-access.ts';

/**
 * Graph navigation from an organization (GraphQL only; REST keeps the documented Organization shape).
 * An Organization can be reached by non-members (e-mail domain lookup), so each field checks membership.
 */
async function assertMember(ctx: Context, organizationId: string) {
  if (!canReadOrganization(await ctx.loaders.viewerMembership.load(organizationId))) {
    throw new NotFoundError(`Organization "${organizationId}" not found`);
  }
  await assertNotBlockedBySso(ctx, organizationId);
}

builder.prismaObjectFields(OrganizationRef, (t) => ({
  members: t.field({
    type: MemberList,
    description: 'Members of the organization (same arguments as the members list)',
    args: memberListArgs,
    extensions: graphOnly,
    resolve: async (org, args, ctx) => {
      await assertMember(ctx, org.id);
      return loadRelationPage<MemberListFilter>(
        ctx,
        {
          name: 'Organization.members',
          parentModel: 'organization',
          relation: 'members',
          keys: memberSortKeys,
          where: (a) => {
            const { organizationId: _, ...where } = memberListWhere(org.id, a);
            return where;
          },
        },
        org.id,
        args,
      );
    },
  }),
  teams: t.field({
    type: TeamList,
    description: 'Teams of the organization (same arguments as the teams list)',
    args: teamListArgs,
    extensions: graphOnly,
    resolve: async (org, args, ctx) => {
      await assertMember(ctx, org.id);
      return loadOrganizationTeamsPage(ctx, org.id, args);
    },
  }),
}));

/**
 * `Organization.spaces` and `Organization.collections`. One filter serves every organization in the
 * batch: members with a role see every live space, guests those granted to them (or their teams).
 */
builder.prismaObjectFields(OrganizationRef, (t) => ({
  spaces: t.field({
    type: SpaceList,
    description: 'Spaces of the organization the caller can access',
    args: listArgs,
    extensions: graphOnly,
    resolve: async (org, args, ctx) => {
      await assertMember(ctx, org.id);
      const userId = ctx.viewer?.user.id ?? '';
      return loadRelationPage(
        ctx,
        {
          name: 'Organization.spaces',
          parentModel: 'organization',
          relation: 'spaces',
          keys: () => SPACE_LIST_ORDER,
          where: () => reachableSpacesWhere(userId),
        },
        org.id,
        args,
      );
    },
  }),
  collections: t.field({
    type: CollectionList,
    description: 'Collections of the organization (nested ones too unless nested: false)',
    args: { ...listArgs, nested: t.arg.boolean({ description: 'false: top-level collections only' }) },
    extensions: graphOnly,
    resolve: async (org, args, ctx) => {
      await assertMember(ctx, org.id);
      const userId = ctx.viewer?.user.id ?? '';
      return loadRelationPage(
        ctx,
        {
          name: 'Organization.collections',
          parentModel: 'organization',
          relation: 'collections',
          keys: () => SIBLING_ORDER,
          where: (a: { nested?: boolean | null }) => ({
            deletedAt: null,
            ...(a.nested === false ? { parentId: null } : {}),
            // Collections are organization-wide structure: every member with a role sees them.
            ...heldRoleBy(userId),
          }),
        },
        org.id,
        args,
      );
    },
  }),
}));
