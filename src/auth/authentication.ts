import { timingSafeEqual, createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { Db } from '../db/client.ts';
import type { Viewer } from '../graphql/context.ts';
import type { Clock } from '../lib/clock.ts';
import { bearerToken } from '../lib/tokens.ts';
import { userForToken } from '../modules/users/user.service.ts';
import { errorResponse } from '../rest/errors.ts';

/** Who is calling, decided once per request before anything else runs. */
export interface RequestAuth {
  viewer: Viewer | null;
  instanceAdmin: boolean;
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

const digest = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

function refuse(isGraphql: boolean, status: 401 | 403, message: string): Response {
  const headers = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : undefined;
  if (!isGraphql) return errorResponse(status, message, headers);
  const code = status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN';
  return Response.json({ errors: [{ message, extensions: { code } }] }, { status, headers });
}

/**
 * Every /v1 and /graphql request needs `Authorization: Bearer <token>`, except the OpenAPI document and
 * the GraphiQL page. A personal access token identifies a user; the instance ADMIN_TOKEN may only call
 * the administration routes. A missing, malformed or unknown token is a 401.
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
      if (!token) return endResponse(refuse(isGraphql, 401, 'Authentication required: send "Authorization: Bearer <token>"'));

      const isAdminPath = isRest && options.adminPaths.includes(path.slice(options.restBasePath.length));
      let auth: RequestAuth;
      if (options.adminToken && sameSecret(token, options.adminToken)) {
        if (!isAdminPath) return endResponse(refuse(isGraphql, 403, 'The admin token can only call instance administration routes'));
        auth = { viewer: null, instanceAdmin: true };
      } else {
        const found = await userForToken(options.db, token, options.clock.now());
        if (!found) return endResponse(refuse(isGraphql, 401, 'Invalid or revoked access token'));
        auth = { viewer: found, instanceAdmin: false };
      }
      Object.assign(serverContext, { auth });
    },
  };
}
