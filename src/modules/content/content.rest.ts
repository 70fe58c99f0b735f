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
  // Addressed by revision: answers that never change carry an ETag (a match is a 304).
  'Query.revision': { operationId: 'getRevisionById', addition: "GitBook's getRevisionById", method: 'GET', path: '/spaces/{spaceId}/revisions/{revisionId}', tags, immutable: true },
  'Query.revisionPages': { operationId: 'listPagesInRevisionById', addition: "GitBook's listPagesInRevisionById", method: 'GET', path: '/spaces/{spaceId}/revisions/{revisionId}/pages', tags, immutable: true },
  'Query.revisionPage': { operationId: 'getPageInRevisionById', addition: "GitBook's getPageInRevisionById", method: 'GET', path: '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}', tags, immutable: true },
  'Query.revisionPageDocument': {
    operationId: 'getPageDocumentInRevisionById', addition: "GitBook's getPageDocumentInRevisionById",
    method: 'GET',
    path: '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document',
    tags,
    immutable: true,
  },
  'Query.revisionPageByPath': {
    operationId: 'getPageInRevisionByPath',
    method: 'GET',
    path: '/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}',
    tags,
    immutable: true,
    restOfPath: true,
    addition: "GitBook's getPageInRevisionByPath",
  },
  'Query.spacePageByPath': { operationId: 'getPageByPath', method: 'GET', path: '/spaces/{spaceId}/content/path/{pagePath}', tags, restOfPath: true, addition: "GitBook's getPageByPath" },
  // Not immutable: a page's alternates follow the sites' variants, which change.
  'Query.spacePageMetaLinks': {
    operationId: 'listSpacePageMetaLinks',
    method: 'GET',
    path: '/spaces/{spaceId}/content/page/{pageId}/meta-links',
    tags,
    addition: "GitBook's listSpacePageMetaLinks",
  },
  'Query.revisionPageMetaLinks': {
    operationId: 'listRevisionPageMetaLinks',
    method: 'GET',
    path: '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/meta-links',
    tags,
    addition: "GitBook's listRevisionPageMetaLinks",
  },
  'Query.revisionChanges': {
    operationId: 'getRevisionSemanticChanges',
    method: 'GET',
    path: '/spaces/{spaceId}/revisions/{revisionId}/changes',
    tags,
    immutable: true,
    addition: "GitBook's getRevisionSemanticChanges",
  },
  'Query.spaceDocument': { operationId: 'getDocumentById', method: 'GET', path: '/spaces/{spaceId}/documents/{documentId}', tags, immutable: true, addition: "GitBook's getDocumentById" },
  'Query.revisionFiles': { operationId: 'listFilesInRevisionById', addition: "GitBook's listFilesInRevisionById", method: 'GET', path: '/spaces/{spaceId}/revisions/{revisionId}/files', tags, immutable: true },
  'Query.revisionFile': { operationId: 'getFileInRevisionById', addition: "GitBook's getFileInRevisionById", method: 'GET', path: '/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}', tags, immutable: true },
};
