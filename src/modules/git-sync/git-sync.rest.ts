import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['space-git'];
/** Not in the API description: GitBook's operations of the same method, path and operationId (issue 40). */
const gitbooks = (operationId: string) => ({ operationId, tags, addition: `GitBook's ${operationId}` });

export const gitSyncRoutes: RouteTable = {
  'Mutation.importGitRepository': { ...gitbooks('importGitRepository'), method: 'POST', path: '/spaces/{spaceId}/git/import', status: 204 },
  'Mutation.exportToGitRepository': { ...gitbooks('exportToGitRepository'), method: 'POST', path: '/spaces/{spaceId}/git/export', status: 204 },
  'Mutation.createGitSyncWebhook': { method: 'POST', path: '/spaces/{spaceId}/git/webhook', status: 201, tags, addition: 'The secret of the push webhook that imports a space synced with Git (issue 40)' },
  'Query.spaceGitInfo': { ...gitbooks('getSpaceGitInfo'), method: 'GET', path: '/spaces/{spaceId}/git/info' },
};
