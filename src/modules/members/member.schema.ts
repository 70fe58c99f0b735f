import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { RoleEnum } from '../organizations/index.ts';
import { ROLES } from '../organizations/index.ts';
import { listArgs, listItemsQuery, listType, OrderEnum, recordQuery } from '../../graphql/list.ts';
import { restNull } from '../../graphql/rest-fields.ts';
import {
  getMember,
  getUserById,
  listMembers,
  pingOrganization,
  removeMember,
  setMemberSso,
  updateMemberRole,
} from './member.service.ts';
import { UserRef } from '../users/index.ts';

export const MemberRoleFilterEnum = builder.enumType('MemberRoleFilter', {
  description: 'A role, or guest for members without a role',
  values: [...ROLES, 'guest'] as const,
});

export const MemberSortEnum = builder.enumType('MemberSort', {
  description: 'joinedAt (default) or lastSeenAt (lists only members seen at least once)',
  values: ['joinedAt', 'lastSeenAt'] as const,
});

export const MemberRef = builder.prismaObject('Member', {
  description: 'Membership of a user in an organization',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['member'] }), resolve: () => 'member' }),
    id: t.exposeID('userId', { description: 'ID of the member: the ID of the user' }),
    role: t.expose('role', { type: RoleEnum, nullable: true, description: 'null for guests', extensions: restNull }),
    user: t.relation('user', { type: UserRef }),
    disabled: t.exposeBoolean('disabled'),
    joinedAt: t.expose('joinedAt', { type: 'DateTime' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', nullable: true }),
    sso: t.exposeBoolean('sso', { description: 'Whether the member signs in through SSO' }),
    spaces: t.relationCount('spaceGrants', { description: 'Number of spaces shared with the member' }),
    teams: t.relationCount('teams', { description: 'Number of teams the member belongs to' }),
  }),
});

export const MemberList = listType('Member', MemberRef);

/** Arguments of every members list (root field and `Organization.members`). */
export const memberListArgs = builder.args((t) => ({
  ...listArgs,
  order: t.field({ type: OrderEnum, description: 'Sort direction (default desc)', extensions: constrained({ default: 'desc' }) }),
  role: t.field({ type: MemberRoleFilterEnum, description: 'Only members with this role (guest: members without a role)' }),
  search: t.string({ description: 'Matches display name and e-mail (case-insensitive)', extensions: constrained({ maxLength: 512 }) }),
  sort: t.field({ type: MemberSortEnum, description: 'Sort field (default joinedAt)', extensions: constrained({ default: 'joinedAt' }) }),
}));

const memberPath = builder.args((t) => ({
  organizationId: t.string({ required: true, description: 'ID of the organization' }),
  userId: t.string({ required: true, description: 'ID of the user' }),
}));
const organizationPath = builder.args((t) => ({
  organizationId: t.string({ required: true, description: 'ID of the organization' }),
}));

builder.queryFields((t) => ({
  userById: t.field({
    type: UserRef,
    description: 'A user: the caller, or a user of an organization whose members the caller may list (GitBook\'s getUserById)',
    args: { userId: t.arg.string({ required: true, description: 'ID of the user', extensions: constrained({ minLength: 1, maxLength: 64 }) }) },
    resolve: (_root, args, ctx) => getUserById(ctx, args.userId),
  }),
  organizationMembers: t.field({
    type: MemberList,
    description: 'Members of an organization',
    args: { ...organizationPath, ...memberListArgs },
    resolve: (_root, { organizationId, ...filter }, ctx, info) => listMembers(ctx, organizationId, filter, listItemsQuery(ctx, info)),
  }),
  organizationMember: t.field({
    type: MemberRef,
    description: 'One member of an organization',
    args: memberPath,
    resolve: (_root, args, ctx, info) => getMember(ctx, args.organizationId, args.userId, recordQuery(ctx, info)),
  }),
}));

const PingResult = builder.simpleObject('OrganizationPingResult', {
  fields: (t) => ({ serviceVisitorClaims: t.string({ description: 'Signed JWT of the member claims' }) }),
});

builder.mutationFields((t) => ({
  updateOrganizationMember: t.field({
    type: MemberRef,
    description: "Change a member's role (admins only); null makes the member a guest",
    args: { ...memberPath, role: t.arg({ type: RoleEnum, description: 'New role, or null for guest' }) },
    resolve: (_root, args, ctx) => updateMemberRole(ctx, args.organizationId, args.userId, args.role),
  }),
  removeOrganizationMember: t.boolean({
    description: 'Remove a member from the organization (admins, or the member themselves)',
    args: memberPath,
    resolve: (_root, args, ctx) => removeMember(ctx, args.organizationId, args.userId),
  }),
  pingOrganization: t.field({
    type: PingResult,
    description: "Update the caller's last-seen time in the organization",
    args: organizationPath,
    resolve: (_root, args, ctx) => pingOrganization(ctx, args.organizationId),
  }),
  setOrganizationMemberSso: t.field({
    type: MemberRef,
    description: 'Mark a member as an SSO member (admins only)',
    args: memberPath,
    resolve: (_root, args, ctx) => setMemberSso(ctx, args.organizationId, args.userId),
  }),
}));
