import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { checkLength } from '../../core/validate.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { conditionHolds } from './adaptive-content.ts';
import { checkOverride, patchedOverride, siteSpaceCustomizationOf } from './site-customization.ts';
import { siteFor } from './site-access.ts';
import { visitorSite } from './site-visitors.ts';

/**
 * A site space's (variant's) customization overrides (GitBook's get/override/deleteSiteSpaceCustomizationById):
 * a partial customization stored on the site space, shown over the site's own. A PATCH merges into what
 * is stored, key by key; a `null` removes that override. Reads follow the site's (its readers
 * and the holder of its apiToken, for site spaces they may see); writes need `edit` on the site.
 */

const siteSpaceSelect = { id: true, customization: true, condition: true, section: { select: { condition: true } } } as const;

function notFound(siteSpaceId: string) {
  return new NotFoundError(`Site space "${siteSpaceId}" not found`);
}

export async function getSiteSpaceCustomization(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string) {
  checkLength('siteSpaceId', siteSpaceId, 1, 64);
  const reader = ctx.siteReader;
  if (reader) {
    const [site, siteSpace] = await Promise.all([
      visitorSite(ctx, organizationId, siteId),
      ctx.db.siteSpace.findFirst({ where: { id: siteSpaceId, siteId }, select: siteSpaceSelect }),
    ]);
    const visible = siteSpace && conditionHolds(siteSpace.condition, reader.claims) && conditionHolds(siteSpace.section?.condition, reader.claims);
    if (!visible) throw notFound(siteSpaceId);
    return siteSpaceCustomizationOf(site, siteSpace);
  }
  // The site space rides in the site's statement.
  const { site } = await siteFor(ctx, organizationId, siteId, 'read', { include: { siteSpaces: { where: { id: siteSpaceId }, select: siteSpaceSelect } } });
  const [siteSpace] = (site as typeof site & { siteSpaces: { customization: unknown }[] }).siteSpaces;
  if (!siteSpace) throw notFound(siteSpaceId);
  return siteSpaceCustomizationOf(site, siteSpace);
}

export async function overrideSiteSpaceCustomization(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string, patch: Record<string, unknown>) {
  checkLength('siteSpaceId', siteSpaceId, 1, 64);
  checkOverride(patch);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  // Read and write under the row's lock: two overrides at once both land, neither erases the other.
  const updated = await ctx.db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ customization: Record<string, unknown> | null }[]>`
      SELECT "customization" FROM "SiteSpace" WHERE "id" = ${siteSpaceId} AND "siteId" = ${site.id} FOR UPDATE`;
    if (rows.length === 0) throw notFound(siteSpaceId);
    const next = patchedOverride(rows[0].customization ?? {}, patch);
    const stored = Object.keys(next).length > 0 ? JSON.stringify(next) : null;
    await tx.$executeRaw`UPDATE "SiteSpace" SET "customization" = ${stored}::jsonb WHERE "id" = ${siteSpaceId}`;
    return { customization: stored === null ? null : next };
  }, TRANSACTION_OPTIONS);
  return siteSpaceCustomizationOf(site, updated);
}

/** Removes a site space's overrides: whether there were any (GitBook answers 205 then, 204 otherwise). */
export async function deleteSiteSpaceCustomization(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string): Promise<boolean> {
  checkLength('siteSpaceId', siteSpaceId, 1, 64);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const rows = await ctx.db.$queryRaw<{ had: boolean }[]>`
    UPDATE "SiteSpace" AS s SET "customization" = NULL
    FROM (SELECT "id", "customization" IS NOT NULL AS had FROM "SiteSpace" WHERE "id" = ${siteSpaceId} AND "siteId" = ${site.id} FOR UPDATE) AS old
    WHERE s."id" = old."id" RETURNING old.had`;
  if (rows.length === 0) throw notFound(siteSpaceId);
  return rows[0].had;
}
