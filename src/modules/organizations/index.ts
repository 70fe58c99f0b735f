import './role.schema.ts';
import './organization.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { organizationRoutes } from './organization.rest.ts';

export const organizationsModule: DomainModule = { name: 'organizations', routes: organizationRoutes };
