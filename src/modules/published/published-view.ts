import type { Services } from '../../core/context.ts';
import { revisionContents, type PageEntry, type RevisionContent } from '../content/index.ts';
import { variantPath } from '../sites/index.ts';
import { lookupPublishedUrl, type LookupResult, type VisitorInput, type VisitorNavigation } from './published-lookup.ts';
import { choosePage } from './page-choice.ts';

/**
 * What a published URL shows a visitor — the one answer every rendering of a published site draws:
 * the API's `publishedPage` (GraphQL and REST) and the reader's HTML, `.md` and search. The URL lookup
 * decides the site, section, variant and whether the visitor may see them (or where to go instead:
 * a site's redirect, a visitor-auth site's sign-in); the variant's page tree then decides the page
 * (page-choice.ts: a group goes to its first page, the root opens the first listed page).
 */

/** A lookup that found content (not a redirect), with what the visitor is shown of the site's navigation. */
export type ResolvedLookup = LookupResult & { answer: Extract<LookupResult['answer'], { space: string }>; navigation: VisitorNavigation };

export type PublishedView =
  /** Somewhere else: a redirect rule, a page's former path, or where a visitor-auth site signs in. */
  | { kind: 'redirect'; location: string; lookup: LookupResult }
  /** The site and variant are there for this visitor, but no page at this path (the site's own 404). */
  | { kind: 'no-page'; lookup: ResolvedLookup; content: RevisionContent | null; base: string }
  /** A group's path: its first page is where to go. */
  | { kind: 'go-to'; location: string; lookup: ResolvedLookup; content: RevisionContent; base: string; entry: PageEntry }
  | { kind: 'page'; lookup: ResolvedLookup; content: RevisionContent; base: string; entry: PageEntry };

/** The path of a page under its variant's base, each segment percent-encoded. */
export const encodePagePath = (path: string) => path.split('/').filter(Boolean).map(encodeURIComponent).join('/');

/**
 * The view of `url` for the visitor `visitor` brings (claims, a visitor-auth JWT; a share link's key in
 * the URL). A URL with no published content they may see is the lookup's error (404, or 400 for a URL
 * that is not one); `issueToken: false` when the caller reads as the visitor itself (the reader).
 */
export async function publishedView(services: Services, input: { url: string; visitor?: VisitorInput | null }, options: { issueToken?: boolean } = {}): Promise<PublishedView> {
  const found = await lookupPublishedUrl(services, input, options);
  const { answer } = found;
  if (!('space' in answer)) return { kind: 'redirect', location: answer.redirect, lookup: found };
  const lookup = found as ResolvedLookup;
  const { navigation } = lookup;
  const base = `${answer.siteBasePath}${variantPath(navigation.section, navigation.siteSpace)}`;
  // The variant's page tree: kept by the content cache (a revision never changes).
  const content = (await revisionContents(services.db, services.db, [answer.revision])).get(answer.revision) ?? null;
  if (!content) return { kind: 'no-page', lookup, content, base };
  const choice = choosePage(content, answer.pathname);
  if (choice.kind === 'none') return { kind: 'no-page', lookup, content, base };
  if (choice.kind === 'go-to') return { kind: 'go-to', location: `${base}${encodePagePath(choice.entry.path)}`, lookup, content, base, entry: choice.entry };
  return { kind: 'page', lookup, content, base, entry: choice.entry };
}
