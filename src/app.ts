import { useGraphQlJit } from '@envelop/graphql-jit';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { useAuthentication, type RequestAuth } from './auth/authentication.ts';
import { createContext, type AppServices } from './core/context.ts';
import { restRoutes, schema } from './schema.ts';
import { bodyLimitOf } from './rest/route-table.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createLogger, type Logger } from './lib/logger.ts';
import { errorResponse } from './rest/errors.ts';
import { useRestApi } from './rest/plugin.ts';
import { containsNul } from './rest/request-body.ts';
import { useSamlSignIn } from './modules/sso/saml.plugin.ts';
import { SSO_BASE_PATH } from './modules/sso/saml.urls.ts';
import { GraphQLError } from 'graphql';
import { useBodyLimit } from './http/body-limit.ts';
import { useMetrics } from './http/metrics.ts';
import { useApiReference } from './http/api-reference.ts';
import { queueDepth } from './jobs/job-queue.ts';
import { boundedParserCache } from './graphql/document-cache.ts';
import { useGraphqlLimits } from './graphql/limits.ts';
import { corsOption, useCorsVary } from './http/cors.ts';
import { maskKeepingCause, useUnexpectedErrorLog } from './http/error-log.ts';
import { useFileDownloads } from './modules/content/file-download.plugin.ts';
import { usePdfExports } from './modules/change-requests/change-request-pdf.plugin.ts';
import { urlSigningKey } from './modules/content/signed-urls.ts';
import { guardRequestHooks } from './http/request-guard.ts';
import { useRateLimit } from './http/rate-limit.ts';
import { openRateLimitStore } from './http/rate-limit-store.ts';
import { requestLogger, useRequestCaller, useRequestId } from './http/request-id.ts';
import { useSecurityHeaders } from './http/security-headers.ts';

export const GRAPHQL_PATH = '/graphql';
/** Byte budget of each of Yoga's parse caches (documents, parse errors). */
const PARSER_CACHE_BYTES = 16 * 1024 * 1024;
export const REST_BASE_PATH = '/v1';

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

/** `/healthz`: 200 when the database answers, 503 otherwise. No authentication. */
function useHealthCheck(database: Database): Plugin {
  return {
    // Synchronous for every other path: an async hook costs each request a promise and a microtask hop.
    onRequest({ url, endResponse }) {
      if (url.pathname !== '/healthz') return;
      return database.ping().then((ok) => endResponse(Response.json({ status: ok ? 'ok' : 'unavailable' }, { status: ok ? 200 : 503 })));
    },
  };
}

/** GraphQL counterpart of the REST NUL check: PostgreSQL text cannot hold U+0000. */
function useNoNulInput(): Plugin {
  return {
    onParams({ params }) {
      if (containsNul(JSON.stringify(params))) {
        throw new GraphQLError('Text must not contain NUL characters', {
          extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
        });
      }
    },
  };
}

/**
 * Bad variables (wrong type, missing, unknown enum value) are reported without a code; give them
 * BAD_REQUEST like our own input errors, so every GraphQL error carries `extensions.code`. They are the
 * errors of a result with no `data` at all: the operation never started, because variables are coerced
 * first. graphql-jit reports them with an error class of its own, so they are rebuilt as GraphQLErrors
 * (which Yoga's error masking lets through).
 */
function useInputErrorCodes(): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result) || !result.errors || result.data !== undefined) return;
          setResult({
            ...result,
            errors: result.errors.map(
              (error) =>
                new GraphQLError(error.message, { extensions: { ...error.extensions, code: error.extensions?.code ?? 'BAD_REQUEST' } }),
            ),
          });
        },
      };
    },
  };
}

/**
 * Operations run compiled (graphql-jit). graphql-js interprets a document field by field and builds a
 * resolve-info object for every field of every row, even for plain properties: on a page of 100 spaces
 * that was half of all allocation. A compiled operation reads plain properties directly. Compiled
 * operations are kept with their parsed document (weakly: Yoga's parser cache, bounded in bytes, and
 * SOFA's per-route documents hold them), so a document is compiled once. Every execution is compiled,
 * not only repeated ones, so that the same request always gets the same answer (graphql-js and
 * graphql-jit word a few errors differently). Resolvers still see response paths as graphql-js builds
 * them (graphql/stable-paths.ts).
 */
function useCompiledExecution(logger: Logger): ReturnType<typeof useGraphQlJit> {
  return useGraphQlJit(
    {},
    { onError: (result) => logger.warn({ errors: result.errors?.map((e) => e.message) }, 'operation could not be compiled') },
  );
}

/** Whatever no earlier handler answered (and is not /graphql) is an unknown route: a 404 error body. */
function useNotFound(): Plugin {
  return {
    onRequest({ url, endResponse }) {
      if (url.pathname !== GRAPHQL_PATH) endResponse(errorResponse(404, `No route ${url.pathname}`));
    },
  };
}

