import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['site-permissions'];
const permissions = '/orgs/{organizationId}/sites/{siteId}/permissions';

/** Who can access a site (GitBook's site-permissions and site-users operations). */
export const sitePermissionRoutes: RouteTable = {
  'Mutation.inviteToSite': { operationId: 'inviteToSite', method: 'POST', path: permissions, status: 204, tags, addition: "GitBook's inviteToSite" },
  'Query.siteUserPermissions': { operationId: 'listUserPermissionsInSite', method: 'GET', path: `${permissions}/users`, tags, addition: "GitBook's listUserPermissionsInSite" },
  'Query.siteTeamPermissions': { operationId: 'listTeamPermissionsInSite', method: 'GET', path: `${permissions}/teams`, tags, addition: "GitBook's listTeamPermissionsInSite" },
  'Query.sitePermissionsAggregate': {
    operationId: 'listPermissionsAggregateInSite',
    addition: "GitBook's listPermissionsAggregateInSite",
    method: 'GET',
    path: `${permissions}/aggregate`,
    tags,
  },
  'Mutation.updateSiteUserPermission': {
    operationId: 'updateUserPermissionInSite',
    addition: "GitBook's updateUserPermissionInSite",
    method: 'PATCH',
    path: `${permissions}/users/{userId}`,
    status: 204,
    tags,
  },
  'Mutation.updateSiteTeamPermission': {
    operationId: 'updateTeamPermissionInSite',
    addition: "GitBook's updateTeamPermissionInSite",
    method: 'PATCH',
    path: `${permissions}/teams/{teamId}`,
    status: 204,
    tags,
  },
  'Mutation.removeSiteUser': {
    operationId: 'removeUserFromSite',
    addition: "GitBook's removeUserFromSite (205 when a grant was removed)",
    method: 'DELETE',
    path: `${permissions}/users/{userId}`,
    status: 204,
    resetContentWhenTrue: true,
    tags,
  },
  'Mutation.removeSiteTeam': {
    operationId: 'removeTeamFromSite',
    addition: "GitBook's removeTeamFromSite (205 when a grant was removed)",
    method: 'DELETE',
    path: `${permissions}/teams/{teamId}`,
    status: 204,
    resetContentWhenTrue: true,
    tags,
  },
};
