import type { IntegrationInstallation } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { listArgs, listItemsQuery, listType, recordQuery } from '../../graphql/list.ts';
import { can } from '../../core/authorization.ts';
import { signedFileUrl } from '../content/index.ts';
import { OrganizationRef } from '../organizations/index.ts';
import { organizationActor } from '../organizations/index.ts';
import { getInstallation, installIntegration, listInstallations, uninstallIntegration } from './installation.service.ts';
import { integrationPolicy } from './integration.policy.ts';
import {
  BASE64,
  MAX_BASE64_IMAGE_LENGTH,
  MAX_SCRIPT_BYTES,
  INTEGRATION_CATEGORIES,
  INTEGRATION_SCOPES,
  INTEGRATION_TARGETS,
  INTEGRATION_VISIBILITIES,
  NAME_PATTERN,
} from './integration-inputs.ts';
import { integrationFor, listIntegrations, publishIntegration, unpublishIntegration } from './integration.service.ts';

const uri = constrained({ format: 'uri' });
const IntegrationUrls = builder.simpleObject('IntegrationUrls', {
  fields: (t) => ({
    location: t.string({ extensions: uri }),
    app: t.string({ extensions: uri }),
    assets: t.string({ extensions: uri }),
    publicEndpoint: t.string({ description: 'Where the integration would answer: this server runs no integration script', extensions: uri }),
    publicContentEndpoint: t.string({ extensions: uri }),
    icon: t.string({ nullable: true, description: 'Serves its icon (a signed URL, valid for one to two hours)', extensions: uri }),
  }),
});
const IntegrationPermissions = builder.simpleObject('IntegrationPermissions', { fields: (t) => ({ admin: t.boolean(), install: t.boolean() }) });

const endpoints = (publicUrl: string, name: string) => ({
  publicEndpoint: `${publicUrl}/integrations/${encodeURIComponent(name)}/endpoint`,
  publicContentEndpoint: `${publicUrl}/integrations/${encodeURIComponent(name)}/endpoint`,
});

/** A signed URL serving an image of an integration (its bytes are a content-addressed blob). */
const imageUrl = (ctx: Context, hash: string, name: string, contentType: string) =>
  signedFileUrl(ctx.db, ctx.config.publicUrl, { hash, name, contentType }, ctx.clock.now());

/**
 * What the `JSON` fields answer (for the OpenAPI document): what publishing stored, as
 * integration-inputs.ts checked it (GitBook's `IntegrationBlock`, `IntegrationContentSource`,
 * `IntegrationConfigurations`, `IntegrationExternalLinks`, `IntegrationContentSecurityPolicy`). A block
 * or a content source keeps the other keys it was published with. URLs are strings only: what the
 * publish check accepts as an http(s) URL is not always a `format: uri` string.
 */
const componentConfiguration = {
  type: 'object',
  description: 'A ContentKit component of the integration',
  required: ['componentId'],
  properties: { componentId: { type: 'string', minLength: 1, maxLength: 100 } },
};
const configurationShape = {
  oneOf: [
    {
      type: 'object',
      description: 'The properties to configure',
      required: ['properties'],
      properties: { properties: { type: 'object', additionalProperties: {} }, required: { type: 'array', items: { type: 'string' } } },
    },
    componentConfiguration,
  ],
};
const describedItem = {
  id: { type: 'string', minLength: 1, maxLength: 100 },
  title: { type: 'string', minLength: 2, maxLength: 40 },
  description: { type: 'string', maxLength: 150 },
  icon: { type: 'string', description: 'URL of its icon' },
};
const blocksShape = shaped({
  type: 'array',
  items: {
    type: 'object',
    required: ['id', 'title'],
    properties: {
      ...describedItem,
      urlUnfurl: { type: 'array', description: 'URL patterns it unfurls', items: { type: 'string' } },
      markdown: { type: 'object', required: ['codeblock', 'body'], properties: { codeblock: { type: 'string' }, body: { type: 'string' } } },
    },
  },
});
const contentSourcesShape = shaped({
  type: 'array',
  items: { type: 'object', required: ['id', 'title', 'configuration'], properties: { ...describedItem, configuration: componentConfiguration } },
});
const configurationsShape = shaped({
  type: 'object',
  description: 'What it asks to configure, per installation level',
  properties: { account: configurationShape, space: configurationShape, site: configurationShape },
});
const externalLinksShape = shaped({
  type: 'array',
  maxItems: 5,
  items: { type: 'object', required: ['url', 'label'], properties: { url: { type: 'string', description: 'An http(s) URL' }, label: { type: 'string' } } },
});
const contentSecurityPolicyShape = shaped({
  description: 'A policy, or a map of directives (e.g. `script-src`) to their values',
  oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
});
const installationConfigurationShape = shaped({
  type: 'object',
  description: 'Configuration of the integration at the account level (none is set here: always {})',
  additionalProperties: {},
});

