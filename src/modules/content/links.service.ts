import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { decodeCursor, encodeCursor, resolveLimit, type ListArgs } from '../../core/pagination.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { ContentSource } from './content.service.ts';

/**
 * Links of a revision, read from the links stored with its page bodies (`DocumentLink`, written once
 * by `putDocuments`), grouped by target. Each read is one statement whatever the number of pages: the
 * pages of the revision joined to their documents' links, with the target page or file looked up in
 * the same revision. A target is `broken` when it names a page or file the revision lacks, or is a
 * relative link the writer could not resolve; `in-app` when it is a URL into this application (`APP_URL`);
 * `ok` otherwise (external URLs are not fetched; anchors are not checked against headings).
 */
export type LinkStatus = 'ok' | 'broken' | 'in-app';
export const LINK_STATUSES: readonly LinkStatus[] = ['ok', 'broken', 'in-app'];

/** GitBook's ContentRef: what a link points to, or where it is (a page). */
export interface ContentReference {
  kind: 'url' | 'page' | 'file' | 'anchor';
  url?: string;
  page?: string;
  file?: string;
  anchor?: string;
  space?: string;
}

export interface LinkRecord {
  key: string;
  status: LinkStatus;
  relation: 'reference';
  targetReference: ContentReference;
  locationReferences: ContentReference[];
}

export interface LinkStats {
  total: number;
  /** `changeRequest`: broken links a change request introduces (0 for a space's own content). */
  broken: { total: number; changeRequest: number };
}

export interface LinkList {
  items: LinkRecord[];
  count: number;
  next?: { page: string };
  stats: LinkStats;
}

/**
 * Records are ordered by their key (`page:<id>`, `file:<id>`, `url:<url>`, `anchor:<page>#<anchor>`).
 * A URL can be longer than a cursor value may be, so the order (and the cursor) is the key's first
 * characters, then its MD5 to break ties.
 */
const SORT_PREFIX = 200;
const CURSOR_KEYS = [
  { field: 'prefix', direction: 'asc' as const },
  { field: 'digest', direction: 'asc' as const },
];

interface RecordRow {
  key: string;
  status: LinkStatus;
  kind: ContentReference['kind'];
  page: string | null;
  file: string | null;
  url: string | null;
  anchor: string | null;
  locations: string[];
  prefix: string;
  digest: string;
}

interface LinksRow {
  found: boolean;
  total: number;
  broken: number;
  introduced: number;
  count: number;
  items: RecordRow[] | string | null;
}

function targetOf(row: RecordRow, spaceId: string): ContentReference {
  switch (row.kind) {
    case 'page':
      return { kind: 'page', page: row.page!, space: spaceId };
    case 'file':
      return { kind: 'file', file: row.file!, space: spaceId };
    case 'anchor':
      return { kind: 'anchor', anchor: row.anchor!, page: row.locations[0], space: spaceId };
    default:
      return { kind: 'url', url: row.url! };
  }
}

/**
 * The links of the source's revision (`GET /spaces/{id}/links`), or of one of its pages (`pageId`:
 * `GET …/content/page/{pageId}/links`, 404 when the revision has no such page), keyset-paginated over
 * the records, with `stats` over all of them. For a change request, `stats.broken.changeRequest`
 * counts the broken records that are not broken in the space revision it is based on: the broken links
 * it introduces (a new link to nowhere, or a page or file it deleted that is still linked to).
 */
