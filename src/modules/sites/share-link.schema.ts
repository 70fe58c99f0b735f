import type { ShareLink, Site } from '../../generated/prisma/client.ts';
import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listType } from '../../graphql/list.ts';
import { createShareLink, deleteShareLink, listShareLinks, updateShareLink } from './share-link.service.ts';
import { sitePath } from './site.schema.ts';
import { sitePublicationUrl } from './site-urls.ts';

const ShareLinkUrls = builder.simpleObject('ShareLinkUrls', {
  fields: (t) => ({
    published: t.string({
      description: "The site's address with the link's key: opens a share-link site once it is published",
      extensions: constrained({ format: 'uri' }),
    }),
  }),
});

/** Share links are read with their site (their URL is the site's). */
const ShareLinkRef = builder.objectRef<ShareLink & { site: Site }>('ShareLink').implement({
  description: 'A secret link to a share-link site',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['share-link'] }), resolve: () => 'share-link' }),
    id: t.exposeString('id'),
    name: t.string({ nullable: true, resolve: (l) => l.name }),
    active: t.exposeBoolean('active', { description: 'An inactive link opens nothing' }),
    createdAt: t.field({ type: 'DateTime', resolve: (l) => l.createdAt }),
    urls: t.field({
      type: ShareLinkUrls,
      resolve: (l, _args, ctx) => ({ published: `${sitePublicationUrl(ctx.config, l.site)}?shareKey=${encodeURIComponent(l.key)}` }),
    }),
  }),
});
const ShareLinkList = listType('ShareLink', ShareLinkRef);
const nameBounds = constrained({ maxLength: 50 });
const linkPath = builder.args((t) => ({ ...sitePath, shareLinkId: t.string({ required: true, description: 'ID of the share link' }) }));

builder.queryFields((t) => ({
  siteShareLinks: t.field({
    type: ShareLinkList,
    description: "A site's share links, oldest first (edit on the site)",
    args: { ...sitePath, ...listArgs },
    resolve: (_root, { organizationId, siteId, ...args }, ctx) => listShareLinks(ctx, organizationId, siteId, args),
  }),
}));

builder.mutationFields((t) => ({
  createSiteShareLink: t.field({
    type: ShareLinkRef,
    description: 'Create a share link, active (edit on the site)',
    args: { ...sitePath, name: t.arg.string({ required: true, description: 'At most 50 characters', extensions: nameBounds }) },
    resolve: (_root, { organizationId, siteId, name }, ctx) => createShareLink(ctx, organizationId, siteId, { name }),
  }),
  updateSiteShareLink: t.field({
    type: ShareLinkRef,
    description: 'Activate, deactivate or rename a share link (edit on the site)',
    args: { ...linkPath, active: t.arg.boolean({ description: 'false: the link opens nothing' }), name: t.arg.string({ description: 'At most 50 characters', extensions: nameBounds }) },
    resolve: (_root, { organizationId, siteId, shareLinkId, ...input }, ctx) => updateShareLink(ctx, organizationId, siteId, shareLinkId, input),
  }),
  deleteSiteShareLink: t.boolean({
    description: 'Delete a share link (edit on the site)',
    args: linkPath,
    resolve: (_root, args, ctx) => deleteShareLink(ctx, args.organizationId, args.siteId, args.shareLinkId),
  }),
}));
