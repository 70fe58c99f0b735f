import { timingSafeEqual, createHash } from 'node:crypto';
import { getOperationAST, Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Db } from '../db/client.ts';
import type { Viewer } from '../core/context.ts';
import { ForbiddenError, UnauthenticatedError } from '../core/errors.ts';
import type { Clock } from '../lib/clock.ts';
import { bearerToken } from '../lib/tokens.ts';
import { userForToken } from '../modules/users/user.service.ts';
import { errorResponse } from '../rest/errors.ts';

/** Who is calling, decided once per request before anything else runs. */
export interface RequestAuth {
  viewer: Viewer | null;
  instanceAdmin: boolean;
  /** No token on /graphql: only an introspection operation may run (see onExecute). */
  anonymous?: boolean;
}

export interface AuthenticationOptions {
  db: Db;
  /** Time of a token's use (`lastUsedAt`). */
  clock: Clock;
  adminToken?: string;
  restBasePath: string;
  graphqlPath: string;
  /** Administration routes (relative to the REST base) that only the ADMIN_TOKEN may call. */
  adminPaths: string[];
}

/** Root fields the instance ADMIN_TOKEN may run, through either door (the REST routes of `adminPaths`). */
export const ADMIN_ROOT_FIELDS: ReadonlySet<string> = new Set(['adminCreateUser']);
const ADMIN_ONLY = 'The admin token can only call instance administration routes';
const INTROSPECTION_FIELDS: ReadonlySet<string> = new Set(['__schema', '__type', '__typename']);

/** Names of the root fields an operation selects, through fragments too. */
function rootFieldNames(document: DocumentNode, operationName: string | null | undefined): string[] {
  const operation = getOperationAST(document, operationName);
  if (!operation) return [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const names: string[] = [];
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) names.push(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  visit(operation.selectionSet);
  return names;
}

/** The 401 of an operation sent with no token, with the challenge header a 401 carries. */
function anonymousRefusal(): UnauthenticatedError {
  const error = new UnauthenticatedError();
  Object.assign(error.extensions as Record<string, unknown>, { http: { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } } });
  return error;
}

const digest = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

function refuse(isGraphql: boolean, status: 401 | 403, message: string): Response {
  const headers = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : undefined;
  if (!isGraphql) return errorResponse(status, message, headers);
  const code = status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN';
  return Response.json({ errors: [{ message, extensions: { code } }] }, { status, headers });
}

/**
 * Every /v1 and /graphql request needs `Authorization: Bearer <token>`, except the OpenAPI document, the
 * GraphiQL page and an introspection query on /graphql (the schema is public, like /v1/openapi.json:
 * GraphiQL loads it before anyone has pasted a token). A personal access token identifies a user; the instance ADMIN_TOKEN may only call
 * the administration operations: their REST routes, or an operation on /graphql selecting nothing but
 * them (checked before execution, for both doors). A missing, malformed or unknown token is a 401.
 */
export function useAuthentication(options: AuthenticationOptions): Plugin {
  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      const path = url.pathname;
      const isGraphql = path === options.graphqlPath;
      const isRest = path === options.restBasePath || path.startsWith(`${options.restBasePath}/`);
      if (!isGraphql && !isRest) return;
      if (isRest && request.method === 'GET' && path === `${options.restBasePath}/openapi.json`) return;
      if (isGraphql && request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html')) return;

      const token = bearerToken(request.headers.get('authorization'));
      if (!token && isGraphql) {
        // Parsed later: onExecute lets introspection through and answers anything else with a 401.
        Object.assign(serverContext, { auth: { viewer: null, instanceAdmin: false, anonymous: true } satisfies RequestAuth });
        return;
      }
      if (!token) return endResponse(refuse(isGraphql, 401, 'Authentication required: send "Authorization: Bearer <token>"'));

      const isAdminPath = isRest && options.adminPaths.includes(path.slice(options.restBasePath.length));
      let auth: RequestAuth;
      if (options.adminToken && sameSecret(token, options.adminToken)) {
        // On /graphql the operation is not parsed yet: onExecute below decides.
        if (isRest && !isAdminPath) return endResponse(refuse(false, 403, ADMIN_ONLY));
        auth = { viewer: null, instanceAdmin: true };
      } else {
        const found = await userForToken(options.db, token, options.clock.now());
        if (!found) return endResponse(refuse(isGraphql, 401, 'Invalid or revoked access token'));
        auth = { viewer: found, instanceAdmin: false };
      }
      Object.assign(serverContext, { auth });
    },
    // A caller with no token learns nothing but the schema: a document that does not parse or validate
    // is answered with the same 401 as any other operation.
    onParse({ context }) {
      if (!(context as { auth?: RequestAuth }).auth?.anonymous) return;
      return ({ result, replaceParseResult }) => {
        if (result instanceof Error) replaceParseResult(anonymousRefusal() as never);
      };
    },
    onValidate({ context }) {
      if (!(context as { auth?: RequestAuth }).auth?.anonymous) return;
      return ({ result, setResult }) => {
        if (result.length > 0) setResult([anonymousRefusal()]);
      };
    },
    // Yoga answers parse and validation errors with 200 for `application/json` (the GraphQL-over-HTTP
    // rule), whatever status the error asks for; the result's own status wins over that.
    onResultProcess({ result, setResult, serverContext }) {
      if (!(serverContext as { auth?: RequestAuth }).auth?.anonymous || Array.isArray(result) || !('errors' in result)) return;
      if (!result.errors?.some((error) => error.extensions?.code === 'UNAUTHENTICATED')) return;
      setResult({ ...result, extensions: { ...result.extensions, http: { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } } } });
    },
    onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as { instanceAdmin?: boolean; auth?: RequestAuth };
      if (context.auth?.anonymous) {
        const fields = rootFieldNames(args.document, args.operationName);
        if (fields.length > 0 && fields.every((name) => INTROSPECTION_FIELDS.has(name))) return;
        return setResultAndStopExecution({ errors: [anonymousRefusal()] });
      }
      if (!context.instanceAdmin) return;
      const fields = rootFieldNames(args.document, args.operationName).filter((name) => name !== '__typename');
      if (fields.length > 0 && fields.every((name) => ADMIN_ROOT_FIELDS.has(name))) return;
      setResultAndStopExecution({ errors: [new ForbiddenError(ADMIN_ONLY)] });
    },
  };
}
