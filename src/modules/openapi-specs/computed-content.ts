import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.ts';
import { openApiMarkdown } from './openapi-markdown.ts';

/**
 * The content of a computed page (`builtin:openapi`): the markdown of the latest processed version of
 * the organization's spec the page names, made when the page is read with `computed` on. A version
 * never changes, so each instance keeps what it rendered (by version, bounded in memory).
 */
const rendered = new LRUCache<string, string>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (text) => text.length || 1 });

interface OpenApiSource {
  props?: { models?: boolean };
  dependencies?: { spec?: { ref?: { spec?: string } } };
}

export async function computedPageMarkdown(db: Db, organizationId: string, source: unknown): Promise<string> {
  const { props, dependencies } = (source ?? {}) as OpenApiSource;
  const slug = dependencies?.spec?.ref?.spec ?? '';
  // The version's ID first: its document (up to 10 MB) is read only when the rendering is not kept.
  const spec = await db.openAPISpec.findUnique({
    where: { organizationId_slug: { organizationId, slug } },
    select: { lastVersionId: true },
  });
  if (!spec) return `*The OpenAPI spec "${slug}" does not exist (any more) in this organization.*\n`;
  if (!spec.lastVersionId) return `*The OpenAPI spec "${slug}" has no processed version yet.*\n`;
  const key = `${spec.lastVersionId}:${props?.models ? 'models' : ''}`;
  let markdown = rendered.get(key);
  if (markdown === undefined) {
    const version = await db.openAPISpecVersion.findUnique({ where: { id: spec.lastVersionId }, select: { document: true } });
    if (!version) return `*The OpenAPI spec "${slug}" has no processed version yet.*\n`;
    markdown = openApiMarkdown(JSON.parse(version.document), { models: props?.models });
    rendered.set(key, markdown);
  }
  return markdown;
}
