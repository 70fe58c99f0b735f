import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { SearchSpaceResultList, searchArgs } from './search.schema.ts';
import { MAX_SCOPE_SITE_SPACES, searchSite } from './site-search.service.ts';

const siteSpaceIdsBounds = constrained({ minItems: 1, maxItems: MAX_SCOPE_SITE_SPACES });

const SiteSearchScopeInput = builder.inputType('SiteSearchScope', {
  description: "Which site spaces to search (GitBook's SiteSearchScope)",
  fields: (t) => ({
    mode: t.string({
      required: true,
      description: '`default`: the default site space of each section (the current one in its section); `specific`: the site spaces named; `all`: every section and site space',
      extensions: constrained({ enum: ['default', 'specific', 'all'] }),
    }),
    currentSiteSpace: t.string({ description: '`default` mode: the site space the search is made from, searched in place of its section\'s default' }),
    restrictTo: t.string({
      description: '`default` mode, with currentSiteSpace: only the current site space, or only the others',
      extensions: constrained({ enum: ['currentSiteSpace', 'otherSiteSpaces'] }),
    }),
    siteSpaceIds: t.stringList({ description: `\`specific\` mode: the site spaces to search (1..${MAX_SCOPE_SITE_SPACES})`, extensions: siteSpaceIdsBounds }),
  }),
});

builder.queryFields((t) => ({
  siteSearch: t.field({
    type: SearchSpaceResultList,
    description:
      "Full-text search of a site's published content (each site space's space as published), in the site spaces the caller may see: the site's members, all; the holder of its apiToken, those shown to them. Pages ranked across the site, `limit` pages at a time, grouped by space",
    args: {
      organizationId: t.arg.string({ required: true, description: 'ID of the organization' }),
      siteId: t.arg.string({ required: true, description: 'ID of the site' }),
      ...searchArgs,
      scope: t.arg({ type: SiteSearchScopeInput, description: 'Which site spaces to search (default: all of them)' }),
      mode: t.arg.string({
        description: "Deprecated (GitBook's): use scope. `specific` with siteSpaceIds, `current` with siteSpaceId, `all`",
        extensions: constrained({ enum: ['specific', 'current', 'all'] }),
      }),
      siteSpaceIds: t.arg.stringList({ description: "Deprecated (GitBook's): the site spaces to search; use scope", extensions: siteSpaceIdsBounds }),
      siteSpaceId: t.arg.string({ description: "Deprecated (GitBook's): the current site space of the `current` mode; use scope" }),
    },
    resolve: (_root, { organizationId, siteId, ...args }, ctx) => searchSite(ctx, organizationId, siteId, args),
  }),
}));
