import type { Integration } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { isAdmin, isMember, type OrganizationActor } from '../organizations/organization.policy.ts';

export type IntegrationRecord = Pick<Integration, 'name' | 'visibility'>;

/**
 * Who may do what with an integration, as the caller relates to the organization that owns it: a
 * public or unlisted integration is seen by anyone, a private one by its owner's members only (404 for
 * others); its owner's admins manage it — publish it again, unpublish it, see its installations.
 */
export const integrationPolicy = definePolicy<OrganizationActor, IntegrationRecord>()({
  visible: ({ membership }, integration) => integration.visibility !== 'private' || isMember(membership),
  notFound: (integration) => `Integration "${integration.name}" not found`,
  rules: {
    read: () => true,
    manage: ({ membership }) => isAdmin(membership),
  },
  refusals: {
    read: 'Not allowed',
    manage: "Only the admins of the integration's organization can do this",
  },
});
