import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listItemsQuery, listType, recordQuery } from '../../graphql/list.ts';
import { UserRef } from '../users/index.ts';
import {
  CHANGE_REQUEST_ORDERS,
  createChangeRequest,
  getChangeRequest,
  listChangeRequests,
  listOrganizationChangeRequests,
  MAX_SUBJECT,
  MAX_USER_ID,
  SETTABLE,
  updateChangeRequest,
} from './change-request.service.ts';

export const ChangeRequestStatusEnum = builder.enumType('ChangeRequestStatus', {
  description: 'draft, open, merged or archived',
  values: ['draft', 'open', 'merged', 'archived'] as const,
});

const ChangeRequestOrderByEnum = builder.enumType('ChangeRequestOrderBy', {
  description: "The field change requests are listed by, newest first (GitBook's ChangeRequestOrderBy)",
  values: CHANGE_REQUEST_ORDERS,
});
const userIdFilter = constrained({ minLength: 1, maxLength: MAX_USER_ID });
const idFilter = constrained({ minLength: 1, maxLength: 64 });

const ChangeRequestUrls = builder.simpleObject('ChangeRequestUrls', {
  fields: (t) => ({
    app: t.string({ description: 'The change request in the application', extensions: constrained({ format: 'uri' }) }),
    location: t.string({ description: 'The change request in the API', extensions: constrained({ format: 'uri' }) }),
  }),
});

export const ChangeRequestRef = builder.prismaObject('ChangeRequest', {
  description: "A proposed change to a space's content: its own revision, merged into the space when ready",
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['change-request'] }), resolve: () => 'change-request' }),
    id: t.exposeID('id'),
    number: t.exposeInt('number', { description: 'Its number in the space: 1, 2, … never reused' }),
    status: t.expose('status', { type: ChangeRequestStatusEnum }),
    subject: t.exposeString('subject'),
    createdBy: t.relation('createdBy', { type: UserRef, nullable: true, description: 'NULL once the author is deleted' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    mergedAt: t.expose('mergedAt', { type: 'DateTime', nullable: true }),
    mergedBy: t.relation('mergedBy', { type: UserRef, nullable: true, description: 'Who merged it (merged change requests only)' }),
    space: t.string({ resolve: (cr) => cr.spaceId }),
    revision: t.string({ description: 'Its current revision', resolve: (cr) => cr.revisionId }),
    revisionInitial: t.string({ description: 'The space revision it started from', resolve: (cr) => cr.revisionInitialId }),
    revisionMergedAncestor: t.string({
      nullable: true,
      description: 'The space revision last pulled in (POST …/update)',
      resolve: (cr) => cr.revisionMergedAncestorId,
    }),
    revisionMerged: t.string({ nullable: true, description: 'The space revision its merge made', resolve: (cr) => cr.revisionMergedId }),
    comments: t.relationCount('comments', { where: { parentId: null }, description: 'Comments on it (not counting replies)' }),
    outdated: t.boolean({
      description: 'The space moved on since it started or last pulled the space in',
      // The space is in the request's loaders: the access check read it.
      resolve: async (cr, _args, ctx) => {
        if (cr.status === 'merged') return false;
        const space = await ctx.loaders.space.load(cr.spaceId);
        return (cr.revisionMergedAncestorId ?? cr.revisionInitialId) !== space?.revisionId;
      },
    }),
    urls: t.field({
      type: ChangeRequestUrls,
      resolve: (cr, _args, ctx) => ({
        app: `${ctx.config.appUrl}/s/${cr.spaceId}/~/changes/${cr.number}/`,
        location: `${ctx.config.apiUrl}/spaces/${cr.spaceId}/change-requests/${cr.id}`,
      }),
    }),
  }),
});

const ChangeRequestList = listType('ChangeRequest', ChangeRequestRef);

const spaceArg = builder.args((t) => ({ spaceId: t.string({ required: true, description: 'ID of the space' }) }));
/** The path of one change request: its space and its ID or number (both doors, every operation on it). */
export const changeRequestArgs = builder.args((t) => ({
  spaceId: t.string({ required: true, description: 'ID of the space' }),
  changeRequestId: t.string({ required: true, description: 'ID or number of the change request' }),
}));

