import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['collection-permissions'];
const permissions = '/collections/{collectionId}/permissions';

/** Who can access a collection, and so everything inside it (GitBook's collection-permissions operations). */
export const collectionPermissionRoutes: RouteTable = {
  'Mutation.inviteToCollection': { operationId: 'inviteToCollection', method: 'POST', path: permissions, status: 204, tags, addition: "GitBook's inviteToCollection" },
  'Query.collectionUserPermissions': {
    operationId: 'listUserPermissionsInCollection',
    method: 'GET',
    path: `${permissions}/users`,
    tags,
    addition: "GitBook's listUserPermissionsInCollection",
  },
  'Query.collectionTeamPermissions': {
    operationId: 'listTeamPermissionsInCollection',
    method: 'GET',
    path: `${permissions}/teams`,
    tags,
    addition: "GitBook's listTeamPermissionsInCollection",
  },
  'Query.collectionPermissionsAggregate': {
    operationId: 'listPermissionsAggregateInCollection',
    method: 'GET',
    path: `${permissions}/aggregate`,
    tags,
    addition: "GitBook's listPermissionsAggregateInCollection (with each level's sources)",
  },
  'Mutation.updateCollectionUserPermission': {
    operationId: 'updateUserPermissionInCollection',
    method: 'PATCH',
    path: `${permissions}/users/{userId}`,
    status: 204,
    tags,
    addition: "GitBook's updateUserPermissionInCollection",
  },
  'Mutation.updateCollectionTeamPermission': {
    operationId: 'updateTeamPermissionInCollection',
    method: 'PATCH',
    path: `${permissions}/teams/{teamId}`,
    status: 204,
    tags,
    addition: "GitBook's updateTeamPermissionInCollection",
  },
  'Mutation.removeCollectionUser': {
    operationId: 'removeUserFromCollection',
    method: 'DELETE',
    path: `${permissions}/users/{userId}`,
    status: 204,
    resetContentWhenTrue: true,
    tags,
    addition: "GitBook's removeUserFromCollection (205 when a grant was removed)",
  },
  'Mutation.removeCollectionTeam': {
    operationId: 'removeTeamFromCollection',
    method: 'DELETE',
    path: `${permissions}/teams/{teamId}`,
    status: 204,
    resetContentWhenTrue: true,
    tags,
    addition: "GitBook's removeTeamFromCollection (205 when a grant was removed)",
  },
};
