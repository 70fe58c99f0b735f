import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['sites'];
const site = '/orgs/{organizationId}/sites/{siteId}';

export const siteRoutes: RouteTable = {
  'Query.organizationSites': { operationId: 'listSites', method: 'GET', path: '/orgs/{organizationId}/sites', tags },
  'Mutation.createSite': { method: 'POST', path: '/orgs/{organizationId}/sites', status: 201, tags },
  'Query.site': { operationId: 'getSiteById', method: 'GET', path: site, tags },
  'Mutation.updateSite': { operationId: 'updateSiteById', method: 'PATCH', path: site, tags },
  'Mutation.deleteSite': { operationId: 'deleteSiteById', method: 'DELETE', path: site, status: 204, tags },
  'Mutation.publishSite': { method: 'POST', path: `${site}/publish`, tags, addition: "GitBook's publishSite: a site starts unpublished" },
  'Mutation.unpublishSite': { method: 'POST', path: `${site}/unpublish`, tags, addition: "GitBook's unpublishSite" },
  'Query.siteAdaptiveSchema': { operationId: 'getSiteAdaptiveSchema', method: 'GET', path: `${site}/adaptive-schema`, tags },
  'Mutation.updateSiteAdaptiveSchema': { method: 'PUT', path: `${site}/adaptive-schema`, tags },
  'Query.publishedSite': { operationId: 'getPublishedContentSite', method: 'GET', path: `${site}/published`, tags },
  'Query.siteSections': { operationId: 'listSiteSections', method: 'GET', path: `${site}/sections`, tags },
  'Mutation.addSiteSection': { operationId: 'addSectionToSite', method: 'POST', path: `${site}/sections`, status: 201, tags },
  'Mutation.updateSiteSection': { operationId: 'updateSiteSectionById', method: 'PATCH', path: `${site}/sections/{siteSectionId}`, tags, returnMinimal: true },
  'Mutation.deleteSiteSection': { operationId: 'deleteSiteSectionById', method: 'DELETE', path: `${site}/sections/{siteSectionId}`, status: 204, tags },
  'Mutation.moveSiteSection': { method: 'POST', path: `${site}/sections/{siteSectionId}/move`, tags },
  'Query.siteSectionGroups': { operationId: 'listSiteSectionGroups', method: 'GET', path: `${site}/section-groups`, tags },
  'Mutation.createSiteSectionGroup': { operationId: 'addSectionGroupToSite', method: 'POST', path: `${site}/section-groups`, status: 201, tags },
  'Mutation.updateSiteSectionGroup': { operationId: 'updateSiteSectionGroupById', method: 'PATCH', path: `${site}/section-groups/{siteSectionGroupId}`, tags, returnMinimal: true },
  'Mutation.deleteSiteSectionGroup': { operationId: 'deleteSiteSectionGroupById', method: 'DELETE', path: `${site}/section-groups/{siteSectionGroupId}`, status: 204, tags },
  'Mutation.addSiteSectionToGroup': { method: 'POST', path: `${site}/section-groups/{siteSectionGroupId}/sections`, tags },
  'Mutation.removeSiteSectionFromGroup': { method: 'DELETE', path: `${site}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}`, status: 204, tags },
  'Mutation.moveSiteSectionGroup': { method: 'POST', path: `${site}/section-groups/{siteSectionGroupId}/move`, tags },
  'Query.siteShareLinks': { operationId: 'listSiteShareLinks', method: 'GET', path: `${site}/share-links`, tags },
  'Mutation.createSiteShareLink': { method: 'POST', path: `${site}/share-links`, status: 201, tags },
  'Mutation.updateSiteShareLink': { operationId: 'updateSiteShareLinkById', method: 'PATCH', path: `${site}/share-links/{shareLinkId}`, tags },
  'Mutation.deleteSiteShareLink': { operationId: 'deleteSiteShareLinkById', method: 'DELETE', path: `${site}/share-links/{shareLinkId}`, status: 204, tags },
  // The URL lookup takes no access token (public): it shows a visitor what the site shows them.
  'Query.publishedContentByUrl': {
    operationId: 'resolvePublishedContentByUrl',
    method: 'POST',
    path: '/urls/published',
    tags: ['urls'],
    public: true,
    addition: "GitBook's resolvePublishedContentByUrl",
  },
  'Query.publishedContentByUrlQuery': {
    operationId: 'getPublishedContentByUrl',
    method: 'GET',
    path: '/urls/published',
    tags: ['urls'],
    public: true,
    addition: "GitBook's getPublishedContentByUrl (deprecated there)",
  },
  'Query.sitePublishingAuth': { operationId: 'getSitePublishingAuthById', method: 'GET', path: `${site}/publishing/auth`, tags, addition: "GitBook's getSitePublishingAuthById" },
  'Mutation.updateSitePublishingAuth': { operationId: 'updateSitePublishingAuthById', method: 'PATCH', path: `${site}/publishing/auth`, tags, addition: "GitBook's updateSitePublishingAuthById" },
  'Mutation.regenerateSitePublishingAuth': {
    operationId: 'regenerateSitePublishingAuthById',
    method: 'POST',
    path: `${site}/publishing/auth/regenerate`,
    tags,
    addition: "GitBook's regenerateSitePublishingAuthById",
  },
};
