import { organizationResourcePolicy, type OrganizationResourceActor } from '../organizations/organization-resource.policy.ts';

export type TranslationActor = OrganizationResourceActor;

/** Translation settings belong to the organization: members with a role read them (guests 403), its admins change them. */
export const translationSettingsPolicy = organizationResourcePolicy<{ id: string }>({
  notFound: (t) => `Translation settings "${t.id}" not found`,
  plural: 'translation settings',
});
