import { builder } from '../../graphql/builder.ts';
import { shaped } from '../../graphql/constraints.ts';
import { RevisionRef } from '../content/index.ts';
import { changeRequestArgs, ChangeRequestRef } from './change-request.schema.ts';
import { mergeChangeRequest, updateChangeRequestFromMain } from './change-request-merge.service.ts';

/** Conflicts of an update from main as three-way-merge.ts reports them (`MergeConflict`). */
const conflictsShape = shaped({
  type: 'array',
  items: {
    type: 'object',
    required: ['page', 'title', 'type'],
    properties: {
      page: { type: 'string', description: 'ID of the page' },
      title: { type: 'string' },
      type: {
        type: 'string',
        enum: ['content', 'deleted-in-change-request', 'deleted-on-main'],
        description: 'content: both sides changed the same lines (markers in the body until resolved); deleted-in-change-request / deleted-on-main: one side deleted a page the other edited, which was kept',
      },
    },
  },
});

const ChangeRequestMergeResultRef = builder
  .objectRef<{ revision: string; result: string; conflicts?: unknown }>('ChangeRequestMergeResult')
  .implement({
    description: 'The revision an update from main or a merge made, and how it went',
    fields: (t) => ({
      revision: t.exposeString('revision', { description: 'The new revision (of the change request for an update, of the space for a merge)' }),
      result: t.exposeString('result', { description: 'update or conflicts (POST …/update); merge (POST …/merge)' }),
      conflicts: t.field({
        type: 'JSON',
        nullable: true,
        description: 'Update only: pages both sides changed ({ page, title, type: content | deleted-in-change-request | deleted-on-main })',
        extensions: conflictsShape,
        resolve: (r) => r.conflicts ?? null,
      }),
    }),
  });

builder.mutationFields((t) => ({
  updateChangeRequestFromMain: t.field({
    type: ChangeRequestMergeResultRef,
    description:
      "Pulls what was merged into the space since the change request started (or last updated) into it, with a three-way merge (GitBook's updateChangeRequest)",
    args: changeRequestArgs,
    resolve: (_root, { spaceId, changeRequestId }, ctx) => updateChangeRequestFromMain(ctx, spaceId, changeRequestId),
  }),
  mergeChangeRequest: t.field({
    type: ChangeRequestMergeResultRef,
    description: "Merges the change request into the space: a new revision becomes the space's content (needs the review level)",
    args: changeRequestArgs,
    resolve: (_root, { spaceId, changeRequestId }, ctx) => mergeChangeRequest(ctx, spaceId, changeRequestId),
  }),
}));

builder.objectField(ChangeRequestRef, 'conflicts', (t) =>
  t.field({
    type: 'JSON',
    description: 'Conflicts the last update from main reported ({ page, title, type }); empty when there were none',
    extensions: conflictsShape,
    resolve: (cr) => cr.conflicts ?? [],
  }),
);

// GitBook's merge revisions name the change request they merged.
builder.objectField(RevisionRef, 'mergedFrom', (t) =>
  t.field({
    type: ChangeRequestRef,
    nullable: true,
    description: 'For a merge revision: the change request it merged',
    resolve: (r) => r.mergedFrom,
  }),
);
