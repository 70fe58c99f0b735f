import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['space-content'];

export const contentRoutes: RouteTable = {
  'Query.spaceContent': { method: 'GET', path: '/spaces/{spaceId}/content', tags },
  'Query.spaceContentPages': { method: 'GET', path: '/spaces/{spaceId}/content/pages', tags },
  'Query.spaceFiles': { method: 'GET', path: '/spaces/{spaceId}/content/files', tags },
  'Query.spaceFile': { method: 'GET', path: '/spaces/{spaceId}/content/files/{fileId}', tags },
  'Query.spacePage': { method: 'GET', path: '/spaces/{spaceId}/content/page/{pageId}', tags },
  'Query.spaceFileBacklinks': { method: 'GET', path: '/spaces/{spaceId}/content/files/{fileId}/backlinks', tags },
  'Query.spacePageLinks': { method: 'GET', path: '/spaces/{spaceId}/content/page/{pageId}/links', tags },
};
