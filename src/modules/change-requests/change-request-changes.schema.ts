import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { MAX_SEMANTIC_CHANGES, RevisionSemanticChangesRef } from '../content/index.ts';
import { UserRef } from '../users/index.ts';
import { changeRequestArgs, ChangeRequestRef } from './change-request.schema.ts';
import { changeRequestChanges, changeRequestContributors, changeRequestDiff, MAX_DIFF_PAGES, type Contributor, type PageDiff } from './change-request-changes.service.ts';

// GitBook's RevisionSemanticChanges of a merge revision name the change request it merged.
builder.objectField(RevisionSemanticChangesRef, 'mergedFrom', (t) =>
  t.field({
    type: ChangeRequestRef,
    nullable: true,
    description: 'For the changes of a merge revision: the change request it merged',
    resolve: (changes, _args, ctx, info) =>
      ctx.db.changeRequest.findFirst({ where: { spaceId: changes.spaceId, revisionMergedId: changes.revisionId }, ...(queryFromInfo({ context: ctx, info }) as object) }),
  }),
);

const ContributorRef = builder.objectRef<Contributor>('ChangeRequestContributor');
ContributorRef.implement({
  description: "Someone who edited or commented on a change request (GitBook's ChangeRequestUserContributor)",
  fields: (t) => ({
    user: t.field({ type: UserRef, resolve: (c) => c.user }),
    actionType: t.string({ description: 'edit or comment', resolve: (c) => c.actionType }),
    count: t.int({ description: 'How many edits (content writes) or comments (replies included)', resolve: (c) => c.count }),
    updatedAt: t.field({ type: 'DateTime', description: 'When last', resolve: (c) => c.updatedAt }),
  }),
});
const ContributorListRef = builder.objectRef<{ items: Contributor[]; count: number }>('ChangeRequestContributorList');
ContributorListRef.implement({
  fields: (t) => ({
    items: t.field({ type: [ContributorRef], resolve: (list) => list.items }),
    count: t.int({ resolve: (list) => list.count }),
  }),
});

const ChangedPageRef = builder.objectRef<PageDiff['page']>('ChangedPage');
ChangedPageRef.implement({
  description: "A page a change names (GitBook's ChangedRevisionPage)",
  fields: (t) => ({
    id: t.exposeString('id'),
    type: t.exposeString('type'),
    title: t.exposeString('title'),
    path: t.exposeString('path'),
  }),
});
const PageDiffRef = builder.objectRef<PageDiff>('ChangeRequestPageDiff');
PageDiffRef.implement({
  description: "A page whose markdown a change request creates, changes or deletes, with the unified diff of it",
  fields: (t) => ({
    page: t.field({ type: ChangedPageRef, resolve: (d) => d.page }),
    change: t.string({ description: 'created, edited or deleted', resolve: (d) => d.change }),
    diff: t.string({ nullable: true, description: 'Unified diff of the markdown (a/<path>.md → b/<path>.md, 3 lines of context); null when too large to compute', resolve: (d) => d.diff }),
  }),
});
const DiffRef = builder.objectRef<{ pages: PageDiff[]; more: number }>('ChangeRequestDiff');
DiffRef.implement({
  description: "A change request's changes to pages' markdown, as unified diffs",
  fields: (t) => ({
    pages: t.field({ type: [PageDiffRef], resolve: (d) => d.pages }),
    more: t.int({ description: 'Pages left out past the limit', resolve: (d) => d.more }),
  }),
});

builder.queryFields((t) => ({
  changeRequestChanges: t.field({
    type: RevisionSemanticChangesRef,
    description: "What a change request changes from the revision it is based on (GitBook's getChangeRequestChanges)",
    args: {
      ...changeRequestArgs,
      limit: t.arg.int({ description: `At most this many changes (default 10, at most ${MAX_SEMANTIC_CHANGES})`, extensions: constrained({ minimum: 1, maximum: MAX_SEMANTIC_CHANGES, default: 10 }) }),
    },
    resolve: (_root, args, ctx) => changeRequestChanges(ctx, args.spaceId, args.changeRequestId, args.limit ?? 10),
  }),
  changeRequestContributors: t.field({
    type: ContributorListRef,
    description: "Who edited and who commented on a change request, most recent first (GitBook's getContributorsByChangeRequestId)",
    args: changeRequestArgs,
    resolve: (_root, args, ctx) => changeRequestContributors(ctx, args.spaceId, args.changeRequestId),
  }),
  changeRequestDiff: t.field({
    type: DiffRef,
    description: 'Each page whose markdown a change request creates, changes or deletes, with a unified diff of it (ours, beyond GitBook)',
    args: {
      ...changeRequestArgs,
      limit: t.arg.int({ description: `At most this many pages (default 20, at most ${MAX_DIFF_PAGES})`, extensions: constrained({ minimum: 1, maximum: MAX_DIFF_PAGES, default: 20 }) }),
    },
    resolve: (_root, args, ctx) => changeRequestDiff(ctx, args.spaceId, args.changeRequestId, args.limit ?? 20),
  }),
}));
