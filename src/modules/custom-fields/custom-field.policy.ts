import type { Role } from '../../generated/prisma/client.ts';
import { canAdministerOrganization, canReadOrganization, type Membership } from '../organizations/organization.policy.ts';
import { canEdit, canRead } from '../spaces/access-level.ts';

/**
 * Who may do what with custom fields. The fields belong to the organization; their values belong to
 * each space, so they follow the caller's effective level on that space.
 */

/** Any member (guests included) sees the organization's field definitions. */
export function canReadCustomFields(viewer: Membership): boolean {
  return canReadOrganization(viewer);
}

/** Creating, changing and deleting field definitions is for organization admins. */
export function canManageCustomFields(viewer: Membership): boolean {
  return canAdministerOrganization(viewer);
}

/** Whoever can read a space can read its field values. */
export function canReadSpaceFieldValues(level: Role | null): boolean {
  return canRead(level);
}

/** Setting a space's field values is editing the space. */
export function canSetSpaceFieldValues(level: Role | null): boolean {
  return canEdit(level);
}
