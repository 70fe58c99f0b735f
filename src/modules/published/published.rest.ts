import type { RouteTable } from '../../rest/route-table.ts';

/** The published API: what a published URL shows, to anyone (no access token). */
export const publishedRoutes: RouteTable = {
  // The URL lookup takes no access token (public): it shows a visitor what the site shows them.
  'Query.publishedContentByUrl': {
    operationId: 'resolvePublishedContentByUrl',
    method: 'POST',
    path: '/urls/published',
    tags: ['urls'],
    public: true,
    addition: "GitBook's resolvePublishedContentByUrl",
  },
  'Query.publishedContentByUrlQuery': {
    operationId: 'getPublishedContentByUrl',
    method: 'GET',
    path: '/urls/published',
    tags: ['urls'],
    public: true,
    addition: "GitBook's getPublishedContentByUrl (deprecated there)",
  },
  'Query.publishedPage': {
    method: 'GET',
    path: '/published-page',
    tags: ['urls'],
    public: true,
    addition: 'One page of a published site with what a frontend draws (lookup, structure, customization, page tree, page)',
  },
};
