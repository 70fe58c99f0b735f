import type { Prisma, Site, SiteType } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, ConflictError } from '../../core/errors.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, withRelations, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkArraySize } from '../../core/validate.ts';
import { organizationForMember, hasRole } from '../organizations/index.ts';
import { grantedToViewer, siteActor, siteFor, viewerGrantsOn } from './site-access.ts';
import { checkBasename, checkDistinct, checkHostname, checkProxy, checkSiteTitle, fromApiSiteType, fromApiSiteVisibility } from './site-inputs.ts';
import { lockSite, readNavigation } from './site-navigation.ts';
import { sitePolicy } from './site.policy.ts';
import { addSections, readableSpaces } from './site-section.service.ts';

export const SITE_ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'id', direction: 'asc' },
];

/** Spaces a site may publish at once when it is created. */
export const MAX_SITE_SPACES = 100;

export interface SiteListFilters {
  space?: string | null;
  title?: string | null;
  published?: boolean | null;
  type?: string[] | null;
}

/**
 * `GET /orgs/{o}/sites`: members with a role see every site, guests those granted to them (directly or
 * through a team; none: an empty list); filtered by a published space, a title fragment, publication and
 * type. Each site comes with the caller's grants on it (joins), for its `permissions`.
 */
export async function listSites(ctx: Context, organizationId: string, args: ListArgs & SiteListFilters, query?: ItemQuery) {
  await organizationForMember(ctx, organizationId);
  const actor = await siteActor(ctx, organizationId);
  authorize(sitePolicy, actor, 'list', { id: '', createdById: null });
  const where: Prisma.SiteWhereInput = { organizationId };
  if (!hasRole(actor.membership)) where.AND = [grantedToViewer(ctx)];
  if (args.space) where.siteSpaces = { some: { spaceId: args.space } };
  if (args.title) where.title = { contains: args.title, mode: 'insensitive' };
  if (args.published !== undefined && args.published !== null) where.published = args.published;
  if (args.type) where.type = { in: args.type.map(fromApiSiteType) };
  return paginate({ args, keys: SITE_ORDER, where, model: ctx.db.site, query: withRelations(query, viewerGrantsOn(ctx)) });
}

export async function getSite(ctx: Context, organizationId: string, siteId: string, query?: ItemQuery) {
  return (await siteFor(ctx, organizationId, siteId, 'read', query)).site;
}

export interface CreateSiteInput {
  type?: string | null;
  title?: string | null;
  visibility?: string | null;
  spaces?: string[] | null;
}

/**
 * `POST /orgs/{o}/sites`: members with the `create` role. Each of `spaces` (of the organization, readable
 * by the caller) becomes a section of the site, the first the default one. A site starts unpublished.
 */
export async function createSite(ctx: Context, organizationId: string, input: CreateSiteInput, query?: ItemQuery): Promise<Site> {
  checkSiteTitle(input.title);
  const spaceIds = input.spaces ?? [];
  checkArraySize('spaces', spaceIds, 0, MAX_SITE_SPACES);
  checkDistinct('spaces', spaceIds);
  const actor = await siteActor(ctx, organizationId);
  authorize(sitePolicy, actor, 'create', { id: '', createdById: null });
  const spaces = await readableSpaces(ctx, organizationId, spaceIds, 'spaces');
  const now = ctx.clock.now();
  const id = newId();
  await ctx.db.$transaction(async (tx) => {
    await tx.site.create({
      data: {
        id,
        organizationId,
        type: (input.type ? fromApiSiteType(input.type) : 'basic') as SiteType,
        title: input.title ?? 'Untitled site',
        visibility: input.visibility ? fromApiSiteVisibility(input.visibility) : 'public',
        createdById: actor.userId,
        createdAt: now,
        updatedAt: now,
      },
    });
    await addSections(tx, { id, organizationId }, await readNavigation(tx, id), spaces, now);
  }, TRANSACTION_OPTIONS);
  return getSite(ctx, organizationId, id, query);
}

export interface UpdateSiteInput {
  title?: string | null;
  visibility?: string | null;
  basename?: string | null;
  adaptiveContent?: { enabled: boolean } | null;
  defaultSiteSpace?: string | null;
  defaultSiteSection?: string | null;
  proxy?: string | null;
  hostname?: string | null;
}

