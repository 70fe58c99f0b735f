import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { RoleEnum } from '../organizations/index.ts';
import { listArgs, listItemsQuery, listType, OrderEnum } from '../../graphql/list.ts';
import { spacePermissions } from '../content-access/index.ts';
import { listMemberSpaces } from './member-spaces.ts';
import { mergeRulesOf, SUPPORTED_MERGE_RULES } from './merge-rules.ts';
import { deleteSpace, restoreSpace } from './space.lifecycle.ts';
import {
  createSpace,
  duplicateSpace,
  getSpace,
  listOrganizationSpaces,
  moveSpace,
  transferSpace,
  updateSpace,
} from './space.service.ts';
import { ContentVisibilityScalar, fromApiVisibility, toApiVisibility, type ContentVisibility } from './visibility.ts';

export const EditModeEnum = builder.enumType('EditMode', {
  description: 'live: members edit directly; locked: all edits are locked',
  values: ['live', 'locked'] as const,
});

const SpaceUrls = builder.simpleObject('SpaceUrls', {
  fields: (t) => ({
    location: t.string({ description: 'URL of the space in the API', extensions: constrained({ format: 'uri' }) }),
    app: t.string({ description: 'URL of the space in the application', extensions: constrained({ format: 'uri' }) }),
    published: t.string({ nullable: true, description: 'Published URL; only when visibility is not private', extensions: constrained({ format: 'uri' }) }),
    public: t.string({ nullable: true, description: 'Public URL; only when visibility is public', extensions: constrained({ format: 'uri' }) }),
    icon: t.string({ nullable: true, description: 'URL of the icon, when one is set', extensions: constrained({ format: 'uri' }) }),
  }),
});

const SpacePermissions = builder.simpleObject('SpacePermissions', {
  fields: (t) => ({
    view: t.boolean({ description: 'Can read the space content' }),
    access: t.boolean({ description: 'Can open the space itself (its admins also while it is deleted)' }),
    admin: t.boolean(),
    viewInviteLinks: t.boolean({ description: "Can see who has access and change it (the space's admins)" }),
    edit: t.boolean(),
    triggerGitSync: t.boolean({ description: 'Can sync the space with its Git repository (writes main, as a merge)' }),
    comment: t.boolean(),
    merge: t.boolean(),
    review: t.boolean(),
    installIntegration: t.boolean({ description: "Can install integrations on the space (its admins)" }),
  }),
});

/** GitBook's MergeRulesSpaceConfiguration, with the rules this API checks. */
const mergeRulesShape = shaped({
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string', enum: ['inherit', 'none', 'rules'] },
    rules: {
      type: 'array',
      items: { type: 'object', required: ['rule'], properties: { rule: { type: 'string', enum: [...SUPPORTED_MERGE_RULES] } } },
    },
  },
});

export const SpaceRef = builder.prismaObject('Space', {
  description: 'A space: a unit of documentation content, at the top level or in a collection',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['space'] }), resolve: () => 'space' }),
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    emoji: t.exposeString('emoji'),
    visibility: t.field({ type: ContentVisibilityScalar, resolve: (s) => toApiVisibility(s.visibility) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    deletedAt: t.expose('deletedAt', { type: 'DateTime', nullable: true, description: 'Set while the space is deleted' }),
    editMode: t.expose('editMode', { type: EditModeEnum }),
    mergeRules: t.field({
      type: 'JSON',
      description: 'What a change request needs before it is merged: { type: inherit (default) | none } or { type: rules, rules: [{ rule }] }',
      extensions: mergeRulesShape,
      resolve: (s) => mergeRulesOf(s.mergeRules),
    }),
    urls: t.field({
      type: SpaceUrls,
      resolve: (s, _args, ctx) => {
        const published = `${ctx.config.publicUrl}/s/${s.id}/`;
        return {
          location: `${ctx.config.apiUrl}/spaces/${s.id}`,
          app: `${ctx.config.appUrl}/s/${s.id}/`,
          published: s.visibility === 'private' ? null : published,
          public: s.visibility === 'public' ? published : null,
          icon: null,
        };
      },
    }),
    // Columns under another name are read with plain resolvers: an `expose` under a new name is a
    // field Pothos' Prisma plugin wraps (it checks per row what the list query loaded), for a column
    // every Space row holds anyway.
    organization: t.string({ description: 'ID of the owning organization', resolve: (s) => s.organizationId }),
    parent: t.string({ nullable: true, description: 'ID of the parent collection', resolve: (s) => s.collectionId }),
    revision: t.string({ description: 'ID of the active revision', resolve: (s) => s.revisionId ?? '' }),
    defaultLevel: t.expose('defaultLevel', { type: RoleEnum }),
    // Counter columns kept by triggers (migration space_counters): read with the row, never counted per row.
    comments: t.int({ description: 'Open comments', resolve: (s) => s.openCommentCount }),
    changeRequests: t.int({ description: 'All change requests', resolve: (s) => s.changeRequestCount }),
    changeRequestsOpen: t.int({ resolve: (s) => s.openChangeRequestCount }),
    changeRequestsDraft: t.int({ resolve: (s) => s.draftChangeRequestCount }),
    permissions: t.field({
      type: SpacePermissions,
      resolve: (s, _args, ctx) => spacePermissions(ctx, s),
    }),
  }),
});

export const SpaceList = listType('Space', SpaceRef);

const MemberSpace = builder.simpleObject('MemberSpace', {
  description: "A space a member can reach, with the member's effective level on it",
  fields: (t) => ({ permission: t.field({ type: RoleEnum }), space: t.field({ type: SpaceRef }) }),
});
const MemberSpaceList = listType('MemberSpace', MemberSpace);

