import type { Site } from '../../generated/prisma/client.ts';
import type { Context, SiteReader } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import { checkLength } from '../../core/validate.ts';
import { isMember } from '../organizations/index.ts';
import { siteActor, siteRecord, viewerGrantsOn } from './site-access.ts';
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
 * A site as its audience reaches it (`GET …/published`, `GET …/sections`): its organization's members
 * who may read it (site.policy.ts: members with a role, and guests given a level on it; other guests
 * get 403 — a published site reaches them as readers, through published content); anyone else (any
 * caller with a token) only once it is published — a `public` or `unlisted` site as it is, a `share-link` site with the key of one of its active share links (`shareKey`). A
 * `visitor-auth` site needs a visitor's JWT, which this server does not take: members only. Everyone
 * else gets the 404 of an unknown site, whether or not the organization or the site exists.
 */
export async function visitorSite(ctx: Context, organizationId: string, siteId: string, shareKey?: string | null): Promise<Site> {
  checkLength('shareKey', shareKey, 1, 256);
  if (ctx.siteReader) return siteForReader(ctx, ctx.siteReader, organizationId, siteId);
  const [actor, found] = await Promise.all([
    siteActor(ctx, organizationId),
    ctx.db.site.findFirst({ relationLoadStrategy: 'join', where: { id: siteId, organizationId }, include: viewerGrantsOn(ctx) }),
  ]);
  const notFound = new NotFoundError(sitePolicy.notFound({ id: siteId, createdById: null }));
  if (isMember(actor.membership)) authorize(sitePolicy, actor, 'read', found ? siteRecord(found) : { id: siteId, createdById: null });
  if (!found) throw notFound;
  const { userGrants: _user, teamGrants: _teams, ...site } = found;
  if (isMember(actor.membership)) return site;
  if (!site.published) throw notFound;
  if (site.visibility === 'public' || site.visibility === 'unlisted') return site;
  if (site.visibility === 'share_link' && shareKey) {
    const link = await ctx.db.shareLink.findFirst({ where: { siteId: site.id, key: shareKey, active: true }, select: { id: true } });
    if (link) return site;
  }
  throw notFound;
}
