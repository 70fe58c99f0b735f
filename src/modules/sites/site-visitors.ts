import type { Site } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import { checkLength } from '../../core/validate.ts';
import { isMember } from '../organizations/index.ts';
import { siteActor } from './site-access.ts';
import { sitePolicy } from './site.policy.ts';

/**
 * A site as its audience reaches it (`GET …/published`, `GET …/sections`): its organization's members
 * with a role always, its guests never (403: they see only what was shared with them — a published site
 * reaches them as readers, through published content); anyone else (any caller with a token) only once
 * it is published — a `public` or `unlisted`
 * site as it is, a `share-link` site with the key of one of its active share links (`shareKey`). A
 * `visitor-auth` site needs a visitor's JWT, which this server does not take: members only. Everyone
 * else gets the 404 of an unknown site, whether or not the organization or the site exists.
 */
export async function visitorSite(ctx: Context, organizationId: string, siteId: string, shareKey?: string | null): Promise<Site> {
  checkLength('shareKey', shareKey, 1, 256);
  const [actor, site] = await Promise.all([siteActor(ctx, organizationId), ctx.db.site.findFirst({ where: { id: siteId, organizationId } })]);
  const notFound = new NotFoundError(sitePolicy.notFound({ id: siteId, createdById: null }));
  if (isMember(actor.membership)) {
    authorize(sitePolicy, actor, 'read', site ?? { id: siteId, createdById: null });
    if (!site) throw notFound;
    return site;
  }
  if (!site?.published) throw notFound;
  if (site.visibility === 'public' || site.visibility === 'unlisted') return site;
  if (site.visibility === 'share_link' && shareKey) {
    const link = await ctx.db.shareLink.findFirst({ where: { siteId: site.id, key: shareKey, active: true }, select: { id: true } });
    if (link) return site;
  }
  throw notFound;
}
