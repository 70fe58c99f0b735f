import type { IncomingMessage, ServerResponse } from 'node:http';
import { createYoga } from 'graphql-yoga';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { useAuthentication } from './auth/authentication.ts';
import { createContext, type AppServices } from './core/context.ts';
import { boundedParserCache } from './graphql/document-cache.ts';
import { useCompiledExecution, useInputErrorCodes, useNoNulInput } from './graphql/execution.ts';
import { useGraphqlLimits } from './graphql/limits.ts';
import { useVisitorProjection } from './graphql/visitor-projection.ts';
import { apiReferenceRoutes } from './http/api-reference.ts';
import { useBodyLimit } from './http/body-limit.ts';
import { refuseInvalidHost } from './http/client-errors.ts';
import { corsOption, useCorsVary } from './http/cors.ts';
import { maskKeepingCause, useUnexpectedErrorLog } from './http/error-log.ts';
import { healthRoute } from './http/health.ts';
import type { HttpRoute } from './http/request-state.ts';
import { useMetrics } from './http/metrics.ts';
import { PageMemory, usePageMemory } from './http/page-memory.ts';
import { useRateLimit } from './http/rate-limit.ts';
import { openRateLimitStore } from './http/rate-limit-store.ts';
import { classifier, useRequestClassification } from './http/request-classification.ts';
import { hostedSiteRoute, SiteHostnames } from './modules/reader/index.ts';
import { useRequestCaller } from './http/request-id.ts';
import { useRequestLog } from './http/request-log.ts';
import { requestStateOf } from './http/request-state.ts';
import { guardRequestHooks } from './http/request-guard.ts';
import { routeMatcher } from './http/route-matcher.ts';
import { useHttpRoutes, useNotFound } from './http/router.ts';
import { useSecurityHeaders } from './http/security-headers.ts';
import { queueDepth } from './jobs/job-queue.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createLogger, type Logger } from './lib/logger.ts';
import { configureContentCache, urlSigningKey } from './modules/content/index.ts';
import { userForToken } from './modules/users/index.ts';
import { looksLikeJwt, SITE_READER_FIELDS, siteReaderForToken, VISITOR_PROJECTION } from './modules/sites/index.ts';
import { useRestApi } from './rest/plugin.ts';
import { adminRootFieldsOf, edgeRoutesOf, publicRootFieldsOf } from './rest/route-table.ts';
import { moduleHttpRoutes, restRoutes, schema, visitorSchema } from './schema.ts';

export const GRAPHQL_PATH = '/graphql';
export const REST_BASE_PATH = '/v1';
/** Byte budget of each of Yoga's parse caches (documents, parse errors). */
const PARSER_CACHE_BYTES = 16 * 1024 * 1024;

export interface AppOptions {
  database: Database;
  config: Config;
  clock?: Clock;
  logger?: Logger;
}

/** The first query GraphiQL shows: how to authenticate, and a query to run. */
const GRAPHIQL_WELCOME = `# Docs Platform API
#
# The schema loads without a token; every query needs one. Paste yours into the
# Headers tab below:
#
#   { "Authorization": "Bearer <your token>" }
#
# then run (Ctrl-Enter):

query Me {
  user {
    id
    displayName
  }
}
`;

/**
 * The whole HTTP application as one fetch handler (docs/architecture.md, "The path of a request"): every
 * request is classified once (its door, route and limits), then goes through the same steps — size
 * limits, rate limiting, authentication — to the door that answers it: an HTTP route (modules' and the
 * app's operations endpoints), the REST door (SOFA, from the same root fields) or GraphQL. Tests call
 * `app.fetch` directly; the server gives it a port.
 */
