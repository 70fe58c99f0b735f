import type { PagePathRedirect, SiteRedirect } from '../../generated/prisma/client.ts';
import type { Services } from '../../core/context.ts';
import { destinationPage, destinationUrl, matchRedirect, redirectFacts, sourceCandidates, type SiteLayout } from '../sites/index.ts';

/**
 * Redirects of the URL lookup (published-lookup.ts), as GitBook's renderer applies them to a page not
 * found: a URL whose path is no page of the variant it reaches follows the site's redirect rule for its
 * path (relative to the site, section and variant paths included: GitBook's source paths), else, when
 * the variant's space moved or renamed the page that was there, goes to that page's path now
 * (`PagePathRedirect`, recorded by the writers of the space's content). The rules and former paths
 * the URL may match are read with the site, in the lookup's first statement; only when one matches,
 * one more statement asks the content whether the path is a page (for a rule: content wins; a former
 * path is never a page's, its writer removed it) and where the destination page is now.
 */

/** The live rules a URL's path (as written, relative to the site) may match: read with the site. */
export const siteRedirectsQuery = (rawSegments: string[]) => ({ where: { draft: false, source: { in: sourceCandidates(`/${rawSegments.join('/')}`) } } });

/** The former paths a URL's page path may be, whichever section and variant paths it starts with. */
export const formerPathsQuery = (segments: string[]) => ({
  where: { path: { in: [0, 1, 2].map((skip) => segments.slice(skip).join('/')).filter((path) => path.length > 0 && path.length <= 2048) } },
  select: { path: true, pageId: true },
});

export type ContentRedirect = { target: 'content'; redirect: string } | { target: 'external'; site: string; redirect: string };

export async function publishedRedirect(
  services: Services,
  input: {
    site: SiteLayout & { id: string; redirects: SiteRedirect[] };
    siteSpace: { space: { revisionId: string | null; pathRedirects: Pick<PagePathRedirect, 'path' | 'pageId'>[] } };
    /** The path relative to the site as written in the URL (`/a/b`), and the page path in the variant. */
    source: string;
    pathname: string;
    /** The site's and the variant's URLs (ending with `/`), and the query carried to the site's own URLs. */
    siteUrl: string;
    variantUrl: string;
    query: string;
  },
): Promise<ContentRedirect | null> {
  const { site, siteSpace, pathname } = input;
  const revisionId = siteSpace.space.revisionId;
  // The variant's root is always content.
  if (!pathname || !revisionId) return null;
  const matched = matchRedirect(site.redirects, input.source);
  const former = siteSpace.space.pathRedirects.find((r) => r.path === pathname);
  if (!matched && !former) return null;
  const page = matched ? destinationPage(site, matched.rule) : { revisionId, pageId: former!.pageId };
  const facts = await redirectFacts(services.db, matched ? { revisionId, path: pathname } : null, page);
  if (matched) {
    if (facts.occupied) return null;
    const url = destinationUrl(input.siteUrl, site, matched.rule, facts.targetPath, matched.suffix, input.query);
    if (!url) return null;
    return matched.rule.kind === 'external' ? { target: 'external', site: site.id, redirect: url } : { target: 'content', redirect: url };
  }
  if (!facts.targetPath) return null;
  return { target: 'content', redirect: `${input.variantUrl}${facts.targetPath.split('/').map(encodeURIComponent).join('/')}${input.query}` };
}
