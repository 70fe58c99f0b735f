import { createHash } from 'node:crypto';
import type { AppServices } from '../../core/context.ts';
import { AppError, NotFoundError } from '../../core/errors.ts';
import type { HttpRoute, HttpRouteRequest } from '../../http/request-state.ts';
import { refusal } from '../../http/refusal.ts';
import { withLeadingTitle } from '../content/index.ts';
import { renderErrorPage } from './layout/error-page.tsx';
import { renderSitePage, THEME_BOOT_SCRIPT } from './layout/site-page.tsx';
import { ASSETS_PATH, readerAssets } from './reader-assets.ts';
import { readerPage, type ReaderAnswer, type SiteContext } from './reader-page.ts';
import { MAX_READER_QUERY, readerSearch } from './reader-search.ts';
import { SearchResults } from './search-results.tsx';
import { siteFile, SITE_FILES } from './site-files.ts';
import { negotiateEncoding, RenderedPages, type Encoding } from './rendered-pages.ts';
import { ifNoneMatch } from '../../http/conditional-requests.ts';

/**
 * Published sites as readers open them (issue 25): every page of a published site at its
 * `urls.published` — PUBLISHED_URL/<organization>/<basename or site ID>/<section>/<variant>/<page path>,
 * or the same path on the site's own hostname (request-classification.ts routes those hosts here) —
 * as server-rendered HTML, its markdown at `<page>.md`, the site's search, sitemap, robots.txt and
 * llms files, and the reader's stylesheet and script. What a URL shows and to whom is the URL lookup's
 * decision (sites/published-lookup.ts), the same as the API's.
 */

/** Shared caches keep public pages a minute and serve them stale while they revalidate for five. */
const SHARED_CACHE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=300';
/** Pages of a visitor with credentials or claims: only their browser keeps them, and asks again each time. */
const PRIVATE_CACHE = 'private, no-cache';
const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  // Links to other sites tell them the site's origin, not the page; a page may be framed by its own
  // site only (as its policy's `frame-ancestors 'self'` says to current browsers).
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'SAMEORIGIN',
  // Pages run only the reader's own script; images and links may point anywhere over https.
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' https: http: data:; style-src 'self' 'unsafe-inline'; script-src 'self' 'sha256-THEME_BOOT'; font-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'self'",
};

export function readerRoutes(services: AppServices): HttpRoute[] {
  const publishedBase = new URL(services.config.publishedUrl).pathname.replace(/\/+$/, '');
  const pages = new RenderedPages();
  const site = (params: Record<string, string>) => `${publishedBase}/${params.organizationId}/${params.siteName}`;
  const handle = (request: HttpRouteRequest, sitePath: string, rest: string) => answerOrFail(services, pages, request, sitePath, rest);
  const routes: HttpRoute[] = [
    {
      path: `${ASSETS_PATH}/{name}`,
      restOfPath: true,
      methods: ['GET', 'HEAD'],
      door: 'static',
      access: 'public',
      rateLimit: 'none',
      handle: ({ request, params }) => assetResponse(request, params.name),
    },
  ];
  // Sites under PUBLISHED_URL's path on this host; with no path there, they are reached by host only.
  if (publishedBase) {
    routes.push(
      { path: `${publishedBase}/{organizationId}/{siteName}`, methods: ['GET', 'HEAD'], door: 'published-site', access: 'public', rateLimit: 'pages', handle: (r) => handle(r, site(r.params), '') },
      { path: `${publishedBase}/{organizationId}/{siteName}/`, methods: ['GET', 'HEAD'], door: 'published-site', access: 'public', rateLimit: 'pages', handle: (r) => handle(r, site(r.params), '') },
      {
        path: `${publishedBase}/{organizationId}/{siteName}/{path}`,
        restOfPath: true,
        methods: ['GET', 'HEAD'],
        door: 'published-site',
        access: 'public',
        rateLimit: 'pages',
        handle: (r) => handle(r, site(r.params), r.params.path),
      },
    );
  }
  return routes;
}

/** The route a request on a site's own hostname takes (request-classification.ts). */
export function hostedSiteRoute(services: AppServices): HttpRoute {
  const pages = new RenderedPages();
  return {
    path: '/{path}',
    restOfPath: true,
    methods: ['GET', 'HEAD'],
    door: 'published-site',
    access: 'public',
    rateLimit: 'pages',
    handle: (request) => answerOrFail(services, pages, request, '/', request.url.pathname.slice(1)),
  };
}

