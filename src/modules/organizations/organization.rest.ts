import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['organizations'];

export const organizationRoutes: RouteTable = {
  'Query.organizations': { operationId: 'listOrganizationsForAuthenticatedUser', method: 'GET', path: '/orgs', tags },
  'Mutation.createOrganization': { method: 'POST', path: '/orgs', status: 201, tags, addition: "GitBook's createOrganization" },
  'Query.organization': { operationId: 'getOrganizationById', method: 'GET', path: '/orgs/{organizationId}', tags },
  'Mutation.updateOrganization': { operationId: 'updateOrganizationById', method: 'PATCH', path: '/orgs/{organizationId}', tags },
  'Query.organizationsForEmailDomain': { operationId: 'getOrganizationsForEmailDomain', method: 'GET', path: '/email-domains/{emailDomain}/orgs', tags },
};
