import type { Member } from '../../generated/prisma/client.ts';
import { canAdministerOrganization, isMember, type Membership } from '../organizations/organization.policy.ts';

/**
 * The member directory (names, e-mail addresses, roles) is for members with a role. Guests are people
 * outside the organization who were given some spaces: they see their own membership only.
 */
export function canListMembers(viewer: Membership): boolean {
  return isMember(viewer) && viewer.role !== null;
}

export function canSeeMember(viewer: Membership, viewerUserId: string, target: Pick<Member, 'userId'>): boolean {
  return canListMembers(viewer) || (isMember(viewer) && viewerUserId === target.userId);
}

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
