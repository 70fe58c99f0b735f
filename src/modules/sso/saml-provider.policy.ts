import type { Member, SamlProvider } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { isAdmin, isMember, type OrganizationActor } from '../organizations/organization.policy.ts';

/**
 * Who may do what with an organization's SAML providers (docs/api/sso.md, "SAML single sign-on"). A provider
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

/**
 * What a SAML sign-in needs to know about the person the assertion names: whether the provider may
 * vouch for that account at all (`linkable`, see `mayLinkAccount` in saml-sign-in.service.ts), and
 * their membership of the provider's organization, if any.
 */
export interface SamlSignInActor {
  linkable: boolean;
  membership: Pick<Member, 'disabled'> | null;
}

/**
 * Who a verified SAML assertion may sign in. The provider is public (anyone can start a sign-in), so
 * every refusal is a 403 that names its reason; a new member and an enabled one are signed in.
 */
export const samlSignInPolicy = definePolicy<SamlSignInActor, Pick<SamlProvider, 'organizationId'>>()({
  visible: () => true,
  notFound: () => 'SAML provider not found',
  gates: [
    {
      allows: ({ linkable }) => linkable,
      refusal:
        'An account with this e-mail belongs to other organizations: sign in with it and accept an invitation to this organization first, then sign in with SSO',
    },
  ],
  rules: { signIn: ({ membership }) => !membership?.disabled },
  refusals: { signIn: 'Your membership of this organization is disabled' },
});
