import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { RoleEnum } from '../organizations/index.ts';
import { listArgs, listItemsQuery, listType } from '../../graphql/list.ts';
import { graphOnly } from '../../graphql/rest-fields.ts';
import { loadRelationPage } from '../../graphql/relation-page.ts';
import { collectionPermissions } from '../content-access/index.ts';
import { ContentPositionInput, SpaceList } from '../spaces/index.ts';
import {
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  listCollectionSpaces,
  moveCollection,
  SIBLING_ORDER,
  transferCollection,
  updateCollection,
} from './collection.service.ts';

const CollectionUrls = builder.simpleObject('CollectionUrls', {
  fields: (t) => ({
    location: t.string({ extensions: constrained({ format: 'uri' }) }),
    app: t.string({ extensions: constrained({ format: 'uri' }) }),
  }),
});
const CollectionPermissions = builder.simpleObject('CollectionPermissions', {
  fields: (t) => ({
    admin: t.boolean({ description: 'Can edit, move, transfer and delete the collection' }),
    create: t.boolean({ description: 'Can create content in the collection' }),
  }),
});

export const CollectionRef = builder.prismaObject('Collection', {
  description: 'A collection: groups spaces and other collections',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['collection'] }), resolve: () => 'collection' }),
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    organization: t.exposeString('organizationId', { description: 'ID of the owning organization' }),
    parent: t.exposeString('parentId', { nullable: true, description: 'ID of the parent collection' }),
    defaultLevel: t.expose('defaultLevel', { type: RoleEnum }),
    urls: t.field({
      type: CollectionUrls,
      resolve: (c, _args, ctx) => ({
        location: `${ctx.config.apiUrl}/collections/${c.id}`,
        app: `${ctx.config.appUrl}/o/${c.organizationId}/c/${c.id}/`,
      }),
    }),
    permissions: t.field({
      type: CollectionPermissions,
      resolve: (c, _args, ctx) => collectionPermissions(ctx, c),
    }),
    spaces: t.field({
      type: SpaceList,
      description: 'Spaces directly inside the collection, in order',
      args: listArgs,
      extensions: graphOnly,
      resolve: (c, args, ctx, info) =>
        loadRelationPage(
          ctx,
          { name: 'Collection.spaces', parentModel: 'collection', relation: 'spaces', keys: () => SIBLING_ORDER, where: () => ({ deletedAt: null }) },
          c.id,
          args,
          listItemsQuery(ctx, info),
        ),
    }),
  }),
});

export const CollectionList = listType('Collection', CollectionRef);

const collectionPath = builder.args((t) => ({
  collectionId: t.string({ required: true, description: 'ID of the collection' }),
}));
const organizationPath = builder.args((t) => ({
  organizationId: t.string({ required: true, description: 'ID of the organization' }),
}));

builder.queryFields((t) => ({
  organizationCollections: t.field({
    type: CollectionList,
    description: 'Collections of an organization, in order',
    args: {
      ...organizationPath,
      ...listArgs,
      nested: t.arg.boolean({ description: 'Include nested collections (default true); false: top level only', extensions: constrained({ default: true }) }),
    },
    resolve: (_root, { organizationId, ...args }, ctx) => listCollections(ctx, organizationId, args),
  }),
  collection: t.field({
    type: CollectionRef,
    description: 'A collection',
    args: collectionPath,
    resolve: (_root, args, ctx) => getCollection(ctx, args.collectionId),
  }),
  collectionSpaces: t.field({
    type: SpaceList,
    description: 'Spaces directly inside a collection, in order',
    args: { ...collectionPath, ...listArgs },
    resolve: (_root, { collectionId, ...args }, ctx, info) => listCollectionSpaces(ctx, collectionId, args, listItemsQuery(ctx, info)),
  }),
}));

builder.mutationFields((t) => ({
  createCollection: t.field({
    type: CollectionRef,
    description: 'Create a collection at the top level or inside another collection',
    args: {
      ...organizationPath,
      title: t.arg.string({ description: 'Title (max 50)', extensions: constrained({ maxLength: 50 }) }),
      parent: t.arg.string({ description: 'ID of the parent collection' }),
    },
    resolve: (_root, { organizationId, ...input }, ctx) => createCollection(ctx, organizationId, input),
  }),
  updateCollection: t.field({
    type: CollectionRef,
    description: 'Update a collection (admin level)',
    args: {
      ...collectionPath,
      title: t.arg.string({ description: 'Title (max 50)', extensions: constrained({ maxLength: 50 }) }),
      description: t.arg.string({ description: 'Description (max 100)', extensions: constrained({ maxLength: 100 }) }),
      defaultLevel: t.arg({ type: RoleEnum, description: 'Level every member gets at least, inherited by the content' }),
    },
    resolve: (_root, { collectionId, ...input }, ctx) => updateCollection(ctx, collectionId, input),
  }),
  deleteCollection: t.boolean({
    description: 'Delete a collection and everything in it',
    args: collectionPath,
    resolve: (_root, args, ctx) => deleteCollection(ctx, args.collectionId),
  }),
  moveCollection: t.field({
    type: CollectionRef,
    description: 'Move a collection under another collection or to the top level, at a position',
    args: {
      ...collectionPath,
      parent: t.arg.string({ description: 'ID of the target collection, or null for the top level' }),
      position: t.arg({ type: ContentPositionInput, description: 'Position among the siblings (default: the end)' }),
    },
    resolve: (_root, { collectionId, ...input }, ctx) => moveCollection(ctx, collectionId, input),
  }),
  transferCollection: t.field({
    type: CollectionRef,
    description: 'Move a collection, with everything in it, to another organization',
    args: { ...collectionPath, organization: t.arg.string({ required: true, description: 'ID of the target organization' }) },
    resolve: (_root, args, ctx) => transferCollection(ctx, args.collectionId, args.organization),
  }),
}));
