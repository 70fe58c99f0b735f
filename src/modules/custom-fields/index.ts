import './custom-field.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { customFieldRoutes } from './custom-field.rest.ts';

export const customFieldsModule: DomainModule = { name: 'customFields', routes: customFieldRoutes };