export const IntegrationRef = builder.prismaObject('Integration', {
  description: 'An integration, published by an organization; its script is stored, not run',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['integration'] }), resolve: () => 'integration' }),
    name: t.exposeString('name'),
    version: t.exposeInt('version', { description: 'Bumped each time it is published again' }),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    summary: t.exposeString('summary', { nullable: true }),
    previewImages: t.field({
      type: ['String'],
      description: 'URLs of its preview images',
      resolve: (i, _args, ctx) => Promise.all(i.previewImageHashes.map((hash, n) => imageUrl(ctx, hash, `preview-${n + 1}`, i.previewImageTypes[n] ?? 'image/png'))),
    }),
    target: t.exposeString('target'),
    verified: t.boolean({ resolve: () => false }),
    visibility: t.string({ resolve: (i) => i.visibility }),
    scopes: t.exposeStringList('scopes'),
    categories: t.exposeStringList('categories'),
    blocks: t.field({ type: 'JSON', extensions: blocksShape, resolve: (i) => i.blocks }),
    contentSources: t.field({ type: 'JSON', extensions: contentSourcesShape, resolve: (i) => i.contentSources }),
    configurations: t.field({ type: 'JSON', extensions: configurationsShape, resolve: (i) => i.configurations }),
    externalLinks: t.field({ type: 'JSON', extensions: externalLinksShape, resolve: (i) => i.externalLinks }),
    contentSecurityPolicy: t.field({ type: 'JSON', nullable: true, extensions: contentSecurityPolicyShape, resolve: (i) => i.contentSecurityPolicy }),
    owner: t.relation('organization'),
    urls: t.field({
      type: IntegrationUrls,
      resolve: async (i, _args, ctx) => ({
        location: `${ctx.config.apiUrl}/integrations/${encodeURIComponent(i.name)}`,
        app: `${ctx.config.appUrl}/integrations/${encodeURIComponent(i.name)}`,
        assets: `${ctx.config.publicUrl}/integrations/${encodeURIComponent(i.name)}/assets`,
        ...endpoints(ctx.config.publicUrl, i.name),
        icon: i.iconHash ? await imageUrl(ctx, i.iconHash, 'icon', i.iconContentType ?? 'image/png') : null,
      }),
    }),
    permissions: t.field({
      type: IntegrationPermissions,
      resolve: async (i, _args, ctx) => {
        const admin = can(integrationPolicy, await organizationActor(ctx, i.organizationId), 'manage', i);
        return { admin, install: true };
      },
    }),
  }),
});
const IntegrationList = listType('Integration', IntegrationRef);

