import type { Db } from '../../db/client.ts';
import type { ComputedContentRenderer } from '../domain-module.ts';

/**
 * Computed pages (`type: "computed"`): their content is made when read, from a source another module
 * knows (`builtin:openapi`: an OpenAPI spec of the organization). That module declares how to render
 * its source type (`DomainModule.computedContent`); content asks here, without importing it.
 */
export type { ComputedContentRenderer } from '../domain-module.ts';

const renderers = new Map<string, ComputedContentRenderer>();

export function registerComputedContent(type: string, render: ComputedContentRenderer): void {
  renderers.set(type, render);
}

/** The markdown of a computed page's source, by its `type`. */
export async function computedMarkdown(db: Db, organizationId: string, source: unknown): Promise<string> {
  const type = (source as { type?: unknown } | null)?.type;
  const render = typeof type === 'string' ? renderers.get(type) : undefined;
  if (!render) return `*This page is computed from a source this server cannot read (${JSON.stringify(type ?? null)}).*\n`;
  return render(db, organizationId, source);
}
