import './saml-provider.schema.ts';
import type { DomainModule } from '../../rest/route-table.ts';
import { samlProviderRoutes } from './saml-provider.rest.ts';

export const ssoModule: DomainModule = { name: 'sso', routes: samlProviderRoutes };
