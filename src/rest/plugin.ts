import type { ExecutionArgs, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { getNamedType, isEnumType, isInputObjectType, isScalarType, Kind } from 'graphql';
import { filterSchema } from '@graphql-tools/utils';
import type { Plugin } from 'graphql-yoga';
import { useSofa } from 'sofa-api';
import { BadRequestError } from '../graphql/errors.ts';
import { BodyTooLargeError, nestingDepth, readTextWithLimit } from '../lib/body.ts';
import { isMaskedError } from '../http/error-log.ts';
import { requestLogger } from '../http/request-id.ts';
import type { Logger } from '../lib/logger.ts';
import { payloadTooLarge } from '../http/body-limit.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { describeFailure, errorResponse } from './errors.ts';
import { omitAbsentFields } from './rest-shape.ts';
import { compileRoutes, matchRoute, toRouterPath, type RouteMatch, type RouteTable } from './route-table.ts';

export interface RestOptions {
  basePath: string;
  routes: RouteTable;
  apiUrl: string;
  logger: Logger;
  /** Bodies larger than this are refused (413) without being read whole. */
  maxBodyBytes: number;
  /** JSON bodies nesting deeper than this are refused (400). */
  maxInputDepth: number;
}

/** What the REST plugin learned about a request, kept on the server context for execution and logs. */
export interface RestRequestState {
  match: RouteMatch;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const BUILT_IN_SCALARS = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);

/** The schema SOFA sees: graph-only fields removed, so REST shapes are exactly the documented ones. */
function restSchemaOf(schema: GraphQLSchema): GraphQLSchema {
  return filterSchema({
    schema,
    objectFieldFilter: (_type, _name, field) => !field.extensions?.graphOnly,
  });
}

/**
 * Serves the REST surface inside Yoga's pipeline: SOFA turns each routed root field into a handler, and
 * every request runs through the same envelop execution (context, auth, error masking) as /graphql.
 * Around SOFA this plugin adds what the documented API needs and SOFA lacks: strict JSON bodies, raw
 * JSON values as variables (SOFA drops explicit nulls and stringifies numbers), field-naming 400s for
 * query strings, `{ error: { code, message } }` bodies, empty 204s, absent optionals omitted, and a
 * 404 for anything that is not a declared route.
 */
export function useRestApi(options: RestOptions): Plugin {
  const routes = compileRoutes(options.routes);
  let getEnveloped: (ctx: any) => any;
  let fullSchema: GraphQLSchema;
  let restSchema: GraphQLSchema;
  let sofa: ReturnType<typeof useSofa>;
  let openApiDocument: unknown;
  const envelopedByContext = new WeakMap<object, any>();

  const sofaRoutes = Object.fromEntries(
    routes.map((r) => [
      r.field,
      // SOFA would build `Response.json(data, { status: 204 })`, which is invalid: we answer 200 there and
      // turn it into an empty 204 below.
      { method: r.method, path: toRouterPath(r.path), responseStatus: r.status === 204 ? 200 : (r.status ?? 200), tags: r.tags },
    ]),
  );

  function execute(args: ExecutionArgs) {
    const enveloped = envelopedByContext.get(args.contextValue as object);
    if (!enveloped) throw new TypeError('REST execution without a context');
    const rest = (args.contextValue as { rest?: RestRequestState }).rest;
    const operation = args.document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;
    const variableValues = rest ? bodyVariables(operation, rest, { ...(args.variableValues ?? {}) }) : args.variableValues;
    const rootType = operation.operation === 'query' ? restSchema.getQueryType()! : restSchema.getMutationType()!;
    const shape = (result: any) => {
      if (result?.data) omitAbsentFields(result.data, operation, rootType as any);
      return result;
    };
    const result = enveloped.execute({ ...args, schema: fullSchema, variableValues });
    return typeof result?.then === 'function' ? result.then(shape) : shape(result);
  }

  return {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped;
    },
    onSchemaChange({ schema }) {
      fullSchema = schema;
      restSchema = restSchemaOf(schema);
      assertEveryRootFieldRouted(restSchema, options.routes);
      sofa = useSofa({
        basePath: options.basePath,
        schema: restSchema,
        routes: sofaRoutes,
        depthLimit: 2,
        openAPI: { endpoint: '/openapi.json', info: { title: 'Docs Platform API', version: '1.0.0' } },
        swaggerUI: { endpoint: false as unknown as string },
        execute: execute as any,
        context: (serverContext: any) => {
          const enveloped = getEnveloped(serverContext);
          const contextValue = enveloped.contextFactory(serverContext);
          const remember = (value: object) => {
            envelopedByContext.set(value, enveloped);
            return value;
          };
          return typeof contextValue?.then === 'function' ? contextValue.then(remember) : remember(contextValue);
        },
        errorHandler: (errors: readonly unknown[]) => {
          const failure = describeFailure(errors[0]);
          // Errors of the shared execution arrive here masked, and were logged with their cause when
          // masked (src/http/error-log.ts); only a failure of SOFA's own (outside execution) is new here.
          if (failure.unexpected && !isMaskedError(errors[0])) {
            requestLogger(options.logger).error({ err: errors[0] }, 'REST request failed');
          }
          return errorResponse(failure.status, failure.message) as any;
        },
      });
      openApiDocument = buildOpenApiDocument((sofa as any).openAPIDocument, routes, options.apiUrl);
    },
    async onRequest({ request, url, endResponse, serverContext }) {
      const { basePath } = options;
      if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) return;
      const path = url.pathname.slice(basePath.length) || '/';
      if (request.method === 'GET' && path === '/openapi.json') return endResponse(Response.json(openApiDocument));
      const match = matchRoute(routes, request.method, path);
      if (!match) return endResponse(errorResponse(404, `No route ${request.method} ${url.pathname}`));
      (serverContext as { route?: string }).route = `${basePath}${match.route.path}`;

      let raw = '';
      try {
        if (BODY_METHODS.has(request.method)) raw = await readTextWithLimit(request, options.maxBodyBytes);
      } catch (error) {
        if (error instanceof BodyTooLargeError) return endResponse(payloadTooLarge(error, false));
        throw error;
      }
      if (containsNul(raw) || containsNul(decodeURIComponentSafe(url.pathname + url.search))) {
        return endResponse(errorResponse(400, 'Text must not contain NUL characters'));
      }
      let body: unknown = {};
      if (raw.trim()) {
        try {
          body = JSON.parse(raw);
        } catch {
          return endResponse(errorResponse(400, 'Malformed JSON in the request body'));
        }
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return endResponse(errorResponse(400, 'The request body must be a JSON object'));
      }
      if (nestingDepth(body, options.maxInputDepth) > options.maxInputDepth) {
        return endResponse(errorResponse(400, `The request body nests more than ${options.maxInputDepth} levels`));
      }
      const query = argumentsFromQuery(fullSchema, match, request.method, url.searchParams);
      if (typeof query === 'string') return endResponse(errorResponse(400, query));
      const queryProblem = checkQueryParameters(fullSchema, match, query);
      if (queryProblem) return endResponse(errorResponse(400, queryProblem));

      const state: RestRequestState = { match, query, body: body as Record<string, unknown> };
      Object.assign(serverContext, { rest: state });
      // SOFA gets the request without its body: body fields become variables in `execute` (see
      // bodyVariables), so SOFA's lossy conversion of body values never runs.
      const headers = new Headers(request.headers);
      headers.delete('content-length');
      headers.delete('content-type');
      const sofaUrl = new URL(request.url);
      sofaUrl.search = query.toString();
      const sofaRequest = new Request(sofaUrl, { method: request.method, headers });
      const response: Response | undefined = await sofa.handleRequest(sofaRequest, serverContext as any);
      // Our route table and SOFA's router must agree; should they ever not, that is an unknown route.
      if (!response) return endResponse(errorResponse(404, `No route ${request.method} ${url.pathname}`));
      if (match.route.status === 204 && response.status === 200) return endResponse(new Response(null, { status: 204 }));
      if (response.status === 201) return endResponse(await withLocation(response));
      endResponse(response);
    },
  };
}

