import type { Role, Site } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import type { ItemQuery, ListArgs } from '../../core/pagination.ts';
import { rejectNull } from '../../core/validate.ts';
import { strongest } from '../organizations/index.ts';
import { changeGrant, deleteGrant, findGrant, grantNotFound, inviteesOf, listTeamGrants, listUserGrants, writeGrants, type Grantee } from '../spaces/index.ts';
import { siteFor } from './site-access.ts';
import type { SiteAction } from './site.policy.ts';

/** Users or teams named in one `inviteToSite`. */
export const MAX_SITE_INVITEES_PER_CALL = 100;

/** The site, once the caller may `action` on its access list (site.policy.ts); `level`: the level given or taken. */
export async function siteForGrants(ctx: Context, organizationId: string, siteId: string, action: Extract<SiteAction, 'listPermissions' | 'grant'>, level?: Role | null): Promise<Site> {
  return (await siteFor(ctx, organizationId, siteId, action, undefined, level)).site;
}

// ---- Writes ----

export interface InviteToSiteInput {
  role: Role;
  users?: string[] | null;
  teams?: string[] | null;
  emails?: string[] | null;
}

/**
 * Grants `role` on the site to organization members and teams (`inviteToSite`), in one transaction, as
 * `inviteToSpace` does (the spaces module's content grants): a user or team that already has a grant
 * gets the new level; every user must be a member of the site's organization (guests included) and
 * every team one of its teams, else 404 naming it and nothing is written; e-mail addresses of people who
 * are not members yet invite them to the organization as guests, the level given when they join.
 */
export async function inviteToSite(ctx: Context, organizationId: string, siteId: string, input: InviteToSiteInput): Promise<boolean> {
  const invitees = inviteesOf(input);
  const site = await siteForGrants(ctx, organizationId, siteId, 'grant', input.role);
  await writeGrants(ctx, { kind: 'site', id: site.id, organizationId: site.organizationId }, input.role, invitees);
  return true;
}

/**
 * Changes the level of an existing grant (404 when the user or team has none on the site). The caller
 * must be allowed to grant both the old and the new level. A `role` left out changes nothing.
 */
export async function updateSiteGrant(ctx: Context, organizationId: string, siteId: string, grantee: Grantee, role: Role | null | undefined): Promise<boolean> {
  rejectNull('role', role);
  const existing = await findGrant(ctx, 'site', siteId, grantee);
  // The site must be one of this organization's (404 otherwise, whatever grants exist on it).
  const site = await siteForGrants(ctx, organizationId, siteId, 'grant', strongest(existing?.role, role));
  if (!existing) throw grantNotFound('site', grantee);
  if (!role || role === existing.role) return true;
  await changeGrant(ctx, 'site', site.id, grantee, role);
  return true;
}

/**
 * Removes a user's or a team's grant: true when there was one (REST 205), false when there was none (204).
 * The caller must be allowed to grant the level removed.
 */
export async function removeSiteGrant(ctx: Context, organizationId: string, siteId: string, grantee: Grantee): Promise<boolean> {
  const existing = await findGrant(ctx, 'site', siteId, grantee);
  const site = await siteForGrants(ctx, organizationId, siteId, 'grant', existing?.role);
  if (!existing) return false;
  return deleteGrant(ctx, 'site', site.id, grantee);
}

// ---- Lists ----

/** `listUserPermissionsInSite`: the users given a level on the site, oldest grant first. */
export async function listSiteUserPermissions(ctx: Context, organizationId: string, siteId: string, args: ListArgs) {
  const site = await siteForGrants(ctx, organizationId, siteId, 'listPermissions');
  return listUserGrants(ctx, 'site', site.id, args);
}

/** `listTeamPermissionsInSite`: the teams given a level on the site, oldest grant first. */
export async function listSiteTeamPermissions(ctx: Context, organizationId: string, siteId: string, args: ListArgs, teamQuery?: ItemQuery) {
  const site = await siteForGrants(ctx, organizationId, siteId, 'listPermissions');
  return listTeamGrants(ctx, 'site', site.id, args, teamQuery);
}
