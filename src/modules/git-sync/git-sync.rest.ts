import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['space-git'];
/** Not in the API description: GitBook's operations of the same method, path and operationId (issue 40). */
const gitbooks = (operationId: string) => ({ operationId, tags, addition: `GitBook's ${operationId}` });

export const gitSyncRoutes: RouteTable = {
  'Mutation.importGitRepository': { ...gitbooks('importGitRepository'), method: 'POST', path: '/spaces/{spaceId}/git/import', status: 204 },
  'Mutation.exportToGitRepository': { ...gitbooks('exportToGitRepository'), method: 'POST', path: '/spaces/{spaceId}/git/export', status: 204 },
  'Mutation.createGitSyncWebhook': { method: 'POST', path: '/spaces/{spaceId}/git/webhook', status: 201, tags, addition: 'The secret of the push webhook that imports a space synced with Git (issue 40)' },
  'Mutation.installGitSyncProviderOnTarget': { operationId: 'installGitSyncProviderOnTarget', method: 'POST', path: '/git/installations', status: 201, tags: ['git'], addition: "GitBook's installGitSyncProviderOnTarget" },
  'Query.gitSyncInstallation': { operationId: 'getGitSyncInstallationById', method: 'GET', path: '/git/installations/{installationId}', tags: ['git'], addition: "GitBook's getGitSyncInstallationById" },
  'Mutation.updateGitSyncInstallation': { operationId: 'updateGitSyncInstallationById', method: 'PATCH', path: '/git/installations/{installationId}', tags: ['git'], addition: "GitBook's updateGitSyncInstallationById" },
  'Mutation.uninstallGitSyncInstallation': {
    operationId: 'uninstallGitSyncInstallation',
    method: 'DELETE',
    path: '/git/installations/{installationId}',
    status: 205,
    tags: ['git'],
    addition: "GitBook's uninstallGitSyncInstallation",
  },
  'Query.spaceGitInfo': { ...gitbooks('getSpaceGitInfo'), method: 'GET', path: '/spaces/{spaceId}/git/info' },
};
