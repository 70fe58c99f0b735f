import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['change-requests'];
const changeRequest = '/spaces/{spaceId}/change-requests/{changeRequestId}';
/** Not in the API description: GitBook's operation of the same method, path and operationId (issue 26). */
const gitbooks = (operationId: string) => ({ operationId, tags, addition: `GitBook's ${operationId}` });

/** Review requests and reviews of a change request (docs/api/change-requests.md, "Reviews"). */
export const changeRequestReviewRoutes: RouteTable = {
  'Query.changeRequestRequestedReviewers': { ...gitbooks('getRequestedReviewersByChangeRequestId'), method: 'GET', path: `${changeRequest}/requested-reviewers` },
  'Mutation.requestChangeRequestReviewers': { ...gitbooks('requestReviewersForChangeRequest'), method: 'POST', path: `${changeRequest}/requested-reviewers` },
  'Mutation.removeChangeRequestRequestedReviewer': {
    ...gitbooks('removeRequestedReviewerFromChangeRequest'),
    method: 'DELETE',
    path: `${changeRequest}/requested-reviewers/{userId}`,
    status: 204,
    resetContentWhenTrue: true,
  },
  'Query.changeRequestReviews': { ...gitbooks('getReviewsByChangeRequestId'), method: 'GET', path: `${changeRequest}/reviews` },
  'Mutation.submitChangeRequestReview': { ...gitbooks('submitChangeRequestReview'), method: 'POST', path: `${changeRequest}/reviews`, status: 201 },
  'Query.changeRequestReview': { ...gitbooks('getChangeRequestReviewById'), method: 'GET', path: `${changeRequest}/reviews/{reviewId}` },
};
