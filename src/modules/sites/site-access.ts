import type { Prisma, Role, Site } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize, permissionsOf } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import { organizationAccessInclude, primeOrganizationAccess } from '../../core/loaders.ts';
import { withRelations, type ItemQuery } from '../../core/pagination.ts';
import { isAdmin, isMember, organizationActor, strongest } from '../organizations/index.ts';
import { SITE_PERMISSIONS, sitePolicy, type SiteAction, type SiteActor } from './site.policy.ts';

/** The caller relative to an organization's sites (its membership loader also reads the organization). */
export async function siteActor(ctx: Context, organizationId: string): Promise<SiteActor> {
  const [actor, access] = await Promise.all([organizationActor(ctx, organizationId), ctx.loaders.organizationAccess.load(organizationId)]);
  return { ...actor, organizationSso: access?.organization.sso ?? false };
}

/** A site's grants to the caller and to their teams, as `viewerGrantsOn` reads them with the site. */
export interface ViewerGrants {
  userGrants?: { role: Role }[];
  teamGrants?: { role: Role }[];
}

/**
 * The relations that read, with a site (in the site's own statement: joins), the grants on it to the
 * caller and to the teams they belong to — what `siteLevel` needs beyond the membership.
 */
export function viewerGrantsOn(ctx: Context) {
  const userId = ctx.viewer?.user.id ?? '';
  return {
    userGrants: { where: { userId }, select: { role: true } },
    teamGrants: { where: { team: { members: { some: { userId } } } }, select: { role: true } },
  } satisfies Prisma.SiteInclude;
}

/** Sites granted to the caller, directly or through a team (what a guest lists). */
export function grantedToViewer(ctx: Context): Prisma.SiteWhereInput {
  const userId = ctx.viewer?.user.id ?? '';
  return { OR: [{ userGrants: { some: { userId } } }, { teamGrants: { some: { team: { members: { some: { userId } } } } } }] };
}

/** The strongest level among the grants read with a site (undefined: they were not read). */
export function grantedLevel(site: ViewerGrants): Role | null | undefined {
  if (!site.userGrants || !site.teamGrants) return undefined;
  return [...site.userGrants, ...site.teamGrants].reduce<Role | null>((best, g) => strongest(best, g.role), null);
}

/** The site as its rules see it (site.policy.ts), with the caller's grants read alongside. */
export const siteRecord = (site: Pick<Site, 'id' | 'createdById'> & ViewerGrants) => ({ id: site.id, createdById: site.createdById, granted: grantedLevel(site) });

export interface SiteAccess {
  site: Site;
  actor: SiteActor;
}

/**
 * Loads a site of the organization and authorizes `action` on it (site.policy.ts): callers outside the
 * organization, unknown sites and sites of other organizations are the same 404. One statement: the site
 * with the caller's grants on it and, unless the request holds it already, its organization with what
 * `organizationAccess` reads (the caller's membership, the collection tree), which primes that loader.
 * `query` adds relations the answer needs to the site's statement; `level` is the level an access-list
 * action gives or takes.
 */
export async function siteFor(ctx: Context, organizationId: string, siteId: string, action: SiteAction, query?: object, level?: Role | null): Promise<SiteAccess> {
  // The organization rides along unless it is known already (or `query` reads the relation itself).
  const withAccess = ctx.loaders.organizationAccess.peek(organizationId) === undefined && !namesOrganization(query as ItemQuery | undefined);
  const relations = withAccess ? { ...viewerGrantsOn(ctx), organization: { include: organizationAccessInclude(ctx.viewer) } } : viewerGrantsOn(ctx);
  const row = await ctx.db.site.findFirst({
    relationLoadStrategy: 'join',
    where: { id: siteId, organizationId },
    ...(withRelations(query as ItemQuery | undefined, relations) as Prisma.SiteDefaultArgs),
  });
  let site: Site | null = row;
  if (row && withAccess) {
    const { organization, ...rest } = row as Site & { organization: unknown };
    primeOrganizationAccess(ctx, organization);
    site = rest as Site;
  }
  const actor = await siteActor(ctx, organizationId);
  if (!site) {
    // Outsiders learn nothing (the policy's 404); members learn the site is not there.
    authorize(sitePolicy, actor, 'read', { id: siteId, createdById: null });
    throw new NotFoundError(sitePolicy.notFound({ id: siteId, createdById: null }));
  }
  authorize(sitePolicy, actor, action, { ...siteRecord(site as Site & ViewerGrants), level });
  return { site, actor };
}

const namesOrganization = (query: ItemQuery | undefined) => Boolean(query && 'organization' in ((query.select ?? query.include ?? {}) as object));

/**
 * `Site.permissions`, from the same policy `siteFor` enforces. The caller's grants come with the site
 * when it was read by `siteFor` or the sites list; otherwise (a site just changed) they are read here,
 * unless the caller's membership alone settles it (admins and the creator hold everything already).
 */
export async function sitePermissions(ctx: Context, site: Site & ViewerGrants) {
  const actor = await siteActor(ctx, site.organizationId);
  let record = siteRecord(site);
  const settled = !isMember(actor.membership) || isAdmin(actor.membership) || site.createdById === actor.userId;
  if (record.granted === undefined && !settled) {
    const withGrants = await ctx.db.site.findUnique({ relationLoadStrategy: 'join', where: { id: site.id }, select: { id: true, createdById: true, ...viewerGrantsOn(ctx) } });
    if (withGrants) record = siteRecord(withGrants);
  }
  return permissionsOf(sitePolicy, actor, record, SITE_PERMISSIONS);
}
