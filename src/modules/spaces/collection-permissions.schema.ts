import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listItemsQuery } from '../../graphql/list.ts';
import { RoleEnum } from '../organizations/index.ts';
import { MAX_INVITEES_PER_CALL } from './content-grants.ts';
import {
  inviteToCollection,
  listCollectionPermissionsAggregate,
  listCollectionTeamPermissions,
  listCollectionUserPermissions,
  removeCollectionGrant,
  updateCollectionGrant,
} from './collection-permissions.service.ts';
import { AggregateContentPermissionList, inviteeList, TeamContentPermissionList, UserContentPermissionList } from './space-permissions.schema.ts';

const collectionPath = builder.args((t) => ({ collectionId: t.string({ required: true, description: 'ID of the collection' }) }));
const userPath = builder.args((t) => ({ ...collectionPath, userId: t.string({ required: true, description: 'ID of the user' }) }));
const teamPath = builder.args((t) => ({ ...collectionPath, teamId: t.string({ required: true, description: 'ID of the team' }) }));

builder.queryFields((t) => ({
  collectionUserPermissions: t.field({
    type: UserContentPermissionList,
    description: 'Users given a level on the collection (members with a role who can read it)',
    args: { ...collectionPath, ...listArgs },
    resolve: (_root, { collectionId, ...args }, ctx) => listCollectionUserPermissions(ctx, collectionId, args),
  }),
  collectionTeamPermissions: t.field({
    type: TeamContentPermissionList,
    description: 'Teams given a level on the collection (members with a role who can read it)',
    args: { ...collectionPath, ...listArgs },
    resolve: (_root, { collectionId, ...args }, ctx, info) =>
      listCollectionTeamPermissions(ctx, collectionId, args, listItemsQuery(ctx, info, ['items', 'team'])),
  }),
  collectionPermissionsAggregate: t.field({
    type: AggregateContentPermissionList,
    description: 'Everyone who can access the collection, with their effective level and its sources (members with a role who can read it)',
    args: {
      ...collectionPath,
      ...listArgs,
      role: t.arg({ type: RoleEnum, description: 'Only those whose effective level on the collection is this one' }),
    },
    resolve: (_root, { collectionId, ...args }, ctx) => listCollectionPermissionsAggregate(ctx, collectionId, args),
  }),
}));

builder.mutationFields((t) => ({
  inviteToCollection: t.boolean({
    description: 'Give members and teams of the organization a level on the collection and everything inside it (collection admins, up to their own level)',
    args: {
      ...collectionPath,
      role: t.arg({ type: RoleEnum, required: true, description: 'Level to give' }),
      users: t.arg.stringList({ description: 'IDs of members of the organization (guests included)', extensions: inviteeList }),
      teams: t.arg.stringList({ description: 'IDs of teams of the organization', extensions: inviteeList }),
      emails: t.arg.stringList({
        description:
          'Addition: e-mail addresses (at most 100). Members get the level at once; anyone else is invited to the organization as a guest, and gets the level on accepting',
        extensions: constrained({ maxItems: MAX_INVITEES_PER_CALL }),
      }),
    },
    resolve: (_root, { collectionId, ...input }, ctx) => inviteToCollection(ctx, collectionId, input),
  }),
  updateCollectionUserPermission: t.boolean({
    description: "Change a user's level on the collection (collection admins)",
    args: { ...userPath, role: t.arg({ type: RoleEnum, description: 'The new level' }) },
    resolve: (_root, { collectionId, userId, role }, ctx) => updateCollectionGrant(ctx, collectionId, { userId }, role),
  }),
  updateCollectionTeamPermission: t.boolean({
    description: "Change a team's level on the collection (collection admins)",
    args: { ...teamPath, role: t.arg({ type: RoleEnum, description: 'The new level' }) },
    resolve: (_root, { collectionId, teamId, role }, ctx) => updateCollectionGrant(ctx, collectionId, { teamId }, role),
  }),
  removeCollectionUser: t.boolean({
    description: "Remove a user's grant on the collection (collection admins): true when there was one",
    args: userPath,
    resolve: (_root, { collectionId, userId }, ctx) => removeCollectionGrant(ctx, collectionId, { userId }),
  }),
  removeCollectionTeam: t.boolean({
    description: "Remove a team's grant on the collection (collection admins): true when there was one",
    args: teamPath,
    resolve: (_root, { collectionId, teamId }, ctx) => removeCollectionGrant(ctx, collectionId, { teamId }),
  }),
}));
