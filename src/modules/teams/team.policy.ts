import type { Team, TeamRole } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { hasRole, isAdmin, isMember, type OrganizationActor } from '../organizations/organization.policy.ts';

/** The caller relative to a team: their organization membership, and their role in the team (if in it). */
export interface TeamActor extends OrganizationActor {
  teamRole: TeamRole | null;
}

/** A team of the organization (for `create`: the organization it is created in). */
export type TeamRecord = Pick<Team, 'organizationId'>;

/**
 * Who may do what with teams (docs/api/organizations.md, "Rules"). Teams and their members are part of the member
 * directory: members with a role read them, guests do not. Admins create, rename and delete teams; a
 * team's members are managed by admins and by the team's owners.
 */
export const teamPolicy = definePolicy<TeamActor, TeamRecord>()({
  visible: ({ membership }) => isMember(membership),
  notFound: () => 'Team not found in this organization',
  rules: {
    read: ({ membership }) => hasRole(membership),
    create: ({ membership }) => isAdmin(membership),
    rename: ({ membership }) => isAdmin(membership),
    delete: ({ membership }) => isAdmin(membership),
    manageMembers: ({ membership, teamRole }) => isAdmin(membership) || (isMember(membership) && teamRole === 'owner'),
  },
  refusals: {
    read: 'Guests cannot see the teams of the organization',
    create: 'Only organization admins can manage teams',
    rename: 'Only organization admins can manage teams',
    delete: 'Only organization admins can manage teams',
    manageMembers: "Only organization admins and the team's owners can manage its members",
  },
});
