import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['change-request-comments'];
const comments = '/spaces/{spaceId}/change-requests/{changeRequestId}/comments';

export const commentRoutes: RouteTable = {
  'Query.changeRequestComments': { method: 'GET', path: comments, tags },
  'Mutation.postChangeRequestComment': { method: 'POST', path: comments, tags },
  'Query.changeRequestComment': { method: 'GET', path: `${comments}/{commentId}`, tags },
  'Mutation.updateChangeRequestComment': { method: 'PUT', path: `${comments}/{commentId}`, tags },
  'Mutation.deleteChangeRequestComment': { method: 'DELETE', path: `${comments}/{commentId}`, status: 204, tags },
  'Query.changeRequestCommentReplies': { method: 'GET', path: `${comments}/{commentId}/replies`, tags },
  'Mutation.postChangeRequestCommentReply': { method: 'POST', path: `${comments}/{commentId}/replies`, tags, query: ['format'] },
  'Query.changeRequestCommentReply': { method: 'GET', path: `${comments}/{commentId}/replies/{commentReplyId}`, tags },
  'Mutation.updateChangeRequestCommentReply': { method: 'PUT', path: `${comments}/{commentId}/replies/{commentReplyId}`, tags },
  'Mutation.deleteChangeRequestCommentReply': {
    method: 'DELETE',
    path: `${comments}/{commentId}/replies/{commentReplyId}`,
    status: 204,
    tags,
    addition: "GitBook's deleteCommentReplyInChangeRequest",
  },
};
