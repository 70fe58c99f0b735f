import './content.schema.ts';
import './revision-content.schema.ts';
import './content.graph.ts';
import './links.schema.ts';
import type { DomainModule } from '../../rest/route-table.ts';
import { contentRoutes } from './content.rest.ts';

export const contentModule: DomainModule = { name: 'content', routes: contentRoutes };
