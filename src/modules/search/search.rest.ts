import type { RouteTable } from '../../rest/route-table.ts';

export const searchRoutes: RouteTable = {
  'Query.spaceSearch': { operationId: 'searchSpaceContent', method: 'GET', path: '/spaces/{spaceId}/search', tags: ['space-content'] },
  'Query.organizationSearch': { operationId: 'searchOrganizationContent', method: 'GET', path: '/orgs/{organizationId}/search', tags: ['organizations'] },
};
