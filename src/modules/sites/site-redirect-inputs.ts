import type { Prisma, SiteRedirect, SiteRedirectKind } from '../../generated/prisma/client.ts';
import { BadRequestError } from '../../core/errors.ts';
import { MAX_SOURCE, pagesAtPaths, pagesIn, SOURCE_PATTERN, type SiteLayout } from './site-redirect-targets.ts';

/**
 * The inputs of site redirects, checked before any work: a source (GitBook's SiteRedirectSourcePath:
 * `/`, then path segments of URL characters or percent escapes, at most 512 characters, optionally
 * ending with `*`), and a destination (GitBook's SiteRedirectInputDestination): a section, a site space
 * or a page of a site space of this site, an external http(s) URL, or — on creation — a page by its
 * space and path, stored as the page it names. Every refusal is a 400 naming the field.
 */

export const MAX_URL = 2048;
const MAX_PAGE_PATH = 2048;
const ID = 256;

export type Stored = Pick<SiteRedirect, 'kind' | 'siteSectionId' | 'siteSpaceId' | 'pageId' | 'url'>;

/** A destination as given, its shape checked (what it names is checked against the site afterwards). */
export type ParsedDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  | { kind: 'external'; url: string }
  | { kind: 'path'; spaceId: string; path: string };

const invalid = (field: string, why: string) => new BadRequestError(`Invalid "${field}": ${why}`);

export function checkSource(field: string, value: unknown): string {
  if (typeof value !== 'string') throw invalid(field, 'a path beginning with "/" is expected');
  if (value.length > MAX_SOURCE) throw invalid(field, `must be at most ${MAX_SOURCE} characters (got ${value.length})`);
  if (!SOURCE_PATTERN.test(value)) {
    throw invalid(field, 'a path beginning with "/" of URL characters (letters, digits, - . _ ~ + and %XX escapes), optionally ending with "*" or "/*"');
  }
  return value;
}

function text(field: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.length === 0) throw invalid(field, 'a non-empty string is expected');
  if (value.length > max) throw invalid(field, `must be at most ${max} characters (got ${value.length})`);
  return value;
}

export function checkUrl(field: string, value: unknown): string {
  const url = text(field, value, MAX_URL);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(field, 'an absolute URL is expected');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalid(field, 'an http or https URL is expected');
  return url;
}

/** The destination's shape; `path` destinations only where `allowPath` (GitBook's input-only kind). */
export function parseDestination(field: string, value: unknown, allowPath: boolean): ParsedDestination {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid(field, 'an object with a "kind" is expected');
  const d = value as Record<string, unknown>;
  const kinds = ['site-section', 'site-space', 'site-page', 'external', ...(allowPath ? ['path'] : [])];
  switch (d.kind) {
    case 'site-section':
      return { kind: d.kind, siteSectionId: text(`${field}.siteSectionId`, d.siteSectionId, ID) };
    case 'site-space':
      return { kind: d.kind, siteSpaceId: text(`${field}.siteSpaceId`, d.siteSpaceId, ID) };
    case 'site-page':
      return { kind: d.kind, siteSpaceId: text(`${field}.siteSpaceId`, d.siteSpaceId, ID), pageId: text(`${field}.pageId`, d.pageId, ID) };
    case 'external':
      return { kind: d.kind, url: checkUrl(`${field}.url`, d.url) };
    case 'path':
      if (allowPath) return { kind: d.kind, spaceId: text(`${field}.spaceId`, d.spaceId, ID), path: text(`${field}.path`, d.path, MAX_PAGE_PATH) };
  }
  throw invalid(`${field}.kind`, `one of ${kinds.join(', ')} is expected`);
}

const KIND: Record<Exclude<ParsedDestination['kind'], 'path'>, SiteRedirectKind> = {
  'site-section': 'site_section',
  'site-space': 'site_space',
  'site-page': 'site_page',
  external: 'external',
};

/** A site with what destinations are checked against: its sections and site spaces (with their space's revision). */
export interface SiteWithLayout {
  sections: SiteLayout['sections'];
  siteSpaces: (SiteLayout['siteSpaces'][number] & { spaceId: string })[];
}

