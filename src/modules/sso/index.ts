import './saml-provider.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { samlProviderRoutes } from './saml-provider.rest.ts';
import { samlRoutes } from './saml.http.ts';

export const ssoModule: DomainModule = { name: 'sso', routes: samlProviderRoutes, httpRoutes: samlRoutes };
