import path from 'node:path/posix';
import MarkdownIt from 'markdown-it';
import type { Context } from '../../core/context.ts';
import { decodeCursor, encodeCursor, resolveLimit, type ListArgs } from '../../core/pagination.ts';
import { spaceFor } from './content-access.ts';

/**
 * Links of a space's active content: every link and image in its pages' markdown, grouped by target.
 * A target is `in-app` when it points into this application, `broken` when it names a page or file
 * that the revision does not have, `ok` otherwise (external URLs are not fetched).
 */
export type LinkStatus = 'ok' | 'broken' | 'in-app';
export const LINK_STATUSES: readonly LinkStatus[] = ['ok', 'broken', 'in-app'];

export interface ContentReference {
  kind: 'url' | 'page' | 'file' | 'anchor';
  url?: string;
  page?: string;
  file?: string;
  space?: string;
}

export interface LinkRecord {
  key: string;
  status: LinkStatus;
  relation: 'reference';
  targetReference: ContentReference;
  locationReferences: ContentReference[];
}

const markdown = new MarkdownIt();
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

function hrefsOf(source: string): string[] {
  const hrefs: string[] = [];
  const visit = (tokens: ReturnType<typeof markdown.parse>) => {
    for (const token of tokens) {
      if (token.type === 'link_open') hrefs.push(String(token.attrGet('href') ?? ''));
      if (token.type === 'image') hrefs.push(String(token.attrGet('src') ?? ''));
      if (token.children) visit(token.children);
    }
  };
  visit(markdown.parse(source, {}));
  return hrefs.filter(Boolean);
}

interface PageRow {
  id: string;
  path: string;
  markdown: string;
}

/** Classifies one href found on `page`. */
function resolveTarget(
  href: string,
  page: PageRow,
  pagesByPath: Map<string, string>,
  filesByName: Map<string, string>,
  appUrl: string,
  spaceId: string,
): { status: LinkStatus; target: ContentReference } {
  if (href.startsWith(`${appUrl}/`)) return { status: 'in-app', target: { kind: 'url', url: href } };
  if (EXTERNAL.test(href) || href.startsWith('//')) return { status: 'ok', target: { kind: 'url', url: href } };
  const [rawPath] = href.split('#');
  if (!rawPath) return { status: 'ok', target: { kind: 'anchor', page: page.id, space: spaceId } };
  const decoded = decodeURI(rawPath).replace(/\.md$/, '').replace(/\/README$/i, '');
  const base = path.dirname(`/${page.path}`);
  const resolved = path.normalize(decoded.startsWith('/') ? decoded : path.join(base, decoded)).replace(/^\/+|\/+$/g, '');
  const pageId = pagesByPath.get(resolved);
  if (pageId) return { status: 'ok', target: { kind: 'page', page: pageId, space: spaceId } };
  const fileId = filesByName.get(path.basename(resolved));
  if (fileId) return { status: 'ok', target: { kind: 'file', file: fileId, space: spaceId } };
  return { status: 'broken', target: { kind: 'url', url: href } };
}

export function extractLinks(
  pages: PageRow[],
  files: { id: string; name: string }[],
  appUrl: string,
  spaceId: string,
): LinkRecord[] {
  const pagesByPath = new Map(pages.map((p) => [p.path.replace(/^\/+|\/+$/g, ''), p.id]));
  const filesByName = new Map(files.map((f) => [f.name, f.id]));
  const records = new Map<string, LinkRecord>();
  for (const page of pages) {
    for (const href of new Set(hrefsOf(page.markdown))) {
      const { status, target } = resolveTarget(href, page, pagesByPath, filesByName, appUrl, spaceId);
      const key = `${target.kind}:${target.page ?? target.file ?? target.url}`;
      const record = records.get(key) ?? { key, status, relation: 'reference' as const, targetReference: target, locationReferences: [] };
      if (!record.locationReferences.some((r) => r.page === page.id)) {
        record.locationReferences.push({ kind: 'page', page: page.id, space: spaceId });
      }
      records.set(key, record);
    }
  }
  return [...records.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** `GET /spaces/{id}/links`: keyset-paginated over the sorted target keys, with stats over all links. */
export async function listSpaceLinks(ctx: Context, spaceId: string, args: ListArgs & { status?: LinkStatus | null }) {
  const { space } = await spaceFor(ctx, spaceId, 'read');
  const limit = resolveLimit(args.limit);
  const after = args.page ? (decodeCursor(args.page, [{ field: 'key', direction: 'asc' }])[0] as string) : null;
  const revisionId = space.revisionId ?? '';
  const [pages, files] = await Promise.all([
    // Page bodies are content-addressed documents: joined in the same statement.
    ctx.db.page.findMany({
      relationLoadStrategy: 'join',
      where: { revisionId },
      select: { id: true, path: true, document: { select: { markdown: true } } },
    }),
    ctx.db.file.findMany({ where: { revisionId }, select: { id: true, name: true } }),
  ]);
  const bodies = pages.map((page) => ({ id: page.id, path: page.path, markdown: page.document?.markdown ?? '' }));
  const all = extractLinks(bodies, files, ctx.config.appUrl, space.id);
  const filtered = args.status ? all.filter((r) => r.status === args.status) : all;
  const remaining = after === null ? filtered : filtered.filter((r) => r.key > after);
  const items = remaining.slice(0, limit);
  const broken = all.filter((r) => r.status === 'broken').length;
  return {
    items,
    count: filtered.length,
    next: remaining.length > limit ? { page: encodeCursor([items[items.length - 1].key]) } : undefined,
    stats: { total: all.length, broken: { total: broken, changeRequest: 0 } },
  };
}
