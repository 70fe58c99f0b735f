import './published-lookup.schema.ts';
import './published-page.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { publishedRoutes } from './published.rest.ts';

/**
 * A published site as its visitors see it — the one module that resolves a published URL to what it
 * shows (site, section, variant, page, who may see them, redirects): the URL lookup and its apiToken,
 * `publishedPage`, and the view the reader's HTML draws (published-view.ts). Built on the sites module
 * (a site's sections, variants, access rules and redirect rules) and the content module (what a
 * revision holds). The reader (modules/reader/) is its HTML rendering.
 */
export const publishedModule: DomainModule = { name: 'published', routes: publishedRoutes };

export { MAX_URL, type LookupResult, type PublishedLookup, type VisitorInput, type VisitorNavigation } from './published-lookup.ts';
export { SiteVisitorInput } from './published-lookup.schema.ts';
export { choosePage, firstReadable, listedReadable, readable, type PageChoice } from './page-choice.ts';
export { encodePagePath, publishedView, type PublishedView, type ResolvedLookup } from './published-view.ts';
