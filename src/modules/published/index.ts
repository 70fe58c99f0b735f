import './published-page.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import type { RouteTable } from '../../rest/route-table.ts';

/**
 * Published sites as their readers read them, built on the sites module (who may see what) and the
 * content module (what a revision holds): one request per page.
 */
const routes: RouteTable = {
  'Query.publishedPage': {
    method: 'GET',
    path: '/published-page',
    tags: ['urls'],
    public: true,
    addition: 'One page of a published site with what a frontend draws (lookup, structure, customization, page tree, page)',
  },
};

export const publishedModule: DomainModule = { name: 'published', routes };