export async function listLinks(
  ctx: Context,
  source: ContentSource,
  args: ListArgs & { status?: LinkStatus | null },
  pageId: string | null = null,
): Promise<LinkList> {
  const limit = resolveLimit(args.limit);
  const after = args.page ? (decodeCursor(args.page, CURSOR_KEYS) as [string, string]) : null;
  const revisionId = source.revisionId ?? '';
  const baseRevisionId = source.changeRequest?.baseRevisionId ?? null;
  const status = args.status ?? null;
  const [row] = await ctx.db.$queryRaw<LinksRow[]>(Prisma.sql`
    WITH pages AS (
      SELECT r."id" AS rev, it."item" ->> 'id' AS id, it."item" ->> 'type' AS type, it."item" ->> 'documentHash' AS "documentHash"
      FROM "Revision" r CROSS JOIN LATERAL content_items(r."pageTree") it
      WHERE r."id" IN (${revisionId}, ${baseRevisionId})
    ),
    files AS (
      SELECT r."id" AS rev, it."item" ->> 'id' AS id
      FROM "Revision" r CROSS JOIN LATERAL content_items(r."fileTree") it
      WHERE r."id" IN (${revisionId}, ${baseRevisionId})
    ),
    links AS (
      SELECT p.rev, p.id AS location, l."kind"::text AS kind, l."targetPageId", l."targetFileId", l."url", l."anchor",
        CASE l."kind"
          WHEN 'page' THEN 'page:' || l."targetPageId"
          WHEN 'file' THEN 'file:' || l."targetFileId"
          WHEN 'anchor' THEN 'anchor:' || p.id || '#' || l."anchor"
          ELSE 'url:' || l."url"
        END AS key,
        CASE
          WHEN l."kind" = 'page' THEN CASE WHEN tp.id IS NULL THEN 'broken' ELSE 'ok' END
          WHEN l."kind" = 'file' THEN CASE WHEN tf.id IS NULL THEN 'broken' ELSE 'ok' END
          WHEN l."kind" = 'anchor' THEN 'ok'
          WHEN l."relative" THEN 'broken'
          WHEN starts_with(l."url", ${`${ctx.config.appUrl}/`}) THEN 'in-app'
          ELSE 'ok'
        END AS status
      FROM pages p
      JOIN "DocumentLink" l ON l."documentHash" = p."documentHash"
      LEFT JOIN pages tp ON l."kind" = 'page' AND tp.rev = p.rev AND tp.id = l."targetPageId"
      LEFT JOIN files tf ON l."kind" = 'file' AND tf.rev = p.rev AND tf.id = l."targetFileId"
      WHERE p.type = 'document' AND (${pageId}::text IS NULL OR p.id = ${pageId})
    ),
    records AS (
      SELECT rev, key, min(status) AS status, min(kind) AS kind, min("targetPageId") AS page, min("targetFileId") AS file,
        min(url) AS url, min(anchor) AS anchor, array_agg(DISTINCT location) AS locations,
        left(key, ${SORT_PREFIX}) COLLATE "C" AS prefix, md5(key) AS digest
      FROM links GROUP BY rev, key
    ),
    current AS (SELECT * FROM records WHERE rev = ${revisionId}),
    listed AS (SELECT * FROM current WHERE ${status}::text IS NULL OR status = ${status})
    SELECT
      (${pageId}::text IS NULL OR EXISTS (SELECT 1 FROM pages WHERE rev = ${revisionId} AND id = ${pageId})) AS found,
      (SELECT count(*)::int FROM current) AS total,
      (SELECT count(*)::int FROM current WHERE status = 'broken') AS broken,
      (SELECT count(*)::int FROM current c WHERE ${baseRevisionId}::text IS NOT NULL AND c.status = 'broken'
        AND NOT EXISTS (SELECT 1 FROM records b WHERE b.rev = ${baseRevisionId} AND b.key = c.key AND b.status = 'broken')) AS introduced,
      (SELECT count(*)::int FROM listed) AS count,
      (SELECT json_agg(r ORDER BY r.prefix, r.digest) FROM (
        SELECT key, status, kind, page, file, url, anchor, locations, prefix, digest FROM listed
        WHERE ${after?.[0] ?? null}::text IS NULL OR (prefix, digest) > (${after?.[0] ?? null}::text COLLATE "C", ${after?.[1] ?? null}::text)
        ORDER BY prefix, digest LIMIT ${limit + 1}
      ) r)::text AS items`);
  if (!row.found) throw new NotFoundError(`Page "${pageId}" not found in this ${source.changeRequest ? 'change request' : 'space'}`);
  const rows: RecordRow[] = row.items ? JSON.parse(row.items as string) : [];
  const page = rows.slice(0, limit);
  const spaceId = source.space.id;
  const items = page.map(
    (r): LinkRecord => ({
      key: r.key,
      status: r.status,
      relation: 'reference',
      targetReference: targetOf(r, spaceId),
      locationReferences: [...r.locations].sort().map((location) => ({ kind: 'page', page: location, space: spaceId })),
    }),
  );
  const last = page[page.length - 1];
  return {
    items,
    count: row.count,
    next: rows.length > limit ? { page: encodeCursor([last.prefix, last.digest]) } : undefined,
    stats: { total: row.total, broken: { total: row.broken, changeRequest: row.introduced } },
  };
}

