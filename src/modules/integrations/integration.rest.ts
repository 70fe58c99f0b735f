import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['integrations'];

export const integrationRoutes: RouteTable = {
  'Query.integrations': { operationId: 'listIntegrations', method: 'GET', path: '/integrations', tags },
  'Query.integration': { operationId: 'getIntegrationByName', method: 'GET', path: '/integrations/{integrationName}', tags },
  // A script and up to four images, base64: larger than MAX_BODY_BYTES allows.
  'Mutation.publishIntegration': { method: 'POST', path: '/integrations/{integrationName}', tags, maxBodyBytes: 16 * 1024 * 1024 },
  'Mutation.unpublishIntegration': { method: 'DELETE', path: '/integrations/{integrationName}', status: 204, tags },
  'Query.integrationInstallations': { operationId: 'listIntegrationInstallations', method: 'GET', path: '/integrations/{integrationName}/installations', tags },
  'Mutation.installIntegration': {
    method: 'POST',
    path: '/integrations/{integrationName}/installations',
    status: 201,
    tags,
    addition: "GitBook's installIntegration: how an organization gets an installation",
  },
  'Query.integrationInstallation': {
    operationId: 'getIntegrationInstallationById',
    method: 'GET',
    path: '/integrations/{integrationName}/installations/{installationId}',
    tags,
    addition: "GitBook's getIntegrationInstallationById (where an installation's urls.location points)",
  },
  'Mutation.uninstallIntegration': {
    method: 'DELETE',
    path: '/integrations/{integrationName}/installations/{installationId}',
    status: 204,
    tags,
    addition: "GitBook's uninstallIntegration",
  },
};