/**
 * `PATCH /orgs/{o}/sites/{siteId}`: `edit` on the site. `proxy: null`, `basename: null` and
 * `hostname: null` remove them. A hostname is unique among all sites (409 otherwise): requests on it are
 * the site's (modules/reader/).
 */
export async function updateSite(ctx: Context, organizationId: string, siteId: string, input: UpdateSiteInput, query?: ItemQuery): Promise<Site> {
  checkSiteTitle(input.title);
  checkBasename(input.basename);
  checkProxy(input.proxy);
  checkHostname(input.hostname, [ctx.config.publicUrl, ctx.config.publishedUrl]);
  for (const field of ['visibility', 'adaptiveContent', 'defaultSiteSpace', 'defaultSiteSection'] as const) {
    if (input[field] === null) throw new BadRequestError(`Invalid "${field}": must not be null`);
  }
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const now = ctx.clock.now();
  try {
    await ctx.db.$transaction(async (tx) => {
      await lockSite(tx, site.id);
      if (input.defaultSiteSection || input.defaultSiteSpace) await setDefaults(tx, site.id, input);
      await tx.site.update({
        where: { id: site.id },
        data: {
          title: input.title ?? undefined,
          visibility: input.visibility ? fromApiSiteVisibility(input.visibility) : undefined,
          basename: input.basename,
          proxy: input.proxy,
          hostname: input.hostname,
          adaptiveContentEnabled: input.adaptiveContent ? input.adaptiveContent.enabled : undefined,
          updatedAt: now,
        },
      });
    }, TRANSACTION_OPTIONS);
  } catch (error) {
    if (isUniqueViolation(error)) {
      const taken = input.hostname ? await ctx.db.site.count({ where: { hostname: input.hostname, NOT: { id: site.id } } }) : 0;
      if (taken) throw new ConflictError(`Invalid "hostname": "${input.hostname}" is another site's`);
      throw new ConflictError(`Invalid "basename": another site of this organization is named "${input.basename}"`);
    }
    throw error;
  }
  return getSite(ctx, organizationId, site.id, query);
}

/**
 * `defaultSiteSection` makes a section of the site its default; `defaultSiteSpace` makes a site space
 * the default of its section, and that section the site's default. Anything not of this site is a 400.
 */
async function setDefaults(tx: Prisma.TransactionClient, siteId: string, input: UpdateSiteInput) {
  let sectionId = input.defaultSiteSection ?? null;
  if (input.defaultSiteSpace) {
    const siteSpace = await tx.siteSpace.findFirst({ where: { id: input.defaultSiteSpace, siteId }, select: { id: true, sectionId: true } });
    if (!siteSpace?.sectionId) throw new BadRequestError(`Invalid "defaultSiteSpace": no site space "${input.defaultSiteSpace}" in this site`);
    if (sectionId && sectionId !== siteSpace.sectionId) {
      throw new BadRequestError('Invalid "defaultSiteSpace": it belongs to another section than "defaultSiteSection"');
    }
    sectionId = siteSpace.sectionId;
    await tx.siteSpace.updateMany({ where: { sectionId, isDefault: true }, data: { isDefault: false } });
    await tx.siteSpace.update({ where: { id: siteSpace.id }, data: { isDefault: true } });
  }
  const section = sectionId ? await tx.siteSection.findFirst({ where: { id: sectionId, siteId }, select: { id: true } }) : null;
  if (!section) throw new BadRequestError(`Invalid "defaultSiteSection": no section "${sectionId}" in this site`);
  await tx.siteSection.updateMany({ where: { siteId, isDefault: true }, data: { isDefault: false } });
  await tx.siteSection.update({ where: { id: section.id }, data: { isDefault: true } });
}

/** `DELETE /orgs/{o}/sites/{siteId}`: the site with its sections, groups, site spaces and share links. */
export async function deleteSite(ctx: Context, organizationId: string, siteId: string): Promise<boolean> {
  const { site } = await siteFor(ctx, organizationId, siteId, 'admin');
  await ctx.db.site.deleteMany({ where: { id: site.id } });
  return true;
}

/** `POST …/publish` and `…/unpublish` (GitBook's publishSite, unpublishSite): the site goes live, or not. */
export async function setPublished(ctx: Context, organizationId: string, siteId: string, published: boolean, query?: ItemQuery): Promise<Site> {
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  await ctx.db.site.update({ where: { id: site.id }, data: { published, updatedAt: ctx.clock.now() } });
  return getSite(ctx, organizationId, site.id, query);
}
