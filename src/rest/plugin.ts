import { Kind, parse, printType, type ExecutionArgs, type GraphQLSchema, type ObjectTypeDefinitionNode, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { filterSchema } from '@graphql-tools/utils';
import { useSofa } from 'sofa-api';
import type { Context } from '../core/context.ts';
import { answersAsVisitor, projectedDocument, type VisitorProjectionOptions } from '../graphql/visitor-projection.ts';
import { isMaskedError, logUnexpectedErrors } from '../http/error-log.ts';
import type { HttpRoute } from '../http/request-state.ts';
import { refusal } from '../http/refusal.ts';
import { requestStateOf, type RequestState } from '../http/request-state.ts';
import type { Logger } from '../lib/logger.ts';
import { RawJsonSlots } from '../lib/raw-json.ts';
import { describeFailure } from './errors.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { checkGitBookQueryTypes } from './gitbook-query-checks.ts';
import { checkUrlText, readJsonObjectBody, RestInputError, requestForSofa } from './request-body.ts';
import { cacheableResponse, finalResponse, locationOf, sofaStatusOf } from './responses.ts';
import { omitAbsentFields } from './rest-shape.ts';
import { toRouterPath, type RestRoute, type RouteTable } from './route-table.ts';
import { requestVariables, type RestRequestValues } from './variables.ts';

export interface RestOptions {
  basePath: string;
  routes: RouteTable;
  apiUrl: string;
  logger: Logger;
  /** JSON bodies nesting deeper than this are refused (400). */
  maxInputDepth: number;
  /** What a published site's visitor sees: a route run for one answers in the visitor's shape. */
  visitors: VisitorProjectionOptions;
}

/** What the REST door knows of a request, from the plugin to execution and back (kept per request state). */
export interface RestRequestState extends RestRequestValues {
  /** Set at execution: the route SOFA's router matched, and the created resource's URL for a 201. */
  route?: RestRoute;
  location?: string;
  /** A `resetContentWhenTrue` route's field answered true. */
  resetContent?: boolean;
  /** JSON the answer holds as text (RawJson), put back into the serialized answer. */
  rawJson?: RawJsonSlots;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const restStates = new WeakMap<RequestState, RestRequestState>();

/**
 * SOFA needs a finite selection for every route: it cuts a type that recurs along a path after this
 * many occurrences. Our documented shapes recur at most twice (a team inside a SAML provider's
 * `defaultTeam`, say); a recursive shape of unbounded depth — the page tree — is served whole as one
 * value instead (see src/rest/README.md), so no documented field is ever cut.
 */
const SOFA_DEPTH_LIMIT = 2;

/**
 * The schema SOFA sees: graph-only fields removed, so REST shapes are exactly the documented ones.
 * Its root types get the syntax node a code-first schema lacks: SOFA describes each argument of each
 * route from the root type's node and, without one, prints and re-parses the whole root type for every
 * argument of every route — work that grew with the square of the route count (≈0.4 s of start-up).
 */
function restSchemaOf(schema: GraphQLSchema): GraphQLSchema {
  const filtered = filterSchema({ schema, objectFieldFilter: (_type, _name, field) => !field.extensions?.graphOnly });
  for (const root of [filtered.getQueryType(), filtered.getMutationType()]) {
    if (root && !root.astNode) root.astNode = parse(printType(root)).definitions[0] as ObjectTypeDefinitionNode;
  }
  return filtered;
}

/**
 * The REST surface, inside Yoga's pipeline. SOFA's router — the only one — matches the route, builds the
 * operation for its root field and runs it through the same envelop execution (context, auth, error
 * masking) as /graphql. Around it this plugin does only what the documented API needs and SOFA does
 * differently, each in a named step with a test of the SOFA behaviour it corrects (test/platform/rest-door.test.ts,
 * src/rest/README.md):
 * - the body is read once, bounded and strictly (request-body.ts), and SOFA gets the request without
 *   body or query string: the variables come from our reading of them (variables.ts);
 * - failures are `{ error: { code, message } }` (errors.ts), unknown routes and SOFA's webhooks 404;
 * - documented 204s are empty, 201s carry `Location` (responses.ts); absent optionals are omitted
 *   (rest-shape.ts); the OpenAPI document says what is served (openapi.ts).
 */
export function useRestApi(options: RestOptions): { plugin: Plugin; documentRoute: HttpRoute } {
  const routeByField = new Map(Object.entries(options.routes));
  let getEnveloped: (serverContext: any) => any;
  let fullSchema: GraphQLSchema;
  let restSchema: GraphQLSchema;
  let sofa: ReturnType<typeof useSofa>;
  let openApiDocument: unknown;
  let handlerByField: Map<string, SofaHandler>;
  // SOFA calls `context` then `execute` with the value `context` returned: this is how an execution finds
  // the request's envelop (as @graphql-yoga/plugin-sofa does; that plugin cannot be used here because it
  // replaces `schema` and `execute`, which the steps above need).
  const envelopedByContext = new WeakMap<object, any>();
  /** The errors behind a 500 that SOFA's errorHandler answered, to log with the request. */
  const failuresByResponse = new WeakMap<Response, readonly unknown[]>();
  /**
   * Errors of the shared execution arrive masked, with their cause kept for the log (error-log.ts); a
   * failure of SOFA's own (outside execution) arrives as itself.
   */
  function logFailures(errors: readonly unknown[], logger: Logger) {
    if (isMaskedError(errors[0])) logUnexpectedErrors(errors, logger);
    else logger.error({ err: errors[0] }, 'REST request failed');
  }

  function execute(args: ExecutionArgs) {
    const enveloped = envelopedByContext.get(args.contextValue as object);
    if (!enveloped) throw new TypeError('REST execution without a context');
    const state = restStates.get(requestStateOf(args.contextValue as object));
    if (!state) throw new TypeError('REST execution without its request');
    const operation = args.document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;
    const rootType = operation.operation === 'query' ? restSchema.getQueryType()! : restSchema.getMutationType()!;
    const fieldName = (operation.selectionSet.selections[0] as { name: { value: string } }).name.value;
    const route = routeByField.get(`${rootType.name}.${fieldName}`)!;
    state.route = route;
    // A visitor's answer leaves out what they may not see (graphql/visitor-projection.ts), rather than
    // being refused as a GraphQL operation selecting it is: the route's shape is SOFA's, not theirs.
    const document = answersAsVisitor(args.contextValue as Context, [fieldName], options.visitors.publicRootFields)
      ? projectedDocument(fullSchema, args.document, options.visitors.projection)
      : args.document;
    const executed = document === args.document ? operation : (document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode);
    // SOFA's variables hold the path parameters only: it never saw a body or a query string.
    const variableValues = requestVariables(fullSchema, operation, route, args.variableValues ?? {}, state);
    const shape = (result: any) => {
      if (result?.data) {
        state.rawJson = new RawJsonSlots();
        omitAbsentFields(result.data, executed, rootType, state.rawJson);
        if (route.answer && result.data[fieldName]) result.data[fieldName] = route.answer(result.data[fieldName], state.query);
        state.location = locationOf(result.data[fieldName]);
        if (route.resetContentWhenTrue) state.resetContent = result.data[fieldName] === true;
      }
      return result;
    };
    const result = enveloped.execute({ ...args, document, schema: fullSchema, variableValues });
    return typeof result?.then === 'function' ? result.then(shape) : shape(result);
  }

  // `GET /v1/openapi.json`: the document of the routes served (an operations endpoint, no token needed).
  const documentRoute: HttpRoute = {
    path: `${options.basePath}/openapi.json`,
    methods: ['GET', 'HEAD'],
    door: 'operations',
    access: 'public',
    handle: () => Response.json(openApiDocument),
  };

  const plugin: Plugin = {
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
        routes: Object.fromEntries(
          [...routeByField].map(([field, r]) => [field, { method: r.method, path: toRouterPath(r.path), responseStatus: sofaStatusOf(r), tags: r.tags }]),
        ),
        depthLimit: SOFA_DEPTH_LIMIT,
        // fets records the routes in the document only while its OpenAPI endpoint is on; onRequest below
        // answers that path first, with the corrected document. No Swagger UI.
        openAPI: { endpoint: '/openapi.json' },
        swaggerUI: { endpoint: false },
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
          const response = refusal('rest', failure.status, failure.message);
          // Logged by onRequest below, which knows the request (SOFA does not tell this handler).
          if (failure.unexpected) failuresByResponse.set(response, errors);
          return response as any;
        },
      });
      openApiDocument = buildOpenApiDocument(sofa.openAPIDocument, options.routes, options.apiUrl, restSchema);
      handlerByField = sofaHandlersByField(sofa, routeByField);
    },
    // Only routes of the table reach SOFA: the classification matched them (the edge answered 404 and
    // 405 for the rest, and SOFA's subscription webhooks are no route of the table).
    async onRequest({ request, url, endResponse, serverContext }) {
      const requestState = requestStateOf(serverContext);
      if (requestState.door !== 'rest') return;
      const state: RestRequestState = { method: request.method, query: url.searchParams, body: {} };
      try {
        checkUrlText(url);
        // GitBook's typed query parameters of the operation, before anything runs (gitbook-query-checks.ts).
        const matched = requestState.rootField ? routeByField.get(requestState.rootField) : undefined;
        checkGitBookQueryTypes(matched?.operationId, url.searchParams);
        if (BODY_METHODS.has(request.method)) {
          state.body = await readJsonObjectBody(request, { maxBytes: requestState.bodyLimit, maxDepth: options.maxInputDepth });
        }
      } catch (error) {
        if (error instanceof RestInputError) return endResponse(refusal('rest', error.status, error.message));
        throw error;
      }
      restStates.set(requestState, state);
      const restOfPath = requestState.restOfPath && requestState.restParams ? Object.values(requestState.restParams).at(-1) : undefined;
      const sofaRequest = requestForSofa(request, restOfPath);
      // The route the edge matched runs its SOFA handler directly (a HEAD runs its GET's).
      const handler = requestState.rootField ? handlerByField.get(requestState.rootField) : undefined;
      const response: Response | undefined = handler
        ? await runSofaHandler(handler, sofaRequest, requestState.restParams ?? {}, serverContext)
        : await sofa.handleRequest(sofaRequest, serverContext as any);
      const failures = response && failuresByResponse.get(response);
      if (failures) logFailures(failures, requestState.logger);
      if (!response || !state.route) return endResponse(response ?? refusal('rest', 404, `No route ${request.method} ${url.pathname}`));
      const final = finalResponse(state.route, await withRawJson(response, state.rawJson), state, request);
      // Only routes whose answers never change pay for the digest (and for an await).
      const answer = state.route.immutable ? await cacheableResponse(state.route, final, request) : final;
      // HEAD: the GET's status and headers, without its body.
      endResponse(request.method === 'HEAD' ? new Response(null, { status: answer.status, headers: answer.headers }) : answer);
    },
  };
  return { plugin, documentRoute };
}

