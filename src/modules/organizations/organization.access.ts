import type { Member, Organization } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { ForbiddenError, NotFoundError } from '../../core/errors.ts';
import { blockedBySso, canAdministerOrganization, canReadOrganization } from './organization.policy.ts';

export interface OrganizationAccess {
  organization: Organization;
  membership: Member;
}

/**
 * Loads an organization the caller belongs to. Non-members get the same 404 as for an unknown ID, so
 * nobody outside an organization learns that it exists.
 */
export async function organizationForMember(ctx: Context, organizationId: string): Promise<OrganizationAccess> {
  const [organization, membership] = await Promise.all([
    ctx.loaders.organization.load(organizationId),
    ctx.loaders.viewerMembership.load(organizationId),
  ]);
  if (!organization || !membership || !canReadOrganization(membership)) {
    throw new NotFoundError(`Organization "${organizationId}" not found`);
  }
  if (blockedBySso(organization, membership)) throw ssoRequired();
  return { organization, membership };
}

export const ssoRequired = () => new ForbiddenError('This organization requires signing in with SSO');

/** 403 when the organization enforces SSO and the caller is not an SSO member (admins excepted). */
export async function assertNotBlockedBySso(ctx: Context, organizationId: string): Promise<void> {
  const [organization, membership] = await Promise.all([
    ctx.loaders.organization.load(organizationId),
    ctx.loaders.viewerMembership.load(organizationId),
  ]);
  if (organization && blockedBySso(organization, membership)) throw ssoRequired();
}

/** Like `organizationForMember`, then 403 unless the caller is an admin. */
export async function organizationForAdmin(ctx: Context, organizationId: string): Promise<OrganizationAccess> {
  const access = await organizationForMember(ctx, organizationId);
  if (!canAdministerOrganization(access.membership)) {
    throw new ForbiddenError('Only organization admins can do this');
  }
  return access;
}
