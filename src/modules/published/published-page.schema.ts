import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { getPage, getPageByPath, listPages, pageTreeShape, pageWithBodyShape, revisionContent, revisionContentSource } from '../content/index.ts';
import { admitVisitor, lookupPublishedUrl, siteSpaceCustomizationOf, MAX_URL, SiteNavigation, siteStructureOf, SiteVisitorInput, type LookupResult } from '../sites/index.ts';

/**
 * One request per page of a published site (issue 24 §5): what a frontend needs to draw any page — the
 * URL lookup, the site's structure and customization, the variant's page tree and the page with its
 * document — in one GraphQL query (or `GET /published-page?url=`), without a token. Everything under
 * it is read as the visitor the lookup let in (a site reader), so it shows what the apiToken would.
 */
interface PageView extends LookupResult {
  /** The request's context as the site's reader (null: the lookup answered a redirect). */
  readerCtx: Context | null;
}

const content = (view: PageView) => (view.answer && 'space' in view.answer ? view.answer : null);

/** The page the URL names: by its path, or the first document page of the tree at the variant's root. */
async function pageOf(view: PageView) {
  const found = content(view);
  if (!found || !view.readerCtx) return null;
  const source = await revisionContentSource(view.readerCtx, found.space, found.revision);
  try {
    if (found.pathname) return await getPageByPath(view.readerCtx, source, found.pathname);
    const first = (await revisionContent(view.readerCtx.db, view.readerCtx.db, found.revision))?.pages.entries().find((page) => page.type === 'document' && !page.hidden);
    return first ? await getPage(view.readerCtx, source, first.id) : null;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

const PageViewRef = builder.objectRef<PageView>('PublishedPageView').implement({
  description: 'Everything a frontend needs to draw one page of a published site',
  fields: (t) => ({
    lookup: t.field({ type: 'JSON', description: 'What the URL shows (publishedContentByUrl), or where to go instead', resolve: (v) => v.answer }),
    customization: t.field({ type: 'JSON', nullable: true, description: "The site's customization, with the variant's overrides", resolve: (v) => (v.site && content(v) ? siteSpaceCustomizationOf(v.site, { customization: v.siteSpaceCustomization }) : null) }),
    structure: t.field({ type: SiteNavigation, nullable: true, description: "The site's navigation as this visitor sees it", resolve: (v, _args, _ctx, info) => (v.readerCtx && v.site ? siteStructureOf(v.readerCtx, v.site.id, info) : null) }),
    pages: t.field({
      type: 'JSON',
      nullable: true,
      description: "The page tree of the variant's published revision",
      extensions: shaped(pageTreeShape),
      resolve: async (v) => {
        const found = content(v);
        if (!found || !v.readerCtx) return null;
        return (await listPages(v.readerCtx, await revisionContentSource(v.readerCtx, found.space, found.revision, true))).pages;
      },
    }),
    page: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The page at the URL (or the first page at the root), with its structured document; null when there is none',
      extensions: shaped(pageWithBodyShape),
      resolve: (v) => pageOf(v),
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
    resolve: async (_root, args, ctx) => {
      const result = await lookupPublishedUrl(ctx, { url: args.url, visitor: args.visitor });
      // The fields beneath answer as this visitor (sites/visitor-projection.ts).
      if (result.reader) admitVisitor(ctx, result.reader);
      return { ...result, readerCtx: result.reader ? ({ ...ctx, siteReader: result.reader } as Context) : null };
    },
  }),
}));