builder.queryFields((t) => ({
  spaceChangeRequests: t.field({
    type: ChangeRequestList,
    description: 'Change requests of a space, most recently updated (or created) first',
    args: {
      ...spaceArg,
      ...listArgs,
      status: t.arg({ type: ChangeRequestStatusEnum, description: 'Default: open', extensions: constrained({ default: 'open' }) }),
      creator: t.arg.string({ description: 'Only those opened by this user' }),
      contributor: t.arg.string({ description: 'Only those this user wrote in: opened, changed the content of, or updated from main' }),
      requestedReviewer: t.arg.string({ description: 'Only those this user is asked to review (an open review request)', extensions: userIdFilter }),
      topic: t.arg.string({ description: 'Only those linked to this site topic (this server has none: no change request is)', extensions: idFilter }),
      orderBy: t.arg({
        type: ChangeRequestOrderByEnum,
        description: 'updatedAt (default) or createdAt, newest first',
        extensions: constrained({ default: 'updatedAt' }),
      }),
    },
    resolve: (_root, { spaceId, ...args }, ctx, info) => listChangeRequests(ctx, spaceId, args, listItemsQuery(ctx, info)),
  }),
  organizationChangeRequests: t.field({
    type: ChangeRequestList,
    description: 'Change requests of every space of an organization the caller can read, most recently updated (or created) first',
    args: {
      organizationId: t.arg.string({ required: true, description: 'ID of the organization' }),
      ...listArgs,
      status: t.arg({
        type: [ChangeRequestStatusEnum],
        description: 'Only those in one of these statuses (default: open)',
        extensions: constrained({ default: ['open'], maxItems: 4 }),
      }),
      creator: t.arg.string({ description: 'Only those opened by this user', extensions: userIdFilter }),
      contributor: t.arg.string({ description: 'Only those this user wrote in: opened, changed the content of, or updated from main', extensions: userIdFilter }),
      requestedReviewer: t.arg.string({ description: 'Only those this user is asked to review (an open review request)', extensions: userIdFilter }),
      space: t.arg.string({ description: 'Only those of this space', extensions: idFilter }),
      site: t.arg.string({ description: 'Only those of the spaces this site publishes', extensions: idFilter }),
      topic: t.arg.string({ description: 'Only those linked to this site topic (this server has none: no change request is)', extensions: idFilter }),
      styleguideRun: t.arg.string({ description: 'Only those opened by this style-guide run (this server runs none)', extensions: idFilter }),
      finding: t.arg.string({
        description: "none (default): without triage's change requests; all: with them (this server has no triage, so both list the same)",
        extensions: constrained({ enum: ['none', 'all'], default: 'none' }),
      }),
      orderBy: t.arg({
        type: ChangeRequestOrderByEnum,
        description: 'updatedAt (default) or createdAt, newest first',
        extensions: constrained({ default: 'updatedAt' }),
      }),
    },
    resolve: (_root, { organizationId, finding, ...args }, ctx, info) =>
      listOrganizationChangeRequests(ctx, organizationId, { ...args, finding: finding as 'none' | 'all' | null | undefined }, listItemsQuery(ctx, info)),
  }),
  spaceChangeRequest: t.field({
    type: ChangeRequestRef,
    description: 'A change request, by ID or by number',
    args: changeRequestArgs,
    resolve: (_root, args, ctx, info) => getChangeRequest(ctx, args.spaceId, args.changeRequestId, recordQuery(ctx, info)),
  }),
}));

builder.mutationFields((t) => ({
  createChangeRequest: t.field({
    type: ChangeRequestRef,
    description: 'Opens a change request (a draft) on the space’s current content',
    args: { ...spaceArg, subject: t.arg.string({ description: 'At most 100 characters', extensions: constrained({ maxLength: MAX_SUBJECT }) }) },
    resolve: (_root, { spaceId, subject }, ctx, info) => createChangeRequest(ctx, spaceId, { subject }, recordQuery(ctx, info)),
  }),
  updateChangeRequest: t.field({
    type: ChangeRequestRef,
    description: 'Changes the subject (edit level) or the status: draft, open, archived (its author or an editor)',
    args: {
      ...changeRequestArgs,
      subject: t.arg.string({ description: 'At most 100 characters', extensions: constrained({ maxLength: MAX_SUBJECT }) }),
      status: t.arg({
        type: ChangeRequestStatusEnum,
        description: 'draft, open or archived (merged and archived ones are not reopened)',
        extensions: constrained({ enum: SETTABLE }),
      }),
    },
    resolve: (_root, { spaceId, changeRequestId, ...input }, ctx, info) =>
      updateChangeRequest(ctx, spaceId, changeRequestId, input, recordQuery(ctx, info)),
  }),
}));
