import type { RouteTable } from './route-table.ts';

/**
 * The OpenAPI document of the REST surface, from the one SOFA generates, adjusted to what is served:
 * only declared routes (SOFA also registers webhook routes we never expose), `{param}` paths,
 * operation IDs named after the root fields, empty 204 responses, bearer authentication, our server URL
 * and the error body.
 */
export function buildOpenApiDocument(generated: any, table: RouteTable, apiUrl: string) {
  const document = structuredClone(generated);
  const paths: Record<string, Record<string, any>> = {};
  for (const [field, route] of Object.entries(table)) {
    const operation = structuredClone(generated.paths?.[route.path]?.[route.method.toLowerCase()] ?? {});
    operation.operationId = field.split('.')[1];
    if (operation.requestBody) describeBodyFields(operation, route.query ?? []);
    operation.tags = route.tags;
    const responses = operation.responses ?? {};
    if (route.status === 204) {
      operation.responses = { '204': { description: 'No Content' } };
    } else if (route.status && route.status !== 200 && responses['200']) {
      operation.responses = { [route.status]: responses['200'] };
    }
    for (const status of ['400', '401', '403', '404']) {
      operation.responses[status] = { $ref: '#/components/responses/Error' };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  document.paths = paths;
  document.servers = [{ url: apiUrl }];
  document.components ??= {};
  document.components.securitySchemes = { bearer: { type: 'http', scheme: 'bearer' } };
  document.security = [{ bearer: [] }];
  document.components.schemas.Error = {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'integer' }, message: { type: 'string' } },
      },
    },
  };
  document.components.responses = {
    Error: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
  };
  return document;
}

/**
 * SOFA lists every argument of a body route twice: as a query parameter and as a body property. The
 * server takes them from the JSON body only (see argumentsFromQuery), so the document says exactly
 * that: path parameters, the route's declared query parameters, and the rest in the body.
 */
function describeBodyFields(operation: any, queryNames: string[]) {
  const declared = new Set(queryNames);
  operation.parameters = (operation.parameters ?? []).filter((p: any) => p.in !== 'query' || declared.has(p.name));
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  if (!schema?.properties) return;
  for (const name of declared) delete schema.properties[name];
  if (Array.isArray(schema.required)) {
    schema.required = schema.required.filter((name: string) => !declared.has(name));
    if (schema.required.length === 0) delete schema.required;
  }
  if (Object.keys(schema.properties).length === 0) delete operation.requestBody;
  else operation.requestBody.required = Array.isArray(schema.required) && schema.required.length > 0;
}
