import './site.schema.ts';
import './site-section.schema.ts';
import './share-link.schema.ts';
import './published-site.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { siteRoutes } from './sites.rest.ts';

export const sitesModule: DomainModule = { name: 'sites', routes: siteRoutes };
