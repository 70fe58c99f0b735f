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
  const spec = await db.openAPISpec.findUnique({
    where: { organizationId_slug: { organizationId, slug } },
    select: { lastVersion: { select: { id: true, document: true } } },
  });
  if (!spec) return `*The OpenAPI spec "${slug}" does not exist (any more) in this organization.*\n`;
  if (!spec.lastVersion) return `*The OpenAPI spec "${slug}" has no processed version yet.*\n`;
  const key = `${spec.lastVersion.id}:${props?.models ? 'models' : ''}`;
  let markdown = rendered.get(key);
  if (markdown === undefined) {
    markdown = openApiMarkdown(JSON.parse(spec.lastVersion.document), { models: props?.models });
    rendered.set(key, markdown);
  }
  return markdown;
}
