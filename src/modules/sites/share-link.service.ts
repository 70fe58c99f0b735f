import { randomBytes } from 'node:crypto';
import type { Context } from '../../core/context.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { siteFor } from './site-access.ts';
import { checkShareLinkName } from './site-inputs.ts';

/**
 * Share links open a `share-link` site to whoever holds one: each has a secret key (256 random bits,
 * base64url) that `GET …/published` and `GET …/sections` take as `shareKey`, and that its
 * `urls.published` carries. A key is a credential: those who may change the site (`edit`) alone list, create, change and
 * delete share links (other members 403); an inactive link opens nothing.
 */
export const SHARE_LINK_ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'id', direction: 'asc' },
];

export async function listShareLinks(ctx: Context, organizationId: string, siteId: string, args: ListArgs) {
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const page = await paginate({ args, keys: SHARE_LINK_ORDER, where: { siteId: site.id }, model: ctx.db.shareLink });
  return { ...page, items: page.items.map((link) => ({ ...link, site })) };
}

export async function createShareLink(ctx: Context, organizationId: string, siteId: string, input: { name: string }) {
  checkShareLinkName(input.name);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  return ctx.db.shareLink.create({
    data: { id: newId(), siteId: site.id, name: input.name, key: randomBytes(32).toString('base64url'), createdAt: ctx.clock.now() },
    include: { site: true },
  });
}

async function findLink(ctx: Context, siteId: string, shareLinkId: string) {
  const link = await ctx.db.shareLink.findFirst({ where: { id: shareLinkId, siteId }, include: { site: true } });
  if (!link) throw new NotFoundError(`Share link "${shareLinkId}" not found in this site`);
  return link;
}

/** `PATCH …/share-links/{id}`: `active` and `name`; at least one (GitBook's rule). */
export async function updateShareLink(ctx: Context, organizationId: string, siteId: string, shareLinkId: string, input: { active?: boolean | null; name?: string | null }) {
  if (input.active === undefined && input.name === undefined) throw new BadRequestError('Invalid body: give "active", "name" or both');
  if (input.active === null) throw new BadRequestError('Invalid "active": must not be null');
  if (input.name !== undefined) checkShareLinkName(input.name);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const link = await findLink(ctx, site.id, shareLinkId);
  return ctx.db.shareLink.update({ where: { id: link.id }, data: { active: input.active ?? undefined, name: input.name ?? undefined }, include: { site: true } });
}

export async function deleteShareLink(ctx: Context, organizationId: string, siteId: string, shareLinkId: string): Promise<boolean> {
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const link = await findLink(ctx, site.id, shareLinkId);
  await ctx.db.shareLink.deleteMany({ where: { id: link.id } });
  return true;
}
