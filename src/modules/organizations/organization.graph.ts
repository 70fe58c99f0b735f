import { builder } from '../../graphql/builder.ts';
import type { Context } from '../../graphql/context.ts';
import { NotFoundError } from '../../graphql/errors.ts';
import type { GraphQLResolveInfo } from 'graphql';
import { listArgs, listItemsQuery } from '../../graphql/list.ts';
import { loadRelationPage, type RelationPageSpec } from '../../graphql/relation-page.ts';
import { graphOnly } from '../../graphql/rest-fields.ts';
import type { ListArgs } from '../../lib/pagination.ts';
import { CollectionList } from '../collections/collection.schema.ts';
import { SIBLING_ORDER } from '../collections/collection.service.ts';
import { memberListArgs, MemberList } from '../members/member.schema.ts';
import { canListMembers } from '../members/member.policy.ts';
import { guestsSeeOnlyThemselves, memberListWhere, memberSortKeys, type MemberListFilter } from '../members/member.service.ts';
import { heldRoleBy, reachableSpacesWhere } from '../spaces/content-access.ts';
import { SpaceList } from '../spaces/space.schema.ts';
import { SPACE_LIST_ORDER } from '../spaces/space.service.ts';
import { teamListArgs, TeamList } from '../teams/team.schema.ts';
import { canListTeams } from '../teams/team.policy.ts';
import { TEAM_SORT, teamListWhere, type TeamListFilter } from '../teams/team.service.ts';
import { assertNotBlockedBySso } from './organization.access.ts';
import { OrganizationRef } from './organization.schema.ts';
import { canReadOrganization, type Membership } from './organization.policy.ts';

/**
 * Graph navigation from an organization (GraphQL only; REST keeps the documented Organization shape).
 * An Organization can be reached by non-members (e-mail domain lookup), so every field first checks
 * that the viewer may use it, then reads one batched page of the relation (see relation-page.ts).
 */
async function organizationPage<Args extends ListArgs>(
  ctx: Context,
  info: GraphQLResolveInfo,
  organizationId: string,
  spec: Omit<RelationPageSpec<Args>, 'parentModel'>,
  args: Args,
  /** Who among the members may read this relation (everyone by default). */
  mayList: (membership: Membership) => boolean = canReadOrganization,
) {
  const membership = await ctx.loaders.viewerMembership.load(organizationId);
  if (!canReadOrganization(membership)) throw new NotFoundError(`Organization "${organizationId}" not found`);
  await assertNotBlockedBySso(ctx, organizationId);
  if (!mayList(membership)) throw guestsSeeOnlyThemselves();
  return loadRelationPage(ctx, { ...spec, parentModel: 'organization' }, organizationId, args, listItemsQuery(ctx, info));
}

/** A list filter without its `organizationId` (the relation already scopes it to the parent). */
function withoutOrganization<T extends { organizationId?: unknown }>(where: T): Omit<T, 'organizationId'> {
  const { organizationId: _, ...rest } = where;
  return rest;
}

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
        canListMembers,
      ),
  }),
  teams: t.field({
    type: TeamList,
    description: 'Teams of the organization (same arguments as the teams list)',
    args: teamListArgs,
    extensions: graphOnly,
    resolve: (org, args, ctx, info) =>
      organizationPage<TeamListFilter>(
        ctx,
        info,
        org.id,
        { name: 'Organization.teams', relation: 'teams', keys: () => TEAM_SORT, where: (a) => withoutOrganization(teamListWhere(org.id, a)) },
        args,
        canListTeams,
      ),
  }),
  // One filter serves every organization in the batch: members with a role reach every live space,
  // guests those granted to them (or their teams).
  spaces: t.field({
    type: SpaceList,
    description: 'Spaces of the organization the caller can access',
    args: listArgs,
    extensions: graphOnly,
    resolve: (org, args, ctx, info) =>
      organizationPage(
        ctx,
        info,
        org.id,
        { name: 'Organization.spaces', relation: 'spaces', keys: () => SPACE_LIST_ORDER, where: () => reachableSpacesWhere(ctx.viewer?.user.id ?? '') },
        args,
      ),
  }),
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
