import type { Organization } from '../../generated/prisma/client.ts';
import { BadRequestError } from '../../core/errors.ts';
import { isEmail } from '../../core/validate.ts';

/** Addresses in one invitation call (to the organization, or to a space, collection or site). */
export const MAX_EMAILS_PER_CALL = 100;

/** Trimmed, lower-cased, distinct addresses; 400 naming `emails` when there are none, too many, or one is not an address. */
export function normalizeEmails(emails: string[]): string[] {
  if (emails.length === 0) throw new BadRequestError('Invalid "emails": give at least one address');
  const normalized = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  if (normalized.length > MAX_EMAILS_PER_CALL) {
    throw new BadRequestError(`Invalid "emails": at most ${MAX_EMAILS_PER_CALL} addresses per call`);
  }
  for (const email of normalized) if (!isEmail(email)) throw new BadRequestError(`Invalid "emails": "${email}" is not an e-mail address`);
  return normalized;
}

/**
 * Whether an address can sign in through the organization's SSO: the organization has a SAML provider
 * and the address is on one of the organization's e-mail domains.
 */
export function canUseSso(organization: Pick<Organization, 'emailDomains'>, hasSamlProvider: boolean, email: string): boolean {
  return hasSamlProvider && organization.emailDomains.includes(email.split('@')[1]);
}
