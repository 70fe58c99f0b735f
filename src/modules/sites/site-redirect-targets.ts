import { Prisma, type SiteRedirect } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';

/**
 * Which site redirect a path matches, and where it leads (GitBook's SiteRedirect). A source is a path
 * relative to the site (`/old/page`), or a prefix ending with `*` (`/old*`, `/old/*`); a path matches its
 * exact rule first, else the rule of its longest prefix. Candidates are listed so that the URL lookup
 * reads the matching rules with the site, in its one statement (`source IN (…)`, on the unique index).
 */

/** GitBook's SiteRedirectSourcePath. */
export const MAX_SOURCE = 512;
export const SOURCE_PATTERN = /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;

/** The sources that may match `path` (`/a/b`, as written in the URL): itself and each prefix followed by `*`. */
export function sourceCandidates(path: string): string[] {
  if (path.length < 2) return [];
  const candidates = path.length <= MAX_SOURCE ? [path] : [];
  for (let end = 2; end <= Math.min(path.length, MAX_SOURCE - 1); end++) candidates.push(`${path.slice(0, end)}*`);
  return candidates;
}

/**
 * The rule for `path` among `rules`: the exact one, else the longest matching prefix. `suffix` is what
 * the `*` matched (for `/old/*`, with its leading `/`), which `captureWildcard` appends to the destination.
 */
export function matchRedirect<R extends Pick<SiteRedirect, 'source'>>(rules: readonly R[], path: string): { rule: R; suffix: string } | null {
  let best: { rule: R; suffix: string; length: number } | null = null;
  for (const rule of rules) {
    if (rule.source === path) return { rule, suffix: '' };
    if (!rule.source.endsWith('*')) continue;
    const prefix = rule.source.slice(0, -1);
    if (!path.startsWith(prefix) || (best && best.length >= prefix.length)) continue;
    const kept = prefix.endsWith('/') ? prefix.length - 1 : prefix.length;
    best = { rule, suffix: path.slice(kept), length: prefix.length };
  }
  return best && { rule: best.rule, suffix: best.suffix };
}

/** What a destination's URL is made of: the site's sections and site spaces. */
export interface SiteLayout {
  sections: { id: string; path: string; isDefault: boolean }[];
  siteSpaces: { id: string; sectionId: string | null; path: string; isDefault: boolean; space: { revisionId: string | null } }[];
}

type Destination = Pick<SiteRedirect, 'kind' | 'siteSectionId' | 'siteSpaceId' | 'pageId' | 'url' | 'captureWildcard'>;

/** The revision and page a `site-page` destination names (null for other kinds). */
export function destinationPage(site: SiteLayout, destination: Destination): { revisionId: string; pageId: string } | null {
  if (destination.kind !== 'site_page' || !destination.pageId) return null;
  const revisionId = site.siteSpaces.find((s) => s.id === destination.siteSpaceId)?.space.revisionId;
  return revisionId ? { revisionId, pageId: destination.pageId } : null;
}

/**
 * The URL a destination leads to from the site's root URL `base` (ending with `/`): a section's, a site
 * space's (its section's path, then its own, for non-default ones), a page's (`pagePath`: its path in
 * the site space's content; a page no longer there leads to its site space), or the external URL; with
 * `suffix` appended when the rule captures it, and `query` (e.g. `?shareKey=…`) on the site's own URLs.
 */
export function destinationUrl(base: string, site: SiteLayout, destination: Destination, pagePath: string | null, suffix = '', query = ''): string | null {
  const append = (url: string) => {
    if (!destination.captureWildcard || !suffix) return url;
    return suffix.startsWith('/') ? `${url.replace(/\/+$/, '')}${suffix}` : `${url}${suffix}`;
  };
  if (destination.kind === 'external') return destination.url ? append(destination.url) : null;
  const segments: string[] = [];
  const sectionPath = (sectionId: string | null) => {
    const section = site.sections.find((s) => s.id === sectionId);
    if (section && !section.isDefault) segments.push(encodeURIComponent(section.path));
    return section;
  };
  if (destination.kind === 'site_section') {
    if (!sectionPath(destination.siteSectionId)) return null;
  } else {
    const siteSpace = site.siteSpaces.find((s) => s.id === destination.siteSpaceId);
    if (!siteSpace) return null;
    sectionPath(siteSpace.sectionId);
    if (!siteSpace.isDefault) segments.push(encodeURIComponent(siteSpace.path));
    if (destination.kind === 'site_page' && pagePath) segments.push(...pagePath.split('/').map(encodeURIComponent));
  }
  return `${append(`${base}${segments.join('/')}`)}${query}`;
}

/**
 * What a redirect of the URL lookup needs from the content, in one statement: whether `path` is a page
 * (document or group) of `revisionId` — content wins over a rule; this reads the revision's page entries,
 * and runs only for URLs a rule matches — and the path of `target`'s page now (through the index of leaf IDs).
 */
export async function redirectFacts(
  db: Db | Prisma.TransactionClient,
  check: { revisionId: string; path: string } | null,
  target: { revisionId: string; pageId: string } | null,
): Promise<{ occupied: boolean; targetPath: string | null }> {
  const [row] = await db.$queryRaw<{ occupied: boolean; targetPath: string | null }[]>(Prisma.sql`
    SELECT EXISTS (
             SELECT 1 FROM "Revision" r CROSS JOIN LATERAL content_items(r."pageTree") it
             WHERE r."id" = ${check?.revisionId ?? ''} AND it."item" ->> 'path' = ${check?.path ?? ''} AND it."item" ->> 'type' IN ('document', 'group')
           ) AS "occupied",
           (SELECT f."item" ->> 'path' FROM "Revision" r CROSS JOIN LATERAL content_find(r."pageTree", ARRAY[${target?.pageId ?? ''}]::text[]) f
             WHERE r."id" = ${target?.revisionId ?? ''} AND f."item" ->> 'type' <> 'link' LIMIT 1) AS "targetPath"`);
  return { occupied: row?.occupied === true, targetPath: row?.targetPath ?? null };
}

/** The pages (documents or groups) at `paths` of a revision, by path: one statement reading its page entries. */
export async function pagesAtPaths(db: Db | Prisma.TransactionClient, revisionId: string, paths: string[]): Promise<Map<string, string>> {
  if (!paths.length) return new Map();
  const rows = await db.$queryRaw<{ id: string; path: string }[]>(Prisma.sql`
    SELECT it."item" ->> 'id' AS "id", it."item" ->> 'path' AS "path" FROM "Revision" r CROSS JOIN LATERAL content_items(r."pageTree") it
    WHERE r."id" = ${revisionId} AND it."item" ->> 'path' = ANY(${paths}::text[]) AND it."item" ->> 'type' IN ('document', 'group')`);
  return new Map(rows.map((row) => [row.path, row.id]));
}

/** Which of `pageIds` are pages (not links) of a revision: one statement through the index of leaf IDs. */
export async function pagesIn(db: Db | Prisma.TransactionClient, revisionId: string, pageIds: string[]): Promise<Set<string>> {
  if (!pageIds.length) return new Set();
  const rows = await db.$queryRaw<{ id: string }[]>(Prisma.sql`
    SELECT f."item" ->> 'id' AS "id" FROM "Revision" r CROSS JOIN LATERAL content_find(r."pageTree", ${pageIds}::text[]) f
    WHERE r."id" = ${revisionId} AND f."item" ->> 'type' <> 'link'`);
  return new Set(rows.map((row) => row.id));
}