export const LAYOUT_QUERY = {
  include: {
    sections: { select: { id: true, path: true, isDefault: true } },
    siteSpaces: { select: { id: true, sectionId: true, path: true, isDefault: true, spaceId: true, space: { select: { revisionId: true } } } },
  },
} satisfies Prisma.SiteDefaultArgs;

/**
 * What each destination names, checked against the site: its section, its site space, the page in the
 * site space's published content (a `path` destination becomes that page). A destination that names
 * nothing of this site is its refusal's message (the caller throws it, or reports it per item). Pages
 * are read in one statement per site space involved.
 */
export async function resolveDestinations(
  db: Prisma.TransactionClient,
  site: SiteWithLayout,
  destinations: { field: string; destination: ParsedDestination }[],
): Promise<(Stored | string)[]> {
  const siteSpaceOf = (id: string) => site.siteSpaces.find((s) => s.id === id);
  const wanted = new Map<string, { ids: Set<string>; paths: Set<string> }>();
  const want = (revisionId: string) => wanted.get(revisionId) ?? wanted.set(revisionId, { ids: new Set(), paths: new Set() }).get(revisionId)!;
  const normalize = (path: string) => path.replace(/^\/+|\/+$/g, '');
  for (const { destination: d } of destinations) {
    if (d.kind === 'site-page') {
      const revisionId = siteSpaceOf(d.siteSpaceId)?.space.revisionId;
      if (revisionId) want(revisionId).ids.add(d.pageId);
    } else if (d.kind === 'path') {
      const revisionId = site.siteSpaces.find((s) => s.spaceId === d.spaceId)?.space.revisionId;
      if (revisionId) want(revisionId).paths.add(normalize(d.path));
    }
  }
  const found = new Map<string, { ids: Set<string>; paths: Map<string, string> }>();
  for (const [revisionId, { ids, paths }] of wanted) {
    found.set(revisionId, { ids: await pagesIn(db, revisionId, [...ids]), paths: await pagesAtPaths(db, revisionId, [...paths]) });
  }
  const none = { siteSectionId: null, siteSpaceId: null, pageId: null, url: null };
  return destinations.map(({ field, destination: d }): Stored | string => {
    switch (d.kind) {
      case 'external':
        return { ...none, kind: 'external', url: d.url };
      case 'site-section':
        return site.sections.some((s) => s.id === d.siteSectionId)
          ? { ...none, kind: KIND[d.kind], siteSectionId: d.siteSectionId }
          : `Invalid "${field}.siteSectionId": no section "${d.siteSectionId}" in this site`;
      case 'site-space':
        return siteSpaceOf(d.siteSpaceId) ? { ...none, kind: KIND[d.kind], siteSpaceId: d.siteSpaceId } : `Invalid "${field}.siteSpaceId": no site space "${d.siteSpaceId}" in this site`;
      case 'site-page': {
        const siteSpace = siteSpaceOf(d.siteSpaceId);
        if (!siteSpace) return `Invalid "${field}.siteSpaceId": no site space "${d.siteSpaceId}" in this site`;
        if (!found.get(siteSpace.space.revisionId ?? '')?.ids.has(d.pageId)) return `Invalid "${field}.pageId": no page "${d.pageId}" in that site space`;
        return { ...none, kind: KIND[d.kind], siteSpaceId: d.siteSpaceId, pageId: d.pageId };
      }
      case 'path': {
        const siteSpace = site.siteSpaces.find((s) => s.spaceId === d.spaceId);
        if (!siteSpace) return `Invalid "${field}.spaceId": space "${d.spaceId}" is not published by this site`;
        const pageId = found.get(siteSpace.space.revisionId ?? '')?.paths.get(normalize(d.path));
        if (!pageId) return `Invalid "${field}.path": no page at "${d.path}" in that space`;
        return { ...none, kind: 'site_page', siteSpaceId: siteSpace.id, pageId };
      }
    }
  });
}

/** The same for one destination: what it names, or its 400. */
export async function resolveDestination(db: Prisma.TransactionClient, site: SiteWithLayout, field: string, destination: ParsedDestination): Promise<Stored> {
  const [stored] = await resolveDestinations(db, site, [{ field, destination }]);
  if (typeof stored === 'string') throw new BadRequestError(stored);
  return stored;
}
