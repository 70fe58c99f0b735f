import type { ObjectRef } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { builder } from './builder.ts';
import { constrained } from './constraints.ts';
import type { Context } from '../core/context.ts';
import { MAX_CURSOR_LENGTH } from '../core/pagination.ts';

/**
 * The documented list envelope `{ items, count, next: { page } }`, one object type per item type
 * (e.g. `MemberList`). `next` is only present when more items remain.
 */
export const ListNextRef = builder.objectRef<{ page: string }>('ListNext').implement({
  description: 'Where the following page starts: pass `page` back to get it',
  fields: (t) => ({ page: t.exposeString('page') }),
});

export function listType<T>(name: string, item: ObjectRef<any, T>, description?: string) {
  return builder.objectRef<{ items: T[]; count: number; next?: { page: string } }>(`${name}List`).implement({
    description: description ?? `A page of ${name} items`,
    fields: (t) => ({
      items: t.field({ type: [item], resolve: (page) => page.items }),
      count: t.exposeInt('count', { description: 'Total number of items matching the filters' }),
      next: t.field({ type: ListNextRef, nullable: true, resolve: (page) => page.next ?? null }),
    }),
  });
}

/** `page` and `limit`, accepted by every list field (root fields and graph fields alike). */
export const listArgs = builder.args((t) => ({
  page: t.string({ description: 'Cursor of the page to return (from `next.page`)', extensions: constrained({ maxLength: MAX_CURSOR_LENGTH }) }),
  limit: t.int({ description: 'Maximum number of items to return (1..1000, default 50)', extensions: constrained({ minimum: 1, maximum: 1000, default: 50 }) }),
}));

export const OrderEnum = builder.enumType('Order', { values: ['asc', 'desc'] as const });

/**
 * The Prisma `include`/`select` that the requested fields of a root field's record need (relations,
 * counts), for the query that loads it: the record and what its shape needs come in one statement.
 */
export function recordQuery(ctx: Context, info: GraphQLResolveInfo): { include?: unknown; select?: unknown } {
  return queryFromInfo({ context: ctx, info }) as { include?: unknown; select?: unknown };
}

/**
 * The same for the items of a list: the page query reads them with the rows instead of Pothos loading
 * them row by row afterwards. `path` leads to the Prisma object inside each item (e.g. `['items', 'space']`).
 */
export function listItemsQuery(ctx: Context, info: GraphQLResolveInfo, path = ['items']): { include?: unknown; select?: unknown } {
  return queryFromInfo({ context: ctx, info, path }) as { include?: unknown; select?: unknown };
}
