import type { SiteRedirect } from '../../generated/prisma/client.ts';
import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { listArgs, listType } from '../../graphql/list.ts';
import { sitePath } from './site.schema.ts';
import { MAX_URL } from './site-redirect-inputs.ts';
import { MAX_SOURCE, SOURCE_PATTERN } from './site-redirect-targets.ts';
import { bulkUpsertSiteRedirects, MAX_BULK_REDIRECTS } from './site-redirects-bulk.ts';
import { createSiteRedirect, deleteSiteRedirect, destinationJson, listSiteRedirects, siteRedirectBySource, updateSiteRedirect } from './site-redirects.ts';

const id = { type: 'string' };
const kind = (value: string) => ({ type: 'string', enum: [value] });
const DESTINATION_SHAPES = [
  { type: 'object', required: ['kind', 'siteSectionId'], properties: { kind: kind('site-section'), siteSectionId: id } },
  { type: 'object', required: ['kind', 'siteSpaceId'], properties: { kind: kind('site-space'), siteSpaceId: id } },
  { type: 'object', required: ['kind', 'siteSpaceId', 'pageId'], properties: { kind: kind('site-page'), siteSpaceId: id, pageId: id } },
  { type: 'object', required: ['kind', 'url'], properties: { kind: kind('external'), url: { type: 'string', format: 'uri', maxLength: MAX_URL } } },
];
const PATH_DESTINATION = { type: 'object', required: ['kind', 'spaceId', 'path'], properties: { kind: kind('path'), spaceId: id, path: { type: 'string' } } };
const sourceBounds = { maxLength: MAX_SOURCE, pattern: SOURCE_PATTERN.source };
const SOURCE_SHAPE = { type: 'string', ...sourceBounds };

/** GitBook's SiteRedirect. */
const SiteRedirectRef = builder.objectRef<SiteRedirect>('SiteRedirect').implement({
  description: 'A URL redirect rule of a site: a path relative to the site (or a prefix ending with `*`) sent to a section, a site space, a page or another URL',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['site-redirect'] }), resolve: () => 'site-redirect' }),
    id: t.exposeString('id'),
    source: t.exposeString('source', { description: 'The path redirected, relative to the site', extensions: constrained(sourceBounds) }),
    draft: t.exposeBoolean('draft', { description: 'A draft is not applied until published' }),
    captureWildcard: t.exposeBoolean('captureWildcard', { description: 'What the `*` matched is appended to the destination' }),
    permanent: t.exposeBoolean('permanent', { description: 'Served as a permanent redirect to the public' }),
    destination: t.field({ type: 'JSON', description: "GitBook's SiteRedirectDestination", extensions: shaped({ oneOf: DESTINATION_SHAPES }), resolve: destinationJson }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.createdAt }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, description: 'Absent until it is first changed', resolve: (r) => r.updatedAt }),
  }),
});
const SiteRedirectList = listType('SiteRedirect', SiteRedirectRef);

const SiteRedirectTarget = builder.objectRef<{ redirect: SiteRedirect; target: string }>('SiteRedirectTarget').implement({
  description: 'A redirect rule and the URL it leads to now',
  fields: (t) => ({
    redirect: t.field({ type: SiteRedirectRef, resolve: (r) => r.redirect }),
    target: t.exposeString('target', { description: 'URL of the destination of the redirect' }),
  }),
});

const redirectPath = builder.args((t) => ({ ...sitePath, siteRedirectId: t.string({ required: true, description: 'ID of the site redirect' }) }));
const flags = builder.args((t) => ({
  captureWildcard: t.boolean({ description: 'Append what the `*` matched to the destination' }),
  permanent: t.boolean({ description: 'Permanent for public live traffic' }),
}));

const result = (status: string, withId: boolean) => ({
  type: 'object',
  required: ['status', 'source', 'draft', ...(withId ? ['id'] : [])],
  properties: { status: kind(status), source: SOURCE_SHAPE, draft: { type: 'boolean' }, ...(withId ? { id } : {}) },
});
const BULK_SHAPE = {
  type: 'object',
  required: ['results'],
  properties: {
    results: {
      type: 'array',
      items: {
        oneOf: [
          result('created', true),
          result('updated', true),
          result('deleted', false),
          result('published', true),
          { type: 'object', required: ['status', 'source', 'draft', 'error'], properties: { status: kind('error'), source: SOURCE_SHAPE, draft: { type: 'boolean' }, error: { type: 'string' } } },
        ],
      },
    },
  },
};

