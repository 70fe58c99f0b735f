import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['teams'];

export const teamRoutes: RouteTable = {
  'Query.organizationMemberTeams': { operationId: 'listTeamsForOrganizationMember', method: 'GET', path: '/orgs/{organizationId}/members/{userId}/teams', tags },
  'Query.organizationTeams': { operationId: 'listTeamsInOrganizationById', method: 'GET', path: '/orgs/{organizationId}/teams', tags },
  'Mutation.createOrganizationTeam': { method: 'PUT', path: '/orgs/{organizationId}/teams', status: 201, tags },
  'Query.organizationTeam': { operationId: 'getTeamInOrganizationById', method: 'GET', path: '/orgs/{organizationId}/teams/{teamId}', tags },
  'Mutation.updateOrganizationTeam': { operationId: 'updateTeamInOrganizationById', method: 'PATCH', path: '/orgs/{organizationId}/teams/{teamId}', tags },
  'Mutation.deleteOrganizationTeam': { operationId: 'removeTeamFromOrganizationById', method: 'DELETE', path: '/orgs/{organizationId}/teams/{teamId}', status: 204, tags },
  'Query.organizationTeamMembers': { operationId: 'listTeamMembersInOrganizationById', method: 'GET', path: '/orgs/{organizationId}/teams/{teamId}/members', tags },
  'Mutation.updateOrganizationTeamMembers': { operationId: 'updateMembersInOrganizationTeam',
    method: 'PUT',
    path: '/orgs/{organizationId}/teams/{teamId}/members',
    status: 204,
    tags,
  },
  'Mutation.addOrganizationTeamMember': { operationId: 'addMemberToOrganizationTeamById',
    method: 'PUT',
    path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    status: 204,
    tags,
  },
  'Mutation.removeOrganizationTeamMember': { operationId: 'deleteMemberFromOrganizationTeamById',
    method: 'DELETE',
    path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    status: 204,
    tags,
  },
};