/** A route's handler as SOFA registers it with its router (fets). */
type SofaHandler = (request: Request, serverContext: unknown) => Promise<Response | undefined>;

/**
 * SOFA's handler of each root field of the table. The edge has matched the route already
 * (src/http/request-classification.ts); `sofa.handleRequest` would have fets' router match it again by
 * trying each pattern of the method in turn (about 5 % of the CPU of a request for a list). The routes
 * are read from the router's `__routes` (what fets' `use` reads too); a route missing there stops the
 * start, so a change of SOFA or fets cannot silently route elsewhere.
 */
function sofaHandlersByField(sofa: ReturnType<typeof useSofa>, routes: ReadonlyMap<string, RestRoute>): Map<string, SofaHandler> {
  const registered = (sofa as unknown as { __routes?: { method?: string; path: string; handler: SofaHandler }[] }).__routes ?? [];
  const byRoute = new Map(registered.map((r) => [`${r.method} ${r.path}`, r.handler]));
  const handlers = new Map<string, SofaHandler>();
  for (const [field, route] of routes) {
    const handler = byRoute.get(`${route.method} ${toRouterPath(route.path)}`);
    if (!handler) throw new Error(`SOFA registered no handler for ${field} (${route.method} ${route.path})`);
    handlers.set(field, handler);
  }
  return handlers;
}

