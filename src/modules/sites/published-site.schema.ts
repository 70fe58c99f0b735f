import type { Site, SiteSection } from '../../generated/prisma/client.ts';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { SITE_CUSTOMIZATION_SHAPE, siteCustomization } from './published-site.ts';
import { shareKeyBounds, SiteSectionRef } from './site-section.schema.ts';
import { SiteRef, sitePath } from './site.schema.ts';
import { visitorSite } from './site-visitors.ts';

interface PublishedSite {
  site: Site;
  sections: SiteSection[];
}

const SiteStructure = builder.simpleObject('PublishedSiteStructure', {
  fields: (t) => ({ type: t.string({ description: 'Always `sections`' }), structure: t.field({ type: [SiteSectionRef], description: 'The sections, in navigation order' }) }),
});

const PublishedSiteRef = builder.objectRef<PublishedSite>('PublishedContentSite').implement({
  description: 'What a published site shows: the site, its sections and its customization',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['published-content-site'] }), resolve: () => 'published-content-site' }),
    site: t.field({ type: SiteRef, resolve: (p) => p.site }),
    structure: t.field({ type: SiteStructure, resolve: (p) => ({ type: 'sections', structure: p.sections }) }),
    customizations: t.field({
      type: 'JSON',
      description: "{ site, siteSpaces }: the site's customization (its title, GitBook's defaults for the rest); none per site space",
      extensions: shaped({
        type: 'object',
        required: ['site', 'siteSpaces'],
        properties: { site: SITE_CUSTOMIZATION_SHAPE, siteSpaces: { type: 'object', additionalProperties: SITE_CUSTOMIZATION_SHAPE } },
      }),
      resolve: (p) => ({ site: siteCustomization(p.site), siteSpaces: {} }),
    }),
    scripts: t.field({
      type: 'JSON',
      description: 'Integration scripts (none)',
      // GitBook's `SiteIntegrationScript`: the list is always empty here.
      extensions: shaped({
        type: 'array',
        items: {
          type: 'object',
          required: ['script', 'cookies'],
          properties: { script: { type: 'string', format: 'uri' }, contentSecurityPolicy: { type: 'string' }, cookies: { type: 'boolean' } },
        },
      }),
      resolve: () => [],
    }),
  }),
});

builder.queryFields((t) => ({
  publishedSite: t.field({
    type: PublishedSiteRef,
    description: "A site as its audience sees it: members; anyone once it is published for them (a share-link site: with shareKey)",
    args: { ...sitePath, shareKey: t.arg.string({ description: 'Key of an active share link of a share-link site', extensions: shareKeyBounds }) },
    resolve: async (_root, { organizationId, siteId, shareKey }, ctx, info) => {
      const found = await visitorSite(ctx, organizationId, siteId, shareKey);
      // The site and its sections with what the selection needs of them, in two statements.
      const [site, sections] = await Promise.all([
        ctx.db.site.findUniqueOrThrow({ where: { id: found.id }, ...(queryFromInfo({ context: ctx, info, path: ['site'] }) as object) }),
        ctx.db.siteSection.findMany({
          relationLoadStrategy: 'join',
          where: { siteId: found.id },
          orderBy: [{ position: 'asc' }, { id: 'asc' }],
          ...(queryFromInfo({ context: ctx, info, path: ['structure', 'structure'] }) as object),
        }),
      ]);
      return { site, sections };
    },
  }),
}));