/** PostgreSQL text cannot hold U+0000; refuse it up front rather than fail in the database. */
export function containsNul(text: string): boolean {
  return text.includes('\u0000') || text.includes('\\u0000');
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A 201 names the created resource in `Location`, from its `urls.location`. */
async function withLocation(response: Response): Promise<Response> {
  const body = await response.json();
  const headers = new Headers(response.headers);
  const location = body?.urls?.location ?? body?.user?.urls?.location;
  if (typeof location === 'string') headers.set('Location', location);
  return Response.json(body, { status: 201, headers });
}

/**
 * Variables come from the path, then the query string (both converted by SOFA from strings), then the
 * JSON body. Body values are taken as sent (null stays null, 12 stays a number), so GraphQL's own input
 * coercion checks them exactly as it checks /graphql variables.
 */
function bodyVariables(operation: OperationDefinitionNode, rest: RestRequestState, variables: Record<string, unknown>) {
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (name in rest.match.params || rest.query.has(name)) continue;
    if (!Object.hasOwn(rest.body, name)) continue;
    const value = rest.body[name];
    // GraphQL would wrap a lone value into a one-item list; a JSON API must refuse the wrong type.
    const type = definition.type.kind === Kind.NON_NULL_TYPE ? definition.type.type : definition.type;
    if (type.kind === Kind.LIST_TYPE && value !== null && !Array.isArray(value)) {
      throw new BadRequestError(`Invalid "${name}": must be an array`);
    }
    variables[name] = value;
  }
  return variables;
}

