import * as cheerio from 'cheerio';
import { decodeUriPart } from '../../lib/uri.ts';
import type { FetchConfig, ImportConfig } from '../../config.ts';
import { addressRule, SafeFetchError, SafeFetcher, type FetchedResource } from '../../lib/safe-fetch.ts';
import { detectImage, type DetectedImage } from '../content/index.ts';
import { parseHtmlPage, type HtmlPage } from './html-page.ts';

/**
 * The website import's crawl: from the start page, breadth first, the links of each page's navigation
 * (sidebar, `<nav>`: GitBook-, Docusaurus- and MkDocs-made sites link most pages from there only) and
 * main content, and the pages of a `sitemap.xml` under the prefix, that stay on the same origin and
 * under the start's path prefix, until `maxPages` pages were
 * tried, the time budget is spent or the byte budget is; then the images of the pages it got. Every
 * request goes through the safe fetcher (src/lib/safe-fetch.ts). Pages are told apart by origin and
 * path (no query string, no fragment, no trailing slash, `index.html` dropped).
 */
export interface CrawledPage {
  /** The page's canonical URL (see `canonicalUrl`). */
  url: string;
  /** Its path below the crawl's prefix, as segments (`[]` for the prefix itself). */
  segments: string[];
  html: HtmlPage;
}

export interface CrawledImage {
  url: string;
  bytes: Uint8Array<ArrayBuffer>;
  image: DetectedImage;
}

export interface Crawl {
  pages: CrawledPage[];
  /** Canonical URLs that redirected to a page of `pages` → that page's canonical URL. */
  aliases: Map<string, string>;
  images: Map<string, CrawledImage>;
  /** Pages and images tried, fetched or not (`totalResources`). */
  tried: number;
}

/** Requests in flight at once. */
const PARALLEL = 4;
const HTML = ['text/html', 'application/xhtml+xml'];

export function canonicalUrl(url: URL): string {
  const path = url.pathname.replace(/\/index\.html?$/i, '/').replace(/\/+$/, '') || '/';
  return `${url.origin}${path}`;
}

/** The path prefix a crawl stays under: the start's directory when it names a file, else the start itself. */
function prefixOf(start: URL): string {
  const path = start.pathname;
  if (/\/[^/]+\.[a-z0-9]+$/i.test(path)) return path.slice(0, path.lastIndexOf('/')) || '/';
  return path.replace(/\/+$/, '') || '/';
}

function within(url: URL, origin: string, prefix: string): boolean {
  if (url.origin !== origin) return false;
  if (prefix === '/') return true;
  return url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
}

function segmentsOf(canonical: string, origin: string, prefix: string): string[] {
  const path = canonical.slice(origin.length);
  const below = prefix === '/' ? path : path.slice(prefix.length);
  return below
    .split('/')
    .filter(Boolean)
    .map(decodeUriPart);
}

/** Page addresses a sitemap lists, read at most this many. */
const MAX_SITEMAP_URLS = 10_000;

/** The pages `<prefix>/sitemap.xml` lists (sitemaps.org's `<loc>`), or none when there is no such file. */
async function sitemapUrls(take: (url: string, accept: string[]) => Promise<FetchedResource>, origin: string, prefix: string): Promise<URL[]> {
  let resource: FetchedResource;
  try {
    resource = await take(`${origin}${prefix === '/' ? '' : prefix}/sitemap.xml`, ['application/xml', 'text/xml']);
  } catch {
    return [];
  }
  const $ = cheerio.load(new TextDecoder().decode(resource.body), { xml: true });
  return $('url > loc')
    .toArray()
    .slice(0, MAX_SITEMAP_URLS)
    .flatMap((loc) => {
      try {
        return [new URL($(loc).text().trim())];
      } catch {
        return [];
      }
    });
}

/** Why the start page could not be imported; the import answers 400 with it. */
export class StartPageError extends Error {}

