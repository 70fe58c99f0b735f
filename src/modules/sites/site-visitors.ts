import type { Site } from '../../generated/prisma/client.ts';
import type { Context, SiteReader } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { checkLength } from '../../core/validate.ts';
import { siteFor, type ViewerGrants } from './site-access.ts';
import { sitePolicy } from './site.policy.ts';
import { siteOpenTo } from './site-readers.ts';

/**
 * A site as the holder of its `apiToken` reads it (site-readers.ts): their own site only, while it is
 * open to them (published; the share link still active; the visitor-auth key the same).
 */
async function siteForReader(ctx: Context, reader: SiteReader, organizationId: string, siteId: string): Promise<Site> {
  const notFound = new NotFoundError(sitePolicy.notFound({ id: siteId, createdById: null }));
  if (reader.siteId !== siteId || reader.organizationId !== organizationId) throw notFound;
  const site = await ctx.db.site.findUnique({
    where: { id: siteId },
    include: { shareLinks: { where: { key: reader.shareKey ?? '', active: true }, select: { id: true } } },
  });
  if (!site || !siteOpenTo({ ...site, shareLinkActive: site.shareLinks.length > 0 }, reader)) throw notFound;
  const { shareLinks: _links, ...row } = site;
  return row;
}

/**
 * A site as `GET …/published`, `…/structure`, `…/sections` and `…/site-spaces` read it: for the holder
 * of its `apiToken`, the site as published to them (site-readers.ts: the sections and variants their
 * claims open, nothing else); otherwise these are management routes, for the organization's members who
 * may read the site and those granted it (site.policy.ts `read`; other guests get 403). Anyone else gets
 * the 404 of an unknown site, whether or not the site exists or is published: a published site's public
 * view is the published API's (the URL lookup, its apiToken, `publishedPage`), with the visitor's claims
 * applied, never a management route's (issue 36 §2). `shareKey` is GitBook's parameter of these routes;
 * a share-link site's visitor brings its key in the apiToken the lookup gave them.
 */
export async function visitorSite(ctx: Context, organizationId: string, siteId: string, shareKey?: string | null): Promise<Site> {
  checkLength('shareKey', shareKey, 1, 256);
  if (ctx.siteReader) return siteForReader(ctx, ctx.siteReader, organizationId, siteId);
  const { site } = await siteFor(ctx, organizationId, siteId, 'read');
  const { userGrants: _user, teamGrants: _teams, ...row } = site as Site & ViewerGrants;
  return row;
}
