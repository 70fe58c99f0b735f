import type { CustomField } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { blockedBySso, isAdmin, isMember, type OrganizationActor } from '../organizations/organization.policy.ts';
import { atLeast } from '../organizations/roles.ts';
import type { ContentActor } from '../content-access/access-level.ts';
import { spacePolicy, type SpaceRecord } from '../content-access/space.policy.ts';

/**
 * Who may do what with custom fields (docs/api/spaces.md, "Custom fields"). The field definitions belong to the
 * organization: any member (guests included) reads them — that is reading the organization, nothing
 * more — and admins create, change and delete them.
 */
export const customFieldPolicy = definePolicy<OrganizationActor, Pick<CustomField, 'organizationId'>>()({
  visible: ({ membership }) => isMember(membership),
  notFound: () => 'Custom field not found in this organization',
  rules: {
    create: ({ membership }) => isAdmin(membership),
    update: ({ membership }) => isAdmin(membership),
    delete: ({ membership }) => isAdmin(membership),
  },
  refusals: {
    create: 'Only organization admins can manage custom fields',
    update: 'Only organization admins can manage custom fields',
    delete: 'Only organization admins can manage custom fields',
  },
});

/**
 * A space's custom field values belong to the space: whoever reads the space reads them (the space's
 * `read`), and setting them is editing the space (`edit` level).
 */
export const spaceFieldValuesPolicy = definePolicy<ContentActor, SpaceRecord>()({
  visible: (actor, space) => spacePolicy.visible(actor, space, 'read'),
  notFound: spacePolicy.notFound,
  gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
  rules: {
    set: (actor) => atLeast(actor.level, 'edit'),
  },
  refusals: {
    set: 'Setting custom field values needs the "edit" level on the space',
  },
});
