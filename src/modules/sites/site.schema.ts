import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { listArgs, listItemsQuery, listType, recordQuery } from '../../graphql/list.ts';
import { stringEnumScalar } from '../../graphql/string-enum.ts';
import { sitePermissions } from './site-access.ts';
import { getAdaptiveSchema, putAdaptiveSchema, type AdaptiveSchema } from './site-adaptive-schema.service.ts';
import { BASENAME, HOSTNAME, MAX_SITE_TITLE, PROXY, SITE_TYPES, SITE_VISIBILITIES, toApiSiteType, toApiSiteVisibility } from './site-inputs.ts';
import { createSite, deleteSite, getSite, listSites, MAX_SITE_SPACES, setPublished, updateSite } from './site.service.ts';
import { siteApiUrl, siteAppUrl, sitePublicationUrl, sitePublishedUrl } from './site-urls.ts';

/** GitBook's spellings ("share-link", "legacy-basic") in both doors: string scalars, not GraphQL enums. */
export const SiteVisibilityScalar = stringEnumScalar(
  'SiteVisibility',
  SITE_VISIBILITIES,
  'Who a published site is for: public (anyone, indexed), unlisted (anyone, not indexed), share-link (holders of a share link), visitor-auth (visitors signed in with a JWT)',
);
export const SiteTypeScalar = stringEnumScalar('SiteType', SITE_TYPES, 'The plan of a site');

const uri = constrained({ format: 'uri' });
const SiteUrls = builder.simpleObject('SiteUrls', {
  fields: (t) => ({
    location: t.string({ description: 'The site in the API', extensions: uri }),
    app: t.string({ description: 'The site in the application', extensions: uri }),
    preview: t.string({ description: 'A preview of the site in the application', extensions: uri }),
    published: t.string({ nullable: true, description: 'Where its audience reads it; only while it is published', extensions: uri }),
  }),
});
const SiteProxy = builder.simpleObject('SiteProxy', {
  fields: (t) => ({ origin: t.string({ description: 'Where a reverse proxy serves the site (host and path)' }), target: t.string({ description: 'What it proxies to' }) }),
});
const SiteAdaptiveContent = builder.simpleObject('SiteAdaptiveContent', { fields: (t) => ({ enabled: t.boolean() }) });
const SiteAds = builder.simpleObject('SiteAds', { fields: (t) => ({ status: t.string(), submittable: t.boolean() }) });
const SiteFeature = builder.simpleObject('SiteFeature', {
  description: 'A feature of the site; a frozen feature is on but cannot be changed',
  fields: (t) => ({ id: t.string(), plan: t.string(), frozen: t.boolean() }),
});
const SitePermissions = builder.simpleObject('SitePermissions', {
  fields: (t) => ({
    view: t.boolean(),
    access: t.boolean(),
    edit: t.boolean(),
    create: t.boolean(),
    admin: t.boolean(),
    installIntegration: t.boolean(),
    viewAdaptiveSchema: t.boolean(),
    editAdaptiveSchema: t.boolean(),
  }),
});

