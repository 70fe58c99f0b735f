import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { ListArgs } from '../../core/pagination.ts';
import { listItemsQuery } from '../../graphql/list.ts';
import { loadRelationPage, type RelationPageSpec } from '../../graphql/relation-page.ts';
import { assertNotBlockedBySso } from './organization.access.ts';
import { canReadOrganization, type Membership } from './organization.policy.ts';

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
  /** Who among the members may read this relation (everyone by default), and the error for the others. */
  mayList: (membership: Membership) => boolean = canReadOrganization,
  refused: () => Error = () => new NotFoundError(`Organization "${organizationId}" not found`),
) {
  const membership = await ctx.loaders.viewerMembership.load(organizationId);
  if (!canReadOrganization(membership)) throw new NotFoundError(`Organization "${organizationId}" not found`);
  await assertNotBlockedBySso(ctx, organizationId);
  if (!mayList(membership)) throw refused();
  return loadRelationPage(ctx, { ...spec, parentModel: 'organization' }, organizationId, args, listItemsQuery(ctx, info));
}

/** A list filter without its `organizationId` (the relation already scopes it to the parent). */
export function withoutOrganization<T extends { organizationId?: unknown }>(where: T): Omit<T, 'organizationId'> {
  const { organizationId: _, ...rest } = where;
  return rest;
}

