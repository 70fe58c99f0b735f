import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['sso'];

/**
 * The documented SSO operations. The sign-in endpoints themselves (`/sso/saml/{providerId}/…`) are
 * plain HTTP routes outside /v1, served by `useSamlSignIn` (saml.plugin.ts).
 */
export const samlProviderRoutes: RouteTable = {
  'Query.organizationSamlProviders': { method: 'GET', path: '/orgs/{organizationId}/saml', tags },
  'Mutation.createOrganizationSamlProvider': { method: 'POST', path: '/orgs/{organizationId}/saml', status: 201, tags },
  'Query.organizationSamlProvider': { method: 'GET', path: '/orgs/{organizationId}/saml/{samlProviderId}', tags },
  'Mutation.updateOrganizationSamlProvider': { method: 'PATCH', path: '/orgs/{organizationId}/saml/{samlProviderId}', tags },
  'Mutation.deleteOrganizationSamlProvider': {
    method: 'DELETE',
    path: '/orgs/{organizationId}/saml/{samlProviderId}',
    status: 204,
    tags,
  },
  'Query.organizationSsoProviderLogins': { method: 'GET', path: '/orgs/{organizationId}/sso', tags },
};
