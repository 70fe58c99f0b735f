import type { AppServices } from '../../core/context.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import type { HttpRoute } from '../../http/request-state.ts';
import { readTextWithLimit } from '../../lib/body.ts';
import { userJson } from '../users/index.ts';
import { completeSignIn, startSignIn } from './saml-sign-in.service.ts';
import { serviceProviderMetadata } from './saml.ts';
import { SSO_BASE_PATH } from './saml.urls.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };


/** The provider ID of a path, decoded; no provider ID holds a NUL (PostgreSQL text cannot even be asked about one). */
function providerIdOf(segment: string): string {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    id = segment;
  }
  if (id.includes('\u0000')) throw new NotFoundError(`SAML provider "${segment}" not found`);
  return id;
}

async function samlResponseOf(request: Request, maxBodyBytes: number): Promise<string> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new BadRequestError('Send the SAMLResponse as an application/x-www-form-urlencoded form');
  }
  // SAMLResponses are a few kilobytes: stop reading at the route's cap (413), never buffer more.
  const body = await readTextWithLimit(request, maxBodyBytes);
  const samlResponse = new URLSearchParams(body).get('SAMLResponse');
  if (!samlResponse) throw new BadRequestError('Missing "SAMLResponse" form field');
  return samlResponse;
}

/**
 * The browser side of SAML sign-in, outside /v1 and /graphql (no bearer token: the identity provider
 * vouches for the person), under the SAML routes' own rate limit:
 * - `GET  /sso/saml/{providerId}/start[?RelayState=…]` → 302 to the provider's ssoURL with an AuthnRequest;
 * - `POST /sso/saml/{providerId}/acs` (form field SAMLResponse) → 200 `{ user, organization, token }`;
 * - `GET  /sso/saml/{providerId}` → our SP metadata (the URL is also our entity ID).
 * Failures use the REST error body `{ error: { code, message } }`.
 */
export function samlRoutes(services: AppServices): HttpRoute[] {
  const route = (path: string, method: 'GET' | 'POST', handle: HttpRoute['handle']): HttpRoute => ({
    path: `${SSO_BASE_PATH}/{providerId}${path}`,
    methods: [method],
    door: 'http-route',
    access: 'public',
    rateLimit: 'sso',
    handle,
  });
  return [
    route('/start', 'GET', async ({ url, params }) => {
      const location = await startSignIn(services, providerIdOf(params.providerId), url.searchParams.get('RelayState'));
      return new Response(null, { status: 302, headers: { Location: location, ...NO_STORE } });
    }),
    route('/acs', 'POST', async ({ request, params, state }) => {
      const result = await completeSignIn(services, providerIdOf(params.providerId), await samlResponseOf(request, state.bodyLimit));
      const body = { user: userJson(result.user, services.config.apiUrl), organization: result.organizationId, token: result.token };
      return Response.json(body, { status: 200, headers: NO_STORE });
    }),
    route('', 'GET', async ({ params }) => {
      const provider = await services.db.samlProvider.findUnique({ where: { id: providerIdOf(params.providerId) }, select: { id: true } });
      if (!provider) throw new NotFoundError(`SAML provider "${params.providerId}" not found`);
      return new Response(serviceProviderMetadata(provider.id, services.config.publicUrl), {
        headers: { 'Content-Type': 'application/samlmetadata+xml; charset=utf-8' },
      });
    }),
  ];
}
