import type { Member, Organization } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize, permissionsOf } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import { ORGANIZATION_PERMISSIONS, organizationPolicy, type OrganizationActor } from './organization.policy.ts';

export type OrganizationAction = keyof typeof organizationPolicy.rules;

export interface OrganizationAccess {
  organization: Organization;
  membership: Member;
  actor: OrganizationActor;
}

/** The caller relative to an organization: their membership there (null outside it, or for a token scoped elsewhere). */
export async function organizationActor(ctx: Context, organizationId: string): Promise<OrganizationActor> {
  return { userId: ctx.viewer?.user.id ?? '', membership: await ctx.loaders.viewerMembership.load(organizationId) };
}

/**
 * Loads an organization and authorizes `action` on it (organization.policy.ts). Non-members get the
 * same 404 as for an unknown ID, so nobody outside an organization learns that it exists.
 */
export async function organizationFor(ctx: Context, organizationId: string, action: OrganizationAction): Promise<OrganizationAccess> {
  const [organization, actor] = await Promise.all([ctx.loaders.organization.load(organizationId), organizationActor(ctx, organizationId)]);
  if (!organization) throw new NotFoundError(organizationPolicy.notFound({ id: organizationId, sso: false }));
  authorize(organizationPolicy, actor, action, organization);
  return { organization, membership: actor.membership as Member, actor };
}

/** An organization the caller may read (a member, not blocked by SSO). */
export const organizationForMember = (ctx: Context, organizationId: string) => organizationFor(ctx, organizationId, 'read');

/** Like `organizationForMember`, then 403 unless the caller is an admin. */
export const organizationForAdmin = (ctx: Context, organizationId: string) => organizationFor(ctx, organizationId, 'update');

/** `Organization.permissions`, from the same policy that `organizationFor` enforces. */
export async function organizationPermissions(ctx: Context, organization: Organization) {
  return permissionsOf(organizationPolicy, await organizationActor(ctx, organization.id), organization, ORGANIZATION_PERMISSIONS);
}
