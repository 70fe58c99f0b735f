import type { RouteTable } from '../../rest/route-table.ts';

export const searchRoutes: RouteTable = {
  'Query.spaceSearch': { operationId: 'searchSpaceContent', method: 'GET', path: '/spaces/{spaceId}/search', tags: ['space-content'] },
  'Query.organizationSearch': { operationId: 'searchOrganizationContent', method: 'GET', path: '/orgs/{organizationId}/search', tags: ['organizations'] },
  // A read with a JSON body (the query and its scope), as GitBook's: paging stays in the query string.
  'Query.siteSearch': {
    operationId: 'searchSiteContent',
    method: 'POST',
    path: '/orgs/{organizationId}/sites/{siteId}/search',
    tags: ['sites'],
    query: ['limit', 'page'],
    addition: "GitBook's searchSiteContent",
  },
};