function assetResponse(request: Request, encodedName: string): Response {
  const asset = readerAssets().byName.get(decodedOrNull(encodedName) ?? '');
  // The router renders it as every refusal of the `static` door (http/refusal.ts); a name that is not
  // even valid percent-encoding is no asset either.
  if (!asset) throw new NotFoundError('No such reader asset');
  const encoding = negotiateEncoding(request.headers.get('accept-encoding'));
  const body = encoding === 'br' && asset.br ? asset.br : encoding === 'gzip' && asset.gzip ? asset.gzip : asset.identity;
  const headers: Record<string, string> = {
    'Content-Type': asset.type,
    'Cache-Control': 'public, max-age=31536000, immutable',
    Vary: 'Accept-Encoding',
    'X-Content-Type-Options': 'nosniff',
  };
  if (body !== asset.identity) headers['Content-Encoding'] = encoding;
  return new Response(body as Uint8Array<ArrayBuffer>, { headers });
}

function decodedOrNull(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

/**
 * The URL as the reader's browser wrote it: behind a TLS-terminating proxy the server is reached over
 * http, and the proxy says so in `X-Forwarded-Proto` — trusted only when TRUST_PROXY says there is one.
 * Canonical links, sitemaps and the cookies' `Secure` flag follow it.
 */
function readerUrl(request: Request, url: URL, trustProxy: number): URL {
  if (trustProxy <= 0) return url;
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  if (proto !== 'https' || url.protocol === 'https:') return url;
  const forwarded = new URL(url);
  forwarded.protocol = 'https:';
  if (forwarded.port === '80') forwarded.port = '';
  return forwarded;
}

/**
 * A reader's answer; an unexpected failure is logged and answered with the reader's own error page (a
 * 500 in the reader's style, saying nothing of the cause) rather than the edge's bare one. Refusals the
 * edge knows (AppErrors: a malformed URL, a body too large) keep the router's handling.
 */
async function answerOrFail(services: AppServices, pages: RenderedPages, route: HttpRouteRequest, sitePath: string, rest: string): Promise<Response> {
  try {
    return await answer(services, pages, route, sitePath, rest);
  } catch (error) {
    if (error instanceof AppError) throw error;
    route.state.logger.error({ err: error }, 'published page failed');
    return errorResponse(500, null);
  }
}

async function answer(services: AppServices, pages: RenderedPages, route: HttpRouteRequest, sitePath: string, rest: string): Promise<Response> {
  const { request } = route;
  const url = readerUrl(request, route.url, services.config.trustProxy);
  const cookieHeader = request.headers.get('cookie');
  const last = rest.split('/').pop() ?? '';
  if (last === '~search') return searchResponse(services, { request, url }, sitePath);
  if (SITE_FILES.has(rest)) return (await siteFile(services, rest, { url, cookieHeader, sitePath })) ?? errorResponse(404, null);
  const markdown = last.endsWith('.md') && last.length > 3;
  const pageUrl = markdown ? new URL(url.toString().replace(/\.md(?=$|\?)/, '')) : url;
  const result = await readerPage(services, { url: pageUrl, cookieHeader, sitePath });
  if (result.kind === 'redirect') return redirect(result);
  if (result.kind === 'not-found') return errorResponse(404, result.context, result.cookies);
  const { page } = result;
  const cacheControl = page.shared ? SHARED_CACHE : PRIVATE_CACHE;
  if (markdown) {
    // The page as a markdown file: its title back on top as the leading heading (leading-title.ts).
    return new Response(withLeadingTitle(page.entry.title, await page.markdown()), {
      headers: { 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': cacheControl, ...(page.shared ? {} : { 'X-Robots-Tag': 'noindex' }) },
    });
  }
  const etag = `"${page.fingerprint}"`;
  const headers: Record<string, string> = { ETag: etag, 'Cache-Control': cacheControl, Vary: 'Accept-Encoding', ...securityHeadersOfPages() };
  if (ifNoneMatch(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  let body = pages.get(page.fingerprint);
  if (!body) {
    const props = await page.props();
    const assets = readerAssets();
    body = pages.put(page.fingerprint, renderSitePage({ ...props, assets: { css: assets.css, js: assets.js } }));
  }
  const encoding: Encoding = negotiateEncoding(request.headers.get('accept-encoding'));
  const bytes = pages.encoded(page.fingerprint, body, encoding);
  // The same bytes for every visitor without credentials: the edge may answer the next one from memory.
  if (page.rememberUntil !== null && request.method === 'GET' && url.search === '' && !(cookieHeader ?? '').includes('gb_')) {
    route.state.pageToRemember = { etag, body, expiresAt: page.rememberUntil };
  }
  if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
  return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' } });
}

/** `<variant>/~search?q=`: JSON for the script; a page of results for a browser submitting the form. */
async function searchResponse(services: AppServices, { request, url }: { request: Request; url: URL }, sitePath: string): Promise<Response> {
  const cookieHeader = request.headers.get('cookie');
  const wantsHtml = (request.headers.get('accept') ?? '').includes('text/html');
  const result = await readerSearch(services, { url, cookieHeader, sitePath });
  if (!result.answer) {
    if (wantsHtml) return errorResponse(result.status, null);
    // The script asks for JSON: the published-site door's refusal in JSON (http/refusal.ts), not a page.
    const message = result.status === 400 ? `Invalid "q": at most ${MAX_READER_QUERY} characters` : 'No published content here';
    return refusal('published-site', result.status, message, { 'Cache-Control': 'no-store' }, 'json');
  }
  const cacheControl = result.shared ? 'public, max-age=0, s-maxage=60' : 'private, no-cache';
  // JSON for a script, a page for a browser: caches must key on Accept.
  if (!wantsHtml) return Response.json(result.answer, { headers: { 'Cache-Control': cacheControl, Vary: 'Accept' } });
  const home = await readerPage(services, { url: new URL(url.pathname.replace(/~search$/, ''), url.origin), cookieHeader, sitePath });
  if (home.kind !== 'page') return errorResponse(404, null);
  const props = await home.page.props();
  const assets = readerAssets();
  const html = renderSitePage({
    ...props,
    page: { title: result.answer.query ? `Search results for “${result.answer.query}”` : 'Search' },
    breadcrumbs: [],
    toc: [],
    previous: null,
    next: null,
    content: SearchResults({ answer: result.answer }),
    meta: { ...props.meta, noIndex: true },
    assets: { css: assets.css, js: assets.js },
  });
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': cacheControl, Vary: 'Accept', ...securityHeadersOfPages() } });
}

function redirect(result: Extract<ReaderAnswer, { kind: 'redirect' }>): Response {
  const headers = new Headers({ Location: result.location, 'Cache-Control': 'no-store' });
  for (const cookie of result.cookies) headers.append('Set-Cookie', cookie);
  return new Response(null, { status: result.status ?? 302, headers });
}

/** An error page in the site's style when the site is known (a page it does not have), else plain. */
export function errorResponse(status: number, context: SiteContext | null, cookies: string[] = []): Response {
  const assets = readerAssets();
  const html = renderErrorPage({
    lang: context?.customization.lang ?? 'en',
    status,
    title: status === 404 ? 'Page not found' : status === 401 ? 'Sign in to read this site' : 'Something went wrong',
    message: status === 404 ? 'This page does not exist, or you may not see it.' : status === 401 ? 'This site is only for its readers.' : 'The page could not be shown. Try again in a moment.',
    link: context ? { title: 'Go to the home page', href: context.homeHref } : null,
    site: context ? { ...context.customization.site, homeHref: context.homeHref } : null,
    theme: context?.customization.theme ?? null,
    assets: { css: assets.css, js: assets.js },
  });
  const headers = new Headers({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...securityHeadersOfPages() });
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  return new Response(html, { status, headers });
}

let securityHeaders: Record<string, string> | null = null;
/** The headers with the CSP naming the hash of the layout's inline theme script (the one inline script). */
function securityHeadersOfPages(): Record<string, string> {
  securityHeaders ??= { ...SECURITY_HEADERS, 'Content-Security-Policy': SECURITY_HEADERS['Content-Security-Policy'].replace('sha256-THEME_BOOT', `sha256-${themeBootHash()}`) };
  return securityHeaders;
}

const themeBootHash = () => createHash('sha256').update(THEME_BOOT_SCRIPT).digest('base64');
