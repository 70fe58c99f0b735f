import { definePolicy } from '../../core/authorization.ts';
import { blockedBySso, isAdmin, isMember, type OrganizationActor } from '../organizations/organization.policy.ts';

export interface TranslationActor extends OrganizationActor {
  organizationSso: boolean;
}

/** Translation settings belong to the organization: any member reads them, its admins change them. */
export const translationSettingsPolicy = definePolicy<TranslationActor, { id: string }>()({
  visible: ({ membership }) => isMember(membership),
  notFound: (t) => `Translation settings "${t.id}" not found`,
  gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
  rules: {
    read: ({ membership }) => isMember(membership),
    edit: ({ membership }) => isAdmin(membership),
  },
  refusals: {
    read: 'This organization requires signing in with SSO',
    edit: 'Only organization admins can change translation settings',
  },
});
