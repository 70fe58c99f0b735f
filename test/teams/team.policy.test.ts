import { describe } from 'vitest';
import type { Role, TeamRole } from '../../src/generated/prisma/client.ts';
import { teamPolicy, type TeamActor } from '../../src/modules/teams/team.policy.ts';
import { member, outsider, policyTable } from '../support/policy-table.ts';

const inTeam = (role: Role | null, teamRole: TeamRole | null, extra: { disabled?: boolean } = {}): TeamActor => ({ ...member(role, extra), teamRole });

const actors = {
  admin: inTeam('admin', null),
  'team owner (reader)': inTeam('read', 'owner'),
  'team member (editor)': inTeam('edit', 'member'),
  'guest who owns the team': inTeam(null, 'owner'),
  'disabled team owner': inTeam('read', 'owner', { disabled: true }),
  reader: inTeam('read', null),
  guest: inTeam(null, null),
  outsider: { ...outsider, teamRole: null },
};
const records = { team: { organizationId: 'o1' } };

describe("team policy (docs/api/organizations.md, \"Rules\": members with a role read teams; admins change them; a team's owners manage its members)", () => {
  policyTable(teamPolicy, actors, records, [
    ['reader', 'read', 'team', 'allowed'],
    ['guest', 'read', 'team', 403],
    ['outsider', 'read', 'team', 404],
    ['admin', 'create', 'team', 'allowed'],
    ['admin', 'rename', 'team', 'allowed'],
    ['admin', 'delete', 'team', 'allowed'],
    ['team owner (reader)', 'create', 'team', 403],
    ['team owner (reader)', 'rename', 'team', 403],
    ['team owner (reader)', 'delete', 'team', 403],
    ['admin', 'manageMembers', 'team', 'allowed'],
    ['team owner (reader)', 'manageMembers', 'team', 'allowed'],
    ['guest who owns the team', 'manageMembers', 'team', 'allowed'],
    ['team member (editor)', 'manageMembers', 'team', 403],
    ['reader', 'manageMembers', 'team', 403],
    ['disabled team owner', 'manageMembers', 'team', 404],
  ]);
});