const InstallationTarget = builder.simpleObject('IntegrationInstallationTarget', { fields: (t) => ({ organization: t.string() }) });
const InstallationUrls = builder.simpleObject('IntegrationInstallationUrls', {
  fields: (t) => ({
    location: t.string({ extensions: uri }),
    app: t.string({ extensions: uri }),
    publicEndpoint: t.string({ extensions: uri }),
    publicContentEndpoint: t.string({ extensions: uri }),
  }),
});
const InstallationRef = builder.objectRef<IntegrationInstallation>('IntegrationInstallation').implement({
  description: 'An integration installed in an organization',
  fields: (t) => ({
    id: t.exposeString('id'),
    integration: t.exposeString('integrationName'),
    status: t.exposeString('status'),
    space_selection: t.exposeString('spaceSelection'),
    site_selection: t.exposeString('siteSelection'),
    spaces: t.int({ description: 'Spaces it manages (none: spaces are not selected here)', resolve: () => 0 }),
    configuration: t.field({ type: 'JSON', extensions: installationConfigurationShape, resolve: (i) => i.configuration }),
    externalIds: t.exposeStringList('externalIds'),
    createdAt: t.field({ type: 'DateTime', resolve: (i) => i.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (i) => i.updatedAt }),
    target: t.field({ type: InstallationTarget, resolve: (i) => ({ organization: i.organizationId }) }),
    urls: t.field({
      type: InstallationUrls,
      resolve: (i, _args, ctx) => ({
        location: `${ctx.config.apiUrl}/integrations/${encodeURIComponent(i.integrationName)}/installations/${i.id}`,
        app: `${ctx.config.appUrl}/o/${i.organizationId}/integrations/${encodeURIComponent(i.integrationName)}`,
        ...endpoints(ctx.config.publicUrl, i.integrationName),
      }),
    }),
  }),
});
const InstallationList = listType('IntegrationInstallation', InstallationRef);

/** What the services check (integration.service.ts, integration-inputs.ts, installation.service.ts). */
const nameBounds = constrained({ minLength: 1, maxLength: 100, pattern: NAME_PATTERN.source });
const namePath = builder.args((t) => ({
  integrationName: t.string({ required: true, description: 'Name of the integration (at most 100: letters, digits, "-", "_", ".")', extensions: nameBounds }),
}));

const installationPath = builder.args((t) => ({
  installationId: t.string({ required: true, description: 'ID of the installation', extensions: constrained({ minLength: 1, maxLength: 64 }) }),
}));

builder.queryFields((t) => ({
  integrations: t.field({
    type: IntegrationList,
    description: "Public integrations and those of the caller's organizations, by name",
    args: {
      ...listArgs,
      search: t.arg.string({ description: 'Only those whose name or title contains this', extensions: constrained({ maxLength: 100 }) }),
      category: t.arg.string({ description: 'Only those of this category', extensions: constrained({ enum: INTEGRATION_CATEGORIES }) }),
      blockDomain: t.arg.string({
        description: 'Only those with a block unfurling links of this host (at most 100: letters, digits, "-", "_", ".")',
        extensions: nameBounds,
      }),
      blocks: t.arg.boolean({ description: 'Only those with (true) or without (false) blocks' }),
      contentSources: t.arg.boolean({ description: 'Only those with (true) or without (false) content sources' }),
      owner: t.arg.string({ description: 'Only those of this organization' }),
    },
    resolve: (_root, args, ctx, info) => listIntegrations(ctx, args, listItemsQuery(ctx, info)),
  }),
  integration: t.field({
    type: IntegrationRef,
    description: 'An integration (a private one: its organization\'s members only)',
    args: namePath,
    resolve: (_root, args, ctx, info) => integrationFor(ctx, args.integrationName, 'read', recordQuery(ctx, info)),
  }),
  integrationInstallations: t.field({
    type: InstallationList,
    description: "An integration's installations: all of them for its owners, else those of organizations the caller administers",
    args: { ...namePath, ...listArgs, externalId: t.arg.string({ description: 'Only those with this external ID', extensions: constrained({ minLength: 1, maxLength: 200 }) }) },
    resolve: (_root, { integrationName, ...args }, ctx) => listInstallations(ctx, integrationName, args),
  }),
  integrationInstallation: t.field({
    type: InstallationRef,
    description: "An installation: to the integration's owners and the admins of its organization",
    args: { ...namePath, ...installationPath },
    resolve: (_root, args, ctx) => getInstallation(ctx, args.integrationName, args.installationId),
  }),
}));

