import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { variantSpaceIds } from '../sites/index.ts';
import type { ContentSource } from './content.service.ts';
import { hasOwnPage } from './page-json.ts';
import { revisionContent, revisionContents } from './store/revision-content.ts';

/**
 * A page's meta links (GitBook's RevisionPageMetaLinks): the same page in the space's other variants on
 * its sites — the page at the same path in each space that shares a site section with this one — as
 * `alternates` (a renderer's `<link rel="alternate">`). No canonical is set on pages here, so none is
 * given. Reads the trees of the variants' current revisions (cached: a revision never changes).
 */
export async function pageMetaLinks(ctx: Context, source: ContentSource, pageId: string) {
  const content = source.revisionId ? await revisionContent(ctx.db, ctx.db, source.revisionId) : null;
  const page = content?.page(pageId);
  if (!page || !hasOwnPage(page)) throw new NotFoundError(`Page "${pageId}" not found in this space`);
  const variantIds = await variantSpaceIds(ctx, source.space);
  if (variantIds.length === 0) return { alternates: [] };
  const variants = await ctx.db.space.findMany({ where: { id: { in: variantIds } }, select: { id: true, revisionId: true } });
  const contents = await revisionContents(ctx.db, ctx.db, variants.flatMap((v) => (v.revisionId ? [v.revisionId] : [])));
  const alternates = [];
  for (const id of variantIds) {
    const revisionId = variants.find((v) => v.id === id)?.revisionId;
    const same = revisionId ? contents.get(revisionId)?.pageAtPath(page.path) : undefined;
    if (same && hasOwnPage(same)) alternates.push({ kind: 'page' as const, page: same.id, space: id });
  }
  return { alternates };
}
