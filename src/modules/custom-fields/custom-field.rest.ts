import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['custom-fields'];

export const customFieldRoutes: RouteTable = {
  'Query.organizationCustomFields': { method: 'GET', path: '/orgs/{organizationId}/custom-fields', tags },
  'Mutation.createCustomField': { method: 'POST', path: '/orgs/{organizationId}/custom-fields', status: 201, tags },
  'Query.organizationCustomField': { method: 'GET', path: '/orgs/{organizationId}/custom-fields/{fieldName}', tags },
  'Mutation.updateCustomField': { method: 'PATCH', path: '/orgs/{organizationId}/custom-fields/{fieldName}', tags },
  'Mutation.deleteCustomField': { method: 'DELETE', path: '/orgs/{organizationId}/custom-fields/{fieldName}', status: 204, tags },
  'Query.spaceCustomFields': { method: 'GET', path: '/spaces/{spaceId}/custom-fields', tags },
  'Mutation.updateSpaceCustomFields': { method: 'PATCH', path: '/spaces/{spaceId}/custom-fields', status: 204, tags },
};