/**
 * Runs a SOFA handler with the path parameters as fets' router hands them: raw values decoded when read
 * (a malformed escape then fails inside SOFA's reading of its variables, a 400, as through the router).
 */
function runSofaHandler(handler: SofaHandler, request: Request, rawParams: Record<string, string>, serverContext: unknown): Promise<Response | undefined> {
  const params = new Proxy(rawParams, {
    get: (target, name) => {
      const value = target[name as string];
      return value == null ? value : decodeURIComponent(value);
    },
  });
  Object.defineProperty(request, 'params', { value: params, configurable: true });
  return handler(request, serverContext);
}

/** SOFA's answer with the raw JSON of the result in place of its tokens (as it is when there is none). */
async function withRawJson(response: Response, rawJson: RawJsonSlots | undefined): Promise<Response> {
  if (!rawJson?.size) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(rawJson.fill(await response.text()), { status: response.status, headers });
}

/** SOFA would invent a route for an unrouted root field: refuse to start instead. */
function assertEveryRootFieldRouted(schema: GraphQLSchema, table: RouteTable) {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const name of Object.keys(root?.getFields() ?? {})) {
      if (!table[`${root!.name}.${name}`]) throw new Error(`Root field ${root!.name}.${name} has no REST route`);
    }
  }
}
