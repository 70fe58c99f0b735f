import './content-by-url.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import type { RouteTable } from '../../rest/route-table.ts';

/**
 * Application URLs: what a `urls.app` handed out by the API shows (collections, spaces, change
 * requests, pages), built on the modules that own them and their read rules.
 */
const routes: RouteTable = {
  'Query.contentByUrl': { operationId: 'getContentByUrl', method: 'GET', path: '/urls/content', tags: ['urls'], addition: "GitBook's getContentByUrl" },
};

export const appUrlsModule: DomainModule = { name: 'app-urls', routes };
