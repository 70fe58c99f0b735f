import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import type { Context } from '../../core/context.ts';
import { RevisionFileRef } from './content.schema.ts';
import { documentShape, pageLayoutShape } from './content-shapes.ts';
import { documentLoader, pageTreeLoader, revisionFilesLoader, revisionLoader, type RevisionKey } from './content.loaders.ts';
import { documentBudget } from './markdown/document-budget.ts';
import { markdownToDocument } from './markdown/markdown-document.ts';
import { hasOwnPage, PAGE_KIND, pageAppUrl, pageLayout } from './page-json.ts';
import type { PageNode } from './store/page-tree.ts';

/**
 * A revision as a graph (GraphQL only, on `Space.content` and `ChangeRequest.content`): its pages are
 * typed objects with their children under `pages`, selected to the depth the caller needs, and each
 * part is read only when selected, through the loaders of content.loaders.ts. The root fields
 * (`spaceContent`, …) keep the tree as one JSON value, the shape REST needs (src/rest/README.md).
 */

export const PageTypeEnum = builder.enumType('PageType', {
  description: 'document: a page with a body; group: a heading for its child pages; link: a link in the table of contents; computed: generated content',
  values: ['document', 'group', 'link', 'computed'] as const,
});

export const RevisionTypeEnum = builder.enumType('RevisionType', {
  description: 'How the revision was made',
  values: ['edits', 'merge', 'rollback', 'update', 'computed'] as const,
});

const ContentPageUrls = builder.simpleObject('ContentPageUrls', {
  fields: (t) => ({ app: t.string({ description: 'The page in the application', extensions: constrained({ format: 'uri' }) }) }),
});

/** The markdown of a document page (groups and links have no body, whatever their row holds). */
function markdownOf(ctx: Context, node: PageNode): Promise<string | null> | null {
  if (node.page.type !== 'document' || !node.page.documentHash) return null;
  return documentLoader(ctx).load(node.page.documentHash);
}

export const ContentPageRef = builder.objectRef<PageNode>('ContentPage');

ContentPageRef.implement({
  description: 'A page of a revision, with its child pages (in order) under `pages`',
  fields: (t) => ({
    id: t.string({ resolve: (n) => n.page.id }),
    title: t.string({ resolve: (n) => n.page.title }),
    kind: t.string({ description: "GitBook's deprecated kind: sheet (documents), group or link", resolve: (n) => PAGE_KIND[n.page.type] }),
    type: t.field({ type: PageTypeEnum, resolve: (n) => n.page.type }),
    slug: t.string({ resolve: (n) => n.page.slug }),
    path: t.string({ description: 'Slugs from the top level, joined by /', resolve: (n) => n.page.path }),
    emoji: t.string({ nullable: true, resolve: (n) => n.page.emoji || null }),
    icon: t.string({ nullable: true, description: 'An icon name, shown beside the title', resolve: (n) => n.page.icon || null }),
    description: t.string({ nullable: true, resolve: (n) => n.page.description || null }),
    hidden: t.boolean({ description: 'Left out of the table of contents', resolve: (n) => n.page.hidden }),
    noIndex: t.boolean({ nullable: true, description: 'Left out of search (set only when true)', resolve: (n) => n.page.noIndex || null }),
    noRobotsIndex: t.boolean({ nullable: true, description: 'Left out of search engines (set only when true)', resolve: (n) => n.page.noRobotsIndex || null }),
    cover: t.field({
      type: 'JSON',
      nullable: true,
      description: "Document pages only: GitBook's RevisionPageDocumentCover (the image above the page)",
      resolve: (n) => (hasOwnPage(n.page) ? (n.page.cover ?? null) : null),
    }),
    documentId: t.string({
      nullable: true,
      description: "Document pages with a body: the ID of that body (GitBook's RevisionPageDocument.documentId, for getDocumentById)",
      resolve: (n) => (n.page.type === 'document' && n.page.documentHash ? n.page.documentHash : null),
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (n) => n.page.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (n) => n.page.updatedAt }),
    urls: t.field({
      type: ContentPageUrls,
      nullable: true,
      description: 'Document pages only: groups and links are not pages of their own',
      resolve: (n, _args, ctx) => (hasOwnPage(n.page) ? { app: pageAppUrl(n, ctx.config.appUrl) } : null),
    }),
    layout: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Document pages only: what the page shows (cover, outline, …)',
      extensions: shaped(pageLayoutShape),
      resolve: (n) => (hasOwnPage(n.page) ? pageLayout(n.page) : null),
    }),
    pages: t.field({
      type: [ContentPageRef],
      description: 'Child pages, in order',
      // Levels of one tree: the list-item limit counts each nested level once (graphql/limits.ts).
      extensions: { listTree: true },
      resolve: (n) => n.pages,
    }),
    markdown: t.string({
      nullable: true,
      description: 'The body as markdown (document pages only); bodies of all selected pages are read in one statement',
      resolve: (n, _args, ctx) => markdownOf(ctx, n),
    }),
    document: t.field({
      type: 'JSON',
      nullable: true,
      description: "The body as GitBook's structured document (document pages only)",
      extensions: shaped(documentShape),
      resolve: async (n, _args, ctx) => {
        const markdown = await markdownOf(ctx, n);
        return markdown === null ? null : markdownToDocument(markdown, documentBudget(ctx));
      },
    }),
  }),
});

async function revisionRow(ctx: Context, key: RevisionKey) {
  const revision = await revisionLoader(ctx).load(key.revisionId);
  // Spaces and change requests reference their revisions with foreign keys: it cannot be missing.
  if (!revision) throw new Error(`Revision "${key.revisionId}" is missing`);
  return revision;
}

export const RevisionContentRef = builder.objectRef<RevisionKey>('RevisionContent');

RevisionContentRef.implement({
  description:
    "A revision of a space's content as a graph: its pages (typed, to any depth selected) and its files. Each part is read when selected, batched over every revision and page of the operation",
  fields: (t) => ({
    id: t.string({ resolve: (r) => r.revisionId }),
    parents: t.stringList({
      description: 'The revisions it was made from (a merge has two)',
      resolve: async (r, _args, ctx) => (await revisionRow(ctx, r)).parents,
    }),
    type: t.field({ type: RevisionTypeEnum, resolve: async (r, _args, ctx) => (await revisionRow(ctx, r)).type }),
    createdAt: t.field({ type: 'DateTime', resolve: async (r, _args, ctx) => (await revisionRow(ctx, r)).createdAt }),
    pages: t.field({
      type: [ContentPageRef],
      description: 'The top-level pages, in order; each has its children under `pages`',
      extensions: { listTree: true },
      resolve: async (r, _args, ctx) => (await pageTreeLoader(ctx).load(r)).pages,
    }),
    page: t.field({
      type: ContentPageRef,
      nullable: true,
      description: 'A page of the revision at any depth, by ID; null when the revision has none',
      args: { id: t.arg.string({ required: true, description: 'ID of the page' }) },
      resolve: async (r, args, ctx) => (await pageTreeLoader(ctx).load(r)).byId.get(args.id) ?? null,
    }),
    files: t.field({
      type: [RevisionFileRef],
      description: 'Files of the revision, by name',
      resolve: (r, _args, ctx) => revisionFilesLoader(ctx).load(r.revisionId),
    }),
  }),
});