const ContentPointerInput = builder.inputType('ContentPointerInput', {
  description: '{ type: "space", space } or { type: "collection", collection }',
  fields: (t) => ({
    type: t.string({ required: true, extensions: constrained({ enum: ['space', 'collection'] }) }),
    space: t.string(),
    collection: t.string(),
  }),
});
export const ContentPositionInput = builder.inputType('ContentPositionInput', {
  description: 'Where to put the item among its new siblings: before or after one of them',
  fields: (t) => ({ before: t.field({ type: ContentPointerInput }), after: t.field({ type: ContentPointerInput }) }),
});

const spacePath = builder.args((t) => ({ spaceId: t.string({ required: true, description: 'ID of the space' }) }));
const organizationPath = builder.args((t) => ({
  organizationId: t.string({ required: true, description: 'ID of the organization' }),
}));
const moveArgs = builder.args((t) => ({
  parent: t.string({ description: 'ID of the target collection, or null for the top level' }),
  position: t.field({ type: ContentPositionInput, description: 'Position among the siblings (default: the end)' }),
}));

builder.queryFields((t) => ({
  space: t.field({
    type: SpaceRef,
    description: 'A space (its admins also get it while deleted, with deletedAt)',
    args: {
      ...spacePath,
      shareKey: t.arg.string({ description: 'Share key of a share-link site, to resolve its published URLs' }),
    },
    resolve: (_root, args, ctx) => getSpace(ctx, args.spaceId),
  }),
  organizationSpaces: t.field({
    type: SpaceList,
    description: 'Spaces of an organization that the caller can access',
    args: { ...organizationPath, ...listArgs },
    resolve: (_root, { organizationId, ...args }, ctx, info) => listOrganizationSpaces(ctx, organizationId, args, listItemsQuery(ctx, info)),
  }),
  organizationMemberSpaces: t.field({
    type: MemberSpaceList,
    description: 'Spaces a member can reach, with their effective permission (admins, or the member)',
    args: {
      ...organizationPath,
      userId: t.arg.string({ required: true, description: 'ID of the member' }),
      ...listArgs,
      order: t.arg({ type: OrderEnum, description: 'Order by creation date (default desc)', extensions: constrained({ default: 'desc' }) }),
    },
    resolve: (_root, { organizationId, userId, ...args }, ctx, info) =>
      listMemberSpaces(ctx, organizationId, userId, args, listItemsQuery(ctx, info, ['items', 'space'])),
  }),
}));

builder.mutationFields((t) => ({
  createSpace: t.field({
    type: SpaceRef,
    description: 'Create a space at the top level or in a collection',
    args: {
      ...organizationPath,
      title: t.arg.string({ description: 'Title (max 50)', extensions: constrained({ maxLength: 50 }) }),
      emoji: t.arg.string({ description: 'Emoji character or code points (max 50)', extensions: constrained({ maxLength: 50 }) }),
      parent: t.arg.string({ description: 'ID of the parent collection' }),
      editMode: t.arg({ type: EditModeEnum, description: 'Edit mode (default live)', extensions: constrained({ default: 'live' }) }),
    },
    resolve: (_root, { organizationId, ...input }, ctx) => createSpace(ctx, organizationId, input),
  }),
  updateSpace: t.field({
    type: SpaceRef,
    description: 'Update a space: title, emoji, editMode (edit level); defaultLevel, visibility, mergeRules (admin level)',
    args: {
      ...spacePath,
      title: t.arg.string({ description: 'Title (max 50)', extensions: constrained({ maxLength: 50 }) }),
      emoji: t.arg.string({ description: 'Emoji (max 50); null removes it', extensions: constrained({ maxLength: 50 }) }),
      editMode: t.arg({ type: EditModeEnum, description: 'live or locked' }),
      defaultLevel: t.arg({ type: RoleEnum, description: 'Level every member gets at least' }),
      visibility: t.arg({ type: ContentVisibilityScalar, description: 'Who can access the space' }),
      mergeRules: t.arg({ type: 'JSON', description: 'What a change request needs before it is merged (admin level): GitBook\'s MergeRulesSpaceConfiguration' }),
    },
    resolve: (_root, { spaceId, visibility, ...input }, ctx) =>
      updateSpace(ctx, spaceId, { ...input, visibility: visibility ? fromApiVisibility(visibility as ContentVisibility) : visibility }),
  }),
  deleteSpace: t.boolean({
    description: 'Delete a space (restorable for 7 days, then removed for good)',
    args: spacePath,
    resolve: (_root, args, ctx) => deleteSpace(ctx, args.spaceId),
  }),
  duplicateSpace: t.field({
    type: SpaceRef,
    description: 'Copy a space (settings and current content), placed right after the original',
    args: spacePath,
    resolve: (_root, args, ctx) => duplicateSpace(ctx, args.spaceId),
  }),
  restoreSpace: t.field({
    type: SpaceRef,
    description: 'Restore a space deleted in the last 7 days',
    args: spacePath,
    resolve: (_root, args, ctx) => restoreSpace(ctx, args.spaceId),
  }),
  moveSpace: t.field({
    type: SpaceRef,
    description: 'Move a space to a collection or the top level, at a position',
    args: { ...spacePath, ...moveArgs },
    resolve: (_root, { spaceId, ...input }, ctx) => moveSpace(ctx, spaceId, input),
  }),
  transferSpace: t.field({
    type: SpaceRef,
    description: 'Move a space to another organization (and optionally into one of its collections)',
    args: {
      ...spacePath,
      organization: t.arg.string({ required: true, description: 'ID of the target organization' }),
      collection: t.arg.string({ description: 'ID of a collection of the target organization' }),
    },
    resolve: (_root, { spaceId, ...input }, ctx) => transferSpace(ctx, spaceId, input),
  }),
}));

