import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { RevisionFileRef } from '../content/index.ts';
import { ChangeRequestRef } from './change-request.schema.ts';
import { updateChangeRequestContent } from './change-request-content.service.ts';
import { contentChangesSchema, MAX_CHANGES } from './content-changes.ts';

type ContentUpdate = Awaited<ReturnType<typeof updateChangeRequestContent>>;

/** A page a batch created or updated (GitBook's `ChangeRequestContentUpdatePageRef`): where to read it. */
const pageRef = {
  type: 'object',
  required: ['object', 'id', 'urls'],
  properties: {
    object: { type: 'string', enum: ['page'] },
    id: { type: 'string' },
    urls: { type: 'object', required: ['location'], properties: { location: { type: 'string', format: 'uri' } } },
  },
};

/** What updateChangeRequestContent answers per affected page (GitBook's `ChangeRequestContentUpdateChange`). */
const changesShape = shaped({
  type: 'array',
  items: {
    oneOf: [
      {
        type: 'object',
        required: ['object', 'page'],
        properties: { object: { type: 'string', enum: ['created_page'] }, page: pageRef, ref: { type: 'string', description: 'The `ref` of the insert_page change, when it had one' } },
      },
      { type: 'object', required: ['object', 'page'], properties: { object: { type: 'string', enum: ['updated_page'] }, page: pageRef } },
      { type: 'object', required: ['object', 'page'], properties: { object: { type: 'string', enum: ['deleted_page'] }, page: { type: 'string', description: 'ID of the deleted page' } } },
    ],
  },
});

const ChangeRequestContentUpdateRef = builder.objectRef<ContentUpdate>('ChangeRequestContentUpdate').implement({
  description: "What a batch of content changes did: the change request, each affected page, the files inserted (GitBook's ChangeRequestContentUpdate)",
  fields: (t) => ({
    changeRequest: t.field({ type: ChangeRequestRef, resolve: (u) => u.changeRequest }),
    changes: t.field({
      type: 'JSON',
      description: 'One entry per affected page, in order of first change: created_page (with its ref), updated_page, deleted_page',
      extensions: changesShape,
      resolve: (u) => u.changes,
    }),
    insertedFiles: t.field({ type: [RevisionFileRef], resolve: (u) => u.insertedFiles }),
  }),
});

builder.mutationFields((t) => ({
  updateChangeRequestContent: t.field({
    type: ChangeRequestContentUpdateRef,
    description:
      "Applies 1..50 page and file changes to a change request, in order and all or nothing, as one new revision (GitBook's updateChangeRequestContent). REST answers the change request unless `compat=false`",
    args: {
      spaceId: t.arg.string({ required: true, description: 'ID of the space' }),
      changeRequestId: t.arg.string({ required: true, description: 'ID or number of the change request' }),
      changes: t.arg({
        type: 'JSON',
        required: true,
        description: "GitBook's ChangeRequestContentChange objects, by `operation`: insert_page, update_page, delete_page, revert_page, insert_files",
        extensions: { ...constrained({ minItems: 1, maxItems: MAX_CHANGES }), ...shaped({ type: 'array', items: contentChangesSchema }) },
      }),
      compat: t.arg.boolean({ description: 'REST: true (default) answers the change request, false the ChangeRequestContentUpdate', extensions: constrained({ default: true }) }),
    },
    resolve: (_root, { spaceId, changeRequestId, changes }, ctx, info) =>
      updateChangeRequestContent(ctx, spaceId, changeRequestId, { changes }, queryFromInfo({ context: ctx, info, path: ['changeRequest'] }) as object),
  }),
}));
