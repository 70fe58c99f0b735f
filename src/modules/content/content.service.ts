import type { Context } from '../../core/context.ts';
import { spaceFor } from '../spaces/content-access.ts';
import { pageTreeJson } from './page-json.ts';
import { buildPageTree } from './page-tree.ts';

/**
 * `GET /spaces/{id}/content/pages`: the page tree of the space's active revision, without bodies, in
 * one statement whatever its size.
 */
export async function listSpacePages(ctx: Context, spaceId: string): Promise<{ pages: object[] }> {
  const { space } = await spaceFor(ctx, spaceId, 'read');
  if (!space.revisionId) return { pages: [] };
  const rows = await ctx.db.page.findMany({ where: { revisionId: space.revisionId }, orderBy: [{ position: 'asc' }, { id: 'asc' }] });
  return { pages: pageTreeJson(buildPageTree(space.id, rows), ctx.config.appUrl) };
}
