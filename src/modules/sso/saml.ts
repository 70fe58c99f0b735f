import { generateServiceProviderMetadata, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { SamlProvider } from '../../generated/prisma/client.ts';
import { isEmail } from '../../core/validate.ts';
import { serviceProviderUrls } from './saml.urls.ts';

/**
 * The SAML protocol work, delegated to @node-saml/node-saml (and its xml-crypto): building the
 * AuthnRequest, and checking a SAMLResponse's XML signature against the provider's certificate, its
 * audience and its time window. What the library does not do — replay protection across instances,
 * the issuer check against the provider's entity ID, finding the e-mail — is done here and in
 * saml-sign-in.service.ts.
 */

/** Tolerated difference between the identity provider's clock and ours. */
export const CLOCK_SKEW_MS = 60_000;
const NAME_ID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

function samlFor(provider: SamlProvider, publicUrl: string, idpCert: string): SAML {
  const urls = serviceProviderUrls(publicUrl, provider.id);
  return new SAML({
    entryPoint: provider.ssoURL ?? undefined,
    issuer: urls.entityID,
    audience: urls.entityID,
    callbackUrl: urls.acsURL,
    idpCert,
    identifierFormat: NAME_ID_EMAIL,
    // Either the whole Response or its Assertion must carry a valid signature by the provider's
    // certificate (node-saml verifies the Assertion whenever the Response is not validly signed).
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    // Requests are not remembered (any instance may receive the response), so IdP-initiated sign-ins
    // work too; replay is stopped by the assertion ID instead.
    validateInResponseTo: ValidateInResponseTo.never,
    // Asking for one exact authentication context makes some identity providers (MFA, Kerberos) refuse.
    disableRequestedAuthnContext: true,
  });
}

/** The identity provider's sign-in URL carrying our AuthnRequest (HTTP-Redirect binding). */
export async function authnRequestUrl(provider: SamlProvider & { ssoURL: string; certificate: string }, publicUrl: string, relayState: string | null) {
  return samlFor(provider, publicUrl, provider.certificate).getAuthorizeUrlAsync(relayState ?? '', undefined, {});
}

/** Our SP metadata for the provider, to upload into the identity provider. */
export function serviceProviderMetadata(providerId: string, publicUrl: string): string {
  const urls = serviceProviderUrls(publicUrl, providerId);
  return generateServiceProviderMetadata({
    issuer: urls.entityID,
    callbackUrl: urls.acsURL,
    identifierFormat: NAME_ID_EMAIL,
    wantAssertionsSigned: true,
  });
}

export class SamlRejected extends Error {}

export interface VerifiedAssertion {
  assertionId: string;
  /** Until when the assertion is valid (plus the clock skew): how long its ID must be remembered. */
  expiresAt: Date;
  issuer: string | null;
  email: string;
  displayName: string | null;
}

type XmlJs = Record<string, any>;
const first = (value: unknown): any => (Array.isArray(value) ? value[0] : value);
const text = (value: unknown): string | null => {
  const v = first(value);
  if (typeof v === 'string') return v.trim() || null;
  if (v && typeof v === 'object' && typeof (v as XmlJs)._ === 'string') return (v as XmlJs)._.trim() || null;
  return null;
};

/**
 * Verifies a base64 SAMLResponse and returns what the signed assertion says. Every reason to refuse
 * (bad signature, wrong audience, outside its time window, malformed, no e-mail) is a SamlRejected.
 */
export async function verifySamlResponse(provider: SamlProvider & { certificate: string }, publicUrl: string, samlResponse: string): Promise<VerifiedAssertion> {
  let profile;
  try {
    ({ profile } = await samlFor(provider, publicUrl, provider.certificate).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw new SamlRejected(`SAML response rejected: ${(error as Error).message}`);
  }
  if (!profile) throw new SamlRejected('SAML response rejected: it carries no assertion');

  // getAssertion() is the assertion as verified (parsed from the signed XML), not the raw response.
  const assertion = (profile.getAssertion?.() as XmlJs | undefined)?.Assertion as XmlJs | undefined;
  const assertionId = assertion?.$?.ID as string | undefined;
  if (!assertionId) throw new SamlRejected('SAML response rejected: the assertion has no ID');
  const notOnOrAfter = first(assertion?.Conditions)?.$?.NotOnOrAfter as string | undefined;
  const expires = notOnOrAfter ? Date.parse(notOnOrAfter) : NaN;
  if (Number.isNaN(expires)) throw new SamlRejected('SAML response rejected: the assertion has no Conditions NotOnOrAfter');

  const issuer = typeof profile.issuer === 'string' ? profile.issuer : null;
  if (provider.entityID && issuer !== provider.entityID) {
    throw new SamlRejected(`SAML response rejected: issuer "${issuer ?? ''}" is not the provider's entity ID "${provider.entityID}"`);
  }

  const candidates = [profile.nameID, text(profile.email), text(profile.mail), text(profile['urn:oid:0.9.2342.19200300.100.1.3'])];
  const email = candidates.map((c) => (typeof c === 'string' ? c.trim().toLowerCase() : '')).find((c) => isEmail(c));
  if (!email) throw new SamlRejected('SAML response rejected: neither the NameID nor an "email" attribute is an e-mail address');

  const given = text(profile.givenName) ?? text(profile.firstName);
  const family = text(profile.surname) ?? text(profile.sn) ?? text(profile.lastName);
  const displayName =
    text(profile.displayName) ?? text(profile.name) ?? (given || family ? [given, family].filter(Boolean).join(' ') : null);

  return { assertionId, expiresAt: new Date(expires + CLOCK_SKEW_MS), issuer, email, displayName };
}
