import type { Role, Site } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { grantScreens } from '../spaces/index.ts';
import { siteFor } from './site-access.ts';
import type { SiteAction } from './site.policy.ts';

/** The site, once the caller may `action` on its access list (site.policy.ts); `level`: the level given or taken. */
export async function siteForGrants(ctx: Context, organizationId: string, siteId: string, action: Extract<SiteAction, 'listPermissions' | 'grant'>, level?: Role | null): Promise<Site> {
  return (await siteFor(ctx, organizationId, siteId, action, undefined, level)).site;
}

/** A site's path: its organization and its ID. */
export interface SitePath {
  organizationId: string;
  siteId: string;
}

/**
 * The access list of a site: its operations, as for every kind (spaces' grant-screens.ts). Every user
 * must be a member of the site's organization (guests included) and every team one of its teams; e-mail
 * addresses of people who are not members yet invite them to the organization as guests, the level
 * given when they join.
 */
export const siteGrants = grantScreens<SitePath>({
  kind: 'site',
  idOf: (path) => path.siteId,
  forGrants: (ctx, path, action, level) => siteForGrants(ctx, path.organizationId, path.siteId, action === 'list' ? 'listPermissions' : 'grant', level),
});
