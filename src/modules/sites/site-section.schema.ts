import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listItemsQuery, listType, recordQuery } from '../../graphql/list.ts';
import { SpaceRef } from '../spaces/index.ts';
import {
  addSectionToGroup,
  createSectionGroup,
  deleteSectionGroup,
  listSectionGroups,
  MAX_GROUP_SECTIONS,
  moveSectionGroup,
  removeSectionFromGroup,
  updateSectionGroup,
} from './site-section-group.service.ts';
import { addSection, deleteSection, listSections, moveSection, updateSection } from './site-section.service.ts';
import { MAX_CONDITION } from './adaptive-content.ts';
import { SECTION_PATH } from './site-inputs.ts';
import { sitePath } from './site.schema.ts';
import { sectionPublishedUrl, siteSpacePublishedUrl } from './site-urls.ts';

const SITE_FOR_URLS = { select: { id: true, organizationId: true, basename: true, published: true, hostname: true } } as const;
const SECTION_ORDER = { orderBy: [{ position: 'asc' as const }, { id: 'asc' as const }] };

const PublishedUrls = builder.simpleObject('SitePublishedUrls', {
  fields: (t) => ({
    published: t.string({ nullable: true, description: 'Where its audience reads it; only while the site is published', extensions: constrained({ format: 'uri' }) }),
  }),
});

export const SiteSpaceRef = builder.prismaObject('SiteSpace', {
  description: 'A space published by a site, in one of its sections',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['site-space'] }), resolve: () => 'site-space' }),
    id: t.exposeID('id'),
    path: t.exposeString('path'),
    section: t.string({ nullable: true, description: 'ID of its section', resolve: (s) => s.sectionId }),
    space: t.relation('space', { type: SpaceRef }),
    title: t.string({ select: { space: { select: { title: true } } }, resolve: (s) => s.title ?? s.space.title }),
    default: t.exposeBoolean('isDefault', { description: "Whether it is its section's default" }),
    condition: t.exposeString('condition', { nullable: true }),
    draft: t.boolean({ resolve: () => false }),
    hasAdvancedCustomizationFeature: t.boolean({ resolve: () => false }),
    urls: t.field({
      type: PublishedUrls,
      select: { site: SITE_FOR_URLS, section: { select: { path: true, isDefault: true } } },
      // A variant other than its section's default is at the section's address and its own path.
      resolve: (s, _args, ctx) => ({ published: siteSpacePublishedUrl(ctx.config, s.site, s.section ?? null, s) ?? null }),
    }),
  }),
});

export const SiteSectionRef = builder.prismaObject('SiteSection', {
  description: "A section of a site's navigation, publishing a space",
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['site-section'] }), resolve: () => 'site-section' }),
    id: t.exposeID('id'),
    title: t.exposeString('title', { description: '2..128 characters' }),
    description: t.exposeString('description', { nullable: true, description: 'At most 256 characters' }),
    default: t.exposeBoolean('isDefault', { description: "Whether it is the site's default section" }),
    path: t.exposeString('path', { description: 'Its path in the site (1..100), unique in the site' }),
    condition: t.exposeString('condition', { nullable: true, description: 'Who sees it: an expression over visitor.claims (1..1024)' }),
    sectionGroup: t.string({ nullable: true, description: 'ID of its section group', resolve: (s) => s.sectionGroupId }),
    icon: t.exposeString('icon', { nullable: true }),
    draft: t.boolean({ resolve: () => false }),
    siteSpaces: t.relation('siteSpaces', { query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } }),
    urls: t.field({
      type: PublishedUrls,
      select: { site: SITE_FOR_URLS },
      resolve: (s, _args, ctx) => ({ published: sectionPublishedUrl(ctx.config, s.site, s) ?? null }),
    }),
  }),
});

export const SiteSectionGroupRef = builder.prismaObject('SiteSectionGroup', {
  description: "A heading of a site's navigation holding sections",
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['site-section-group'] }), resolve: () => 'site-section-group' }),
    id: t.exposeID('id'),
    title: t.exposeString('title', { description: '1..100 characters' }),
    icon: t.exposeString('icon', { nullable: true }),
    draft: t.boolean({ resolve: () => false }),
    sections: t.relation('sections', { query: SECTION_ORDER, description: 'Its sections, in order' }),
    children: t.relation('sections', { query: SECTION_ORDER, description: 'Its sections, in order (GitBook also puts links and groups here: there are none)' }),
  }),
});

