import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../core/context.ts';
import type { ListArgs } from '../../core/pagination.ts';
import { listItemsQuery } from '../../graphql/list.ts';
import { loadRelationPage, type RelationPageSpec } from '../../graphql/relation-page.ts';
import { organizationFor, type OrganizationAction } from './organization.access.ts';

/**
 * Graph navigation from an organization (GraphQL only; REST keeps the documented Organization shape).
 * Each module attaches the field that returns its own type (`Organization.members` in members, …).
 * An Organization can be reached by non-members (e-mail domain lookup), so every field first checks
 * that the viewer may use it, then reads one batched page of the relation (see relation-page.ts).
 */
export async function organizationPage<Args extends ListArgs>(
  ctx: Context,
  info: GraphQLResolveInfo,
  organizationId: string,
  spec: Omit<RelationPageSpec<Args>, 'parentModel'>,
  args: Args,
  /** The organization action that reading this relation is (organization.policy.ts): `read` by default. */
  action: OrganizationAction = 'read',
) {
  await organizationFor(ctx, organizationId, action);
  return loadRelationPage(ctx, { ...spec, parentModel: 'organization' }, organizationId, args, listItemsQuery(ctx, info));
}

/** A list filter without its `organizationId` (the relation already scopes it to the parent). */
export function withoutOrganization<T extends { organizationId?: unknown }>(where: T): Omit<T, 'organizationId'> {
  const { organizationId: _, ...rest } = where;
  return rest;
}

