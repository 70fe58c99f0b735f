import { definePolicy } from '../../core/authorization.ts';
import { blockedBySso, hasRole, isAdmin, isMember, type OrganizationActor } from '../organizations/organization.policy.ts';

export interface TranslationActor extends OrganizationActor {
  organizationSso: boolean;
}

/** Translation settings belong to the organization: members with a role read them (guests 403), its admins change them. */
export const translationSettingsPolicy = definePolicy<TranslationActor, { id: string }>()({
  visible: ({ membership }) => isMember(membership),
  notFound: (t) => `Translation settings "${t.id}" not found`,
  gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
  rules: {
    read: ({ membership }) => hasRole(membership),
    edit: ({ membership }) => isAdmin(membership),
  },
  refusals: {
    read: "Guests cannot see the organization's translation settings",
    edit: 'Only organization admins can change translation settings',
  },
});
