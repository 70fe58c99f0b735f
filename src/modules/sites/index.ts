import './site.schema.ts';
import './site-section.schema.ts';
import './share-link.schema.ts';
import './published-site.schema.ts';
import './publishing-auth.schema.ts';
import './site-customization.schema.ts';
import './site-space-customization.schema.ts';
import './site-space.schema.ts';
import './site-redirects.schema.ts';
import './site-permissions.schema.ts';
import './site-structure.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { removeSpacesFromSites } from './site-spaces.ts';
import { siteRoutes } from './sites.rest.ts';
import { sitePermissionRoutes } from './site-permissions.rest.ts';

export const sitesModule: DomainModule = {
  name: 'sites',
  routes: { ...siteRoutes, ...sitePermissionRoutes },
  // A space that leaves the organization's content leaves its sites (a section left with none goes).
  events: { 'spaces.removed': (tx, { spaceIds }) => removeSpacesFromSites(tx, spaceIds) },
};

export { admitVisitor, looksLikeJwt, siteReaderForToken, spaceForSiteReader } from './site-readers.ts';
export { SITE_READER_FIELDS, VISITOR_PROJECTION } from './visitor-projection.ts';
// For the published site's module (published/): who a visitor is, which rows open to them, where a variant lives, redirects.
export { conditionHolds } from './adaptive-content.ts';
export { authKeyTag, issueSiteReaderToken, siteOpenTo } from './site-readers.ts';
export { destinationPage, destinationUrl, matchRedirect, redirectFacts, sourceCandidates, type SiteLayout } from './site-redirect-targets.ts';
export { SiteNavigation, siteStructureOf } from './published-site.schema.ts';
export { customizationOf, siteSpaceCustomizationOf } from './site-customization.ts';
export { readerSearchableSiteSpaces, searchableSiteSpaces, type SearchableSiteSpace } from './searchable-site-spaces.ts';
export { variantSpaceIds } from './site-variants.ts';
export { variantPath } from './site-urls.ts';
