import type { Site, SiteRedirect } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { ConflictError, NotFoundError } from '../../core/errors.ts';
import { paginate, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength, rejectNull } from '../../core/validate.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../lib/ids.ts';
import { siteFor } from './site-access.ts';
import { checkSource, LAYOUT_QUERY, parseDestination, resolveDestination, type SiteWithLayout } from './site-redirect-inputs.ts';
import { destinationPage, destinationUrl, redirectFacts } from './site-redirect-targets.ts';
import { sitePublicationUrl } from './site-urls.ts';
import { visitorSite } from './site-visitors.ts';

/**
 * Site redirects (GitBook's SiteRedirect): rules sending a path of a published site elsewhere, applied
 * by the URL lookup to paths that are no page (published-lookup.ts). Whoever reads the site reads them
 * (other guests 403, outsiders 404, as the site itself); `edit` on the site changes them (site.policy.ts
 * `read` and `edit`). A source has at most one
 * live rule and one draft (`draft`: kept aside until published, see the bulk upsert).
 */

export const REDIRECT_ORDERS: Record<'createdAt' | 'updatedAt' | 'source', SortKey[]> = {
  createdAt: [
    { field: 'createdAt', direction: 'desc', type: 'date' },
    { field: 'id', direction: 'desc' },
  ],
  updatedAt: [
    { field: 'changedAt', direction: 'desc', type: 'date' },
    { field: 'id', direction: 'desc' },
  ],
  source: [
    { field: 'source', direction: 'asc' },
    { field: 'id', direction: 'asc' },
  ],
};

/** GitBook's SiteRedirectDestination of a stored rule. */
export function destinationJson(rule: SiteRedirect): Record<string, unknown> {
  switch (rule.kind) {
    case 'site_section':
      return { kind: 'site-section', siteSectionId: rule.siteSectionId };
    case 'site_space':
      return { kind: 'site-space', siteSpaceId: rule.siteSpaceId };
    case 'site_page':
      return { kind: 'site-page', siteSpaceId: rule.siteSpaceId, pageId: rule.pageId };
    case 'external':
      return { kind: 'external', url: rule.url };
  }
}

const duplicate = (source: string, draft: boolean) => new ConflictError(`A ${draft ? 'draft' : 'live'} redirect from "${source}" already exists in this site`);

export async function listSiteRedirects(
  ctx: Context,
  organizationId: string,
  siteId: string,
  args: ListArgs & { search?: string | null; draft?: boolean | null; orderBy?: string | null },
) {
  const { site } = await siteFor(ctx, organizationId, siteId, 'read');
  const keys = REDIRECT_ORDERS[(args.orderBy ?? 'createdAt') as keyof typeof REDIRECT_ORDERS];
  const where = { siteId: site.id, draft: args.draft ?? false, ...(args.search ? { source: { contains: args.search } } : {}) };
  return paginate({ args, keys, where, model: ctx.db.siteRedirect });
}

type Flags = { captureWildcard?: boolean | null; draft?: boolean | null; permanent?: boolean | null };

