import type { RouteTable } from '../../rest/route-table.ts';
import { MAX_SPEC_TEXT_BYTES } from './openapi-spec.service.ts';

const tags = ['openapi'];
/** A 5 MB document as a JSON string (quotes and newlines escaped) and the rest of the body. */
const SPEC_BODY_BYTES = 2 * MAX_SPEC_TEXT_BYTES + 64 * 1024;

export const openApiSpecRoutes: RouteTable = {
  'Query.organizationOpenAPISpecs': { operationId: 'listOpenAPISpecs', method: 'GET', path: '/orgs/{organizationId}/openapi', tags },
  'Mutation.createOpenAPISpec': { method: 'POST', path: '/orgs/{organizationId}/openapi', status: 201, tags, maxBodyBytes: SPEC_BODY_BYTES },
  'Query.openAPISpec': { operationId: 'getOpenAPISpecBySlug', method: 'GET', path: '/orgs/{organizationId}/openapi/{specSlug}', tags },
  'Mutation.putOpenAPISpec': { operationId: 'createOrUpdateOpenAPISpecBySlug', method: 'PUT', path: '/orgs/{organizationId}/openapi/{specSlug}', tags, maxBodyBytes: SPEC_BODY_BYTES },
  'Mutation.deleteOpenAPISpec': { operationId: 'deleteOpenAPISpecBySlug', method: 'DELETE', path: '/orgs/{organizationId}/openapi/{specSlug}', status: 204, tags },
};
