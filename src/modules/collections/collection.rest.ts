import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['collections'];

export const collectionRoutes: RouteTable = {
  'Query.organizationCollections': { operationId: 'listCollectionsInOrganizationById', method: 'GET', path: '/orgs/{organizationId}/collections', tags },
  'Mutation.createCollection': { method: 'POST', path: '/orgs/{organizationId}/collections', status: 201, tags },
  'Query.collection': { operationId: 'getCollectionById', method: 'GET', path: '/collections/{collectionId}', tags },
  'Mutation.updateCollection': { operationId: 'updateCollectionById', method: 'PATCH', path: '/collections/{collectionId}', tags },
  'Mutation.deleteCollection': { operationId: 'deleteCollectionById', method: 'DELETE', path: '/collections/{collectionId}', status: 204, tags },
  'Query.collectionSpaces': { operationId: 'listSpacesInCollectionById', method: 'GET', path: '/collections/{collectionId}/spaces', tags },
  'Mutation.moveCollection': { method: 'POST', path: '/collections/{collectionId}/move', tags },
  'Mutation.transferCollection': { method: 'POST', path: '/collections/{collectionId}/transfer', tags },
};
