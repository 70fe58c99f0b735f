import './integration.schema.ts';
import type { DomainModule } from '../../rest/route-table.ts';
import { integrationRoutes } from './integration.rest.ts';

export const integrationsModule: DomainModule = { name: 'integrations', routes: integrationRoutes };
