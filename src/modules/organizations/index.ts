import './role.schema.ts';
import './organization.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { organizationRoutes } from './organization.rest.ts';

export const organizationsModule: DomainModule = { name: 'organizations', routes: organizationRoutes };

// The public entry of the module: what other modules use.
export { organizationForMember, organizationActor, organizationFor, type OrganizationAccess } from './organization.access.ts';
export { ADMIN_ROLES, hasRole, isMember, isAdmin, keepsAnAdmin, LAST_ADMIN, organizationPolicy } from './organization.policy.ts';
export { OrganizationRef } from './organization.schema.ts';
export { organizationPage, withoutOrganization } from './organization.relations.ts';
export { RoleEnum } from './role.schema.ts';
export { isStronger, levelsAbove, ROLES, strongest } from './roles.ts';
