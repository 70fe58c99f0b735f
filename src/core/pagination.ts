import { BadRequestError } from './errors.ts';
import { checkRange } from './validate.ts';

/**
 * Keyset pagination. Lists are ordered by a unique tuple of columns (the last one an ID, as tie-breaker);
 * the `page` cursor is the opaque encoding of the last row's tuple, and the next page is "rows strictly
 * after that tuple". Rows inserted between two requests therefore never shift a page: nothing is
 * skipped or repeated, unlike OFFSET pagination.
 */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

export interface SortKey {
  field: string;
  direction: 'asc' | 'desc';
  /** `real`: a PostgreSQL `real` (float4) as PostgreSQL writes it, e.g. a search rank; kept as text. */
  type?: 'string' | 'date' | 'real';
}

export interface ListArgs {
  page?: string | null;
  limit?: number | null;
}

export interface Page<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

type Where = Record<string, unknown>;

/** Relations and counts to read with every row of a page (a Prisma `include` or `select`). */
export type ItemQuery = { include?: unknown; select?: unknown };

/** `query` with more relations read alongside (added to its `select`, or to its `include`). */
export function withRelations(query: ItemQuery | undefined, relations: Record<string, unknown>): ItemQuery {
  if (query?.select) return { select: { ...(query.select as object), ...relations } };
  return { include: { ...((query?.include as object) ?? {}), ...relations } };
}

export function resolveLimit(limit: number | null | undefined): number {
  if (limit === undefined || limit === null) return DEFAULT_LIMIT;
  checkRange('limit', limit, 1, MAX_LIMIT);
  return limit;
}

export function encodeCursor(values: unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** Longest cursor we ever hand out is far below this; anything longer was not made by us. */
export const MAX_CURSOR_LENGTH = 2048;
const MAX_CURSOR_VALUE_LENGTH = 512;
/** Exactly what `Date.prototype.toISOString` writes for years 0000–9999 (PostgreSQL's range is wider). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The sort-key values held by a `page` cursor, validated whole — shape, types and ranges — before any of
 * them reaches SQL: a cursor is opaque to callers, so anything we did not write ourselves is a 400.
 */
export function decodeCursor(page: string, keys: SortKey[]): unknown[] {
  const invalid = () => new BadRequestError('Invalid "page": not a cursor returned by this list');
  if (page.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]*$/.test(page)) throw invalid();
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(values) || values.length !== keys.length) throw invalid();
  return values.map((value, i) => {
    if (typeof value !== 'string' || value.length > MAX_CURSOR_VALUE_LENGTH || value.includes('\u0000')) throw invalid();
    if (keys[i].type === 'real') {
      if (!isStorableReal(value)) throw invalid();
      return value;
    }
    if (keys[i].type !== 'date') return value;
    const date = new Date(value);
    if (!ISO_INSTANT.test(value) || Number.isNaN(date.getTime()) || date.toISOString() !== value) throw invalid();
    return date;
  });
}

/** Smallest and largest positive normal `real` values (PostgreSQL refuses text outside them as out of range). */
const REAL_MIN = 1.175494351e-38;
const REAL_MAX = 3.402823466e38;

/** A non-negative decimal that PostgreSQL reads as a `real` without an out-of-range error. */
function isStorableReal(text: string): boolean {
  if (!/^\d{1,40}(\.\d{1,40})?(e[-+]?\d{1,3})?$/.test(text)) return false;
  const value = Number(text);
  return value === 0 ? /^[0.]+(e[-+]?\d+)?$/.test(text) : value >= REAL_MIN && value <= REAL_MAX;
}

/** Prisma filter for "rows strictly after `values` in the order given by `keys`". */
export function afterCursorWhere(keys: SortKey[], values: unknown[]): Where {
  const alternatives: Where[] = keys.map((key, i) => {
    const clause: Where = {};
    for (let j = 0; j < i; j++) clause[keys[j].field] = values[j];
    clause[key.field] = { [key.direction === 'asc' ? 'gt' : 'lt']: values[i] };
    return clause;
  });
  return { OR: alternatives };
}

export function orderByKeys(keys: SortKey[]): Record<string, 'asc' | 'desc'>[] {
  return keys.map((k) => ({ [k.field]: k.direction }));
}

function cursorOf(row: Record<string, unknown>, keys: SortKey[]): string {
  return encodeCursor(
    keys.map((k) => {
      const value = row[k.field];
      return value instanceof Date ? value.toISOString() : String(value);
    }),
  );
}

type PageQuery = { where: Where; orderBy: Record<string, 'asc' | 'desc'>[]; take: number };

/** A Prisma model delegate, as far as paginating it goes. */
export interface PageableModel<T> {
  findMany(query: any): Promise<T[]>;
  count(query: any): Promise<number>;
}

/**
 * Runs one page query (limit + 1 rows, to know whether more remain) and one count query, on a Prisma
 * `model` — or with explicit `findMany` (complete Prisma arguments, e.g. to add an include) and `count`
 * (the filter alone).
 */
export async function paginate<T extends Record<string, unknown>>(
  options: {
    args: ListArgs;
    keys: SortKey[];
    where: Where;
    /**
     * Relations and counts the response needs for every row (Pothos `queryFromInfo` for the `items`),
     * read in the page query itself rather than row by row afterwards.
     */
    query?: ItemQuery;
  } & (
    | { model: PageableModel<T> }
    | { findMany: (query: PageQuery) => Promise<T[]>; count: (query: { where: Where }) => Promise<number> }
  ),
): Promise<Page<T>> {
  const { keys, where } = options;
  const findMany =
    'model' in options
      ? // Joins (LATERAL subqueries): the relations of the page come in the page's own statement.
        (q: PageQuery) => options.model.findMany({ relationLoadStrategy: 'join', ...options.query, ...q })
      : options.findMany;
  const countRows = 'model' in options ? (q: { where: Where }) => options.model.count(q) : options.count;
  const { limit, query } = pageQuery(options.args, keys, where);
  const [rows, total] = await Promise.all([findMany(query), countRows({ where })]);
  return toPage(rows, total, limit, keys);
}

/**
 * The page's Prisma arguments (rows after the cursor, in order, limit + 1 of them) for a query written
 * by hand — e.g. a parent row read with a page of one of its relations and that relation's filtered
 * `_count`, all in one statement; `toPage` then builds the envelope.
 */
export function pageQuery(args: ListArgs, keys: SortKey[], where: Where): { limit: number; query: PageQuery } {
  const limit = resolveLimit(args.limit);
  const pageWhere = args.page ? { AND: [where, afterCursorWhere(keys, decodeCursor(args.page, keys))] } : where;
  return { limit, query: { where: pageWhere, orderBy: orderByKeys(keys), take: limit + 1 } };
}

/** Builds the envelope from `limit + 1` fetched rows. */
export function toPage<T extends Record<string, unknown>>(rows: T[], count: number, limit: number, keys: SortKey[]): Page<T> {
  const items = rows.slice(0, limit);
  const page: Page<T> = { items, count };
  if (rows.length > limit) page.next = { page: cursorOf(items[items.length - 1], keys) };
  return page;
}
