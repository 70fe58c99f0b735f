import type { Integration } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { hasRole, isAdmin, isMember, type OrganizationActor } from '../organizations/organization.policy.ts';

export type IntegrationRecord = Pick<Integration, 'name' | 'visibility'>;

/**
 * Who may do what with an integration, as the caller relates to the organization that owns it: a
 * public or unlisted integration is seen by anyone, a private one by its owner's members with a role
 * (guests 403, others 404); its owner's admins manage it — publish it again, unpublish it, see its
 * installations.
 */
export const integrationPolicy = definePolicy<OrganizationActor, IntegrationRecord>()({
  visible: ({ membership }, integration) => integration.visibility !== 'private' || isMember(membership),
  notFound: (integration) => `Integration "${integration.name}" not found`,
  rules: {
    read: ({ membership }, integration) => integration.visibility !== 'private' || hasRole(membership),
    manage: ({ membership }) => isAdmin(membership),
  },
  refusals: {
    read: "Seeing the organization's private integrations needs a role in it (\"read\" or above)",
    manage: "Only the admins of the integration's organization can do this",
  },
});

/** The organization an integration would be installed in. */
export interface InstallationTarget {
  organizationId: string;
}

/**
 * Where an integration may be installed: a public or unlisted one in any organization (whose admins
 * install it: organization.policy's `update`), a private one only in the organization that owns it —
 * elsewhere it answers as if it did not exist, even to a member of its owner who administers another.
 */
export const installationTargetPolicy = definePolicy<InstallationTarget, IntegrationRecord & Pick<Integration, 'organizationId'>>()({
  visible: (target, integration) => integration.visibility !== 'private' || integration.organizationId === target.organizationId,
  notFound: (integration) => `Integration "${integration.name}" not found`,
  rules: { install: () => true },
  refusals: { install: 'Not allowed' },
});
