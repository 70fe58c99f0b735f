import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['change-requests'];

export const changeRequestRoutes: RouteTable = {
  'Query.organizationChangeRequests': {
    operationId: 'listChangeRequestsForOrganization',
    addition: "GitBook's listChangeRequestsForOrganization",
    method: 'GET',
    path: '/orgs/{organizationId}/change-requests',
    tags,
  },
  'Query.spaceChangeRequests': { operationId: 'listChangeRequestsForSpace', method: 'GET', path: '/spaces/{spaceId}/change-requests', tags },
  'Mutation.createChangeRequest': { method: 'POST', path: '/spaces/{spaceId}/change-requests', status: 201, tags },
  'Query.spaceChangeRequest': { operationId: 'getChangeRequestById', method: 'GET', path: '/spaces/{spaceId}/change-requests/{changeRequestId}', tags },
  'Mutation.updateChangeRequest': { operationId: 'updateChangeRequestById', method: 'PATCH', path: '/spaces/{spaceId}/change-requests/{changeRequestId}', tags, returnMinimal: true },
  'Mutation.mergeChangeRequest': { method: 'POST', path: '/spaces/{spaceId}/change-requests/{changeRequestId}/merge', tags },
  'Mutation.updateChangeRequestFromMain': { operationId: 'updateChangeRequest', method: 'POST', path: '/spaces/{spaceId}/change-requests/{changeRequestId}/update', tags },
  'Mutation.updateChangeRequestContent': {
    method: 'POST',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content',
    tags,
    query: ['compat'],
    addition: "GitBook's updateChangeRequestContent: how content gets into a change request",
    // GitBook answers the change request itself unless the caller opts into the newer shape.
    answer: (update, query) => (query.get('compat') === 'false' ? update : (update as { changeRequest: unknown }).changeRequest),
    answerSchema: { oneOf: [{ $ref: '#/components/schemas/ChangeRequest' }, { $ref: '#/components/schemas/ChangeRequestContentUpdate' }] },
  },
  'Query.changeRequestChanges': {
    operationId: 'getChangeRequestChanges',
    addition: "GitBook's getChangeRequestChanges",
    method: 'GET',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/changes',
    tags,
  },
  'Query.changeRequestContributors': {
    operationId: 'getContributorsByChangeRequestId',
    addition: "GitBook's getContributorsByChangeRequestId",
    method: 'GET',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/contributors',
    tags,
  },
  'Query.changeRequestDiff': {
    method: 'GET',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/diff',
    tags,
    addition: 'Ours: a unified diff of each page whose markdown the change request changes, for reviewers',
  },
  'Query.changeRequestPdf': { operationId: 'getChangeRequestPDF', method: 'GET', path: '/spaces/{spaceId}/change-requests/{changeRequestId}/pdf', tags },
  'Query.changeRequestContent': { operationId: 'getRevisionOfChangeRequestById', method: 'GET', path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content', tags },
  'Query.changeRequestContentPages': { operationId: 'listPagesInChangeRequest', method: 'GET', path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages', tags },
  'Query.changeRequestFiles': { operationId: 'listFilesInChangeRequestById', method: 'GET', path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files', tags },
  'Query.changeRequestFile': { operationId: 'getFileInChangeRequestById', method: 'GET', path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}', tags },
  'Query.changeRequestPage': { operationId: 'getPageInChangeRequestById', method: 'GET', path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}', tags },
  'Query.changeRequestFileBacklinks': {
    method: 'GET',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks',
    tags,
  },
  'Query.changeRequestPageByPath': {
    operationId: 'getPageInChangeRequestByPath',
    method: 'GET',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{pagePath}',
    tags,
    restOfPath: true,
    addition: "GitBook's getPageInChangeRequestByPath",
  },
  // Not immutable (nor is a change request's content): a page's alternates follow the sites' variants.
  'Query.changeRequestPageMetaLinks': {
    operationId: 'listChangeRequestPageMetaLinks',
    method: 'GET',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/meta-links',
    tags,
    addition: "GitBook's listChangeRequestPageMetaLinks",
  },
  'Query.changeRequestPageLinks': { method: 'GET', path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links', tags },
};
