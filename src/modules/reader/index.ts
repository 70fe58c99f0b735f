import type { DomainModule } from '../domain-module.ts';
import { readerRoutes } from './reader.http.ts';

/**
 * The reader: published sites served as their readers read them — HTML pages rendered on the server,
 * their markdown, search, sitemaps and llms files — built on the sites module (what a URL shows, and to
 * whom) and the content module (what a revision holds). No REST routes: its endpoints are HTTP routes.
 */
export const readerModule: DomainModule = { name: 'reader', routes: {}, httpRoutes: readerRoutes };

export { hostedSiteRoute } from './reader.http.ts';
export { SiteHostnames } from './site-hostnames.ts';
