import { h } from 'preact';
import { render } from 'preact-render-to-string';
import type { Services } from '../../core/context.ts';
import { computedMarkdown, getDocuments, revisionContents, type PageEntry, type RevisionContent } from '../content/index.ts';
import { listedReadable } from '../published/index.ts';
import { encodePath, variantBase } from './reader-navigation.ts';
import { sharedCacheable, viewAsVisitor, type ResolvedLookup } from './reader-page.ts';
import { readerVisitor } from './reader-visitor.ts';

/**
 * What a site says to machines, at its root: `sitemap.xml` (the pages search engines may index),
 * `robots.txt`, and `llms.txt` / `llms-full.txt` (llmstxt.org: the site's pages as a markdown index,
 * and their bodies in one file). Each is computed as the visitor asking sees the site — the same URL
 * lookup as its pages — so nothing a visitor may not read is ever listed. An unlisted site, or one for
 * readers only, lists nothing to search engines.
 */
export const SITE_FILES = new Set(['sitemap.xml', 'robots.txt', 'llms.txt', 'llms-full.txt']);

/** What llms-full.txt holds at most: beyond, the index (llms.txt) is the way in. */
const MAX_FULL_BYTES = 8 * 1024 * 1024;
const MAX_FULL_PAGES = 2_000;
/** Sitemaps hold at most 50,000 URLs (sitemaps.org). */
const MAX_SITEMAP_URLS = 50_000;

export interface SiteFileRequest {
  url: URL;
  cookieHeader: string | null;
  sitePath: string;
}

interface ListedPage {
  page: PageEntry;
  url: string;
  variantTitle: string;
  sectionTitle: string | null;
  content: RevisionContent;
}

/** Every listed page of every variant the visitor sees: documents and computed pages, not hidden, in reading order. */
function listedPages(lookup: ResolvedLookup, contents: Map<string, RevisionContent | null>, origin: string): ListedPage[] {
  const { answer, navigation } = lookup;
  const sections = new Map(navigation.sections.map((s) => [s.id, s]));
  const out: ListedPage[] = [];
  for (const siteSpace of navigation.siteSpaces) {
    const content = contents.get(siteSpace.space.revisionId!);
    if (!content) continue;
    const section = siteSpace.sectionId ? (sections.get(siteSpace.sectionId) ?? null) : null;
    const base = variantBase(answer.siteBasePath, section, siteSpace);
    for (const page of listedReadable(content.pages.entries())) {
      out.push({
        page,
        url: new URL(`${base}${encodePath(page.path)}`, origin).toString(),
        variantTitle: siteSpace.title ?? siteSpace.space.title,
        sectionTitle: section?.title ?? null,
        content,
      });
    }
  }
  return out;
}

/** A title or description inside markdown link text: brackets and line breaks would break the list. */
const inline = (text: string) => text.replace(/[\r\n]+/g, ' ').replace(/([\\[\]()])/g, '\\$1');

const text = (body: string, type: string, shared: boolean) =>
  new Response(body, { headers: { 'Content-Type': type, 'Cache-Control': shared ? 'public, max-age=0, s-maxage=300' : 'private, no-cache' } });

/** The file, or null when there is no published site here the visitor may see (the reader answers its 404 page). */
export async function siteFile(services: Services, name: string, request: SiteFileRequest): Promise<Response | null> {
  const visitor = readerVisitor(request.url, request.cookieHeader);
  const rootUrl = new URL(request.sitePath, request.url.origin);
  const view = await viewAsVisitor(services, rootUrl, visitor);
  if (!view || view.kind === 'redirect' || !view.lookup.site) return null;
  const lookup: ResolvedLookup = view.lookup;
  const site = lookup.site!;
  // Search engines see public sites only; unlisted sites and those for some readers are never listed.
  const indexable = site.visibility === 'public' && !visitor.personal;
  const shared = sharedCacheable(site, visitor);
  const origin = request.url.origin;
  const siteUrl = new URL(lookup.answer.siteBasePath, origin).toString();

  if (name === 'robots.txt') {
    const body = indexable ? `User-agent: *\nAllow: /\n\nSitemap: ${new URL('sitemap.xml', siteUrl)}\n` : 'User-agent: *\nDisallow: /\n';
    return text(body, 'text/plain; charset=utf-8', shared);
  }

  const revisions = [...new Set(lookup.navigation.siteSpaces.map((s) => s.space.revisionId!))];
  const contents = await revisionContents(services.db, services.db, revisions);
  const pages = listedPages(lookup, contents, origin);

  if (name === 'sitemap.xml') {
    const urls = indexable ? pages.filter(({ page }) => !page.noIndex && !page.noRobotsIndex).slice(0, MAX_SITEMAP_URLS) : [];
    const xml = render(
      h(
        'urlset',
        { xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9' },
        urls.map(({ page, url }) => h('url', null, h('loc', null, url), h('lastmod', null, page.updatedAt.toISOString()))),
      ),
    );
    return text(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`, 'application/xml; charset=utf-8', shared);
  }

  if (name === 'llms.txt') {
    const lines = [`# ${inline(site.title)}`, ''];
    let heading: string | null = null;
    for (const { page, url, variantTitle, sectionTitle } of pages) {
      const group = [sectionTitle, variantTitle].filter(Boolean).join(' – ');
      if (group !== heading) {
        lines.push('', `## ${inline(group)}`, '');
        heading = group;
      }
      lines.push(`- [${inline(page.title)}](${url}.md)${page.description ? `: ${inline(page.description)}` : ''}`);
    }
    return text(`${lines.join('\n')}\n`, 'text/markdown; charset=utf-8', shared);
  }

  // llms-full.txt: every listed page's markdown, within a byte budget, bodies read a hundred at a time.
  const parts: string[] = [`# ${inline(site.title)}\n`];
  let bytes = parts[0].length;
  const chosen = pages.slice(0, MAX_FULL_PAGES);
  for (let i = 0; i < chosen.length && bytes < MAX_FULL_BYTES; i += 100) {
    const batch = chosen.slice(i, i + 100);
    const bodies = await getDocuments(services.db, batch.map(({ page }) => page.documentHash));
    for (const { page, url } of batch) {
      const body = page.type === 'computed' ? await computedMarkdown(services.db, site.organizationId, page.computed) : (page.documentHash ? bodies.get(page.documentHash) : '') ?? '';
      const part = `\n---\n\n# ${inline(page.title)}\n\nSource: ${url}\n\n${body.trim()}\n`;
      if (bytes + part.length > MAX_FULL_BYTES) break;
      parts.push(part);
      bytes += part.length;
    }
  }
  return text(parts.join(''), 'text/markdown; charset=utf-8', shared);
}
