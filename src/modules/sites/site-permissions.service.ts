import { type Role, type Site, type Team } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { paginate, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { rejectNull } from '../../core/validate.ts';
import { strongest } from '../organizations/index.ts';
import { inviteesOf, writeGrants } from '../spaces/index.ts';
import { siteFor } from './site-access.ts';
import type { SiteAction } from './site.policy.ts';

/** Users or teams named in one `inviteToSite`. */
export const MAX_SITE_INVITEES_PER_CALL = 100;

const GRANT_ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'userId', direction: 'asc' },
];
const TEAM_GRANT_ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'teamId', direction: 'asc' },
];

type Grantee = { userId: string } | { teamId: string };

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

function findGrant(ctx: Context, organizationId: string, siteId: string, grantee: Grantee): Promise<{ role: Role } | null> {
  return 'userId' in grantee
    ? ctx.db.siteUserGrant.findFirst({ where: { siteId, userId: grantee.userId, site: { organizationId } }, select: { role: true } })
    : ctx.db.siteTeamGrant.findFirst({ where: { siteId, teamId: grantee.teamId, site: { organizationId } }, select: { role: true } });
}

const grantNotFound = (grantee: Grantee) =>
  new NotFoundError('userId' in grantee ? `User "${grantee.userId}" has no permission on this site` : `Team "${grantee.teamId}" has no permission on this site`);

/**
 * Changes the level of an existing grant (404 when the user or team has none on the site). The caller
 * must be allowed to grant both the old and the new level. A `role` left out changes nothing.
 */
export async function updateSiteGrant(ctx: Context, organizationId: string, siteId: string, grantee: Grantee, role: Role | null | undefined): Promise<boolean> {
  rejectNull('role', role);
  const existing = await findGrant(ctx, organizationId, siteId, grantee);
  const site = await siteForGrants(ctx, organizationId, siteId, 'grant', strongest(existing?.role, role));
  if (!existing) throw grantNotFound(grantee);
  if (!role || role === existing.role) return true;
  const { count } =
    'userId' in grantee
      ? await ctx.db.siteUserGrant.updateMany({ where: { siteId: site.id, userId: grantee.userId }, data: { role } })
      : await ctx.db.siteTeamGrant.updateMany({ where: { siteId: site.id, teamId: grantee.teamId }, data: { role } });
  // Removed meanwhile by another request: as if it had not been there.
  if (count === 0) throw grantNotFound(grantee);
  return true;
}

/**
 * Removes a user's or a team's grant: true when there was one (REST 205), false when there was none (204).
 * The caller must be allowed to grant the level removed.
 */
export async function removeSiteGrant(ctx: Context, organizationId: string, siteId: string, grantee: Grantee): Promise<boolean> {
  const existing = await findGrant(ctx, organizationId, siteId, grantee);
  const site = await siteForGrants(ctx, organizationId, siteId, 'grant', existing?.role);
  if (!existing) return false;
  const { count } =
    'userId' in grantee
      ? await ctx.db.siteUserGrant.deleteMany({ where: { siteId: site.id, userId: grantee.userId } })
      : await ctx.db.siteTeamGrant.deleteMany({ where: { siteId: site.id, teamId: grantee.teamId } });
  return count > 0;
}

// ---- Lists ----

/** `listUserPermissionsInSite`: the users given a level on the site, oldest grant first. */
export async function listSiteUserPermissions(ctx: Context, organizationId: string, siteId: string, args: ListArgs) {
  const site = await siteForGrants(ctx, organizationId, siteId, 'listPermissions');
  const page = await paginate({
    args,
    keys: GRANT_ORDER,
    where: { siteId: site.id },
    findMany: (q) => ctx.db.siteUserGrant.findMany({ relationLoadStrategy: 'join', ...q, include: { member: { select: { user: true } } } }),
    count: (q) => ctx.db.siteUserGrant.count(q),
  });
  return { ...page, items: page.items.map((g) => ({ permission: g.role, user: g.member.user })) };
}

/** `listTeamPermissionsInSite`: the teams given a level on the site, oldest grant first. */
export async function listSiteTeamPermissions(ctx: Context, organizationId: string, siteId: string, args: ListArgs, teamQuery?: ItemQuery) {
  const site = await siteForGrants(ctx, organizationId, siteId, 'listPermissions');
  const page = await paginate({
    args,
    keys: TEAM_GRANT_ORDER,
    where: { siteId: site.id },
    findMany: (q) =>
      ctx.db.siteTeamGrant.findMany({ relationLoadStrategy: 'join', ...q, include: { team: (teamQuery?.select || teamQuery?.include ? teamQuery : true) as true } }),
    count: (q) => ctx.db.siteTeamGrant.count(q),
  });
  return { ...page, items: page.items.map((g) => ({ permission: g.role, team: g.team as Team })) };
}
