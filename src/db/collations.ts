// Column collations, which Prisma's schema language cannot state and its migration diff neither sees nor
// keeps. schema.prisma marks such a column with a `///` comment naming the collation, e.g.
//
//     /// Collation "C": order keys compare byte-wise.
//     position String @default("")
//
// and `npm run db:migrate:create` (src/cli/create-migration.ts) appends, to a migration that creates or
// retypes a marked column, the statement that gives it its collation back. test/platform/data-model.test.ts checks
// that every marked column of a migrated database has its collation.

export interface CollatedColumn {
  table: string;
  column: string;
  collation: string;
}

const MARKER = /^\s*\/\/\/.*\bCollation "([^"]+)"/;
const MODEL_START = /^\s*model\s+(\w+)\s*\{/;
const FIELD = /^\s*(\w+)\s+\w+/;
const MAP = /@map\(\s*"([^"]+)"\s*\)/;
const TABLE_MAP = /^\s*@@map\(\s*"([^"]+)"\s*\)/;

/** The columns marked with a collation in a Prisma schema (table and column as named in the database). */
export function collatedColumns(schema: string): CollatedColumn[] {
  const found: CollatedColumn[] = [];
  let model: { name: string; table: string; columns: { column: string; collation: string }[] } | null = null;
  let pending: string | null = null;
  for (const line of schema.split('\n')) {
    const start = MODEL_START.exec(line);
    if (start) {
      model = { name: start[1], table: start[1], columns: [] };
      pending = null;
      continue;
    }
    if (!model) continue;
    if (/^\s*\}/.test(line)) {
      for (const c of model.columns) found.push({ table: model.table, ...c });
      model = null;
      continue;
    }
    const marker = MARKER.exec(line);
    if (marker) {
      pending = marker[1];
      continue;
    }
    if (/^\s*\/\/\//.test(line)) continue; // the marker's comment may go on over several lines
    const tableMap = TABLE_MAP.exec(line);
    if (tableMap) model.table = tableMap[1];
    const field = FIELD.exec(line);
    if (pending && field && !line.trim().startsWith('//') && !line.trim().startsWith('@@')) {
      model.columns.push({ column: MAP.exec(line)?.[1] ?? field[1], collation: pending });
    }
    pending = null;
  }
  return found;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A text column's type as Prisma writes it: TEXT, VARCHAR(255), CHAR(3), TEXT[]…
const TYPE = String.raw`([A-Za-z]\w*(?:\(\d+\))?(?:\[\])?)`;

/**
 * Statements giving back their collation to the marked columns that `migrationSql` creates (CREATE TABLE,
 * ADD COLUMN) or retypes (ALTER COLUMN … SET DATA TYPE): each of those leaves the column with the
 * database's default collation.
 */
export function collationFixes(migrationSql: string, columns: CollatedColumn[]): string[] {
  const statements = migrationSql.split(/;\s*(?:\n|$)/);
  const fixes: string[] = [];
  for (const { table, column, collation } of columns) {
    const t = escape(quoted(table));
    const c = escape(quoted(column));
    let type: string | undefined;
    for (const statement of statements) {
      const definition =
        new RegExp(String.raw`^\s*(?:--[^\n]*\n\s*)*CREATE TABLE ${t} \(`).test(statement)
          ? new RegExp(String.raw`^\s*${c} ${TYPE}(?=[ ,\n]|$)`, 'm').exec(statement)
          : new RegExp(String.raw`^\s*(?:--[^\n]*\n\s*)*ALTER TABLE ${t}\s`).test(statement)
            ? new RegExp(String.raw`(?:ADD COLUMN\s+${c} |ALTER COLUMN ${c} SET DATA TYPE )${TYPE}(?=[ ,\n]|$)`).exec(statement)
            : null;
      if (definition) type = definition[1];
    }
    if (type) fixes.push(`ALTER TABLE ${quoted(table)} ALTER COLUMN ${quoted(column)} TYPE ${type} COLLATE ${quoted(collation)};`);
  }
  return fixes;
}
