import type { Context } from '../../core/context.ts';
import { visibleSpacesWhere } from '../content-access/index.ts';
import { conditionHolds } from './adaptive-content.ts';

/**
 * The other variants of a space on its sites: the spaces of the site spaces that share a section with
 * one of this space's site spaces (a language or version switcher shows them), each once, in the
 * section's order. A site's reader sees those of their site whose conditions hold for them; anyone
 * else those of spaces they may read. One statement (two for a member: their membership is loaded).
 */
export async function variantSpaceIds(ctx: Context, space: { id: string; organizationId: string }): Promise<string[]> {
  const reader = ctx.siteReader;
  const siblings = await ctx.db.siteSpace.findMany({
    relationLoadStrategy: 'join',
    where: {
      spaceId: { not: space.id },
      ...(reader ? { siteId: reader.siteId } : {}),
      space: { deletedAt: null, ...(reader ? {} : await visibleSpacesWhere(ctx, space.organizationId)) },
      section: { siteSpaces: { some: { spaceId: space.id, ...(reader ? { siteId: reader.siteId } : {}) } } },
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { spaceId: true, condition: true, section: { select: { condition: true } } },
  });
  const visible = reader ? siblings.filter((s) => conditionHolds(s.condition, reader.claims) && conditionHolds(s.section?.condition, reader.claims)) : siblings;
  return [...new Set(visible.map((s) => s.spaceId))];
}
