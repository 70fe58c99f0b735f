import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['space-content'];

export const contentRoutes: RouteTable = {
  'Query.spaceContent': { operationId: 'getCurrentRevision', method: 'GET', path: '/spaces/{spaceId}/content', tags },
  'Query.spaceContentPages': { operationId: 'listPages', method: 'GET', path: '/spaces/{spaceId}/content/pages', tags },
  'Query.spaceFiles': { operationId: 'listFiles', method: 'GET', path: '/spaces/{spaceId}/content/files', tags },
  'Query.spaceFile': { operationId: 'getFileById', method: 'GET', path: '/spaces/{spaceId}/content/files/{fileId}', tags },
  'Query.spacePage': { operationId: 'getPageById', method: 'GET', path: '/spaces/{spaceId}/content/page/{pageId}', tags },
  'Query.spaceFileBacklinks': { method: 'GET', path: '/spaces/{spaceId}/content/files/{fileId}/backlinks', tags },
  'Query.spacePageLinks': { method: 'GET', path: '/spaces/{spaceId}/content/page/{pageId}/links', tags },
};
