import './content-import.schema.ts';
import type { DomainModule } from '../../rest/route-table.ts';
import { contentImportRoutes } from './content-import.rest.ts';

export const importsModule: DomainModule = { name: 'imports', routes: contentImportRoutes };
