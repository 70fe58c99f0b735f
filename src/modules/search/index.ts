import './search.schema.ts';
import type { DomainModule } from '../../rest/route-table.ts';
import { searchRoutes } from './search.rest.ts';

export const searchModule: DomainModule = { name: 'search', routes: searchRoutes };
