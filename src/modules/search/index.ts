import './search.schema.ts';
import './site-search.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { copySearchIndex } from './search-index.ts';
import { searchRoutes } from './search.rest.ts';

export const searchModule: DomainModule = {
  name: 'search',
  routes: searchRoutes,
  // A copy of a space is found as the original is: its index is copied rather than rebuilt.
  events: {
    'space.duplicated': (tx, e) => copySearchIndex(tx, e.sourceSpaceId, e.copySpaceId, e.revisionId, e.sourceRevisionId),
  },
};

// The public entry of the module: what other modules use.
export { updateSearchIndex } from './search-index.ts';
export { searchSite, searchSiteAsReader } from './site-search.service.ts';
