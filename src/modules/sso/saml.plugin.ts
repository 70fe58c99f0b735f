import type { Plugin } from 'graphql-yoga';
import type { User } from '../../generated/prisma/client.ts';
import type { AppServices } from '../../core/context.ts';
import { AppError, BadRequestError, NotFoundError } from '../../core/errors.ts';
import { payloadTooLarge } from '../../http/body-limit.ts';
import { BodyTooLargeError, readTextWithLimit } from '../../lib/body.ts';
import { requestLogger } from '../../http/request-id.ts';
import { errorResponse } from '../../rest/errors.ts';
import { completeSignIn, startSignIn } from './saml-sign-in.service.ts';
import { serviceProviderMetadata } from './saml.ts';
import { parseSsoPath, SSO_BASE_PATH } from './saml.urls.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** The user as `GET /v1/user` shows it (UserRef over REST: absent optionals omitted). */
function restUser(user: User, apiUrl: string) {
  return {
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoURL ? { photoURL: user.photoURL } : {}),
    urls: { location: `${apiUrl}/users/${user.id}` },
  };
}

async function samlResponseOf(request: Request, maxBodyBytes: number): Promise<string> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new BadRequestError('Send the SAMLResponse as an application/x-www-form-urlencoded form');
  }
  // SAMLResponses are a few kilobytes: stop reading at the configured cap (413), never buffer more.
  const body = await readTextWithLimit(request, maxBodyBytes);
  const samlResponse = new URLSearchParams(body).get('SAMLResponse');
  if (!samlResponse) throw new BadRequestError('Missing "SAMLResponse" form field');
  return samlResponse;
}

async function handle(services: AppServices, request: Request, url: URL, providerId: string, endpoint: 'metadata' | 'acs' | 'start') {
  if (endpoint === 'start') {
    const location = await startSignIn(services, providerId, url.searchParams.get('RelayState'));
    return new Response(null, { status: 302, headers: { Location: location, ...NO_STORE } });
  }
  if (endpoint === 'acs') {
    const result = await completeSignIn(services, providerId, await samlResponseOf(request, services.config.limits.maxBodyBytes));
    const body = { user: restUser(result.user, services.config.apiUrl), organization: result.organizationId, token: result.token };
    return Response.json(body, { status: 200, headers: NO_STORE });
  }
  const provider = await services.db.samlProvider.findUnique({ where: { id: providerId }, select: { id: true } });
  if (!provider) throw new NotFoundError(`SAML provider "${providerId}" not found`);
  return new Response(serviceProviderMetadata(provider.id, services.config.publicUrl), {
    headers: { 'Content-Type': 'application/samlmetadata+xml; charset=utf-8' },
  });
}

/**
 * The browser side of SAML sign-in, outside /v1 and /graphql (no bearer token: the identity provider
 * vouches for the person):
 * - `GET  /sso/saml/{providerId}/start[?RelayState=…]` → 302 to the provider's ssoURL with an AuthnRequest;
 * - `POST /sso/saml/{providerId}/acs` (form field SAMLResponse) → 200 `{ user, organization, token }`;
 * - `GET  /sso/saml/{providerId}` → our SP metadata (the URL is also our entity ID).
 * Failures use the REST error body `{ error: { code, message } }`.
 */
export function useSamlSignIn(services: AppServices): Plugin {
  return {
    // Synchronous for every other path (no promise per request); the SSO paths continue in `signIn`.
    onRequest(payload) {
      const { pathname } = payload.url;
      if (pathname !== SSO_BASE_PATH && !pathname.startsWith(`${SSO_BASE_PATH}/`)) return;
      return signIn(payload);
    },
  };

  async function signIn({ request, url, endResponse, serverContext }: Parameters<NonNullable<Plugin['onRequest']>>[0]) {
    const route = parseSsoPath(url.pathname);
    if (!route) return endResponse(errorResponse(404, `No route ${request.method} ${url.pathname}`));
    (serverContext as { route?: string }).route =
      `${SSO_BASE_PATH}/{providerId}${route.endpoint === 'metadata' ? '' : `/${route.endpoint}`}`;
    const method = route.endpoint === 'acs' ? 'POST' : 'GET';
    if (request.method !== method) {
      return endResponse(errorResponse(405, `Use ${method} on ${url.pathname}`, { Allow: method }));
    }
    try {
      endResponse(await handle(services, request, url, route.providerId, route.endpoint));
    } catch (error) {
      if (error instanceof AppError) return endResponse(errorResponse(error.status, error.message));
      if (error instanceof BodyTooLargeError) return endResponse(payloadTooLarge(error, false));
      requestLogger(serverContext, services.logger).error({ err: error }, 'SAML sign-in failed');
      endResponse(errorResponse(500, 'Internal server error'));
    }
  }
}
