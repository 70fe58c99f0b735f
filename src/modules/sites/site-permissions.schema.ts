import type { Role, Team, User } from '../../generated/prisma/client.ts';
import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listType, OrderEnum } from '../../graphql/list.ts';
import { MemberRoleFilterEnum } from '../members/index.ts';
import { RoleEnum } from '../organizations/index.ts';
import { TeamRef } from '../teams/index.ts';
import { UserRef } from '../users/index.ts';
import { declareGrantFields } from '../spaces/index.ts';
import { siteGrants, type SitePath } from './site-permissions.service.ts';
import { listSitePermissionsAggregate, type SitePermission, type SitePermissionOrigin } from './site-permissions-aggregate.ts';

const UserSitePermissionOverride = builder.objectRef<{ permission: Role; user: User }>('UserSitePermissionOverride').implement({
  description: "A user's level on a site, given to them on the site",
  fields: (t) => ({
    permission: t.field({ type: RoleEnum, resolve: (p) => p.permission }),
    user: t.field({ type: UserRef, resolve: (p) => p.user }),
  }),
});

const TeamSitePermissionOverride = builder.objectRef<{ permission: Role; team: Team }>('TeamSitePermissionOverride').implement({
  description: "A team's level on a site",
  fields: (t) => ({
    permission: t.field({ type: RoleEnum, resolve: (p) => p.permission }),
    team: t.field({ type: TeamRef, resolve: (p) => p.team }),
  }),
});

const SitePermissionOriginRef = builder.objectRef<SitePermissionOrigin>('UserSitePermissionOrigin').implement({
  description: 'Where an effective level on a site comes from: the organization (its admins) or the site itself',
  fields: (t) => ({
    type: t.string({ extensions: constrained({ enum: ['organization', 'site'] }), resolve: (o) => o.type }),
    organization: t.string({ nullable: true, description: 'The organization (type organization)', resolve: (o) => (o.type === 'organization' ? o.organization : null) }),
    site: t.string({ nullable: true, description: 'The site (type site)', resolve: (o) => (o.type === 'site' ? o.site : null) }),
    reason: t.string({
      nullable: true,
      description: "Type site: member (the site's creator, or a grant to the user), team (a team's grant) or default (members with a role read)",
      extensions: constrained({ enum: ['member', 'team', 'default'] }),
      resolve: (o) => (o.type === 'site' ? o.reason : null),
    }),
    team: t.string({ nullable: true, description: 'The team whose grant it is (reason team)', resolve: (o) => (o.type === 'site' ? (o.team ?? null) : null) }),
  }),
});

const UserSitePermission = builder.objectRef<SitePermission>('UserSitePermission').implement({
  description: 'Someone who can access a site: their effective level and where it comes from',
  fields: (t) => ({
    permission: t.field({ type: RoleEnum, description: 'The effective level: the strongest of its sources', resolve: (p) => p.permission }),
    user: t.field({ type: UserRef, resolve: (p) => p.user }),
    origin: t.field({ type: SitePermissionOriginRef, resolve: (p) => p.origin }),
    disabled: t.boolean({ description: 'Whether the member is disabled (never: disabled members have no access)', resolve: (p) => p.disabled }),
    lastSeenAt: t.field({ type: 'DateTime', nullable: true, description: 'When the member was last seen', resolve: (p) => p.lastSeenAt }),
  }),
});

export const SitePermissionSortEnum = builder.enumType('SitePermissionSort', {
  description: 'joinedAt (default), lastSeenAt (lists only members seen at least once) or name',
  values: ['joinedAt', 'lastSeenAt', 'name'] as const,
});

const UserSitePermissionOverrideList = listType('UserSitePermissionOverride', UserSitePermissionOverride);
const TeamSitePermissionOverrideList = listType('TeamSitePermissionOverride', TeamSitePermissionOverride);
const UserSitePermissionList = listType('UserSitePermission', UserSitePermission);

const sitePath = builder.args((t) => ({
  organizationId: t.string({ required: true, description: 'ID of the organization' }),
  siteId: t.string({ required: true, description: 'ID of the site' }),
}));
declareGrantFields<SitePath>({
  noun: 'site',
  pathArgs: sitePath,
  pathOf: (args) => ({ organizationId: args.organizationId as string, siteId: args.siteId as string }),
  screens: siteGrants,
  userList: UserSitePermissionOverrideList,
  teamList: TeamSitePermissionOverrideList,
  listedBy: 'members with a role who can read it, and its admins',
  grantedBy: 'its admins',
});

builder.queryFields((t) => ({
  sitePermissionsAggregate: t.field({
    type: UserSitePermissionList,
    description: 'Everyone who can access the site, with their effective level and its origin (members with a role who can read it, and its admins)',
    args: {
      ...sitePath,
      ...listArgs,
      order: t.arg({ type: OrderEnum, description: 'Sort direction (default desc)', extensions: constrained({ default: 'desc' }) }),
      role: t.arg({ type: MemberRoleFilterEnum, description: 'Only those whose effective level on the site is this one (guest: the guests among them)' }),
      search: t.arg.string({ description: 'Matches display name and e-mail (case-insensitive)', extensions: constrained({ maxLength: 512 }) }),
      sort: t.arg({ type: SitePermissionSortEnum, description: 'Sort field (default joinedAt)', extensions: constrained({ default: 'joinedAt' }) }),
      team: t.arg.string({ description: "Only the members of this team" }),
    },
    resolve: (_root, { organizationId, siteId, ...args }, ctx) => listSitePermissionsAggregate(ctx, organizationId, siteId, args),
  }),
}));
