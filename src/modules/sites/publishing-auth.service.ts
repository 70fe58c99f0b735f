import { randomBytes } from 'node:crypto';
import type { Site } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { BadRequestError } from '../../core/errors.ts';
import { checkLength } from '../../core/validate.ts';
import { siteFor } from './site-access.ts';

/**
 * Visitor authentication of a site (GitBook's `SitePublishingAuth`): a `visitor-auth` site is read by
 * visitors holding a JWT signed (HS256) with the site's private key by the site's own backend, which
 * visitors without one are sent to (`fallbackURL`). The key is a credential: only those who may change the site
 * read it; regenerating it makes every token signed with the old one worthless at once.
 */
export interface PublishingAuth {
  object: 'publishing-auth';
  backend: 'custom';
  privateKey: string;
  fallbackURL?: string;
  logoutURL?: string;
}

const newKey = () => randomBytes(32).toString('base64url');

function publishingAuthOf(site: Pick<Site, 'publishingAuthKey' | 'publishingAuthFallbackUrl' | 'publishingAuthLogoutUrl'>, key: string): PublishingAuth {
  return {
    object: 'publishing-auth',
    backend: 'custom',
    privateKey: key,
    ...(site.publishingAuthFallbackUrl ? { fallbackURL: site.publishingAuthFallbackUrl } : {}),
    ...(site.publishingAuthLogoutUrl ? { logoutURL: site.publishingAuthLogoutUrl } : {}),
  };
}

/** The site's key, made on first use (one conditional update: two first readers get the same key). */
async function ensureKey(ctx: Context, site: Site): Promise<Site> {
  if (site.publishingAuthKey) return site;
  await ctx.db.site.updateMany({ where: { id: site.id, publishingAuthKey: null }, data: { publishingAuthKey: newKey() } });
  return ctx.db.site.findUniqueOrThrow({ where: { id: site.id } });
}

export async function getPublishingAuth(ctx: Context, organizationId: string, siteId: string): Promise<PublishingAuth> {
  const site = await ensureKey(ctx, (await siteFor(ctx, organizationId, siteId, 'edit')).site);
  return publishingAuthOf(site, site.publishingAuthKey!);
}

/** An absolute http(s) URL of at most 2048 characters, or null to clear it; 400 naming the field. */
function checkUrl(field: string, value: string | null | undefined): void {
  if (value === null || value === undefined) return;
  checkLength(field, value, 1, 2048);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BadRequestError(`Invalid "${field}": an absolute URL is expected`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new BadRequestError(`Invalid "${field}": an http or https URL is expected`);
}

export async function updatePublishingAuth(
  ctx: Context,
  organizationId: string,
  siteId: string,
  input: { backend?: string | null; fallbackURL?: string | null; logoutURL?: string | null },
): Promise<PublishingAuth> {
  if (input.backend !== undefined && input.backend !== null && input.backend !== 'custom') {
    throw new BadRequestError('Invalid "backend": only "custom" is supported (no integration provides visitor authentication here)');
  }
  checkUrl('fallbackURL', input.fallbackURL);
  checkUrl('logoutURL', input.logoutURL);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const updated = await ctx.db.site.update({
    where: { id: site.id },
    data: {
      publishingAuthKey: site.publishingAuthKey ?? newKey(),
      ...(input.fallbackURL !== undefined ? { publishingAuthFallbackUrl: input.fallbackURL } : {}),
      ...(input.logoutURL !== undefined ? { publishingAuthLogoutUrl: input.logoutURL } : {}),
    },
  });
  return publishingAuthOf(updated, updated.publishingAuthKey!);
}

export async function regeneratePublishingAuth(ctx: Context, organizationId: string, siteId: string): Promise<PublishingAuth> {
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const updated = await ctx.db.site.update({ where: { id: site.id }, data: { publishingAuthKey: newKey() } });
  return publishingAuthOf(updated, updated.publishingAuthKey!);
}
