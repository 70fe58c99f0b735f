import { builder } from '../../graphql/builder.ts';
import { listArgs } from '../../graphql/list.ts';
import { RoleEnum } from '../organizations/index.ts';
import { AggregateContentPermissionList, declareGrantFields, TeamContentPermissionList, UserContentPermissionList } from '../spaces/index.ts';
import { collectionGrants, listCollectionPermissionsAggregate } from './collection-permissions.service.ts';

const collectionPath = builder.args((t) => ({ collectionId: t.string({ required: true, description: 'ID of the collection' }) }));

declareGrantFields({
  noun: 'collection',
  pathArgs: collectionPath,
  pathOf: (args) => args.collectionId as string,
  screens: collectionGrants,
  userList: UserContentPermissionList,
  teamList: TeamContentPermissionList,
  listedBy: 'members with a role who can read it',
  grantedBy: 'collection admins',
  reach: ' and everything inside it',
});

builder.queryFields((t) => ({
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
