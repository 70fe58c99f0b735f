import './content-import.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { contentImportRoutes } from './content-import.rest.ts';

export const importsModule: DomainModule = { name: 'imports', routes: contentImportRoutes };
