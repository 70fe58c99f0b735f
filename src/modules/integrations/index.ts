import './integration.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { integrationRoutes } from './integration.rest.ts';

export const integrationsModule: DomainModule = { name: 'integrations', routes: integrationRoutes };
