import {
  getNullableType,
  isInputObjectType,
  isListType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { constraintsOf, inputConstraintsOf, openApiSchemaOfScalar, shapeOf, type JsonSchemaConstraints } from '../graphql/constraints.ts';
import { pathParameters, type RestRoute, type RouteTable } from './route-table.ts';

/**
 * The OpenAPI document of the REST surface, from the one SOFA generates, adjusted to what is served:
 * - only declared routes (SOFA also registers webhook routes we never expose), `{param}` paths;
 * - GitBook's operationIds where GitBook has the operation (route.operationId), root field names
 *   otherwise; the route's tags;
 * - the constraints the server enforces (lengths, bounds, patterns, defaults, formats, constant `object`
 *   values), declared next to each argument and field (src/graphql/constraints.ts);
 * - path parameters only in the path, query parameters only in the query, the rest in the JSON body;
 * - the statuses served: 201 for creations, empty 204s, `Prefer: return=minimal`, and the error body
 *   `{ error: { code, message } }` for every failure;
 * - bearer authentication (`bearerAuth`), our server URL.
 * test/platform/openapi-document.test.ts validates the result, compares it with GitBook's document, and every
 * REST response of the in-process tests is checked against it (test/support/own-openapi.ts).
 */
export function buildOpenApiDocument(generated: any, table: RouteTable, apiUrl: string, schema: GraphQLSchema) {
  const document = structuredClone(generated);
  document.info = {
    title: 'Docs Platform API',
    version: '1.0.0',
    description:
      'The REST API of the Docs Platform, modelled on GitBook\'s. Every call needs `Authorization: Bearer <token>`. ' +
      'Failures answer `{ "error": { "code": <status>, "message": "…" } }`. The same operations are served as GraphQL at `/graphql`.',
  };
  document.components ??= {};
  document.components.schemas ??= {};
  describeTypeConstraints(document.components.schemas, schema);

  const paths: Record<string, Record<string, any>> = {};
  for (const [field, route] of Object.entries(table)) {
    const [rootName, fieldName] = field.split('.');
    const rootType = rootName === 'Query' ? schema.getQueryType() : schema.getMutationType();
    const rootField = rootType?.getFields()[fieldName];
    const args = rootField?.args ?? [];
    const operation = structuredClone(generated.paths?.[route.path]?.[route.method.toLowerCase()] ?? {});
    operation.operationId = route.operationId ?? fieldName;
    operation.tags = route.tags;
    if (route.addition) operation.description = [operation.description, `Addition: ${route.addition}.`].filter(Boolean).join('\n\n');
    describeParameters(operation, route, args);
    if (operation.requestBody) describeBody(operation, route, args);
    operation.responses = responsesOf(operation.responses ?? {}, route, rootField ? shapeOf(rootField) : undefined);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  document.paths = paths;
  document.servers = [{ url: apiUrl }];
  document.components.securitySchemes = { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An access token: Authorization: Bearer <token>' } };
  document.security = [{ bearerAuth: [] }];
  document.components.schemas.Error = {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'integer', description: 'The HTTP status' }, message: { type: 'string', description: 'What went wrong, naming the field at fault' } },
      },
    },
  };
  document.components.responses = {
    Error: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
  };
  return document;
}

/** Failures every route can answer (414: a URL over MAX_URL_LENGTH); writes add 409 (a conflicting state), 413 (too large), 415 (not JSON). */
const ERROR_STATUSES = ['400', '401', '403', '404', '414', '429'];
const BODY_ERROR_STATUSES = ['409', '413', '415'];

/** The route's answers; `shape`: the declared shape of a root field whose type is `JSON`. */
function responsesOf(generated: Record<string, any>, route: RestRoute, shape: Record<string, unknown> | undefined): Record<string, any> {
  const ok = generated[String(route.status ?? 200)] ?? generated['200'];
  const schema = route.answerSchema ?? shape;
  if (ok && schema) ok.content = { 'application/json': { schema } };
  const responses: Record<string, any> = {};
  if (route.status === 204) responses['204'] = { description: 'No Content' };
  else if (route.status === 205) responses['205'] = { description: 'Reset Content: removed' };
  else if (ok) responses[String(route.status ?? 200)] = ok;
  if (route.resetContentWhenTrue) responses['205'] = { description: 'Reset Content: something was removed' };
  if (route.returnMinimal && route.status !== 204) {
    responses['204'] = { description: 'Done, with `Prefer: return=minimal`: no body (`Preference-Applied: return=minimal`)' };
  }
  const statuses = route.method === 'GET' ? ERROR_STATUSES : [...ERROR_STATUSES, ...BODY_ERROR_STATUSES];
  for (const status of statuses) responses[status] = { $ref: '#/components/responses/Error' };
  return responses;
}