export const SiteRef = builder.prismaObject('Site', {
  description: 'A published documentation site: sections publishing spaces, for an audience (visibility)',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['site'] }), resolve: () => 'site' }),
    id: t.exposeID('id'),
    type: t.field({ type: SiteTypeScalar, resolve: (s) => toApiSiteType(s.type) }),
    appliedType: t.field({ type: SiteTypeScalar, description: 'The plan in effect (the type: no plan is frozen here)', resolve: (s) => toApiSiteType(s.type) }),
    title: t.exposeString('title', { description: '2..128 characters' }),
    hostname: t.exposeString('hostname', { nullable: true }),
    basename: t.exposeString('basename', { nullable: true, description: 'The last segment of its published URL (1..100)' }),
    proxy: t.field({
      type: SiteProxy,
      nullable: true,
      resolve: (s, _args, ctx) => (s.proxy ? { origin: s.proxy, target: sitePublicationUrl(ctx.config, { ...s, hostname: null }) } : null),
    }),
    visibility: t.field({ type: SiteVisibilityScalar, resolve: (s) => toApiSiteVisibility(s.visibility) }),
    published: t.exposeBoolean('published', { description: 'Live for the audience its visibility names' }),
    defaultLevel: t.string({ description: 'Who of the organization reads it: as their organization role (inherit)', resolve: () => 'inherit' }),
    siteSpaces: t.relationCount('siteSpaces', { description: 'Number of spaces it publishes' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    adaptiveContent: t.field({ type: SiteAdaptiveContent, resolve: (s) => ({ enabled: s.adaptiveContentEnabled }) }),
    // GitBook's optional ads state: any state it has makes GitBook's renderer draw its ads placeholder
    // ("Published for free with GitBook's Community Plan"), and this server serves no ads: absent.
    ads: t.field({ type: SiteAds, nullable: true, description: 'Ads: none are served here, so always absent', resolve: () => null }),
    features: t.field({
      type: [SiteFeature],
      resolve: () => [
        { id: 'sites-sections', plan: 'basic', frozen: false },
        { id: 'sites-share-links', plan: 'basic', frozen: false },
        { id: 'sites-adaptive-content', plan: 'basic', frozen: false },
      ],
    }),
    urls: t.field({
      type: SiteUrls,
      resolve: (s, _args, ctx) => ({
        location: siteApiUrl(ctx.config, s),
        app: siteAppUrl(ctx.config, s),
        preview: `${siteAppUrl(ctx.config, s)}/preview`,
        published: sitePublishedUrl(ctx.config, s) ?? null,
      }),
    }),
    permissions: t.field({ type: SitePermissions, resolve: (s, _args, ctx) => sitePermissions(ctx, s) }),
  }),
});

const SiteList = listType('Site', SiteRef);

/** What `jsonSchema` answers: a schema that passed checkAdaptiveSchema (adaptive-content.ts), as it was put. */
const adaptiveJsonSchemaShape = shaped({
  type: 'object',
  description: 'A JSON Schema (draft-07) of an object whose properties are boolean claims, each with a description',
  required: ['type', 'properties', 'additionalProperties'],
  properties: {
    $schema: { type: 'string', enum: ['http://json-schema.org/draft-07/schema#'] },
    type: { type: 'string', enum: ['object'] },
    properties: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['type', 'description'],
        properties: { type: { type: 'string', enum: ['boolean'] }, description: { type: 'string' } },
      },
    },
    additionalProperties: { type: 'boolean', enum: [false] },
  },
});

const AdaptiveSchemaRef = builder.objectRef<AdaptiveSchema>('SiteAdaptiveSchema').implement({
  description: "The claims a site's visitors may carry, as a JSON Schema (draft-07): what section conditions test",
  fields: (t) => ({
    object: t.exposeString('object', { extensions: constrained({ enum: ['site-adaptive-schema'] }) }),
    jsonSchema: t.field({ type: 'JSON', extensions: adaptiveJsonSchemaShape, resolve: (a) => a.jsonSchema }),
    updatedAt: t.field({ type: 'DateTime', resolve: (a) => a.updatedAt }),
  }),
});

const AdaptiveContentInput = builder.inputType('SiteAdaptiveContentInput', { fields: (t) => ({ enabled: t.boolean({ required: true }) }) });

export const sitePath = builder.args((t) => ({
  organizationId: t.string({ required: true, description: 'ID of the organization' }),
  siteId: t.string({ required: true, description: 'ID of the site' }),
}));
const organizationPath = builder.args((t) => ({ organizationId: t.string({ required: true, description: 'ID of the organization' }) }));

builder.queryFields((t) => ({
  organizationSites: t.field({
    type: SiteList,
    description: 'Sites of an organization, oldest first (members with a role; a guest, those granted to them)',
    args: {
      ...organizationPath,
      ...listArgs,
      space: t.arg.string({ description: 'Only sites that publish this space' }),
      title: t.arg.string({ description: 'Only sites whose title contains this (any case)' }),
      published: t.arg.boolean({ description: 'Only published (true) or unpublished (false) sites' }),
      type: t.arg({ type: [SiteTypeScalar], description: 'Only sites of these types' }),
    },
    resolve: (_root, { organizationId, type, ...args }, ctx, info) =>
      listSites(ctx, organizationId, { ...args, type: type as string[] | null | undefined }, listItemsQuery(ctx, info)),
  }),
  site: t.field({
    type: SiteRef,
    description: 'A site (members with a role, and guests given a level on it)',
    args: sitePath,
    resolve: (_root, args, ctx, info) => getSite(ctx, args.organizationId, args.siteId, recordQuery(ctx, info)),
  }),
  siteAdaptiveSchema: t.field({
    type: AdaptiveSchemaRef,
    description: "The site's adaptive schema (read on the site); 404 until one is set",
    args: sitePath,
    resolve: (_root, args, ctx) => getAdaptiveSchema(ctx, args.organizationId, args.siteId),
  }),
}));

