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
