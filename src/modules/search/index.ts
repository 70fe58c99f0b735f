import './search.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { searchRoutes } from './search.rest.ts';

export const searchModule: DomainModule = { name: 'search', routes: searchRoutes };
