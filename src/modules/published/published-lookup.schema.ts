import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { MAX_URL, resolvePublishedUrl } from './published-lookup.ts';

export const SiteVisitorInput = builder.inputType('SiteVisitorInput', {
  description: "Who is visiting (GitBook's SiteVisitorPayload): a JWT the site's backend signed, and claims given unsigned",
  fields: (t) => ({
    type: t.string({ description: 'human or agent', extensions: constrained({ enum: ['human', 'agent'] }) }),
    jwtToken: t.string({ description: "A visitor-auth JWT signed (HS256) with the site's publishing-auth key", extensions: constrained({ maxLength: 8192 }) }),
    unsignedClaims: t.field({ type: 'JSON', description: 'Claims given unsigned: only those the adaptive schema declares count, under `visitor.claims.unsigned`' }),
  }),
});

/** GitBook's PublishedSiteContentLookup: the content a URL shows, or where to go instead. */
const lookupShape = {
  oneOf: [
    {
      type: 'object',
      required: ['site', 'siteSpace', 'space', 'pathname', 'basePath', 'siteBasePath', 'apiToken', 'organization', 'complete', 'canonicalUrl'],
      properties: {
        site: { type: 'string' },
        siteSection: { type: 'string' },
        siteSpace: { type: 'string' },
        space: { type: 'string' },
        revision: { type: 'string' },
        pathname: { type: 'string' },
        basePath: { type: 'string' },
        siteBasePath: { type: 'string' },
        apiToken: { type: 'string', description: 'A JWT reading this site\'s published content only, for an hour (the same for ten minutes)' },
        organization: { type: 'string' },
        shareKey: { type: 'string' },
        complete: { type: 'boolean' },
        canonicalUrl: { type: 'string' },
      },
    },
    {
      type: 'object',
      required: ['target', 'site', 'redirect'],
      properties: { target: { type: 'string', enum: ['external'] }, site: { type: 'string' }, redirect: { type: 'string', format: 'uri' } },
    },
  ],
};


builder.queryFields((t) => ({
  publishedContentByUrl: t.field({
    type: 'JSON',
    description: 'What a published URL shows to this visitor (no access token needed): the site, section, site space, space, revision, and an apiToken to read them',
    extensions: shaped(lookupShape),
    args: {
      url: t.arg.string({ required: true, description: 'The published URL', extensions: constrained({ maxLength: MAX_URL, format: 'uri' }) }),
      visitor: t.arg({ type: SiteVisitorInput, description: 'Who is visiting' }),
      redirectOnError: t.arg.boolean({ description: 'Accepted for compatibility: a visitor-auth site always answers where to authenticate', extensions: constrained({ default: false }) }),
    },
    resolve: (_root, args, ctx) => resolvePublishedUrl(ctx, { url: args.url, visitor: args.visitor, redirectOnError: args.redirectOnError }),
  }),
  publishedContentByUrlQuery: t.field({
    type: 'JSON',
    description: 'The same as publishedContentByUrl, for GitBook\'s GET form (deprecated there): the visitor token in the query string',
    extensions: shaped(lookupShape),
    args: {
      url: t.arg.string({ required: true, description: 'The published URL', extensions: constrained({ maxLength: MAX_URL, format: 'uri' }) }),
      // Shorter than the body's: a URL is at most 8192 characters in all.
      visitorAuthToken: t.arg.string({ description: "A visitor-auth JWT signed with the site's publishing-auth key", extensions: constrained({ maxLength: 4096 }) }),
      redirectOnError: t.arg.boolean({ description: 'Accepted for compatibility', extensions: constrained({ default: false }) }),
    },
    resolve: (_root, args, ctx) => resolvePublishedUrl(ctx, { url: args.url, visitor: { jwtToken: args.visitorAuthToken }, redirectOnError: args.redirectOnError }),
  }),
}));