/** One structured log line per request: method, route, status, duration (and request ID, user ID). */
function useRequestLog(logger: Logger): Plugin {
  const started = new WeakMap<Request, number>();
  return {
    // Instrumentation wraps the whole request, so the clock starts before any plugin's onRequest
    // (health checks and GraphiQL answer there and would otherwise log no duration).
    instrumentation: {
      request({ request }, wrapped) {
        started.set(request, performance.now());
        return wrapped();
      },
    },
    onResponse({ request, response, serverContext }) {
      const start = started.get(request);
      const url = new URL(request.url);
      requestLogger(serverContext, logger).info(
        {
          method: request.method,
          route: (serverContext as { route?: string }).route ?? url.pathname,
          status: response.status,
          durationMs: start === undefined ? undefined : Math.round((performance.now() - start) * 100) / 100,
        },
        'request',
      );
    },
  };
}

/**
 * The whole HTTP application as one fetch handler: /graphql, /v1 (REST generated by SOFA from the same
 * schema), /v1/openapi.json and /healthz. Tests call `app.fetch` directly; the server gives it a port.
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
  // Read the signed-URL key (file downloads, PDF exports) now rather than in the first request that
  // lists files (`ready()` resolves once it is read; a failure here is retried by that first request).
  const urlKeyRead = urlSigningKey(services.db).then(
    () => undefined,
    (error) => logger.warn({ err: error }, 'signed URL key not read yet; the first request signing a URL will read it'),
  );
  const adminRoutes = Object.values(restRoutes).filter((r) => r.tags.includes('admin'));
  // MAX_BODY_BYTES, or a route's own larger limit (an OpenAPI document in the body).
  const bodyLimit = bodyLimitOf(restRoutes, REST_BASE_PATH, config.limits.maxBodyBytes);
  const rateLimitStore = config.rateLimit.enabled
    ? openRateLimitStore({ redisUrl: config.redisUrl, pool: options.database.pool, logger })
    : null;
  const rateLimit = rateLimitStore
    ? useRateLimit({
        config: config.rateLimit,
        store: rateLimitStore,
        trustProxy: config.trustProxy,
        graphqlPath: GRAPHQL_PATH,
        ssoBasePath: SSO_BASE_PATH,
        isAdminRoute: (method, path) => adminRoutes.some((r) => r.method === method && `${REST_BASE_PATH}${r.path}` === path),
        logger,
      })
    : null;
  const yoga = createYoga<{ auth?: RequestAuth }>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    // GraphiQL from the npm package (render-graphiql bundles it): no CDN, so it works offline. The
    // schema loads without a token (introspection is public); the headers editor is open for the token.
    // The package is a 9 MB module: loaded when the page is first asked for, not at start-up (it cost
    // about 0.3 s of cold start and 60 MiB of peak memory).
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
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
    context: (initial) =>
      createContext({ ...services, logger: requestLogger(initial, logger) }, initial.auth?.viewer ?? null, initial.auth?.instanceAdmin ?? false),
    plugins: guardRequestHooks([
      useRequestId(logger),
      useUnexpectedErrorLog(logger),
      useSecurityHeaders(),
      useCorsVary(config.corsOrigins),
      useHealthCheck(options.database),
      useRequestLog(logger),
      ...(config.metricsToken
        ? [useMetrics({ token: config.metricsToken, pool: options.database.pool, queueDepth: () => queueDepth(services.db) })]
        : []),
      ...(rateLimit ? [rateLimit.beforeAuthentication] : []),
      useBodyLimit({ maxBytes: bodyLimit, graphqlPath: GRAPHQL_PATH }),
      useSamlSignIn(services),
      useApiReference({ openApiPath: `${REST_BASE_PATH}/openapi.json` }),
      useFileDownloads(services),
      usePdfExports(services),
      useAuthentication({
        db: services.db,
        clock: services.clock,
        adminToken: config.adminToken,
        restBasePath: REST_BASE_PATH,
        graphqlPath: GRAPHQL_PATH,
        adminPaths: adminRoutes.map((r) => r.path),
      }),
      useRequestCaller(),
      ...(rateLimit ? [rateLimit.afterAuthentication] : []),
      ...useGraphqlLimits(config.limits),
      useNoNulInput(),
      useInputErrorCodes(),
      useCompiledExecution(logger),
      useRestApi({
        basePath: REST_BASE_PATH,
        routes: restRoutes,
        apiUrl: config.apiUrl,
        logger,
        maxBodyBytes: bodyLimit,
        maxInputDepth: config.limits.maxInputDepth,
      }),
      useNotFound(),
    ], { logger, graphqlPath: GRAPHQL_PATH }),
  });
  return {
    fetch: yoga.fetch,
    yoga,
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
