import { definePolicy } from '../../core/authorization.ts';
import { blockedBySso, isAdmin, isMember, type OrganizationActor } from '../organizations/organization.policy.ts';

export interface SpecActor extends OrganizationActor {
  organizationSso: boolean;
}

/** OpenAPI specs belong to the organization: any member reads them, its admins change them (`permissions.edit`). */
export const openApiSpecPolicy = definePolicy<SpecActor, { slug: string }>()({
  visible: ({ membership }) => isMember(membership),
  notFound: (spec) => `OpenAPI spec "${spec.slug}" not found`,
  gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
  rules: {
    read: ({ membership }) => isMember(membership),
    edit: ({ membership }) => isAdmin(membership),
  },
  refusals: {
    read: 'This organization requires signing in with SSO',
    edit: 'Only organization admins can change OpenAPI specs',
  },
});
