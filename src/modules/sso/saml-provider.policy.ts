import { canAdministerOrganization, canReadOrganization, type Membership } from '../organizations/organization.policy.ts';

/**
 * Who may do what with an organization's SAML providers. A provider decides who can join the
 * organization and with which role, so configuring one is for admins; the sign-in choices (label and
 * start URL, nothing secret) are what any member's sign-in page shows.
 */
export function canManageSamlProviders(viewer: Membership): boolean {
  return canAdministerOrganization(viewer);
}

export function canListSsoLogins(viewer: Membership): boolean {
  return canReadOrganization(viewer);
}

/** A provider signs people in only once it knows where to send them and whose signature to trust. */
export function isProviderActive(provider: { ssoURL: string | null; certificate: string | null }): boolean {
  return Boolean(provider.ssoURL && provider.certificate);
}
