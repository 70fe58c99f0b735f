import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['members'];

export const memberRoutes: RouteTable = {
  'Query.userById': { operationId: 'getUserById', method: 'GET', path: '/users/{userId}', tags: ['users'], addition: "GitBook's getUserById (where User.urls.location points)" },
  'Query.organizationMembers': { operationId: 'listMembersInOrganizationById', method: 'GET', path: '/orgs/{organizationId}/members', tags },
  'Query.organizationMember': { operationId: 'getMemberInOrganizationById', method: 'GET', path: '/orgs/{organizationId}/members/{userId}', tags },
  'Mutation.updateOrganizationMember': { operationId: 'updateMemberInOrganizationById', method: 'PATCH', path: '/orgs/{organizationId}/members/{userId}', tags },
  'Mutation.removeOrganizationMember': { operationId: 'removeMemberFromOrganizationById', method: 'DELETE', path: '/orgs/{organizationId}/members/{userId}', status: 204, tags },
  'Mutation.pingOrganization': { operationId: 'updateOrganizationMemberLastSeenAt', method: 'POST', path: '/orgs/{organizationId}/ping', tags },
  'Mutation.setOrganizationMemberSso': { operationId: 'setUserAsSSOMemberForOrganization', method: 'POST', path: '/orgs/{organizationId}/members/{userId}/sso', tags },
};
