// A minimal SAML identity provider for tests: a key pair and self-signed certificate generated here,
// and SAMLResponses whose Assertion is signed with xml-crypto (enveloped signature, exclusive C14N).
import { randomBytes } from 'node:crypto';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

export interface TestIdp {
  entityID: string;
  /** PEM certificate to configure on the SAML provider. */
  cert: string;
  /** PEM private key that signs the assertions. */
  key: string;
}

export async function newIdp(entityID = `https://idp.example.test/${randomBytes(4).toString('hex')}`): Promise<TestIdp> {
  const pems = await generate([{ name: 'commonName', value: 'Test IdP' }], { keySize: 2048, algorithm: 'sha256' });
  return { entityID, cert: pems.cert, key: pems.private };
}

export interface AssertionOptions {
  /** Our entity ID (the audience) and ACS URL (the recipient) for the provider. */
  audience: string;
  acsURL: string;
  nameID: string;
  nameIDFormat?: string;
  attributes?: Record<string, string>;
  issuer?: string;
  /** Validity window; defaults to [now - 1 min, now + 5 min), with the real clock (node-saml uses it). */
  notBefore?: Date;
  notOnOrAfter?: Date;
  assertionId?: string;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const iso = (d: Date) => d.toISOString();
export const newSamlId = () => `_${randomBytes(16).toString('hex')}`;

/** The Response XML, unsigned. */
export function responseXml(idp: TestIdp, o: AssertionOptions): string {
  const now = Date.now();
  const notBefore = o.notBefore ?? new Date(now - 60_000);
  const notOnOrAfter = o.notOnOrAfter ?? new Date(now + 5 * 60_000);
  const issueInstant = new Date(Math.min(now, notBefore.getTime() + 1000));
  const issuer = escape(o.issuer ?? idp.entityID);
  const attributes = Object.entries(o.attributes ?? {})
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${escape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">` +
        `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${escape(value)}</saml:AttributeValue>` +
        '</saml:Attribute>',
    )
    .join('');
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newSamlId()}" Version="2.0" IssueInstant="${iso(issueInstant)}" Destination="${escape(o.acsURL)}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${o.assertionId ?? newSamlId()}" Version="2.0" IssueInstant="${iso(issueInstant)}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    '<saml:Subject>' +
    `<saml:NameID Format="${o.nameIDFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'}">${escape(o.nameID)}</saml:NameID>` +
    '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">' +
    `<saml:SubjectConfirmationData NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${escape(o.acsURL)}"/>` +
    '</saml:SubjectConfirmation>' +
    '</saml:Subject>' +
    `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}">` +
    `<saml:AudienceRestriction><saml:Audience>${escape(o.audience)}</saml:Audience></saml:AudienceRestriction>` +
    '</saml:Conditions>' +
    `<saml:AuthnStatement AuthnInstant="${iso(issueInstant)}" SessionIndex="${newSamlId()}">` +
    '<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>' +
    '</saml:AuthnStatement>' +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    '</saml:Assertion>' +
    '</samlp:Response>'
  );
}

/** Signs the Assertion of `xml` with `signer`'s key (enveloped signature placed after its Issuer). */
export function signAssertion(xml: string, signer: TestIdp): string {
  const sig = new SignedXml({
    privateKey: signer.key,
    publicCert: signer.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  sig.computeSignature(xml, {
    location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return sig.getSignedXml();
}

/** A base64 SAMLResponse whose Assertion is signed by `signer` (the IdP itself unless forging). */
export function samlResponse(idp: TestIdp, o: AssertionOptions, signer: TestIdp = idp): string {
  return Buffer.from(signAssertion(responseXml(idp, o), signer)).toString('base64');
}