export async function createSiteRedirect(ctx: Context, organizationId: string, siteId: string, input: Flags & { source: string; destination: unknown }) {
  const source = checkSource('source', input.source);
  const destination = parseDestination('destination', input.destination, true);
  const site = (await siteFor(ctx, organizationId, siteId, 'edit', LAYOUT_QUERY)).site as Site & SiteWithLayout;
  const stored = await resolveDestination(ctx.db, site, 'destination', destination);
  const now = ctx.clock.now();
  const draft = input.draft ?? false;
  try {
    return await ctx.db.siteRedirect.create({
      data: { id: newId(), siteId: site.id, source, draft, captureWildcard: input.captureWildcard ?? false, permanent: input.permanent ?? false, ...stored, createdAt: now, changedAt: now },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(source, draft);
    throw error;
  }
}

async function findRule(ctx: Context, siteId: string, siteRedirectId: string) {
  const rule = await ctx.db.siteRedirect.findFirst({ where: { id: siteRedirectId, siteId } });
  if (!rule) throw new NotFoundError(`Site redirect "${siteRedirectId}" not found in this site`);
  return rule;
}

/** `PATCH …/redirects/{id}`: only what is given changes (`draft: false` makes a draft live). */
export async function updateSiteRedirect(
  ctx: Context,
  organizationId: string,
  siteId: string,
  siteRedirectId: string,
  input: Flags & { source?: string | null; destination?: unknown },
) {
  for (const field of ['source', 'captureWildcard', 'draft', 'permanent', 'destination'] as const) rejectNull(field, input[field]);
  const source = input.source === undefined ? undefined : checkSource('source', input.source);
  const destination = input.destination === undefined ? undefined : parseDestination('destination', input.destination, false);
  const site = (await siteFor(ctx, organizationId, siteId, 'edit', LAYOUT_QUERY)).site as Site & SiteWithLayout;
  const rule = await findRule(ctx, site.id, siteRedirectId);
  const stored = destination ? await resolveDestination(ctx.db, site, 'destination', destination) : {};
  const now = ctx.clock.now();
  try {
    return await ctx.db.siteRedirect.update({
      where: { id: rule.id },
      data: {
        source,
        draft: input.draft ?? undefined,
        captureWildcard: input.captureWildcard ?? undefined,
        permanent: input.permanent ?? undefined,
        ...stored,
        updatedAt: now,
        changedAt: now,
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(source ?? rule.source, input.draft ?? rule.draft);
    throw error;
  }
}

/** `DELETE …/redirects/{id}`: true when it deleted one (REST 205), false when there was none (204), as GitBook answers. */
export async function deleteSiteRedirect(ctx: Context, organizationId: string, siteId: string, siteRedirectId: string): Promise<boolean> {
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const { count } = await ctx.db.siteRedirect.deleteMany({ where: { id: siteRedirectId, siteId: site.id } });
  return count > 0;
}

/**
 * `GET …/redirect?source=` (GitBook's getSiteRedirectBySource): the rule with exactly this source — the
 * live one, else the draft — and the URL it leads to now; 404 when there is none. The site's members
 * read it; so does the holder of the site's apiToken (live rules only), as a renderer does on a page
 * not found. One statement reads the site with its sections, site spaces and the rule; a page
 * destination's path is one more.
 */
export async function siteRedirectBySource(ctx: Context, organizationId: string, siteId: string, source: string, shareKey?: string | null) {
  checkSource('source', source);
  checkLength('shareKey', shareKey, 1, 256);
  const rules = { redirects: { where: { source, ...(ctx.siteReader ? { draft: false } : {}) }, orderBy: { draft: 'asc' as const }, take: 1 } };
  const query = { include: { ...LAYOUT_QUERY.include, ...rules } };
  const site = ctx.siteReader
    ? await ctx.db.site.findUniqueOrThrow({ where: { id: (await visitorSite(ctx, organizationId, siteId)).id }, ...query })
    : (await siteFor(ctx, organizationId, siteId, 'read', query)).site;
  const { redirects, ...layout } = site as typeof site & SiteWithLayout & { redirects: SiteRedirect[] };
  const [rule] = redirects;
  if (!rule) throw new NotFoundError(`No redirect from "${source}" in this site`);
  const page = destinationPage(layout, rule);
  const pagePath = page ? (await redirectFacts(ctx.db, null, page)).targetPath : null;
  const query_ = shareKey && site.visibility === 'share_link' ? `?shareKey=${encodeURIComponent(shareKey)}` : '';
  const target = destinationUrl(`${sitePublicationUrl(ctx.config, site)}/`, layout, rule, pagePath, '', query_) ?? `${sitePublicationUrl(ctx.config, site)}/`;
  return { redirect: rule, target };
}