/** Where a file is linked from: a page of a revision (GitBook's ContentLocation, with IDs). */
export interface ContentLocation {
  kind: 'page';
  organization: string;
  space: string;
  page: string;
  versionContext: { type: 'revision'; revision: string } | { type: 'changeRequest'; changeRequest: string };
}

/**
 * `GET …/content/files/{fileId}/backlinks`: the pages of the revision that link to the file (a link or
 * an image), by page ID, paged. 404 when the revision has no such file. One statement: the reverse
 * lookup goes through the index on `DocumentLink.targetFileId`.
 */
export async function listFileBacklinks(ctx: Context, source: ContentSource, fileId: string, args: ListArgs) {
  const limit = resolveLimit(args.limit);
  const after = args.page ? (decodeCursor(args.page, [{ field: 'id', direction: 'asc' }])[0] as string) : null;
  const revisionId = source.revisionId ?? '';
  const [row] = await ctx.db.$queryRaw<{ found: boolean; count: number; items: string[] | null }[]>(Prisma.sql`
    WITH documents AS (
      SELECT DISTINCT l."documentHash" FROM "DocumentLink" l WHERE l."targetFileId" = ${fileId} AND l."kind" = 'file'
    ),
    locations AS (
      SELECT DISTINCT (e.item ->> 'id') COLLATE "C" AS id
      FROM "Revision" r
      CROSS JOIN LATERAL content_leaves(r."pageTree") lf
      JOIN "ContentNode" n ON n."hash" = lf."hash" AND n."documents" && ARRAY(SELECT "documentHash" FROM documents)
      CROSS JOIN LATERAL json_array_elements(n."items") AS e(item)
      WHERE r."id" = ${revisionId} AND e.item ->> 'type' = 'document' AND e.item ->> 'documentHash' IN (SELECT "documentHash" FROM documents)
    )
    SELECT
      EXISTS (SELECT 1 FROM "Revision" r CROSS JOIN LATERAL content_find(r."fileTree", ARRAY[${fileId}]::text[]) f WHERE r."id" = ${revisionId}) AS found,
      (SELECT count(*)::int FROM locations) AS count,
      (SELECT array_agg(id ORDER BY id) FROM (
        SELECT id FROM locations WHERE ${after}::text IS NULL OR id > ${after}::text COLLATE "C" ORDER BY id LIMIT ${limit + 1}
      ) x) AS items`);
  if (!row.found) throw new NotFoundError(`File "${fileId}" not found in this ${source.changeRequest ? 'change request' : 'space'}`);
  const ids = row.items ?? [];
  const page = ids.slice(0, limit);
  const { space, changeRequest } = source;
  const versionContext: ContentLocation['versionContext'] = changeRequest
    ? { type: 'changeRequest', changeRequest: changeRequest.id }
    : { type: 'revision', revision: revisionId };
  return {
    items: page.map((id): ContentLocation => ({ kind: 'page', organization: space.organizationId, space: space.id, page: id, versionContext })),
    count: row.count,
    next: ids.length > limit ? { page: encodeCursor([page[page.length - 1]]) } : undefined,
  };
}
