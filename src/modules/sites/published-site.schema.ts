import type { Site, SiteSection } from '../../generated/prisma/client.ts';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context, SiteReader } from '../../core/context.ts';
import { withRelations, type ItemQuery } from '../../core/pagination.ts';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { SITE_CUSTOMIZATION_SHAPE } from './published-site.ts';
import { customizationOf, siteSpaceCustomizationOf } from './site-customization.ts';
import { shareKeyBounds, SiteSectionGroupRef, SiteSectionRef } from './site-section.schema.ts';
import { SiteRef, sitePath } from './site.schema.ts';
import { visitorSite } from './site-visitors.ts';
import { viewerGrantsOn } from './site-access.ts';
import { conditionHolds } from './adaptive-content.ts';

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
      description: "{ site, siteSpaces }: the site's customization (over GitBook's defaults), and each site space's that overrides it",
      extensions: shaped({
        type: 'object',
        required: ['site', 'siteSpaces'],
        properties: { site: SITE_CUSTOMIZATION_SHAPE, siteSpaces: { type: 'object', additionalProperties: SITE_CUSTOMIZATION_SHAPE } },
      }),
      resolve: async (p, _args, ctx) => {
        // Every site space's customization (the site's, with its own overrides): GitBook's renderer reads
        // the one of the site space it draws. In one statement; a reader only those they may see.
        const siteSpaces = await ctx.db.siteSpace.findMany({
          where: { siteId: p.site.id },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          select: { id: true, customization: true, condition: true, section: { select: { condition: true } } },
        });
        const reader = ctx.siteReader;
        const visible = reader ? siteSpaces.filter((s) => conditionHolds(s.condition, reader.claims) && conditionHolds(s.section?.condition, reader.claims)) : siteSpaces;
        return { site: customizationOf(p.site), siteSpaces: Object.fromEntries(visible.map((s) => [s.id, siteSpaceCustomizationOf(p.site, s)])) };
      },
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
        // The caller's grants on the site ride along, for its `permissions`.
        ctx.db.site.findUniqueOrThrow({
          relationLoadStrategy: 'join',
          where: { id: found.id },
          ...(withRelations(queryFromInfo({ context: ctx, info, path: ['site'] }) as ItemQuery, viewerGrantsOn(ctx)) as object),
        }),
        ctx.db.siteSection.findMany({
          relationLoadStrategy: 'join',
          where: { siteId: found.id },
          orderBy: [{ position: 'asc' }, { id: 'asc' }],
          ...(queryFromInfo({ context: ctx, info, path: ['structure', 'structure'] }) as object),
        }),
      ]);
      // A site's reader sees the sections whose conditions hold for their claims (and, beneath, the
      // variants: visitor-projection.ts).
      const reader = ctx.siteReader;
      return { site, sections: reader ? sections.filter((section) => conditionHolds(section.condition, reader.claims)) : sections };
    },
  }),
}));

/** A top-level item of a site's navigation: a section, or a group of sections. */
export const SiteStructureItem = builder.unionType('SiteStructureItem', {
  description: 'A section or a section group at the top level of the navigation',
  types: [SiteSectionRef, SiteSectionGroupRef],
  resolveType: (item) => ('path' in item ? SiteSectionRef : SiteSectionGroupRef),
});

export const SiteNavigation = builder.simpleObject('SiteStructure', {
  description: "A site's navigation as GitBook's getSiteStructure answers it",
  fields: (t) => ({
    type: t.string({ description: 'Always `sections`', extensions: constrained({ enum: ['sections'] }) }),
    structure: t.field({ type: [SiteStructureItem], description: 'Sections and section groups, in navigation order; a group holds its sections' }),
  }),
});

builder.queryFields((t) => ({
  siteStructure: t.field({
    type: SiteNavigation,
    description: "A site's navigation: its top-level sections and section groups in order, each group with its sections (as publishedSite: members; anyone once published for them)",
    args: { ...sitePath, shareKey: t.arg.string({ description: 'Key of an active share link of a share-link site', extensions: shareKeyBounds }) },
    resolve: async (_root, { organizationId, siteId, shareKey }, ctx, info) => siteStructureOf(ctx, (await visitorSite(ctx, organizationId, siteId, shareKey)).id, info),
  }),
}));

/**
 * A site's navigation (getSiteStructure): its top-level sections and groups in order. A site's reader
 * (`reader`: the apiToken's, or the visitor `publishedPage` let in) sees the sections whose conditions
 * hold for their claims, and the groups holding one (the variants
 * and a group's sections beneath are filtered by visitor-projection.ts). Two statements (a reader's:
 * three, the third the conditions of grouped sections), each loading what the selection under `path`
 * (the field's `structure`) needs of its type — site spaces, spaces, a group's sections — with joins,
 * so the cost does not depend on how many sections the site has.
 */
export async function siteStructureOf(ctx: Context, siteId: string, info?: GraphQLResolveInfo, path: string[] = ['structure'], reader: SiteReader | null = ctx.siteReader) {
  const selection = (typeName: string) => (info ? (queryFromInfo({ context: ctx, info, path, typeName }) as object) : {});
  const [sections, groups, groupedConditions] = await Promise.all([
    ctx.db.siteSection.findMany({
      relationLoadStrategy: 'join',
      where: { siteId, sectionGroupId: null },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      ...selection('SiteSection'),
    }),
    ctx.db.siteSectionGroup.findMany({ relationLoadStrategy: 'join', where: { siteId }, orderBy: [{ position: 'asc' }, { id: 'asc' }], ...selection('SiteSectionGroup') }),
    // A reader is not shown a group whose sections their claims all hide (what is in it is the point).
    reader ? ctx.db.siteSection.findMany({ where: { siteId, sectionGroupId: { not: null } }, select: { sectionGroupId: true, condition: true } }) : null,
  ]);
  const shown = reader ? sections.filter((section) => conditionHolds(section.condition, reader.claims)) : sections;
  const openGroups = groupedConditions && new Set(groupedConditions.filter((s) => conditionHolds(s.condition, reader!.claims)).map((s) => s.sectionGroupId));
  const shownGroups = openGroups ? groups.filter((group) => openGroups.has(group.id)) : groups;
  // Sections and groups share one order at the top level (their order keys compare byte-wise).
  const items = [...shown, ...shownGroups].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));
  return { type: 'sections', structure: items };
}
