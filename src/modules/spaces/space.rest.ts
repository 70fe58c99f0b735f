import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['spaces'];

export const spaceRoutes: RouteTable = {
  'Query.organizationSpaces': { operationId: 'listSpacesInOrganizationById', method: 'GET', path: '/orgs/{organizationId}/spaces', tags, addition: "GitBook's listSpacesInOrganizationById" },
  'Mutation.createSpace': { method: 'POST', path: '/orgs/{organizationId}/spaces', status: 201, tags, addition: "GitBook's createSpace" },
  'Query.organizationMemberSpaces': { operationId: 'listSpacesForOrganizationMember', method: 'GET', path: '/orgs/{organizationId}/members/{userId}/spaces', tags },
  'Query.space': { operationId: 'getSpaceById', method: 'GET', path: '/spaces/{spaceId}', tags },
  'Mutation.updateSpace': { operationId: 'updateSpaceById', method: 'PATCH', path: '/spaces/{spaceId}', tags },
  'Mutation.deleteSpace': { operationId: 'deleteSpaceById', method: 'DELETE', path: '/spaces/{spaceId}', status: 204, tags },
  'Mutation.duplicateSpace': { method: 'POST', path: '/spaces/{spaceId}/duplicate', status: 201, tags },
  'Mutation.restoreSpace': { method: 'POST', path: '/spaces/{spaceId}/restore', tags },
  'Mutation.moveSpace': { method: 'POST', path: '/spaces/{spaceId}/move', tags },
  'Query.spaceLinks': { method: 'GET', path: '/spaces/{spaceId}/links', tags },
  'Mutation.transferSpace': { method: 'POST', path: '/spaces/{spaceId}/transfer', tags },
};
