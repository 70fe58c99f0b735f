import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['members'];

export const memberRoutes: RouteTable = {
  'Query.organizationMembers': { method: 'GET', path: '/orgs/{organizationId}/members', tags },
  'Query.organizationMember': { method: 'GET', path: '/orgs/{organizationId}/members/{userId}', tags },
  'Mutation.updateOrganizationMember': { method: 'PATCH', path: '/orgs/{organizationId}/members/{userId}', tags },
  'Mutation.removeOrganizationMember': { method: 'DELETE', path: '/orgs/{organizationId}/members/{userId}', status: 204, tags },
  'Mutation.pingOrganization': { method: 'POST', path: '/orgs/{organizationId}/ping', tags },
  'Mutation.setOrganizationMemberSso': { method: 'POST', path: '/orgs/{organizationId}/members/{userId}/sso', tags },
};
