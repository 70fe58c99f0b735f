import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { getPublishingAuth, regeneratePublishingAuth, updatePublishingAuth, type PublishingAuth } from './publishing-auth.service.ts';
import { sitePath } from './site.schema.ts';

const PublishingAuthRef = builder.objectRef<PublishingAuth>('SitePublishingAuth').implement({
  description: "Visitor authentication of a site: the key visitors' JWTs are signed with (HS256) and where visitors without one go",
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['publishing-auth'] }), resolve: () => 'publishing-auth' }),
    backend: t.string({ extensions: constrained({ enum: ['custom'] }), description: 'custom: the site owner\'s own backend signs visitor tokens', resolve: (a) => a.backend }),
    privateKey: t.exposeString('privateKey', { description: 'The signing key of visitor tokens (a credential)' }),
    fallbackURL: t.string({ nullable: true, description: 'Where a visitor without a valid token is sent', extensions: constrained({ format: 'uri' }), resolve: (a) => a.fallbackURL ?? null }),
    logoutURL: t.string({ nullable: true, description: 'Where the upstream backend logs visitors out', extensions: constrained({ format: 'uri' }), resolve: (a) => a.logoutURL ?? null }),
  }),
});

const urlBounds = constrained({ maxLength: 2048, format: 'uri' });

builder.queryFields((t) => ({
  sitePublishingAuth: t.field({
    type: PublishingAuthRef,
    description: "A site's visitor authentication, its key made on first read (edit on the site)",
    args: sitePath,
    resolve: (_root, { organizationId, siteId }, ctx) => getPublishingAuth(ctx, organizationId, siteId),
  }),
}));

builder.mutationFields((t) => ({
  updateSitePublishingAuth: t.field({
    type: PublishingAuthRef,
    description: "Change where visitors authenticate and log out (edit on the site); null clears a URL",
    args: {
      ...sitePath,
      backend: t.arg.string({ description: 'custom (the only backend here)', extensions: constrained({ enum: ['custom'] }) }),
      fallbackURL: t.arg.string({ description: 'Where a visitor without a valid token is sent', extensions: urlBounds }),
      logoutURL: t.arg.string({ description: 'Where the upstream backend logs visitors out', extensions: urlBounds }),
    },
    resolve: (_root, { organizationId, siteId, ...input }, ctx) => updatePublishingAuth(ctx, organizationId, siteId, input),
  }),
  regenerateSitePublishingAuth: t.field({
    type: PublishingAuthRef,
    description: "A new signing key: visitor tokens signed with the old one stop working at once (edit on the site)",
    args: sitePath,
    resolve: (_root, { organizationId, siteId }, ctx) => regeneratePublishingAuth(ctx, organizationId, siteId),
  }),
}));
