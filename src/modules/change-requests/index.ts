import './change-request.schema.ts';
import './change-request-content.schema.ts';
import './change-request-edit.schema.ts';
import './change-request-links.schema.ts';
import './change-request-merge.schema.ts';
import './change-request-pdf.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { changeRequestRoutes } from './change-request.rest.ts';
import { pdfExportRoutes } from './change-request-pdf.http.ts';

export const changeRequestsModule: DomainModule = { name: 'change-requests', routes: changeRequestRoutes, httpRoutes: pdfExportRoutes };