builder.mutationFields((t) => ({
  publishIntegration: t.field({
    type: IntegrationRef,
    description: "Publish an integration, or publish it again (its organization's admins); the script is stored, not run",
    args: {
      ...namePath,
      title: t.arg.string({ required: true, description: '2..30 characters', extensions: constrained({ minLength: 2, maxLength: 30 }) }),
      description: t.arg.string({ required: true, description: 'At most 100 characters ("" allowed)', extensions: constrained({ maxLength: 100 }) }),
      summary: t.arg.string({ description: 'At most 2048 characters (markdown)', extensions: constrained({ maxLength: 2048 }) }),
      icon: t.arg.string({ description: 'A base64 image (at most 1 MB)', extensions: constrained({ maxLength: MAX_BASE64_IMAGE_LENGTH, pattern: BASE64.source }) }),
      previewImages: t.arg.stringList({
        description: 'At most 3 base64 images',
        extensions: constrained({ maxItems: 3, items: { maxLength: MAX_BASE64_IMAGE_LENGTH, pattern: BASE64.source } }),
      }),
      visibility: t.arg.string({
        description: 'public, private (default) or unlisted',
        extensions: constrained({ enum: INTEGRATION_VISIBILITIES, default: 'private' }),
      }),
      target: t.arg.string({ description: 'all (default), site, space or organization', extensions: constrained({ enum: INTEGRATION_TARGETS, default: 'all' }) }),
      scopes: t.arg.stringList({ required: true, description: "GitBook's integration scopes", extensions: constrained({ maxItems: INTEGRATION_SCOPES.length }) }),
      categories: t.arg.stringList({
        description: 'analytics, collaboration, content, marketing, visitor-auth, other, gitsync',
        extensions: constrained({ maxItems: INTEGRATION_CATEGORIES.length }),
      }),
      blocks: t.arg({ type: 'JSON', description: '[{ id, title, description, icon, urlUnfurl, markdown }]', extensions: constrained({ maxItems: 50 }) }),
      contentSources: t.arg({
        type: 'JSON',
        description: '[{ id, title, description, icon, configuration: { componentId } }]',
        extensions: constrained({ maxItems: 50 }),
      }),
      externalLinks: t.arg({ type: 'JSON', description: 'At most 5 { url, label }', extensions: constrained({ maxItems: 5 }) }),
      configurations: t.arg({ type: 'JSON', description: '{ account, space, site }' }),
      script: t.arg.string({ required: true, description: 'The script (stored, not run)', extensions: constrained({ minLength: 1, maxLength: MAX_SCRIPT_BYTES }) }),
      organization: t.arg.string({
        required: true,
        description: 'ID or hostname of the organization publishing it (the caller administers it)',
        extensions: constrained({ minLength: 1, maxLength: 100 }),
      }),
      secrets: t.arg({ type: 'JSON', description: 'At most 20 string values, stored encrypted, never answered' }),
      contentSecurityPolicy: t.arg({ type: 'JSON', description: 'A string, or a map of directives' }),
      runtime: t.arg.string({ description: 'v1 (default) or v2', extensions: constrained({ enum: ['v1', 'v2'], default: 'v1' }) }),
    },
    resolve: (_root, { integrationName, ...body }, ctx, info) => publishIntegration(ctx, integrationName, dropNulls(body), recordQuery(ctx, info)),
  }),
  unpublishIntegration: t.boolean({
    description: "Unpublish an integration, with its installations (its organization's admins)",
    args: namePath,
    resolve: (_root, args, ctx) => unpublishIntegration(ctx, args.integrationName),
  }),
  installIntegration: t.field({
    type: InstallationRef,
    description: 'Install an integration in an organization the caller administers (GitBook\'s installIntegration)',
    args: { ...namePath, organization: t.arg.string({ required: true, description: 'ID of the organization' }) },
    resolve: (_root, { integrationName, organization }, ctx) => installIntegration(ctx, integrationName, { organization }),
  }),
  uninstallIntegration: t.boolean({
    description: "Uninstall an integration from an organization (its admins; GitBook's uninstallIntegration)",
    args: { ...namePath, ...installationPath },
    resolve: (_root, args, ctx) => uninstallIntegration(ctx, args.integrationName, args.installationId),
  }),
}));

/** GraphQL gives absent optional arguments as undefined and explicit nulls as null: both mean "not given" here. */
function dropNulls(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null && value !== undefined));
}
