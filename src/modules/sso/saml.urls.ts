/**
 * This server's own SAML endpoints for one provider (the "service provider" side). They live outside
 * /v1 and /graphql because the browser reaches them through the identity provider, without a token.
 */
export const SSO_BASE_PATH = '/sso/saml';

export interface ServiceProviderUrls {
  /** Our SAML entity ID for this provider: also the URL of our SP metadata. */
  entityID: string;
  /** Assertion Consumer Service: where the identity provider POSTs its SAMLResponse. */
  acsURL: string;
  /** Where a sign-in page sends the browser: redirects to the identity provider with an AuthnRequest. */
  startURL: string;
}

export function serviceProviderUrls(publicUrl: string, providerId: string): ServiceProviderUrls {
  const entityID = `${publicUrl}${SSO_BASE_PATH}/${encodeURIComponent(providerId)}`;
  return { entityID, acsURL: `${entityID}/acs`, startURL: `${entityID}/start` };
}

/** `/sso/saml/{providerId}[/acs|/start]` → its parts; null for any other path. */
export function parseSsoPath(pathname: string): { providerId: string; endpoint: 'metadata' | 'acs' | 'start' } | null {
  const match = /^\/sso\/saml\/([^/]+)(?:\/(acs|start))?\/?$/.exec(pathname);
  if (!match) return null;
  let providerId: string;
  try {
    providerId = decodeURIComponent(match[1]);
  } catch {
    providerId = match[1];
  }
  // No provider ID holds a NUL (PostgreSQL text cannot even be asked about one): no such route.
  if (providerId.includes('\u0000')) return null;
  return { providerId, endpoint: (match[2] as 'acs' | 'start' | undefined) ?? 'metadata' };
}
