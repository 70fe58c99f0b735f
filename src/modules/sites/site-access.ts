import type { Prisma, Site } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize, permissionsOf } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import { organizationActor } from '../organizations/index.ts';
import { SITE_PERMISSIONS, sitePolicy, type SiteAction, type SiteActor } from './site.policy.ts';

/** The caller relative to an organization's sites (its membership loader also reads the organization). */
export async function siteActor(ctx: Context, organizationId: string): Promise<SiteActor> {
  const [actor, access] = await Promise.all([organizationActor(ctx, organizationId), ctx.loaders.organizationAccess.load(organizationId)]);
  return { ...actor, organizationSso: access?.organization.sso ?? false };
}

export interface SiteAccess {
  site: Site;
  actor: SiteActor;
}

/**
 * Loads a site of the organization and authorizes `action` on it (site.policy.ts): callers outside the
 * organization, unknown sites and sites of other organizations are the same 404. Two statements, run
 * together: the caller's membership (with the organization) and the site. `query` adds relations the
 * answer needs to the site's statement.
 */
export async function siteFor(ctx: Context, organizationId: string, siteId: string, action: SiteAction, query?: object): Promise<SiteAccess> {
  const [actor, site] = await Promise.all([
    siteActor(ctx, organizationId),
    ctx.db.site.findFirst({ relationLoadStrategy: 'join', where: { id: siteId, organizationId }, ...(query as Prisma.SiteDefaultArgs) }),
  ]);
  if (!site) {
    // Outsiders learn nothing (the policy's 404); members learn the site is not there.
    authorize(sitePolicy, actor, 'read', { id: siteId, createdById: null });
    throw new NotFoundError(sitePolicy.notFound({ id: siteId, createdById: null }));
  }
  authorize(sitePolicy, actor, action, site);
  return { site, actor };
}

/** `Site.permissions`, from the same policy `siteFor` enforces. */
export async function sitePermissions(ctx: Context, site: Site) {
  return permissionsOf(sitePolicy, await siteActor(ctx, site.organizationId), site, SITE_PERMISSIONS);
}
