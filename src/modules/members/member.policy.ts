import type { Member } from '../../generated/prisma/client.ts';
import { canAdministerOrganization, type Membership } from '../organizations/organization.policy.ts';

/** Admins change roles. (That the last admin cannot be demoted is an invariant kept by the service.) */
export function canChangeMemberRole(viewer: Membership): boolean {
  return canAdministerOrganization(viewer);
}

/** Admins remove members; any member may leave on their own. */
export function canRemoveMember(viewer: Membership, viewerUserId: string, target: Pick<Member, 'userId'>): boolean {
  return canAdministerOrganization(viewer) || viewerUserId === target.userId;
}

export function canSetMemberSso(viewer: Membership): boolean {
  return canAdministerOrganization(viewer);
}
