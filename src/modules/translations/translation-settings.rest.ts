import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['translations'];

export const translationRoutes: RouteTable = {
  'Query.organizationTranslations': { method: 'GET', path: '/orgs/{organizationId}/translations', tags },
  'Mutation.createTranslationSettings': { method: 'POST', path: '/orgs/{organizationId}/translations', status: 201, tags },
  'Query.translationSettings': { method: 'GET', path: '/orgs/{organizationId}/translations/{translationSettingsId}', tags },
  'Mutation.updateTranslationSettings': { method: 'PUT', path: '/orgs/{organizationId}/translations/{translationSettingsId}', tags },
  'Mutation.deleteTranslationSettings': { method: 'DELETE', path: '/orgs/{organizationId}/translations/{translationSettingsId}', status: 204, tags },
};
