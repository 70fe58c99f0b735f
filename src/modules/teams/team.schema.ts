import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listItemsQuery, listType, recordQuery } from '../../graphql/list.ts';
import { graphOnly } from '../../graphql/rest-fields.ts';
import { MemberRef } from '../members/index.ts';
import { loadTeamMembersPage } from './team.relations.ts';
import {
  addTeamMember,
  createTeam,
  deleteTeam,
  getTeam,
  listMemberTeams,
  listTeamMembers,
  listTeams,
  MAX_MEMBERS_PER_CALL,
  removeTeamMember,
  renameTeam,
  updateTeamMembers,
} from './team.service.ts';

export const TeamRoleEnum = builder.enumType('TeamRole', {
  description: 'Role in a team: owner (can manage team members) or member',
  values: ['owner', 'member'] as const,
});

const TeamRoleObject = builder.simpleObject('TeamRoleInfo', {
  fields: (t) => ({ role: t.field({ type: TeamRoleEnum }) }),
});

export const TeamRef = builder.prismaObject('Team', {
  description: 'A reusable group of organization members',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['team'] }), resolve: () => 'team' }),
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    members: t.relationCount('members', { description: 'Number of members in the team' }),
    spaces: t.relationCount('spaceGrants', { description: 'Number of spaces shared with the team' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    memberships: t.field({
      type: TeamMembershipList,
      description: 'Members of the team, with their team role',
      args: listArgs,
      extensions: graphOnly,
      resolve: (team, args, ctx, info) => loadTeamMembersPage(ctx, team.id, args, listItemsQuery(ctx, info)),
    }),
  }),
});

/** Item of `GET /orgs/{o}/teams/{t}/members`: the organization member and their team role. */
export const TeamMembershipRef = builder.prismaObject('TeamMember', {
  variant: 'TeamMembership',
  fields: (t) => ({
    organization: t.relation('member', { type: MemberRef }),
    team: t.field({ type: TeamRoleObject, resolve: (tm) => ({ role: tm.role }) }),
  }),
});

/** Item of `GET /orgs/{o}/members/{u}/teams`: the team and the member's role in it. */
export const MemberTeamRef = builder.prismaObject('TeamMember', {
  variant: 'MemberTeam',
  fields: (t) => ({
    team: t.relation('team', { type: TeamRef }),
    member: t.field({ type: TeamRoleObject, resolve: (tm) => ({ role: tm.role }) }),
  }),
});

export const TeamList = listType('Team', TeamRef);
export const TeamMembershipList = listType('TeamMembership', TeamMembershipRef);
export const MemberTeamList = listType('MemberTeam', MemberTeamRef);

/** A team's title (team.service.ts checks the trimmed title too). */
const titleConstraints = constrained({ minLength: 1, maxLength: 64 });
/** The title filter of the team lists: at most as long as a title. */
const titleFilterConstraints = constrained({ maxLength: 64 });
/** Members named in one call. */
const memberListConstraints = constrained({ maxItems: MAX_MEMBERS_PER_CALL });

/** Arguments of every teams list (root field and `Organization.teams`). */
export const teamListArgs = builder.args((t) => ({
  ...listArgs,
  owner: t.string({ description: 'Member ID: only teams this member can manage' }),
  title: t.string({ description: 'Case-insensitive part of the title', extensions: titleFilterConstraints }),
}));

const organizationPath = builder.args((t) => ({
  organizationId: t.string({ required: true, description: 'ID of the organization' }),
}));
const teamPath = builder.args((t) => ({
  ...organizationPath,
  teamId: t.string({ required: true, description: 'ID of the team' }),
}));
const userId = builder.args((t) => ({ userId: t.string({ required: true, description: 'ID of the user' }) }));

builder.queryFields((t) => ({
  organizationTeams: t.field({
    type: TeamList,
    description: 'Teams of an organization',
    args: { ...organizationPath, ...teamListArgs },
    resolve: (_root, { organizationId, ...filter }, ctx, info) => listTeams(ctx, organizationId, filter, listItemsQuery(ctx, info)),
  }),
  organizationTeam: t.field({
    type: TeamRef,
    description: 'One team of an organization',
    args: teamPath,
    resolve: (_root, args, ctx, info) => getTeam(ctx, args.organizationId, args.teamId, recordQuery(ctx, info)),
  }),
  organizationTeamMembers: t.field({
    type: TeamMembershipList,
    description: 'Members of a team',
    args: { ...teamPath, ...listArgs },
    resolve: (_root, { organizationId, teamId, ...args }, ctx, info) =>
      listTeamMembers(ctx, organizationId, teamId, args, listItemsQuery(ctx, info)),
  }),
  organizationMemberTeams: t.field({
    type: MemberTeamList,
    description: 'Teams a member belongs to',
    args: {
      ...organizationPath,
      ...userId,
      ...listArgs,
      title: t.arg.string({ description: 'Case-insensitive part of the team title', extensions: titleFilterConstraints }),
    },
    resolve: (_root, { organizationId, userId, ...filter }, ctx, info) =>
      listMemberTeams(ctx, organizationId, userId, filter, listItemsQuery(ctx, info)),
  }),
}));

builder.mutationFields((t) => ({
  createOrganizationTeam: t.field({
    type: TeamRef,
    description: 'Create a team (admins only)',
    args: {
      ...organizationPath,
      title: t.arg.string({ required: true, description: 'Title (1..64)', extensions: titleConstraints }),
      members: t.arg.stringList({ description: 'IDs of organization members to put in the team', extensions: memberListConstraints }),
    },
    resolve: (_root, { organizationId, ...input }, ctx) => createTeam(ctx, organizationId, input),
  }),
  updateOrganizationTeam: t.field({
    type: TeamRef,
    description: 'Rename a team (admins only)',
    args: {
      ...teamPath,
      title: t.arg.string({ required: true, description: 'Title (1..64)', extensions: titleConstraints }),
    },
    resolve: (_root, args, ctx) => renameTeam(ctx, args.organizationId, args.teamId, args.title),
  }),
  deleteOrganizationTeam: t.boolean({
    description: 'Delete a team (admins only)',
    args: teamPath,
    resolve: (_root, args, ctx) => deleteTeam(ctx, args.organizationId, args.teamId),
  }),
  updateOrganizationTeamMembers: t.boolean({
    description: 'Add and remove team members; a user in both add and remove is removed',
    args: {
      ...teamPath,
      add: t.arg.stringList({ description: 'User IDs or e-mail addresses of members to add', extensions: memberListConstraints }),
      remove: t.arg.stringList({ description: 'User IDs or e-mail addresses of members to remove', extensions: memberListConstraints }),
      memberships: t.arg({ type: 'JSON', description: 'Map of user ID or e-mail to { role: "owner" | "member" }' }),
    },
    resolve: (_root, { organizationId, teamId, ...change }, ctx) => updateTeamMembers(ctx, organizationId, teamId, change),
  }),
  addOrganizationTeamMember: t.boolean({
    description: "Add a member to a team, or update their team role",
    args: {
      ...teamPath,
      ...userId,
      role: t.arg({ type: TeamRoleEnum, description: 'owner or member (default member)' }),
    },
    resolve: (_root, args, ctx) => addTeamMember(ctx, args.organizationId, args.teamId, args.userId, args.role),
  }),
  removeOrganizationTeamMember: t.boolean({
    description: 'Remove a member from a team',
    args: { ...teamPath, ...userId },
    resolve: (_root, args, ctx) => removeTeamMember(ctx, args.organizationId, args.teamId, args.userId),
  }),
}));
