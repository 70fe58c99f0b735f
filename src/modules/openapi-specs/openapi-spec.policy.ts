import { organizationResourcePolicy, type OrganizationResourceActor } from '../organizations/organization-resource.policy.ts';

export type SpecActor = OrganizationResourceActor;

/** OpenAPI specs belong to the organization: members with a role read them (guests 403), its admins change them (`permissions.edit`). */
export const openApiSpecPolicy = organizationResourcePolicy<{ slug: string }>({
  notFound: (spec) => `OpenAPI spec "${spec.slug}" not found`,
  plural: 'OpenAPI specs',
});