/** Path parameters are required strings; query parameters carry their argument's constraints. */
function describeParameters(operation: any, route: RestRoute, args: readonly GraphQLArgument[]) {
  const byName = new Map(args.map((arg) => [arg.name, arg]));
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'path') parameter.required = true;
    const arg = byName.get(parameter.name);
    if (!arg) continue;
    parameter.schema = withConstraints(withScalar(parameter.schema, arg.type), inputConstraintsOf(arg));
  }
}

/**
 * SOFA lists every argument of a body route twice: as a query parameter and as a body property, and
 * repeats the path parameters in the body. The server reads path parameters from the path, the route's
 * declared query parameters from the query string and the rest from the JSON body only (see
 * variables.ts), so the document says exactly that.
 */
function describeBody(operation: any, route: RestRoute, args: readonly GraphQLArgument[]) {
  const inQuery = new Set(route.query ?? []);
  const inPath = new Set(pathParameters(route.path));
  operation.parameters = (operation.parameters ?? []).filter((p: any) => p.in === 'path' || (p.in === 'query' && inQuery.has(p.name)));
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  if (!schema?.properties) return;
  for (const name of Object.keys(schema.properties)) {
    if (inQuery.has(name) || inPath.has(name)) delete schema.properties[name];
  }
  if (Array.isArray(schema.required)) {
    schema.required = schema.required.filter((name: string) => name in schema.properties);
    if (schema.required.length === 0) delete schema.required;
  }
  for (const arg of args) {
    const current = schema.properties[arg.name];
    if (!current) continue;
    // A JSON argument may declare its shape (e.g. the changes of updateChangeRequestContent).
    const shape = shapeOf(arg);
    const described = shape ? { ...shape, ...(current.description ? { description: current.description } : {}) } : withScalar(current, arg.type);
    schema.properties[arg.name] = withConstraints(described, inputConstraintsOf(arg));
  }
  if (Object.keys(schema.properties).length === 0) delete operation.requestBody;
  else operation.requestBody.required = Array.isArray(schema.required) && schema.required.length > 0;
}

/**
 * The fields of object and input types, onto their component schemas: custom scalars as what they are,
 * and the declared constraints.
 */
function describeTypeConstraints(components: Record<string, any>, schema: GraphQLSchema) {
  for (const type of Object.values(schema.getTypeMap())) {
    if (isScalarType(type) && components[type.name]) {
      const scalar = openApiSchemaOfScalar(type);
      if (scalar) components[type.name] = { ...scalar, description: type.description ?? undefined };
    }
    if (!isObjectType(type) && !isInputObjectType(type)) continue;
    const component = components[type.name];
    if (!component?.properties) continue;
    for (const field of Object.values(type.getFields())) {
      if (!component.properties[field.name]) continue;
      const shape = isObjectType(type) ? shapeOf(field) : undefined;
      const current = component.properties[field.name];
      const described = shape ? { ...shape, ...(current.description ? { description: current.description } : {}) } : withScalar(current, field.type);
      const property = withConstraints(described, isInputObjectType(type) ? inputConstraintsOf(field as GraphQLInputField) : constraintsOf(field));
      component.properties[field.name] = field.extensions?.restNull ? nullable(property, components) : property;
    }
  }
}

/**
 * A field whose null is a value (`restNull`, e.g. `role: null` for a guest) is `nullable`; an enum
 * behind a `$ref` is inlined so that its values can include null (OpenAPI 3.0 ignores a `$ref`'s siblings).
 */
function nullable(property: any, components: Record<string, any>): any {
  let result = property;
  if (property.$ref) {
    const { $ref, ...rest } = property;
    const target = components[$ref.replace('#/components/schemas/', '')];
    result = target?.enum ? { ...target, ...rest } : { ...rest, allOf: [{ $ref }] };
    delete result.title;
  }
  result = { ...result, nullable: true };
  if (Array.isArray(result.enum) && !result.enum.includes(null)) result.enum = [...result.enum, null];
  return result;
}

/** SOFA describes a custom scalar as `{ type: object }`: the scalar's own schema instead, through lists. */
function withScalar(target: any, type: GraphQLInputType | GraphQLOutputType): any {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return target?.type === 'array' ? { ...target, items: withScalar(target.items ?? {}, nullable.ofType) } : target;
  if (!isScalarType(nullable)) return target;
  const scalar = openApiSchemaOfScalar(nullable);
  if (!scalar) return target;
  const { description } = target ?? {};
  return { ...scalar, ...(description ? { description } : {}) };
}

/**
 * A schema with constraints added. An array's item constraints go on its items; a `$ref` (an enum or a
 * type) is wrapped in `allOf`, as OpenAPI 3.0 ignores a `$ref`'s siblings.
 */
function withConstraints(target: any, constraints: JsonSchemaConstraints | undefined): any {
  if (!constraints || !target) return target;
  const { items, ...own } = constraints;
  let result = target;
  if (target.$ref && Object.keys(own).length > 0) {
    const { $ref, ...rest } = target;
    result = { ...rest, allOf: [{ $ref }] };
  }
  result = { ...result, ...own };
  if (items && result.items) result.items = withConstraints(result.items, items);
  return result;
}