export async function crawlWebsite(startUrl: URL, fetchConfig: FetchConfig, limits: ImportConfig): Promise<Crawl> {
  const fetcher = new SafeFetcher({ ...fetchConfig, allowsAddress: addressRule(fetchConfig.allowPrivate) });
  const budget = AbortSignal.timeout(limits.timeoutMs);
  let bytesLeft = limits.maxBytes;
  const take = async (url: string, accept: string[]): Promise<FetchedResource> => {
    const resource = await fetcher.fetch(url, { signal: budget, accept });
    bytesLeft -= resource.body.byteLength;
    return resource;
  };
  const exhausted = () => budget.aborted || bytesLeft <= 0;
  try {
    const origin = startUrl.origin;
    const prefix = prefixOf(startUrl);
    const crawl: Crawl = { pages: [], aliases: new Map(), images: new Map(), tried: 0 };
    const seen = new Set<string>();
    const queue: string[] = [];
    const byFingerprint = new Map<string, string>();
    const keep = (resource: FetchedResource) => {
      const final = new URL(resource.url);
      const canonical = canonicalUrl(final);
      seen.add(canonical);
      const html = parseHtmlPage(new TextDecoder().decode(resource.body), final.href);
      // The same page at a second address (a site's root shows its first page): one page, links to
      // either address link it.
      const twin = byFingerprint.get(html.fingerprint);
      if (twin) {
        crawl.aliases.set(canonical, twin);
        return false;
      }
      byFingerprint.set(html.fingerprint, canonical);
      crawl.pages.push({ url: canonical, segments: segmentsOf(canonical, origin, prefix), html });
      // The site's navigation first (a sidebar lists the pages in their order), then the content's links.
      for (const link of [...html.navLinks, ...html.links]) {
        const url = new URL(link);
        if (!within(url, origin, prefix) || seen.has(canonicalUrl(url))) continue;
        seen.add(canonicalUrl(url));
        url.hash = '';
        url.search = '';
        queue.push(url.href);
      }
      return true;
    };

    seen.add(canonicalUrl(startUrl));
    crawl.tried = 1;
    try {
      keep(await take(startUrl.href, HTML));
    } catch (err) {
      throw new StartPageError(err instanceof SafeFetchError ? err.message : 'it could not be fetched');
    }
    // A sitemap under the prefix names pages nothing links to; missing or malformed, it is no matter.
    for (const url of await sitemapUrls(take, origin, prefix)) {
      const canonical = canonicalUrl(url);
      if (!within(url, origin, prefix) || seen.has(canonical)) continue;
      seen.add(canonical);
      queue.push(`${url.origin}${url.pathname}`);
    }
    while (queue.length && crawl.tried < limits.maxPages && !exhausted()) {
      const batch = queue.splice(0, Math.min(PARALLEL, limits.maxPages - crawl.tried));
      crawl.tried += batch.length;
      const results = await Promise.allSettled(batch.map((url) => take(url, HTML)));
      for (const [i, result] of results.entries()) {
        if (result.status === 'fulfilled') {
          // A redirect may leave the prefix (a page not brought in), or land on a page already taken (no
          // resource of its own: links to it link that page).
          const final = canonicalUrl(new URL(result.value.url));
          const requested = canonicalUrl(new URL(batch[i]));
          if (final !== requested) crawl.aliases.set(requested, final);
          if (crawl.pages.some((page) => page.url === final)) crawl.tried--;
          else if (within(new URL(result.value.url), origin, prefix) && !keep(result.value)) crawl.tried--;
        } else if (result.reason instanceof SafeFetchError && result.reason.code === 'UNSUPPORTED_TYPE') {
          // Not a page after all (a PDF, an image, a download): not a resource of the import.
          crawl.tried--;
        }
      }
    }
    // Pages found but not fetched for lack of time or bytes are resources the import did not bring in.
    crawl.tried = Math.min(limits.maxPages, crawl.tried + queue.length);

    const imageUrls = [...new Set(crawl.pages.flatMap((page) => page.html.images))];
    crawl.tried += imageUrls.length;
    for (let at = 0; at < imageUrls.length && !exhausted(); at += PARALLEL) {
      const batch = imageUrls.slice(at, at + PARALLEL);
      const results = await Promise.allSettled(batch.map((url) => take(url, ['image/'])));
      results.forEach((result, i) => {
        const image = result.status === 'fulfilled' ? detectImage(result.value.body) : null;
        if (image) crawl.images.set(batch[i], { url: batch[i], bytes: (result as PromiseFulfilledResult<FetchedResource>).value.body, image });
      });
    }
    return crawl;
  } finally {
    await fetcher.close();
  }
}
