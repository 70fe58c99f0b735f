import './change-request.schema.ts';
import './change-request-content.schema.ts';
import './change-request-edit.schema.ts';
import './change-request-links.schema.ts';
import './change-request-merge.schema.ts';
import './change-request-pdf.schema.ts';
import type { DomainModule } from '../../rest/route-table.ts';
import { changeRequestRoutes } from './change-request.rest.ts';

export const changeRequestsModule: DomainModule = { name: 'change-requests', routes: changeRequestRoutes };
