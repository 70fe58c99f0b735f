import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listType } from '../../graphql/list.ts';
import { SECTIONS_PER_PAGE, type PageResult, type SectionResult } from './search-results.ts';
import { PAGES_PER_SPACE, searchOrganization, searchSpace, type SpaceResult } from './search.service.ts';
import { MAX_QUERY_LENGTH } from './search-query.ts';

const SearchUrls = builder.simpleObject('SearchResultUrls', {
  fields: (t) => ({ app: t.string({ description: 'Where the result is in the application', extensions: constrained({ format: 'uri' }) }) }),
});

const SearchAncestor = builder.simpleObject('SearchPageAncestor', { fields: (t) => ({ title: t.string() }) });

const SearchSectionResultRef = builder.objectRef<SectionResult>('SearchSectionResult').implement({
  description: 'A section of a page that matched: the text under one heading, or the page\'s own text before its first heading',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The page ID, then `#` and the heading\'s anchor for a heading\'s section' }),
    title: t.exposeString('title', { description: 'The heading (the page title for the page\'s own section)' }),
    path: t.exposeString('path', { description: 'The page path, then `#` and the anchor for a heading\'s section' }),
    score: t.exposeFloat('score', { description: 'Relevance (higher is better, unbounded)' }),
    resultType: t.exposeString('resultType', { description: '`section`: its own text matched; `page`: only the page\'s title or description did' }),
    body: t.exposeString('body', { description: 'A short plain-text excerpt around the match' }),
    urls: t.field({ type: SearchUrls, resolve: (s) => s.urls }),
  }),
});

const SearchPageResultRef = builder.objectRef<PageResult>('SearchPageResult').implement({
  description: 'A page that matched, with its best sections (at most 3)',
  fields: (t) => ({
    id: t.exposeString('id'),
    title: t.exposeString('title'),
    description: t.exposeString('description', { description: 'The page description ("" when it has none)' }),
    path: t.exposeString('path'),
    score: t.exposeFloat('score', { description: 'Relevance: its best section\'s (higher is better, unbounded)' }),
    rank: t.exposeInt('rank', { description: 'One-based position among all results of the search, kept across pages of results' }),
    resultType: t.exposeString('resultType', { description: '`page`: its title or description matched; `section`: only its content did' }),
    sections: t.field({ type: [SearchSectionResultRef], extensions: { listSize: SECTIONS_PER_PAGE }, resolve: (p) => p.sections }),
    ancestors: t.field({ type: [SearchAncestor], description: 'Its parent pages, from the top level to its parent', resolve: (p) => p.ancestors }),
    urls: t.field({ type: SearchUrls, resolve: (p) => p.urls }),
  }),
});

const SearchSpaceResultRef = builder.objectRef<SpaceResult>('SearchSpaceResult').implement({
  description: `A space with matching pages: its best ${PAGES_PER_SPACE}, ranked`,
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Always `space`' }),
    id: t.exposeString('id'),
    title: t.exposeString('title'),
    score: t.exposeFloat('score', { description: 'Relevance: its best page\'s' }),
    pages: t.field({ type: [SearchPageResultRef], resolve: (s) => s.pages }),
  }),
});

const SearchPageResultList = listType('SearchPageResult', SearchPageResultRef);
export const SearchSpaceResultList = listType('SearchSpaceResult', SearchSpaceResultRef);

export const searchArgs = builder.args((t) => ({
  query: t.string({
    required: true,
    extensions: constrained({ minLength: 1, maxLength: MAX_QUERY_LENGTH }),
    description: `What to find (1..${MAX_QUERY_LENGTH} characters): words (all must match), "quoted phrases", -excluded words, or; the last word also matches as a prefix`,
  }),
  ...listArgs,
}));

builder.queryFields((t) => ({
  spaceSearch: t.field({
    type: SearchPageResultList,
    description: "Full-text search of a space's current content: matching pages, best first, each with its best sections",
    args: { spaceId: t.arg.string({ required: true, description: 'ID of the space' }), ...searchArgs },
    resolve: (_root, { spaceId, query, page, limit }, ctx) => searchSpace(ctx, spaceId, { query, page, limit }),
  }),
  organizationSearch: t.field({
    type: SearchSpaceResultList,
    description: 'Full-text search of the current content of every space of the organization the caller can read, grouped by space, best first',
    args: { organizationId: t.arg.string({ required: true, description: 'ID of the organization' }), ...searchArgs },
    resolve: (_root, { organizationId, query, page, limit }, ctx) => searchOrganization(ctx, organizationId, { query, page, limit }),
  }),
}));
