import type { TeamRole } from '../../generated/prisma/client.ts';
import { canAdministerOrganization, isMember, type Membership } from '../organizations/organization.policy.ts';

/** Teams and their members are part of the member directory: for members with a role, not guests. */
export function canListTeams(viewer: Membership): boolean {
  return isMember(viewer) && viewer.role !== null;
}

/** Creating, renaming and deleting teams is for organization admins. */
export function canAdministerTeams(viewer: Membership): boolean {
  return canAdministerOrganization(viewer);
}

/** A team's members are managed by organization admins and by the team's owners. */
export function canManageTeamMembers(viewer: Membership, viewerTeamRole: TeamRole | null): boolean {
  return canAdministerOrganization(viewer) || (viewer !== null && !viewer.disabled && viewerTeamRole === 'owner');
}
