import './change-request.schema.ts';
import './change-request-changes.schema.ts';
import './change-request-content.schema.ts';
import './change-request-edit.schema.ts';
import './change-request-links.schema.ts';
import './change-request-merge.schema.ts';
import './change-request-pdf.schema.ts';
import './change-request-reviews.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { changeRequestRoutes } from './change-request.rest.ts';
import { changeRequestReviewRoutes } from './change-request-reviews.rest.ts';
import { pdfExportRoutes } from './change-request-pdf.http.ts';

export const changeRequestsModule: DomainModule = { name: 'change-requests', routes: { ...changeRequestRoutes, ...changeRequestReviewRoutes }, httpRoutes: pdfExportRoutes };

// The public entry of the module: what other modules use.
export { changeRequestPolicy } from './change-request.policy.ts';
export { changeRequestNotFound, changeRequestWhere, findChangeRequest, spaceForChangeRequests, unlessMissing } from './change-request.service.ts';
export { changeRequestContentSource } from './change-request-content.ts';
export { addContributor, advanceChangeRequest, assertEditable } from './change-request-content.service.ts';
export { changeRequestArgs, ChangeRequestRef } from './change-request.schema.ts';
export { ChangeRequestReviewRef } from './change-request-reviews.schema.ts';
export { applyChanges, type AppliedChanges } from './apply-changes.ts';
export type { ContentChange } from './content-changes.ts';
