import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['space-permissions'];
const permissions = '/spaces/{spaceId}/permissions';

/** Who can access a space (GitBook's space-permissions operations). */
export const spacePermissionRoutes: RouteTable = {
  'Mutation.inviteToSpace': { operationId: 'inviteToSpace', method: 'POST', path: permissions, status: 204, tags, addition: "GitBook's inviteToSpace" },
  'Query.spaceUserPermissions': { operationId: 'listUserPermissionsInSpace', method: 'GET', path: `${permissions}/users`, tags, addition: "GitBook's listUserPermissionsInSpace" },
  'Query.spaceTeamPermissions': { operationId: 'listTeamPermissionsInSpace', method: 'GET', path: `${permissions}/teams`, tags, addition: "GitBook's listTeamPermissionsInSpace" },
  'Query.spacePermissionsAggregate': {
    operationId: 'listPermissionsAggregateInSpace',
    method: 'GET',
    path: `${permissions}/aggregate`,
    tags,
    addition: "GitBook's listPermissionsAggregateInSpace (with each level's sources)",
  },
  'Mutation.updateSpaceUserPermission': {
    operationId: 'updateUserPermissionInSpace',
    method: 'PATCH',
    path: `${permissions}/users/{userId}`,
    status: 204,
    tags,
    addition: "GitBook's updateUserPermissionInSpace",
  },
  'Mutation.updateSpaceTeamPermission': {
    operationId: 'updateTeamPermissionInSpace',
    method: 'PATCH',
    path: `${permissions}/teams/{teamId}`,
    status: 204,
    tags,
    addition: "GitBook's updateTeamPermissionInSpace",
  },
  'Mutation.removeSpaceUser': {
    operationId: 'removeUserFromSpace',
    method: 'DELETE',
    path: `${permissions}/users/{userId}`,
    status: 204,
    resetContentWhenTrue: true,
    tags,
    addition: "GitBook's removeUserFromSpace (205 when a grant was removed)",
  },
  'Mutation.removeSpaceTeam': {
    operationId: 'removeTeamFromSpace',
    method: 'DELETE',
    path: `${permissions}/teams/{teamId}`,
    status: 204,
    resetContentWhenTrue: true,
    tags,
    addition: "GitBook's removeTeamFromSpace (205 when a grant was removed)",
  },
};