export function createApp(options: AppOptions) {
  const { config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const services: AppServices = {
    db: options.database.prisma,
    config,
    clock: options.clock ?? systemClock,
    logger,
  };
  if (config.contentCacheEntries !== undefined) configureContentCache(services.db, config.contentCacheEntries);
  // Read the signed-URL key (file downloads, PDF exports) now rather than in the first request that
  // lists files (`ready()` resolves once it is read; a failure here is retried by that first request).
  const urlKeyRead = urlSigningKey(services.db).then(
    () => undefined,
    (error) => logger.warn({ err: error }, 'signed URL key not read yet; the first request signing a URL will read it'),
  );
  const rateLimitStore = config.rateLimit.enabled
    ? openRateLimitStore({ redisUrl: config.redisUrl, pool: options.database.pool, logger })
    : null;
  const rateLimit = rateLimitStore ? useRateLimit({ config: config.rateLimit, store: rateLimitStore, trustProxy: config.trustProxy }) : null;
  const metrics = config.metricsToken
    ? useMetrics({ token: config.metricsToken, pool: options.database.pool, queueDepth: () => queueDepth(services.db) })
    : null;
  const publicRootFields = publicRootFieldsOf(restRoutes);
  const visitors = { projection: VISITOR_PROJECTION, publicRootFields, visitorSchema };
  const rest = useRestApi({ basePath: REST_BASE_PATH, routes: restRoutes, apiUrl: config.apiUrl, logger, maxInputDepth: config.limits.maxInputDepth, visitors });

  // Every endpoint that is no root field, in one table: the app's own, then the modules'.
  const pageMemory = new PageMemory({ trustProxy: config.trustProxy, logger, now: () => services.clock.now().getTime(), rateLimit: rateLimit?.countPage ?? null, observe: metrics?.observe });
  const pageMemoryPlugins = usePageMemory(pageMemory, config.trustProxy);

  const httpRoutes: HttpRoute[] = [
    healthRoute(options.database),
    ...(metrics ? [metrics.route] : []),
    rest.documentRoute,
    ...apiReferenceRoutes({ openApiPath: `${REST_BASE_PATH}/openapi.json` }),
    ...moduleHttpRoutes(services),
  ];
  // Published sites on their own hostnames (modules/reader/): which hosts those are, read from the sites.
  const siteHostnames = new SiteHostnames(services.db, [config.publicUrl, config.publishedUrl]);
  const classify = classifier({
    hostedSites: { has: (hostname) => siteHostnames.has(hostname), route: hostedSiteRoute(services) },
    graphqlPath: GRAPHQL_PATH,
    restBasePath: REST_BASE_PATH,
    rest: routeMatcher(edgeRoutesOf(restRoutes)),
    http: routeMatcher(httpRoutes),
    defaultBodyLimit: config.limits.maxBodyBytes,
  });

  const yoga = createYoga<object>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    // GraphiQL from the npm package (render-graphiql bundles it): no CDN, so it works offline. The
    // schema loads without a token (introspection is public); the headers editor is open for the token.
    // The package is a 9 MB module: loaded when the page is first asked for, not at start-up (it cost
    // about 0.3 s of cold start and 60 MiB of peak memory).
    renderGraphiQL: async (graphiql) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(graphiql),
    graphiql: {
      title: 'Docs Platform API',
      defaultEditorToolsVisibility: 'headers',
      isHeadersEditorEnabled: true,
      shouldPersistHeaders: true,
      defaultQuery: GRAPHIQL_WELCOME,
    },
    logging: false,
    // Parsed documents are cached by their text: within a byte budget, not just a count (see document-cache.ts).
    parserAndValidationCache: boundedParserCache(PARSER_CACHE_BYTES),
    cors: corsOption(config.corsOrigins),
    maskedErrors: { maskError: maskKeepingCause() },
    // Resolvers and services log through the context's logger: the request's, with its ID and caller.
    context: (initial) => {
      const state = requestStateOf(initial);
      const door = state.door === 'rest' ? 'rest' : 'graphql';
      return createContext({ ...services, logger: state.logger }, state.auth?.viewer ?? null, state.auth?.instanceAdmin ?? false, door, state.auth?.siteReader ?? null);
    },
    plugins: guardRequestHooks(
      [
        useRequestClassification(classify, logger, (url) => (siteHostnames.foreign(url.hostname) ? siteHostnames.refresh() : undefined)),
        pageMemoryPlugins.noteStart,
        useUnexpectedErrorLog(logger),
        useSecurityHeaders(),
        useCorsVary(config.corsOrigins),
        useRequestLog(logger),
        ...(metrics ? [metrics.plugin] : []),
        ...(rateLimit ? [rateLimit.beforeAuthentication] : []),
        useBodyLimit(),
        useAuthentication({
          viewerForToken: (token) => userForToken(services.db, token, services.clock.now()),
          adminToken: config.adminToken,
          adminRootFields: adminRootFieldsOf(restRoutes),
          publicRootFields,
          siteReaders: {
            looksLikeToken: looksLikeJwt,
            readerForToken: (token) => siteReaderForToken(services.db, token, services.clock.now()),
            rootFields: SITE_READER_FIELDS,
          },
        }),
        // What a published site's visitor sees of any answer (after authentication: it reads who calls).
        useVisitorProjection(visitors),
        useRequestCaller(),
        ...(rateLimit ? [rateLimit.afterAuthentication] : []),
        useHttpRoutes(),
        ...useGraphqlLimits(config.limits),
        useNoNulInput(),
        useInputErrorCodes(),
        useCompiledExecution(logger),
        rest.plugin,
        useNotFound(),
        // Last: it remembers a page with the headers every plugin before it added.
        pageMemoryPlugins.remember,
      ],
      { logger },
    ),
  });
  return {
    fetch: yoga.fetch,
    yoga,
    /**
     * The server's request handler: a request whose Host is no valid host is a 400 (client-errors.ts);
     * public pages of published sites come from memory when it holds them (http/page-memory.ts),
     * everything else goes through the pipeline.
     */
    handleNodeRequest: (req: IncomingMessage, res: ServerResponse) => {
      if (refuseInvalidHost(req, res)) return;
      if (!pageMemory.serve(req, res, yoga)) void yoga(req, res);
    },
    pageMemory,
    /**
     * Follows the database's notifications of changes to published content (server.ts calls it): until
     * it listens, and whenever it stops listening, nothing is answered from memory.
     */
    followPublishedChanges: () =>
      options.database.listen('published_changes', { onNotify: () => pageMemory.forget(), onListening: (listening) => pageMemory.setListening(listening) }),
    logger,
    /** Where rate-limit counters live (`memory`, `postgres`, `redis`); null when rate limiting is off. */
    rateLimitStore: rateLimitStore?.kind ?? null,
    /** Resolves once the rate-limit store answers (Redis: connected) and the signed-URL key is read. */
    ready: async () => {
      await Promise.all([rateLimitStore?.ready(), urlKeyRead]);
    },
    /** Releases what the app opened besides the database (the Redis connection of rate limiting). */
    close: () => rateLimitStore?.close() ?? Promise.resolve(),
  };
}

export type App = ReturnType<typeof createApp>;
