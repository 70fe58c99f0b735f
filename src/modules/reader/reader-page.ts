import { createHash } from 'node:crypto';
import type { Site } from '../../generated/prisma/client.ts';
import type { Services } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { computedMarkdown, getDocuments, markdownToDocument, revisionContents, signedFileUrl, type PageEntry, type RevisionContent } from '../content/index.ts';
import { publishedView, type PublishedView, type ResolvedLookup } from '../published/index.ts';
import { siteSpaceCustomizationOf } from '../sites/index.ts';
import type { DocumentResolver } from './document/render-document.tsx';

/**
 * The document renderer, loaded with the first page rendered rather than at start-up: lowlight's
 * grammars and KaTeX take about 0.2 s to load, which every instance would otherwise pay before its first
 * answer, pages or not.
 */
const documentRenderer = () => import('./document/render-document.tsx');
import type { SitePageProps } from './layout/site-page-props.ts';
import { pageDescription, readerCustomization, type ReaderCustomization } from './reader-customization.ts';
import { breadcrumbsOf, encodePath, previousNext, sectionTabs, sidebarTree, variantsOf } from './reader-navigation.ts';
import { cleanUrl, readerVisitor, SHARE_KEY_PARAM, visitorCookies, type ReaderVisitor } from './reader-visitor.ts';

/**
 * One published URL as a reader's browser asks for it: the published view (published/) decides what it
 * shows and to whom — site, variant and page, the same answer the API's `publishedPage` gives — and the
 * page's body and the variants' trees (kept by the content cache: a revision never changes) make the
 * props the layout draws. A page depends on nothing else, so its fingerprint — site, customization, navigation shown,
 * revision, page, visitor's claims — names its bytes: the ETag, and the key of the rendered-page cache.
 */

/** Bumped when what a page draws changes for the same data (a new layout): every fingerprint changes. */
const RENDER_VERSION = '2';

export type ReaderAnswer =
  | { kind: 'redirect'; location: string; cookies: string[]; status?: 301 | 302 }
  | { kind: 'not-found'; cookies: string[]; context: SiteContext | null }
  | { kind: 'page'; page: ReaderPage; cookies: string[] };

/** What every answer about a site knows of it (for error pages in its style, and cache headers). */
export interface SiteContext {
  customization: ReaderCustomization;
  homeHref: string;
}

export interface ReaderPage {
  /** Names the rendered bytes (the ETag's value). */
  fingerprint: string;
  /** A CDN may keep it: a public or unlisted site, no adaptive content, a visitor with no credential. */
  shared: boolean;
  /**
   * Until when (epoch ms) the edge may answer this page from memory (http/page-memory.ts): a shared page
   * until its signed URLs change at the hour's end; null for anything else, and for computed pages, drawn
   * from a source outside the revision.
   */
  rememberUntil: number | null;
  /** Makes the props (only when the bytes are not cached already). */
  props: () => Promise<SitePageProps>;
  /** Makes the page's markdown (`<page>.md`, llms files). */
  markdown: () => Promise<string>;
  lookup: ResolvedLookup;
  content: RevisionContent;
  entry: PageEntry;
}

export type { ResolvedLookup } from '../published/index.ts';

/**
 * Whether a shared cache (a CDN, a reverse proxy) may keep what this visitor is answered: a public or
 * unlisted site without adaptive content, read by a visitor who brings no credential or claim. Anything
 * else is private to the visitor's browser. One rule for pages, search and the machines' files.
 */
export const sharedCacheable = (site: Pick<Site, 'visibility' | 'adaptiveContentEnabled'>, visitor: Pick<ReaderVisitor, 'personal'>) =>
  (site.visibility === 'public' || site.visibility === 'unlisted') && !site.adaptiveContentEnabled && !visitor.personal;

const fingerprintOf = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 27);

/** Where a signed file URL stays the same: the hour (signed-urls.ts signs to the top of the hour after next). */
const signingWindow = (now: Date) => Math.floor(now.getTime() / 3_600_000);

export interface ReaderRequest {
  url: URL;
  cookieHeader: string | null;
  /** The site's base path as the route matched it (`/s/<org>/<site>`, or `/` on the site's own hostname): where its cookies live. */
  sitePath: string;
}