builder.mutationFields((t) => ({
  createSite: t.field({
    type: SiteRef,
    description: 'Create a site, unpublished; each of `spaces` becomes a section (the first the default). Members with the create role',
    args: {
      ...organizationPath,
      type: t.arg({ type: SiteTypeScalar, description: 'Default basic', extensions: constrained({ default: 'basic' }) }),
      title: t.arg.string({
        description: '2..128 characters (default "Untitled site")',
        extensions: constrained({ minLength: 2, maxLength: MAX_SITE_TITLE, default: 'Untitled site' }),
      }),
      visibility: t.arg({ type: SiteVisibilityScalar, description: 'Default public', extensions: constrained({ default: 'public' }) }),
      spaces: t.arg.stringList({ description: 'Spaces of the organization to publish, each as a section', extensions: constrained({ maxItems: MAX_SITE_SPACES }) }),
    },
    resolve: (_root, { organizationId, type, visibility, ...input }, ctx, info) =>
      createSite(ctx, organizationId, { ...input, type: type as string | null, visibility: visibility as string | null }, recordQuery(ctx, info)),
  }),
  updateSite: t.field({
    type: SiteRef,
    description: "Change a site (edit on it: the organization's admins, its creator, grants of edit or more)",
    args: {
      ...sitePath,
      title: t.arg.string({ description: '2..128 characters', extensions: constrained({ minLength: 2, maxLength: MAX_SITE_TITLE }) }),
      visibility: t.arg({ type: SiteVisibilityScalar, description: 'public, unlisted, share-link or visitor-auth' }),
      basename: t.arg.string({
        description: '1..100, unique in the organization; null removes it',
        extensions: constrained({ minLength: 1, maxLength: 100, pattern: BASENAME.source }),
      }),
      adaptiveContent: t.arg({ type: AdaptiveContentInput, description: '{ enabled }' }),
      defaultSiteSpace: t.arg.string({ description: 'A site space of the site: the default of its section, and that section the default' }),
      defaultSiteSection: t.arg.string({ description: 'A section of the site: the default one' }),
      proxy: t.arg.string({
        description: 'Where a reverse proxy serves it: a host and path without scheme (example.com/docs); null removes it',
        extensions: constrained({ minLength: 1, maxLength: 512, pattern: PROXY.source }),
      }),
      hostname: t.arg.string({
        description: 'Its own hostname (docs.example.com): requests on that host read the published site from its root; unique; null removes it',
        extensions: constrained({ minLength: 1, maxLength: 512, pattern: HOSTNAME.source }),
      }),
    },
    resolve: (_root, { organizationId, siteId, visibility, ...input }, ctx, info) =>
      updateSite(ctx, organizationId, siteId, { ...input, visibility: visibility as string | null | undefined }, recordQuery(ctx, info)),
  }),
  deleteSite: t.boolean({
    description: 'Delete a site with its sections, groups and share links (admin on the site)',
    args: sitePath,
    resolve: (_root, args, ctx) => deleteSite(ctx, args.organizationId, args.siteId),
  }),
  publishSite: t.field({
    type: SiteRef,
    description: 'Publish a site for its audience (edit on the site)',
    args: sitePath,
    resolve: (_root, args, ctx, info) => setPublished(ctx, args.organizationId, args.siteId, true, recordQuery(ctx, info)),
  }),
  unpublishSite: t.field({
    type: SiteRef,
    description: 'Take a site offline (edit on the site)',
    args: sitePath,
    resolve: (_root, args, ctx, info) => setPublished(ctx, args.organizationId, args.siteId, false, recordQuery(ctx, info)),
  }),
  updateSiteAdaptiveSchema: t.field({
    type: AdaptiveSchemaRef,
    description: "Set (create or replace) the site's adaptive schema: an object schema of boolean claims, each with a description (edit on the site)",
    args: { ...sitePath, jsonSchema: t.arg({ type: 'JSON', required: true, description: 'JSON Schema (draft-07)' }) },
    resolve: (_root, args, ctx) => putAdaptiveSchema(ctx, args.organizationId, args.siteId, args.jsonSchema),
  }),
}));