const SiteSectionList = listType('SiteSection', SiteSectionRef);
const SiteSectionGroupList = listType('SiteSectionGroup', SiteSectionGroupRef);

const SectionPointer = builder.inputType('SiteSectionPointerInput', {
  description: '{ type: "site-section", siteSection }',
  fields: (t) => ({ type: t.string({ required: true, extensions: constrained({ enum: ['site-section'] }) }), siteSection: t.string({ required: true }) }),
});
const SectionPosition = builder.inputType('SiteSectionPositionInput', {
  description: 'Before or after a section of the site',
  fields: (t) => ({ before: t.field({ type: SectionPointer }), after: t.field({ type: SectionPointer }) }),
});
const GroupPointer = builder.inputType('SiteSectionGroupPointerInput', {
  description: '{ type: "site-section" | "site-section-group", id }',
  fields: (t) => ({
    type: t.string({ required: true, extensions: constrained({ enum: ['site-section', 'site-section-group'] }) }),
    id: t.string({ required: true }),
  }),
});
const GroupPosition = builder.inputType('SiteSectionGroupPositionInput', {
  description: 'Before or after a section (its group, when it is in one) or a group of the site',
  fields: (t) => ({ before: t.field({ type: GroupPointer }), after: t.field({ type: GroupPointer }) }),
});

/** What the services check (site-inputs.ts, site-visitors.ts). */
export const shareKeyBounds = constrained({ minLength: 1, maxLength: 256 });
const iconBounds = constrained({ minLength: 1, maxLength: 50 });
const groupTitleBounds = constrained({ minLength: 1, maxLength: 100 });

const sectionPath = builder.args((t) => ({ ...sitePath, siteSectionId: t.string({ required: true, description: 'ID of the section' }) }));
const groupPath = builder.args((t) => ({ ...sitePath, siteSectionGroupId: t.string({ required: true, description: 'ID of the section group' }) }));

builder.queryFields((t) => ({
  siteSections: t.field({
    type: SiteSectionList,
    description: "A site's sections in navigation order: members; anyone once it is published for them (a share-link site: with shareKey)",
    args: { ...sitePath, ...listArgs, shareKey: t.arg.string({ description: 'Key of an active share link of a share-link site', extensions: shareKeyBounds }) },
    resolve: (_root, { organizationId, siteId, ...args }, ctx, info) => listSections(ctx, organizationId, siteId, args, listItemsQuery(ctx, info)),
  }),
  siteSectionGroups: t.field({
    type: SiteSectionGroupList,
    description: "A site's section groups, in navigation order (any member)",
    args: { ...sitePath, ...listArgs },
    resolve: (_root, { organizationId, siteId, ...args }, ctx, info) => listSectionGroups(ctx, organizationId, siteId, args, listItemsQuery(ctx, info)),
  }),
}));

