import type { RouteTable } from '../../rest/route-table.ts';

export const contentImportRoutes: RouteTable = {
  'Mutation.importSpaceContent': { method: 'POST', path: '/spaces/{spaceId}/content/import', tags: ['space-content'] },
  'Mutation.importChangeRequestContent': {
    method: 'POST',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/import',
    tags: ['change-requests'],
  },
};
