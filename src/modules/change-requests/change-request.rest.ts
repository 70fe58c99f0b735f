import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['change-requests'];

export const changeRequestRoutes: RouteTable = {
  'Query.spaceChangeRequests': { method: 'GET', path: '/spaces/{spaceId}/change-requests', tags },
  'Mutation.createChangeRequest': { method: 'POST', path: '/spaces/{spaceId}/change-requests', status: 201, tags },
  'Query.spaceChangeRequest': { method: 'GET', path: '/spaces/{spaceId}/change-requests/{changeRequestId}', tags },
  'Mutation.updateChangeRequest': { method: 'PATCH', path: '/spaces/{spaceId}/change-requests/{changeRequestId}', tags },
};
