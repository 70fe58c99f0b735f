import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['sso'];

/**
 * The documented SSO operations. The sign-in endpoints themselves (`/sso/saml/{providerId}/…`) are
 * plain HTTP routes outside /v1, declared in saml.http.ts.
 */
export const samlProviderRoutes: RouteTable = {
  'Query.organizationSamlProviders': { operationId: 'listSAMLProvidersInOrganizationById', method: 'GET', path: '/orgs/{organizationId}/saml', tags },
  'Mutation.createOrganizationSamlProvider': { operationId: 'createOrganizationSAMLProvider', method: 'POST', path: '/orgs/{organizationId}/saml', status: 201, tags },
  'Query.organizationSamlProvider': { operationId: 'getOrganizationSAMLProviderById', method: 'GET', path: '/orgs/{organizationId}/saml/{samlProviderId}', tags },
  'Mutation.updateOrganizationSamlProvider': { operationId: 'updateOrganizationSAMLProvider', method: 'PATCH', path: '/orgs/{organizationId}/saml/{samlProviderId}', tags },
  'Mutation.deleteOrganizationSamlProvider': { operationId: 'deleteOrganizationSAMLProvider',
    method: 'DELETE',
    path: '/orgs/{organizationId}/saml/{samlProviderId}',
    status: 204,
    tags,
  },
  'Query.organizationSsoProviderLogins': { operationId: 'listSSOProviderLoginsInOrganization', method: 'GET', path: '/orgs/{organizationId}/sso', tags },
};
