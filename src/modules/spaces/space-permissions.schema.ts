import type { Role, Team, User } from '../../generated/prisma/client.ts';
import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listType } from '../../graphql/list.ts';
import { RoleEnum } from '../organizations/index.ts';
import { TeamRef } from '../teams/index.ts';
import { UserRef } from '../users/index.ts';
import { declareGrantFields } from './grant-fields.ts';
import { listSpacePermissionsAggregate, spaceGrants } from './space-permissions.service.ts';
import { PERMISSION_SOURCE_KINDS, type PermissionSource } from './permission-aggregate.ts';

export const UserContentPermission = builder.objectRef<{ permission: Role; user: User }>('UserContentPermission').implement({
  description: "A user's level on a space or collection",
  fields: (t) => ({
    permission: t.field({ type: RoleEnum, resolve: (p) => p.permission }),
    user: t.field({ type: UserRef, resolve: (p) => p.user }),
  }),
});

export const TeamContentPermission = builder.objectRef<{ permission: Role; team: Team }>('TeamContentPermission').implement({
  description: "A team's level on a space or collection",
  fields: (t) => ({
    permission: t.field({ type: RoleEnum, resolve: (p) => p.permission }),
    team: t.field({ type: TeamRef, resolve: (p) => p.team }),
  }),
});

const PermissionSourceRef = builder.objectRef<PermissionSource>('ContentPermissionSource').implement({
  description: 'One of the levels a member holds on a space or collection; their permission is the strongest of them',
  fields: (t) => ({
    kind: t.string({
      description:
        'organization-role, space-default, collection-default (members with a role), user-grant or team-grant (on the space), collection-user-grant or collection-team-grant (on the collection or an enclosing one)',
      extensions: constrained({ enum: [...PERMISSION_SOURCE_KINDS] }),
      resolve: (s) => s.kind,
    }),
    level: t.field({ type: RoleEnum, resolve: (s) => s.level }),
    id: t.string({
      nullable: true,
      description: 'The collection (collection-default, collection-user-grant, collection-team-grant) or team (team-grant) it comes from',
      resolve: (s) => s.id ?? null,
    }),
    teamId: t.string({ nullable: true, description: 'The team a collection-team-grant is to', resolve: (s) => s.teamId ?? null }),
  }),
});

export const AggregateContentPermission = builder
  .objectRef<{ permission: Role; user: User; sources: PermissionSource[] }>('AggregateContentPermission')
  .implement({
    description: 'Someone who can access a space or collection: their effective level and where it comes from',
    fields: (t) => ({
      permission: t.field({ type: RoleEnum, description: 'The effective level: the strongest of the sources', resolve: (p) => p.permission }),
      user: t.field({ type: UserRef, resolve: (p) => p.user }),
      sources: t.field({ type: [PermissionSourceRef], description: 'Addition: where the level comes from', resolve: (p) => p.sources }),
    }),
  });

export const UserContentPermissionList = listType('UserContentPermission', UserContentPermission);
export const TeamContentPermissionList = listType('TeamContentPermission', TeamContentPermission);
export const AggregateContentPermissionList = listType('AggregateContentPermission', AggregateContentPermission);

const spacePath = builder.args((t) => ({ spaceId: t.string({ required: true, description: 'ID of the space' }) }));

declareGrantFields({
  noun: 'space',
  pathArgs: spacePath,
  pathOf: (args) => args.spaceId as string,
  screens: spaceGrants,
  userList: UserContentPermissionList,
  teamList: TeamContentPermissionList,
  listedBy: 'members with a role who can read it',
  grantedBy: 'space admins',
});

builder.queryFields((t) => ({
  spacePermissionsAggregate: t.field({
    type: AggregateContentPermissionList,
    description: 'Everyone who can access the space, with their effective level and its sources (members with a role who can read it)',
    args: {
      ...spacePath,
      ...listArgs,
      role: t.arg({ type: RoleEnum, description: 'Only those whose effective level on the space is this one' }),
    },
    resolve: (_root, { spaceId, ...args }, ctx) => listSpacePermissionsAggregate(ctx, spaceId, args),
  }),
}));
