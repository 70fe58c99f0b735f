import type { ComponentChild, VNode } from 'preact';
import { safeResourceUrl } from './safe-url.ts';
import { cls, dataOf, isObj, list, MAX_TABLE_CELLS, MAX_TABLE_COLUMNS, positiveInt, str, textOf, tick, type Ctx, type Obj } from './document-kit.tsx';
import { link, refTarget, renderImage } from './inlines.tsx';
import { fragment } from './media.tsx';

// ---------------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------------

interface Row {
  id: string;
  values: Obj;
}

interface Column {
  id: string;
  title: string;
  type: string;
  definition: Obj;
  align?: string;
}

/**
 * A table block (GitBook's records and definition): the view's columns in order, records sorted by their
 * `orderIndex` (fractional indexes: compared as strings, code unit by code unit), text cells drawn from
 * the fragment their value names. A grid view is a `<table>` in a scrollable region; a cards view a grid
 * of cards.
 */
export function renderTable(node: Obj, ctx: Ctx, depth: number): VNode | null {
  const data = dataOf(node);
  const view = isObj(data.view) ? data.view : {};
  const definition = isObj(data.definition) ? data.definition : {};
  const ids = Array.isArray(view.columns) ? view.columns : Object.keys(definition);
  const columns: Column[] = [];
  const seenColumns = new Set<string>();
  for (const id of ids) {
    if (typeof id !== 'string' || seenColumns.has(id) || !isObj(definition[id]) || columns.length >= MAX_TABLE_COLUMNS) continue;
    seenColumns.add(id);
    const def = definition[id] as Obj;
    const align = def.textAlignment === 'center' || def.textAlignment === 'right' ? def.textAlignment : undefined;
    columns.push({ id, title: str(def.title) ?? '', type: str(def.type) ?? 'text', definition: def, align: align && `align-${align}` });
  }
  const records = isObj(data.records) ? data.records : {};
  const rows: (Row & { order: string })[] = [];
  for (const [id, record] of Object.entries(records)) {
    if (isObj(record)) rows.push({ id, order: str(record.orderIndex) ?? '', values: isObj(record.values) ? record.values : {} });
  }
  rows.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  if (columns.length && rows.length > MAX_TABLE_CELLS / columns.length) rows.length = Math.floor(MAX_TABLE_CELLS / columns.length);
  const fragments = new Map<string, Obj>();
  for (const f of list(node.fragments)) if (isObj(f) && typeof f.fragment === 'string' && !fragments.has(f.fragment)) fragments.set(f.fragment, f);
  const cell = (row: Row, column: Column) => renderCell(row.values[column.id], column, fragments, ctx, depth);

  if (view.type === 'cards') {
    const cellText = (row: Row, column: Column) => {
      const value = row.values[column.id];
      if (typeof value === 'string' && fragments.has(value)) return textOf(fragments.get(value)!.nodes, ctx).trim();
      return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
    };
    return renderCards(view, rows, columns, ctx, cell, cellText);
  }

  const { spans, covered } = cellMerges(data.cellMerges, rows, columns);
  const body = rows.map((row, r) => {
    if (!tick(ctx)) return null;
    return (
      <tr>
        {columns.map((column, c) => {
          if (covered.has(r * columns.length + c)) return null;
          const span = spans.get(r * columns.length + c);
          return (
            <td class={column.align} rowSpan={span?.rowSpan} colSpan={span?.colSpan}>
              {cell(row, column)}
            </td>
          );
        })}
      </tr>
    );
  });
  if (ctx.dry) return null;
  // A scrollable region must take the focus (keyboard scrolling), and a region needs a name, unique in the page.
  return (
    <div class="table-wrapper" role="region" aria-label={`Table ${++ctx.tables}`} tabIndex={0}>
      <table>
        {view.hideHeader !== true && (
          <thead>
            <tr>
              {columns.map((column) => (
                <th scope="col" class={column.align}>
                  {column.title}
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>{body}</tbody>
      </table>
    </div>
  );
}

/**
 * Merged cells (`cellMerges`: an anchor record and column, spans of rows and columns in the drawn order):
 * the anchor cell's spans, and the cells it covers (not drawn). A merge that leaves the table or overlaps
 * another is ignored; merges are read only while their cells add up to no more than the table's.
 */
function cellMerges(merges: unknown, rows: { id: string }[], columns: Column[]) {
  const spans = new Map<number, { rowSpan?: number; colSpan?: number }>();
  const covered = new Set<number>();
  if (!Array.isArray(merges) || !rows.length || !columns.length) return { spans, covered };
  const rowIndex = new Map(rows.map((row, i) => [row.id, i]));
  const columnIndex = new Map(columns.map((column, i) => [column.id, i]));
  const width = columns.length;
  let area = 0;
  for (const merge of merges) {
    if (!isObj(merge) || !isObj(merge.anchor)) continue;
    const r = rowIndex.get(merge.anchor.record as string);
    const c = columnIndex.get(merge.anchor.column as string);
    const rowSpan = Math.min(positiveInt(merge.rowSpan) ?? 1, 50);
    const colSpan = Math.min(positiveInt(merge.colSpan) ?? 1, 50);
    if (r === undefined || c === undefined || r + rowSpan > rows.length || c + colSpan > width || rowSpan * colSpan === 1) continue;
    area += rowSpan * colSpan;
    if (area > rows.length * width) break;
    const cells: number[] = [];
    for (let i = r; i < r + rowSpan; i++) for (let j = c; j < c + colSpan; j++) cells.push(i * width + j);
    if (cells.some((index) => covered.has(index) || spans.has(index))) continue;
    spans.set(cells[0], { rowSpan: rowSpan > 1 ? rowSpan : undefined, colSpan: colSpan > 1 ? colSpan : undefined });
    for (const index of cells.slice(1)) covered.add(index);
  }
  return { spans, covered };
}

function renderCards(view: Obj, rows: Row[], columns: Column[], ctx: Ctx, cell: (row: Row, column: Column) => ComponentChild, cellText: (row: Row, column: Column) => string): VNode | null {
  const target = str(view.targetDefinition);
  const cover = str(view.coverDefinition);
  const shown = columns.filter((column) => column.id !== cover && column.id !== target);
  const cards = rows.map((row) => {
    if (!tick(ctx)) return null;
    const fields = shown.map((column) => <div class={cls('card-field', column.align)}>{cell(row, column)}</div>);
    if (ctx.dry) return null;
    const coverValue = cover ? row.values[cover] : undefined;
    const coverData = isObj(coverValue) && isObj(coverValue.ref) ? coverValue : { ref: coverValue };
    const href = target ? refTarget(row.values[target], ctx) : null;
    // The whole card is the link (CSS stretches it over the card), named by the card's first field.
    const label = (shown.length ? cellText(row, shown[0]) : '').slice(0, 200) || 'Open';
    return (
      <div class="card">
        {cover && renderImage(coverData, ctx, 'card-cover')}
        {fields}
        {href && link(href, <span class="visually-hidden">{label}</span>, 'card-target')}
      </div>
    );
  });
  if (ctx.dry) return null;
  return <div class={cls('cards', view.cardSize === 'large' ? 'cards-large' : 'cards-medium')}>{cards}</div>;
}

/** One cell's value, drawn by its column's type. */
function renderCell(value: unknown, column: Column, fragments: Map<string, Obj>, ctx: Ctx, depth: number): ComponentChild {
  if (typeof value === 'string' && fragments.has(value)) return ctx.blocks(fragments.get(value)!.nodes, ctx, depth + 1);
  if (ctx.dry) return null;
  // A checkbox column draws a box in every row (unchecked when the record has no value).
  if (column.type === 'checkbox') return <input type="checkbox" disabled checked={value === true} aria-label={column.title || 'Checked'} />;
  if (value === undefined || value === null) return null;
  switch (column.type) {
    case 'rating': {
      const max = Math.min(positiveInt(column.definition.max) ?? 5, 10);
      const rating = typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.min(max, Math.round(value))) : 0;
      return (
        <span class="rating" role="img" aria-label={`${rating} out of ${max}`}>
          {'★'.repeat(rating) + '☆'.repeat(max - rating)}
        </span>
      );
    }
    case 'select': {
      const options = list(column.definition.options).filter(isObj);
      return list(value).map((v) => {
        const option = options.find((o) => o.value === v);
        const label = str(option?.label) ?? (typeof v === 'string' ? v : null);
        return label ? <span class="tag">{label}</span> : null;
      });
    }
    case 'files':
      return list(value).map((id) => {
        const file = typeof id === 'string' ? ctx.resolve.file(id) : null;
        const href = file ? safeResourceUrl(file.url) : null;
        return file && href ? <a href={href} class="cell-file" download={file.name || true}>{file.name || 'File'}</a> : null;
      });
    case 'content-ref': {
      if (!isObj(value)) return null;
      const target = refTarget(value, ctx);
      const page = str(value.page);
      const title = (page && ctx.resolve.pageTitle(page)) || (value.kind === 'file' && typeof value.file === 'string' ? ctx.resolve.file(value.file)?.name : null) || target?.href;
      return target && title ? link(target, title) : null;
    }
    case 'image':
      return renderImage(isObj(value) && isObj(value.ref) ? value : { ref: value }, ctx, 'cell-image');
    case 'users':
      return null;
    default:
      return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
  }
}
