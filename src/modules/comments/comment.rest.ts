import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['change-request-comments'];
const comments = '/spaces/{spaceId}/change-requests/{changeRequestId}/comments';

export const commentRoutes: RouteTable = {
  'Query.changeRequestComments': { operationId: 'listCommentsInChangeRequest', method: 'GET', path: comments, tags },
  'Mutation.postChangeRequestComment': { operationId: 'postCommentInChangeRequest', method: 'POST', path: comments, tags },
  'Query.changeRequestComment': { operationId: 'getCommentInChangeRequest', method: 'GET', path: `${comments}/{commentId}`, tags },
  'Mutation.updateChangeRequestComment': { operationId: 'updateCommentInChangeRequest', method: 'PUT', path: `${comments}/{commentId}`, tags },
  'Mutation.deleteChangeRequestComment': { operationId: 'deleteCommentInChangeRequest', method: 'DELETE', path: `${comments}/{commentId}`, status: 204, tags },
  'Query.changeRequestCommentReplies': { operationId: 'listCommentRepliesInChangeRequest', method: 'GET', path: `${comments}/{commentId}/replies`, tags },
  'Mutation.postChangeRequestCommentReply': { operationId: 'postCommentReplyInChangeRequest', method: 'POST', path: `${comments}/{commentId}/replies`, tags, query: ['format'] },
  'Query.changeRequestCommentReply': { operationId: 'getCommentReplyInChangeRequest', method: 'GET', path: `${comments}/{commentId}/replies/{commentReplyId}`, tags },
  'Mutation.updateChangeRequestCommentReply': { operationId: 'updateCommentReplyInChangeRequest', method: 'PUT', path: `${comments}/{commentId}/replies/{commentReplyId}`, tags },
  'Mutation.deleteChangeRequestCommentReply': { operationId: 'deleteCommentReplyInChangeRequest',
    method: 'DELETE',
    path: `${comments}/{commentId}/replies/{commentReplyId}`,
    status: 204,
    tags,
    addition: "GitBook's deleteCommentReplyInChangeRequest",
  },
};
