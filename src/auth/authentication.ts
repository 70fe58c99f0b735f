import { timingSafeEqual, createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { ForbiddenError, UnauthenticatedError } from '../core/errors.ts';
import type { SiteReader, Viewer } from '../core/viewer.ts';
import { refusal } from '../http/refusal.ts';
import { findRequestState, requestStateOf, type RequestAuth } from '../http/request-state.ts';
import { rootFieldNames } from '../lib/operation-root-fields.ts';
import { bearerToken } from '../lib/tokens.ts';

export type { RequestAuth } from '../http/request-state.ts';

export interface AuthenticationOptions {
  /** The caller a personal access token stands for (null: unknown or revoked): the users module's lookup. */
  viewerForToken: (token: string) => Promise<Viewer | null>;
  adminToken?: string;
  /**
   * The root fields the instance ADMIN_TOKEN may run on the GraphQL door: the fields of the routes the
   * route table marks `adminOnly` (the one declaration; the REST door reads the same flag).
   */
  adminRootFields: ReadonlySet<string>;
  /** Root fields any caller may run without a token (the route table's `public` routes). */
  publicRootFields?: ReadonlySet<string>;
  /**
   * A published site's `apiToken` (a JWT): the reader it stands for (null: forged, expired, not one),
   * and the only root fields such a reader may run (the sites module's).
   */
  siteReaders?: {
    looksLikeToken: (token: string) => boolean;
    readerForToken: (token: string) => Promise<SiteReader | null>;
    rootFields: ReadonlySet<string>;
  };
}

const ADMIN_ONLY = 'The admin token can only call instance administration routes';
const SITE_READER_ONLY = "A published site's apiToken reads that site's published content only";
const INTROSPECTION_FIELDS: ReadonlySet<string> = new Set(['__schema', '__type', '__typename']);

/** The 401 of an operation sent with no token, with the challenge header a 401 carries. */
function anonymousRefusal(): UnauthenticatedError {
  const error = new UnauthenticatedError();
  Object.assign(error.extensions as Record<string, unknown>, { http: { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } } });
  return error;
}

const digest = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

const authOf = (context: object) => findRequestState(context)?.auth;

/**
 * Every /v1 and /graphql request needs `Authorization: Bearer <token>`, except the OpenAPI document, the
 * GraphiQL page and an introspection query on /graphql (the schema is public, like /v1/openapi.json:
 * GraphiQL loads it before anyone has pasted a token). A personal access token identifies a user; the instance ADMIN_TOKEN may only call
 * the administration operations: their REST routes, or an operation on /graphql selecting nothing but
 * them (checked before execution, for both doors). A missing, malformed or unknown token is a 401.
 */
export function useAuthentication(options: AuthenticationOptions): Plugin {
  const challenge = { 'WWW-Authenticate': 'Bearer' };
  return {
    async onRequest({ request, endResponse, serverContext }) {
      const state = requestStateOf(serverContext);
      if (state.public) return;
      const graphql = state.door === 'graphql';
      const token = bearerToken(request.headers.get('authorization'));
      if (!token && graphql) {
        // Parsed later: onExecute lets introspection through and answers anything else with a 401.
        state.auth = { viewer: null, instanceAdmin: false, anonymous: true };
        return;
      }
      if (!token) return endResponse(refusal(state.door, 401, 'Authentication required: send "Authorization: Bearer <token>"', challenge));

      if (options.adminToken && sameSecret(token, options.adminToken)) {
        // On /graphql the operation is not parsed yet: onExecute below decides.
        if (!graphql && !state.adminOnly) return endResponse(refusal(state.door, 403, ADMIN_ONLY));
        state.auth = { viewer: null, instanceAdmin: true };
        return;
      }
      const readers = options.siteReaders;
      if (readers?.looksLikeToken(token)) {
        const reader = await readers.readerForToken(token);
        if (!reader) return endResponse(refusal(state.door, 401, 'Invalid or expired token', challenge));
        const field = state.rootField?.split('.')[1];
        if (!graphql && !(field && readers.rootFields.has(field))) return endResponse(refusal(state.door, 403, SITE_READER_ONLY));
        state.auth = { viewer: null, instanceAdmin: false, siteReader: reader };
        return;
      }
      const found = await options.viewerForToken(token);
      if (!found) return endResponse(refusal(state.door, 401, 'Invalid or revoked access token', challenge));
      state.auth = { viewer: found, instanceAdmin: false } satisfies RequestAuth;
    },
    // A caller with no token learns nothing but the schema: a document that does not parse or validate
    // is answered with the same 401 as any other operation.
    onParse({ context }) {
      if (!authOf(context)?.anonymous) return;
      return ({ result, replaceParseResult }) => {
        if (result instanceof Error) replaceParseResult(anonymousRefusal() as never);
      };
    },
    onValidate({ context }) {
      if (!authOf(context)?.anonymous) return;
      return ({ result, setResult }) => {
        if (result.length > 0) setResult([anonymousRefusal()]);
      };
    },
    // Yoga answers parse and validation errors with 200 for `application/json` (the GraphQL-over-HTTP
    // rule), whatever status the error asks for; the result's own status wins over that.
    onResultProcess({ result, setResult, serverContext }) {
      if (!authOf(serverContext)?.anonymous || Array.isArray(result) || !('errors' in result)) return;
      if (!result.errors?.some((error) => error.extensions?.code === 'UNAUTHENTICATED')) return;
      setResult({ ...result, extensions: { ...result.extensions, http: { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } } } });
    },
    onExecute({ args, setResultAndStopExecution }) {
      const auth = authOf(args.contextValue as object);
      if (auth?.anonymous) {
        const fields = rootFieldNames(args.document, args.operationName);
        const open = (name: string) => INTROSPECTION_FIELDS.has(name) || options.publicRootFields?.has(name);
        if (fields.length > 0 && fields.every(open)) return;
        return setResultAndStopExecution({ errors: [anonymousRefusal()] });
      }
      if (auth?.siteReader) {
        const fields = rootFieldNames(args.document, args.operationName).filter((name) => name !== '__typename');
        if (fields.length > 0 && fields.every((name) => options.siteReaders?.rootFields.has(name))) return;
        return setResultAndStopExecution({ errors: [new ForbiddenError(SITE_READER_ONLY)] });
      }
      if (!auth?.instanceAdmin) return;
      const fields = rootFieldNames(args.document, args.operationName).filter((name) => name !== '__typename');
      if (fields.length > 0 && fields.every((name) => options.adminRootFields.has(name))) return;
      setResultAndStopExecution({ errors: [new ForbiddenError(ADMIN_ONLY)] });
    },
  };
}
