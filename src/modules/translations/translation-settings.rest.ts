import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['translations'];

export const translationRoutes: RouteTable = {
  'Query.organizationTranslations': { operationId: 'listTranslations', method: 'GET', path: '/orgs/{organizationId}/translations', tags },
  'Mutation.createTranslationSettings': { operationId: 'createTranslation', method: 'POST', path: '/orgs/{organizationId}/translations', status: 201, tags },
  'Query.translationSettings': { operationId: 'getTranslation', method: 'GET', path: '/orgs/{organizationId}/translations/{translationSettingsId}', tags },
  'Mutation.updateTranslationSettings': { operationId: 'updateTranslation', method: 'PUT', path: '/orgs/{organizationId}/translations/{translationSettingsId}', tags },
  'Mutation.deleteTranslationSettings': { operationId: 'deleteTranslation', method: 'DELETE', path: '/orgs/{organizationId}/translations/{translationSettingsId}', status: 204, tags },
};