/** Methods whose arguments (beyond the path) are the fields of a JSON body. */
const JSON_BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function rootField(schema: GraphQLSchema, match: RouteMatch) {
  const root = match.route.field.startsWith('Query.') ? schema.getQueryType() : schema.getMutationType();
  return root?.getFields()[match.route.field.split('.')[1]];
}

/**
 * The query parameters that are arguments of this route. For POST, PUT and PATCH the arguments are the
 * JSON body's fields, taken from the body only (SOFA would also read them from the query string, so
 * `POST /orgs?title=X` created an organization): such a parameter is refused, naming it, unless the
 * route declares it as a query parameter. Other names are not arguments and are ignored, as on GET.
 */
export function argumentsFromQuery(schema: GraphQLSchema, match: RouteMatch, method: string, search: URLSearchParams): URLSearchParams | string {
  if (!JSON_BODY_METHODS.has(method)) return search;
  const declared = new Set(match.route.query ?? []);
  const argNames = new Set(rootField(schema, match)?.args.map((a) => a.name) ?? []);
  const kept = new URLSearchParams();
  for (const [name, value] of search) {
    if (declared.has(name)) kept.append(name, value);
    else if (argNames.has(name) && !(name in match.params)) return `Invalid "${name}": send it in the JSON request body, not in the query string`;
  }
  return kept;
}

/** Query strings are untyped: refuse values that cannot be the argument's type, naming the parameter. */
function checkQueryParameters(schema: GraphQLSchema, match: RouteMatch, query: URLSearchParams): string | null {
  const field = rootField(schema, match);
  if (!field) return null;
  for (const arg of field.args) {
    if (arg.name in match.params) continue;
    const values = query.getAll(arg.name);
    if (values.length === 0) continue;
    const type = getNamedType(arg.type);
    for (const value of values) {
      if (type.name === 'Int' && !(/^-?\d{1,10}$/.test(value) && Math.abs(Number(value)) <= 2 ** 31 - 1)) {
        return `Invalid "${arg.name}": must be an integer`;
      }
      if (type.name === 'Boolean' && value !== 'true' && value !== 'false') {
        return `Invalid "${arg.name}": must be true or false`;
      }
      if (isInputObjectType(type) || (isScalarType(type) && type.name === 'JSON')) {
        return `Invalid "${arg.name}": send it in the JSON body`;
      }
      if (isEnumType(type) && !type.getValue(value)) {
        return `Invalid "${arg.name}": must be one of ${type.getValues().map((v) => `"${v.name}"`).join(', ')}`;
      }
      if (isScalarType(type) && !BUILT_IN_SCALARS.has(type.name)) {
        try {
          type.parseValue(value);
        } catch (error) {
          return `Invalid "${arg.name}": ${(error as Error).message}`;
        }
      }
    }
  }
  return null;
}

/** SOFA would invent a route for an unrouted root field: refuse to start instead. */
function assertEveryRootFieldRouted(schema: GraphQLSchema, table: RouteTable) {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const name of Object.keys(root?.getFields() ?? {})) {
      if (!table[`${root!.name}.${name}`]) throw new Error(`Root field ${root!.name}.${name} has no REST route`);
    }
  }
}
