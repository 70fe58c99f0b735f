import type { SamlProvider } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { isAdmin, isMember, type OrganizationActor } from '../organizations/organization.policy.ts';

/**
 * Who may do what with an organization's SAML providers (README, "SAML single sign-on"). A provider
 * decides who can join the organization and with which role, so reading and configuring one is for
 * admins (other members 403, outsiders 404 — the organization's own `read`). The sign-in choices
 * (label and start URL, nothing secret) are what any member's sign-in page shows: listing them is
 * reading the organization.
 */
export const samlProviderPolicy = definePolicy<OrganizationActor, Pick<SamlProvider, 'organizationId'>>()({
  visible: ({ membership }) => isMember(membership),
  notFound: () => 'SAML provider not found in this organization',
  rules: {
    read: ({ membership }) => isAdmin(membership),
    create: ({ membership }) => isAdmin(membership),
    update: ({ membership }) => isAdmin(membership),
    delete: ({ membership }) => isAdmin(membership),
  },
  refusals: {
    read: 'Only organization admins can manage SAML providers',
    create: 'Only organization admins can manage SAML providers',
    update: 'Only organization admins can manage SAML providers',
    delete: 'Only organization admins can manage SAML providers',
  },
});

/** A provider signs people in only once it knows where to send them and whose signature to trust. */
export function isProviderActive(provider: { ssoURL: string | null; certificate: string | null }): boolean {
  return Boolean(provider.ssoURL && provider.certificate);
}
