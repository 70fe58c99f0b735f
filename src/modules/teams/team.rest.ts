import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['teams'];

export const teamRoutes: RouteTable = {
  'Query.organizationMemberTeams': { method: 'GET', path: '/orgs/{organizationId}/members/{userId}/teams', tags },
  'Query.organizationTeams': { method: 'GET', path: '/orgs/{organizationId}/teams', tags },
  'Mutation.createOrganizationTeam': { method: 'PUT', path: '/orgs/{organizationId}/teams', status: 201, tags },
  'Query.organizationTeam': { method: 'GET', path: '/orgs/{organizationId}/teams/{teamId}', tags },
  'Mutation.updateOrganizationTeam': { method: 'PATCH', path: '/orgs/{organizationId}/teams/{teamId}', tags },
  'Mutation.deleteOrganizationTeam': { method: 'DELETE', path: '/orgs/{organizationId}/teams/{teamId}', status: 204, tags },
  'Query.organizationTeamMembers': { method: 'GET', path: '/orgs/{organizationId}/teams/{teamId}/members', tags },
  'Mutation.updateOrganizationTeamMembers': {
    method: 'PUT',
    path: '/orgs/{organizationId}/teams/{teamId}/members',
    status: 204,
    tags,
  },
  'Mutation.addOrganizationTeamMember': {
    method: 'PUT',
    path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    status: 204,
    tags,
  },
  'Mutation.removeOrganizationTeamMember': {
    method: 'DELETE',
    path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    status: 204,
    tags,
  },
};
