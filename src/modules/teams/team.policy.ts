import type { TeamRole } from '../../generated/prisma/client.ts';
import { canAdministerOrganization, type Membership } from '../organizations/organization.policy.ts';

/** Creating, renaming and deleting teams is for organization admins. */
export function canAdministerTeams(viewer: Membership): boolean {
  return canAdministerOrganization(viewer);
}

/** A team's members are managed by organization admins and by the team's owners. */
export function canManageTeamMembers(viewer: Membership, viewerTeamRole: TeamRole | null): boolean {
  return canAdministerOrganization(viewer) || (viewer !== null && !viewer.disabled && viewerTeamRole === 'owner');
}