builder.mutationFields((t) => ({
  addSiteSection: t.field({
    type: SiteSectionRef,
    description: 'Add a section publishing a space of the organization, at the end of the site (edit on the site)',
    args: {
      ...sitePath,
      spaceId: t.arg.string({ required: true, description: 'A space of the organization the caller can read' }),
      title: t.arg.string({
        description: "2..64 characters (default: the space's title); its path is made from it",
        extensions: constrained({ minLength: 2, maxLength: 64 }),
      }),
    },
    resolve: (_root, { organizationId, siteId, ...input }, ctx, info) => addSection(ctx, organizationId, siteId, input, recordQuery(ctx, info)),
  }),
  updateSiteSection: t.field({
    type: SiteSectionRef,
    description: 'Change a section (edit on the site); null removes condition, description or icon',
    args: {
      ...sectionPath,
      title: t.arg.string({ description: '2..128 characters', extensions: constrained({ minLength: 2, maxLength: 128 }) }),
      path: t.arg.string({
        description: '1..100 characters, unique in the site',
        extensions: constrained({ minLength: 1, maxLength: 100, pattern: SECTION_PATH.source }),
      }),
      description: t.arg.string({ description: 'At most 256 characters', extensions: constrained({ maxLength: 256 }) }),
      icon: t.arg.string({ description: 'At most 50 characters', extensions: iconBounds }),
      defaultSiteSpace: t.arg.string({ description: 'A site space of the section: its default' }),
      condition: t.arg.string({
        description: 'Who sees it: an expression over visitor.claims (1..1024); null removes it',
        extensions: constrained({ minLength: 1, maxLength: MAX_CONDITION }),
      }),
    },
    resolve: (_root, { organizationId, siteId, siteSectionId, ...input }, ctx, info) =>
      updateSection(ctx, organizationId, siteId, siteSectionId, input, recordQuery(ctx, info)),
  }),
  deleteSiteSection: t.boolean({
    description: 'Delete a section; when it was the default, the next one becomes the default (edit on the site)',
    args: sectionPath,
    resolve: (_root, args, ctx) => deleteSection(ctx, args.organizationId, args.siteId, args.siteSectionId),
  }),
  moveSiteSection: t.field({
    type: SiteSectionRef,
    description: 'Move a section before or after another (joining its group, or the top level); default: the end of the site (edit on the site)',
    args: { ...sectionPath, position: t.arg({ type: SectionPosition, description: '{ before | after: { type: "site-section", siteSection } } (default: the end of the site)' }) },
    resolve: (_root, { organizationId, siteId, siteSectionId, position }, ctx, info) =>
      moveSection(ctx, organizationId, siteId, siteSectionId, position, recordQuery(ctx, info)),
  }),
  createSiteSectionGroup: t.field({
    type: SiteSectionGroupRef,
    description: 'Add a section group at the end of the site, holding `sections` (edit on the site)',
    args: {
      ...sitePath,
      title: t.arg.string({ required: true, description: '1..100 characters', extensions: groupTitleBounds }),
      icon: t.arg.string({ description: 'At most 50 characters', extensions: iconBounds }),
      sections: t.arg.stringList({ description: 'Sections of the site to put in it, in order', extensions: constrained({ maxItems: MAX_GROUP_SECTIONS }) }),
    },
    resolve: (_root, { organizationId, siteId, ...input }, ctx, info) => createSectionGroup(ctx, organizationId, siteId, input, recordQuery(ctx, info)),
  }),
  updateSiteSectionGroup: t.field({
    type: SiteSectionGroupRef,
    description: 'Change a section group (edit on the site)',
    args: {
      ...groupPath,
      title: t.arg.string({ description: '1..100 characters', extensions: groupTitleBounds }),
      icon: t.arg.string({ description: 'At most 50 characters; null removes it', extensions: iconBounds }),
    },
    resolve: (_root, { organizationId, siteId, siteSectionGroupId, ...input }, ctx, info) =>
      updateSectionGroup(ctx, organizationId, siteId, siteSectionGroupId, input, recordQuery(ctx, info)),
  }),
  deleteSiteSectionGroup: t.boolean({
    description: 'Delete a section group; its sections stay, where it was (edit on the site)',
    args: groupPath,
    resolve: (_root, args, ctx) => deleteSectionGroup(ctx, args.organizationId, args.siteId, args.siteSectionGroupId),
  }),
  addSiteSectionToGroup: t.field({
    type: SiteSectionGroupRef,
    description: 'Put a section in the group, at its end (a section is in one group at most: it leaves any other) (edit on the site)',
    args: { ...groupPath, sectionId: t.arg.string({ required: true, description: 'A section of the site' }) },
    resolve: (_root, { organizationId, siteId, siteSectionGroupId, sectionId }, ctx, info) =>
      addSectionToGroup(ctx, organizationId, siteId, siteSectionGroupId, sectionId, recordQuery(ctx, info)),
  }),
  removeSiteSectionFromGroup: t.boolean({
    description: 'Take a section out of the group: it stays in the site, right after the group (edit on the site)',
    args: { ...groupPath, siteSectionId: t.arg.string({ required: true, description: 'ID of the section' }) },
    resolve: (_root, args, ctx) => removeSectionFromGroup(ctx, args.organizationId, args.siteId, args.siteSectionGroupId, args.siteSectionId),
  }),
  moveSiteSectionGroup: t.field({
    type: SiteSectionGroupRef,
    description: 'Move a section group before or after a section or group; default: the end of the site (edit on the site)',
    args: { ...groupPath, position: t.arg({ type: GroupPosition, description: '{ before | after: { type: "site-section" | "site-section-group", id } } (default: the end of the site)' }) },
    resolve: (_root, { organizationId, siteId, siteSectionGroupId, position }, ctx, info) =>
      moveSectionGroup(ctx, organizationId, siteId, siteSectionGroupId, position, recordQuery(ctx, info)),
  }),
}));
