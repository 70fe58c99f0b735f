import type { RouteTable } from '../../rest/route-table.ts';

export const userRoutes: RouteTable = {
  'Query.user': { operationId: 'getAuthenticatedUser', method: 'GET', path: '/user', tags: ['users'], addition: "GitBook's getAuthenticatedUser" },
  'Mutation.adminCreateUser': {
    method: 'POST',
    path: '/admin/users',
    status: 201,
    tags: ['admin'],
    adminOnly: true,
    addition: 'Instance administration: first user and token (ADMIN_TOKEN)',
  },
};
