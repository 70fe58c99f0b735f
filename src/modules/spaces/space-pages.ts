import type { Prisma } from '../../generated/prisma/client.ts';
import { viewerOf, type Context } from '../../core/context.ts';
import { primeSpaceGrants, viewerGrantsSelect } from '../../core/loaders.ts';
import { paginate, withRelations, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';

/**
 * A page of spaces as the viewer sees them: the page query also reads the viewer's grants on each
 * space (direct and through teams), which `permissions` needs, so a list costs its page and its count
 * whatever its length (the membership and the collection tree come with the access check).
 */
export async function viewerSpacePage(ctx: Context, options: { args: ListArgs; keys: SortKey[]; where: Prisma.SpaceWhereInput; query?: ItemQuery }) {
  const page = await paginate({
    ...options,
    model: ctx.db.space,
    query: withRelations(options.query, viewerGrantsSelect(viewerOf(ctx).user.id)),
  });
  return { ...page, items: primeSpaceGrants(ctx, page.items) };
}