builder.queryFields((t) => ({
  siteRedirects: t.field({
    type: SiteRedirectList,
    description: "A site's redirects, live (or drafts), newest first or as `orderBy` says (the site's members)",
    args: {
      ...sitePath,
      ...listArgs,
      search: t.arg.string({ description: 'Only redirects whose source contains this', extensions: constrained({ maxLength: MAX_SOURCE }) }),
      draft: t.arg.boolean({ description: 'Drafts instead of live redirects', extensions: constrained({ default: false }) }),
      orderBy: t.arg.string({ description: 'createdAt (newest first), updatedAt (last changed first) or source', extensions: constrained({ enum: ['createdAt', 'updatedAt', 'source'], default: 'createdAt' }) }),
    },
    resolve: (_root, { organizationId, siteId, ...args }, ctx) => listSiteRedirects(ctx, organizationId, siteId, args),
  }),
  siteRedirectBySource: t.field({
    type: SiteRedirectTarget,
    description: "The redirect of a source path and the URL it leads to (the site's members, or its apiToken); 404 when there is none",
    args: {
      ...sitePath,
      source: t.arg.string({ required: true, description: 'The source path of the redirect', extensions: constrained(sourceBounds) }),
      shareKey: t.arg.string({ description: "A share link's key, carried by the target of a share-link site", extensions: constrained({ maxLength: 256 }) }),
    },
    resolve: (_root, { organizationId, siteId, source, shareKey }, ctx) => siteRedirectBySource(ctx, organizationId, siteId, source, shareKey),
  }),
}));

builder.mutationFields((t) => ({
  createSiteRedirect: t.field({
    type: SiteRedirectRef,
    description: "Create a redirect (edit on the site); 409 when the source already has one (live or draft, as `draft` says)",
    args: {
      ...sitePath,
      ...flags,
      source: t.arg.string({ required: true, description: 'The path to redirect, relative to the site: `/old`, or a prefix `/old*`, `/old/*`', extensions: constrained(sourceBounds) }),
      draft: t.arg.boolean({ description: 'A draft, not applied until published', extensions: constrained({ default: false }) }),
      destination: t.arg({
        type: 'JSON',
        required: true,
        description: "GitBook's SiteRedirectInputDestination: site-section, site-space, site-page, external, or path (a page by space and path)",
        extensions: shaped({ oneOf: [...DESTINATION_SHAPES, PATH_DESTINATION] }),
      }),
    },
    resolve: (_root, { organizationId, siteId, ...input }, ctx) => createSiteRedirect(ctx, organizationId, siteId, { ...input, destination: input.destination }),
  }),
  updateSiteRedirect: t.field({
    type: SiteRedirectRef,
    description: "Change a redirect (edit on the site): only what is given; `draft: false` makes a draft live",
    args: {
      ...redirectPath,
      ...flags,
      source: t.arg.string({ description: 'The path to redirect, relative to the site', extensions: constrained(sourceBounds) }),
      draft: t.arg.boolean({ description: 'false: the redirect is applied (live)' }),
      destination: t.arg({ type: 'JSON', description: "GitBook's SiteRedirectDestination", extensions: shaped({ oneOf: DESTINATION_SHAPES }) }),
    },
    resolve: (_root, { organizationId, siteId, siteRedirectId, ...input }, ctx) => updateSiteRedirect(ctx, organizationId, siteId, siteRedirectId, input),
  }),
  deleteSiteRedirect: t.boolean({
    description: "Delete a redirect (edit on the site): true when one was deleted (REST 205), false when there was none (REST 204)",
    args: redirectPath,
    resolve: (_root, args, ctx) => deleteSiteRedirect(ctx, args.organizationId, args.siteId, args.siteRedirectId),
  }),
  bulkUpsertSiteRedirects: t.field({
    type: 'JSON',
    description: `Create, update, delete or publish up to ${MAX_BULK_REDIRECTS} redirects in one transaction, each answered with its status (edit on the site)`,
    extensions: shaped(BULK_SHAPE),
    args: {
      ...sitePath,
      redirects: t.arg({
        type: 'JSON',
        required: true,
        description: '{ source, intent: live|draft|publish, destination (null deletes), captureWildcard, permanent } items',
        extensions: constrained({ minItems: 1, maxItems: MAX_BULK_REDIRECTS }),
      }),
    },
    resolve: (_root, { organizationId, siteId, redirects }, ctx) => bulkUpsertSiteRedirects(ctx, organizationId, siteId, redirects),
  }),
}));
