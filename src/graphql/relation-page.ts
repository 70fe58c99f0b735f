import DataLoader from 'dataloader';
import { afterCursorWhere, decodeCursor, orderByKeys, resolveLimit, toPage, type ListArgs, type Page, type SortKey } from '../core/pagination.ts';
import type { Context } from '../core/context.ts';
import { keyedLoader } from '../core/loaders.ts';

/**
 * Paginated one-to-many lists on graph fields (e.g. `Organization.members`), batched: a query over
 * 50 organizations asks Prisma once for all 50 parents with a nested, limited relation read and a
 * filtered relation count, instead of running one list query per parent.
 */
export interface RelationPageSpec<Args extends ListArgs> {
  /** Unique name of this graph field, e.g. "Organization.members". */
  name: string;
  /** Prisma model delegate of the parent, e.g. "organization". */
  parentModel: string;
  /** Relation field on the parent, e.g. "members". */
  relation: string;
  keys: (args: Args) => SortKey[];
  /** Filter on the related rows (without the parent link, which the relation provides). */
  where: (args: Args) => Record<string, unknown>;
}

export function loadRelationPage<Args extends ListArgs>(
  ctx: Context,
  spec: RelationPageSpec<Args>,
  parentId: string,
  args: Args,
  /** What each item needs beyond its own columns (Pothos `queryFromInfo` for `items`). */
  itemQuery: { include?: unknown; select?: unknown } = {},
): Promise<Page<any>> {
  // One loader per field and argument set (every parent in the batch shares the same arguments), kept
  // in the request's loaders like every other per-request cache.
  const loader = keyedLoader(ctx, `${spec.name}:${JSON.stringify(args)}`, () =>
    new DataLoader<string, Page<any>>((parentIds) => loadPages(ctx, spec, args, itemQuery, parentIds)),
  );
  return loader.load(parentId);
}

async function loadPages<Args extends ListArgs>(
  ctx: Context,
  spec: RelationPageSpec<Args>,
  args: Args,
  itemQuery: { include?: unknown; select?: unknown },
  parentIds: readonly string[],
) {
  const keys = spec.keys(args);
  const limit = resolveLimit(args.limit);
  const where = spec.where(args);
  const pageWhere = args.page ? { AND: [where, afterCursorWhere(keys, decodeCursor(args.page, keys))] } : where;
  // Prisma delegates are not generic over the model name; the spec names a real model and relation.
  const delegate = (ctx.db as any)[spec.parentModel];
  const parents: any[] = await delegate.findMany({
    // Joins (LATERAL subqueries) apply `take` and the count per parent inside the one statement; the
    // default strategy would read every related row of every parent and cut the pages in memory.
    relationLoadStrategy: 'join',
    where: { id: { in: [...parentIds] } },
    select: {
      id: true,
      [spec.relation]: { ...itemQuery, where: pageWhere, orderBy: orderByKeys(keys), take: limit + 1 },
      _count: { select: { [spec.relation]: { where } } },
    },
  });
  const byId = new Map(parents.map((p) => [p.id, p]));
  return parentIds.map((id) => {
    const parent = byId.get(id);
    return parent ? toPage(parent[spec.relation], parent._count[spec.relation], limit, keys) : { items: [], count: 0 };
  });
}
