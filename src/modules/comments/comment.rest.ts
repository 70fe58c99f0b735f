import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['change-request-comments'];
const comments = '/spaces/{spaceId}/change-requests/{changeRequestId}/comments';

export const commentRoutes: RouteTable = {
  'Query.changeRequestComments': { operationId: 'listCommentsInChangeRequest', method: 'GET', path: comments, tags },
  'Mutation.postChangeRequestComment': { operationId: 'postCommentInChangeRequest', method: 'POST', path: comments, tags },
  'Query.changeRequestComment': { operationId: 'getCommentInChangeRequest', method: 'GET', path: `${comments}/{commentId}`, tags },
  'Mutation.updateChangeRequestComment': { operationId: 'updateCommentInChangeRequest', method: 'PUT', path: `${comments}/{commentId}`, tags },
  'Mutation.deleteChangeRequestComment': { operationId: 'deleteCommentInChangeRequest', method: 'DELETE', path: `${comments}/{commentId}`, status: 204, resetContentWhenTrue: true, tags },
  'Query.changeRequestCommentReplies': { operationId: 'listCommentRepliesInChangeRequest', method: 'GET', path: `${comments}/{commentId}/replies`, tags },
  'Mutation.postChangeRequestCommentReply': { operationId: 'postCommentReplyInChangeRequest', method: 'POST', path: `${comments}/{commentId}/replies`, tags, query: ['format'] },
  'Query.changeRequestCommentReply': { operationId: 'getCommentReplyInChangeRequest', method: 'GET', path: `${comments}/{commentId}/replies/{commentReplyId}`, tags },
  'Mutation.updateChangeRequestCommentReply': { operationId: 'updateCommentReplyInChangeRequest', method: 'PUT', path: `${comments}/{commentId}/replies/{commentReplyId}`, tags },
  'Mutation.deleteChangeRequestCommentReply': { operationId: 'deleteCommentReplyInChangeRequest',
    method: 'DELETE',
    path: `${comments}/{commentId}/replies/{commentReplyId}`,
    status: 204,
    resetContentWhenTrue: true,
    tags,
    addition: "GitBook's deleteCommentReplyInChangeRequest",
  },
  'Query.changeRequestCommenters': {
    operationId: 'listCommentersInChangeRequest',
    method: 'GET',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/commenters',
    tags,
    addition: "GitBook's listCommentersInChangeRequest",
  },
};

// Comments on a space itself (its current content): GitBook's space-comments operations, the same fields
// over the same service. Not in the API description: additions from GitBook's API.
const spaceTags = ['space-comments'];
const spaceComments = '/spaces/{spaceId}/comments';
const gitbooks = (operationId: string) => ({ operationId, addition: `GitBook's ${operationId}`, tags: spaceTags });

export const spaceCommentRoutes: RouteTable = {
  'Query.spaceComments': { ...gitbooks('listCommentsInSpace'), method: 'GET', path: spaceComments },
  'Mutation.postSpaceComment': { ...gitbooks('postCommentInSpace'), method: 'POST', path: spaceComments },
  'Query.spaceComment': { ...gitbooks('getCommentInSpace'), method: 'GET', path: `${spaceComments}/{commentId}` },
  'Mutation.updateSpaceComment': { ...gitbooks('updateCommentInSpace'), method: 'PUT', path: `${spaceComments}/{commentId}` },
  'Mutation.deleteSpaceComment': { ...gitbooks('deleteCommentInSpace'), method: 'DELETE', path: `${spaceComments}/{commentId}`, status: 204, resetContentWhenTrue: true },
  'Query.spaceCommentReplies': { ...gitbooks('listCommentRepliesInSpace'), method: 'GET', path: `${spaceComments}/{commentId}/replies` },
  'Mutation.postSpaceCommentReply': { ...gitbooks('postCommentReplyInSpace'), method: 'POST', path: `${spaceComments}/{commentId}/replies`, query: ['format'] },
  'Query.spaceCommentReply': { ...gitbooks('getCommentReplyInSpace'), method: 'GET', path: `${spaceComments}/{commentId}/replies/{commentReplyId}` },
  'Mutation.updateSpaceCommentReply': { ...gitbooks('updateCommentReplyInSpace'), method: 'PUT', path: `${spaceComments}/{commentId}/replies/{commentReplyId}` },
  'Mutation.deleteSpaceCommentReply': { ...gitbooks('deleteCommentReplyInSpace'), method: 'DELETE', path: `${spaceComments}/{commentId}/replies/{commentReplyId}`, status: 204, resetContentWhenTrue: true },
  'Query.spaceCommenters': { ...gitbooks('listCommentersInSpace'), method: 'GET', path: '/spaces/{spaceId}/commenters' },
};