/** The published view of `url` for this visitor; null when nothing (they may see) is there. */
export async function viewAsVisitor(services: Services, url: URL, visitor: ReaderVisitor): Promise<PublishedView | null> {
  const asked = cleanUrl(url);
  asked.search = '';
  if (visitor.shareKey) asked.searchParams.set(SHARE_KEY_PARAM, visitor.shareKey);
  try {
    return await publishedView(services, { url: asked.toString(), visitor: visitor.visitor }, { issueToken: false });
  } catch (error) {
    // A URL that is no published content, or that the lookup cannot read: the same 404 for every case.
    if (error instanceof AppError && error.status < 500) return null;
    throw error;
  }
}

export async function readerPage(services: Services, request: ReaderRequest): Promise<ReaderAnswer> {
  const visitor = readerVisitor(request.url, request.cookieHeader);
  const view = await viewAsVisitor(services, request.url, visitor);
  const secure = request.url.protocol === 'https:';
  // A share key the site no longer takes (a deactivated link) is forgotten with the 404.
  if (!view) return { kind: 'not-found', cookies: visitor.shareKey && !visitor.fromUrl.shareKey ? visitorCookies(visitor, { path: request.sitePath, secure, clearShareKey: true }) : [], context: null };
  if (view.kind === 'redirect') return { kind: 'redirect', location: view.location, cookies: [] };
  const { lookup, base } = view;
  const { answer } = lookup;
  const cookiePath = request.sitePath;
  // What the URL brought is kept in cookies, and the reader goes on to the clean URL.
  if (Object.keys(visitor.fromUrl).length) {
    return { kind: 'redirect', location: cleanUrl(request.url).toString(), cookies: visitorCookies(visitor, { path: cookiePath, secure }) };
  }

  const navigation = lookup.navigation;
  const siteSpace = navigation.siteSpace;
  const revisionId = answer.revision;
  // The variant's tree, and the other variants' of the section (the switcher keeps the page path).
  const variantRevisions = navigation.siteSpaces.filter((s) => s.sectionId === (navigation.section?.id ?? null)).map((s) => s.space.revisionId!);
  const contents = await revisionContents(services.db, services.db, [...new Set([revisionId, ...variantRevisions])]);
  const content = view.content;
  if (!content) return { kind: 'not-found', cookies: [], context: null };
  const settings = siteSpaceCustomizationOf(lookup.site!, { customization: lookup.siteSpaceCustomization });
  const pageHref = (pageId: string) => {
    const page = content.page(pageId);
    return page && page.type !== 'link' ? `${base}${encodePath(page.path)}` : null;
  };
  const customization = readerCustomization(settings, lookup.site!.title, pageHref);
  const siteContext: SiteContext = { customization, homeHref: answer.siteBasePath };

  // Which page the URL shows is the view's (published/page-choice.ts): a group goes to its first page.
  if (view.kind === 'go-to') return { kind: 'redirect', location: view.location, cookies: [] };
  if (view.kind !== 'page') return { kind: 'not-found', cookies: [], context: siteContext };
  const current = view.entry;

  const site = lookup.site!;
  const shared = sharedCacheable(site, visitor);
  const now = services.clock.now();
  const fingerprint = fingerprintOf([
    RENDER_VERSION,
    request.url.origin,
    answer.siteBasePath,
    site.id,
    site.updatedAt,
    site.title,
    site.visibility,
    settings,
    navigation.sections.map((s) => [s.id, s.title, s.path, s.icon, s.isDefault, s.sectionGroupId]),
    navigation.sectionGroups.map((g) => [g.id, g.title, g.icon]),
    navigation.siteSpaces.map((s) => [s.id, s.sectionId, s.title, s.path, s.isDefault, s.space.title, s.space.revisionId]),
    siteSpace.id,
    revisionId,
    current.id,
    answer.pathname === '' ? '' : current.path,
    // Computed pages are made from a source outside the revision (an OpenAPI spec): never the same key.
    current.type === 'computed' ? now.getTime() : signingWindow(now),
  ]);

  const markdown = async () => {
    if (current.type === 'computed') return computedMarkdown(services.db, site.organizationId, current.computed);
    if (!current.documentHash) return '';
    return (await getDocuments(services.db, [current.documentHash])).get(current.documentHash) ?? '';
  };

  const props = async (): Promise<SitePageProps> => {
    const { documentHeadings, documentReferences, DocumentView } = await documentRenderer();
    const document = markdownToDocument(await markdown());
    const references = documentReferences(document);
    const files = new Map<string, Awaited<ReturnType<DocumentResolver['file']>>>();
    const coverFile = coverFileId(current.cover);
    const wanted = new Set([...references.files, ...(coverFile ? [coverFile] : [])]);
    for (const fileId of wanted) {
      const file = content.files.get(fileId);
      if (!file) continue;
      const url = await signedFileUrl(services.db, services.config.publicUrl, { hash: file.blobHash, name: file.name, contentType: file.contentType }, now);
      files.set(fileId, { url, name: file.name, contentType: file.contentType, size: file.size, width: file.width, height: file.height });
    }
    const resolve: DocumentResolver = {
      pageHref: (pageId, anchor) => {
        const href = pageHref(pageId);
        return href && anchor ? `${href}#${encodeURIComponent(anchor)}` : href;
      },
      file: (fileId) => files.get(fileId) ?? null,
      pageTitle: (pageId) => content.page(pageId)?.title ?? null,
    };
    const cover = coverOf(current.cover, files);
    const pageUrl = answer.pathname === '' ? base : `${base}${encodePath(current.path)}`;
    // The lookup's origin: PUBLISHED_URL's for path-addressed sites, whichever host served the page.
    const canonical = new URL(pageUrl, new URL(answer.canonicalUrl).origin).toString();
    const variants = variantsOf(navigation, answer.siteBasePath, current.path, contents);
    const { previous, next } = previousNext(content, current, base);
    return {
      lang: customization.lang,
      site: { ...customization.site, homeHref: answer.siteBasePath },
      theme: customization.theme,
      headerLinks: customization.headerLinks,
      announcement: customization.announcement,
      tabs: sectionTabs(navigation, answer.siteBasePath),
      variants,
      tree: sidebarTree(content, current, base),
      breadcrumbs: breadcrumbsOf(content, current, base),
      page: {
        title: current.title,
        description: current.description,
        emoji: current.emoji,
        icon: current.icon,
        cover,
        lastUpdated: current.updatedAt.toISOString(),
      },
      toc: documentHeadings(document),
      previous,
      next,
      content: DocumentView({ document, resolve }),
      meta: {
        canonicalUrl: canonical,
        noIndex: site.visibility !== 'public' || current.noRobotsIndex || current.noIndex,
        alternates: variants.filter((v) => !v.current).map((v) => ({ href: new URL(v.href, request.url.origin).toString(), lang: v.lang })),
        description: pageDescription(current),
        image: cover?.url ?? customization.socialImage,
        markdownHref: `${base}${encodePath(current.path)}.md`,
      },
      assets: { css: '', js: '' },
      // The variant's own search (reader-search.ts): the current variant first, the other sections' defaults.
      search: { href: `${base}~search` },
      footer: customization.footer,
    };
  };

  const rememberUntil = shared && current.type !== 'computed' ? (signingWindow(now) + 1) * 3_600_000 : null;
  return { kind: 'page', cookies: [], page: { fingerprint, shared, rememberUntil, props, markdown, lookup, content, entry: current } };
}

/** The file of a page cover (GitBook's RevisionPageDocumentCover: `ref` to a file or a URL). */
function coverFileId(cover: unknown): string | null {
  const ref = (cover as { ref?: { kind?: unknown; file?: unknown } } | null)?.ref;
  return ref?.kind === 'file' && typeof ref.file === 'string' ? ref.file : null;
}

function coverOf(cover: unknown, files: Map<string, { url: string; width?: number | null; height?: number | null } | null>): SitePageProps['page']['cover'] {
  const ref = (cover as { ref?: { kind?: unknown; url?: unknown } } | null)?.ref;
  const fileId = coverFileId(cover);
  if (fileId) {
    const file = files.get(fileId);
    return file ? { url: file.url, width: file.width, height: file.height } : null;
  }
  if (ref?.kind === 'url' && typeof ref.url === 'string' && /^https?:\/\//.test(ref.url) && ref.url.length <= 2048) return { url: ref.url };
  return null;
}

