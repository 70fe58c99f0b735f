import { definePolicy } from '../../core/authorization.ts';
import { blockedBySso, hasRole, isAdmin, isMember, type OrganizationActor } from '../organizations/organization.policy.ts';

export interface SpecActor extends OrganizationActor {
  organizationSso: boolean;
}

/** OpenAPI specs belong to the organization: members with a role read them (guests 403), its admins change them (`permissions.edit`). */
export const openApiSpecPolicy = definePolicy<SpecActor, { slug: string }>()({
  visible: ({ membership }) => isMember(membership),
  notFound: (spec) => `OpenAPI spec "${spec.slug}" not found`,
  gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
  rules: {
    read: ({ membership }) => hasRole(membership),
    edit: ({ membership }) => isAdmin(membership),
  },
  refusals: {
    read: "Guests cannot see the organization's OpenAPI specs",
    edit: 'Only organization admins can change OpenAPI specs',
  },
});
