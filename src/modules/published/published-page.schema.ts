import type { Context } from '../../core/context.ts';
import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { getPage, listPages, pageTreeShape, pageWithBodyShape, type PageSource } from '../content/index.ts';
import { admitVisitor, SiteNavigation, siteSpaceCustomizationOf, siteStructureOf } from '../sites/index.ts';
import { MAX_URL } from './published-lookup.ts';
import { SiteVisitorInput } from './published-lookup.schema.ts';
import { publishedView, type PublishedView } from './published-view.ts';

/**
 * One request per page of a published site (issue 24 §5): what a frontend needs to draw any page — the
 * URL lookup, the site's structure and customization, the variant's page tree and the page with its
 * document — in one GraphQL query (or `GET /published-page?url=`), without a token. It is a rendering of
 * the published view (published-view.ts), the same the reader's HTML draws: the same page for every URL.
 * Everything under it is read as the visitor the lookup let in (admitted on the context for the fields
 * beneath: sites/visitor-projection.ts), so it shows what the apiToken would.
 */

const withContent = (view: PublishedView) => (view.kind === 'redirect' ? null : view);

/** Where the view's variant reads its content: the space and revision the lookup resolved. */
const sourceOf = (view: NonNullable<ReturnType<typeof withContent>>): PageSource => ({
  space: { id: view.lookup.answer.space, organizationId: view.lookup.answer.organization },
  revisionId: view.lookup.answer.revision,
});

const PageViewRef = builder.objectRef<PublishedView>('PublishedPageView').implement({
  description: 'Everything a frontend needs to draw one page of a published site',
  fields: (t) => ({
    lookup: t.field({ type: 'JSON', description: 'What the URL shows (publishedContentByUrl), or where to go instead', resolve: (v) => v.lookup.answer }),
    customization: t.field({
      type: 'JSON',
      nullable: true,
      description: "The site's customization, with the variant's overrides",
      resolve: (v) => (v.kind !== 'redirect' ? siteSpaceCustomizationOf(v.lookup.site!, { customization: v.lookup.siteSpaceCustomization }) : null),
    }),
    structure: t.field({
      type: SiteNavigation,
      nullable: true,
      description: "The site's navigation as this visitor sees it",
      resolve: (v, _args, ctx, info) => (v.kind !== 'redirect' ? siteStructureOf(ctx, v.lookup.site!.id, info, ['structure'], v.lookup.reader) : null),
    }),
    pages: t.field({
      type: 'JSON',
      nullable: true,
      description: "The page tree of the variant's published revision",
      extensions: shaped(pageTreeShape),
      resolve: async (v, _args, ctx) => {
        const view = withContent(v);
        return view ? (await listPages(ctx, sourceOf(view))).pages : null;
      },
    }),
    page: t.field({
      type: 'JSON',
      nullable: true,
      description:
        "The page the URL shows, with its structured document: at its path (a group's first page), or the variant's first listed page at its root; null when there is none",
      extensions: shaped(pageWithBodyShape),
      resolve: (v, _args, ctx) => (v.kind === 'page' || v.kind === 'go-to' ? getPage(ctx, sourceOf(v), v.entry.id) : null),
    }),
  }),
});

builder.queryFields((t) => ({
  publishedPage: t.field({
    type: PageViewRef,
    description: 'One page of a published site with all a frontend draws (no access token needed): lookup, structure, customization, page tree, page',
    args: {
      url: t.arg.string({ required: true, description: 'The published URL', extensions: constrained({ maxLength: MAX_URL, format: 'uri' }) }),
      visitor: t.arg({ type: SiteVisitorInput, description: 'Who is visiting' }),
    },
    resolve: async (_root, args, ctx: Context) => {
      const view = await publishedView(ctx, { url: args.url, visitor: args.visitor });
      // The fields beneath answer as this visitor (sites/visitor-projection.ts).
      if (view.lookup.reader) admitVisitor(ctx, view.lookup.reader);
      return view;
    },
  }),
}));
