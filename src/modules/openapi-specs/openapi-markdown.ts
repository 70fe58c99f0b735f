import { MAX_PAGE_MARKDOWN } from '../content/index.ts';
/**
 * An OpenAPI document (3.0, 3.1 or Swagger 2.0, as parsed) as the markdown of a computed page: its
 * title and description, then its operations grouped by tag (in the document's tag order, untagged
 * ones last) — each with its method and path, summary, description, parameters (a table), request
 * body and responses (their schemas as JSON) — then, when `models` is on, its schemas. `$ref`s are
 * shown as written (`#/components/schemas/Pet`), so a recursive schema renders as it is declared.
 */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Doc = Record<string, any>;

interface Operation {
  method: string;
  path: string;
  op: Record<string, any>;
  shared: any[];
}

/** Pipes and line breaks would break a table cell (lines joined by one space, in linear time: see oneLine). */
const cell = (value: unknown) => oneLine(String(value ?? '').replace(/\|/g, '\\|'));

/** Lines joined by a space, the whitespace around each line break dropped (a regex for it rescans long runs of spaces). */
function oneLine(text: string): string {
  const lines = text.split('\n');
  return lines.map((line, i) => (i > 0 ? line.trimStart() : line)).map((line, i) => (i < lines.length - 1 ? line.trimEnd() : line)).join(' ');
}
const fence = (value: unknown) => ['```json', JSON.stringify(value, null, 2), '```'].join('\n');
const schemaOfParameter = (p: Record<string, any>) => p.schema?.type ?? p.type ?? (p.schema?.$ref ? String(p.schema.$ref).split('/').pop() : '') ?? '';

function operationsOf(doc: Doc): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths ?? {})) {
    for (const method of METHODS) {
      if (item?.[method]) operations.push({ method, path, op: item[method], shared: item.parameters ?? [] });
    }
  }
  return operations;
}

function parametersTable(parameters: any[]): string[] {
  const plain = parameters.filter((p) => p && p.in !== 'body' && !p.$ref);
  if (!plain.length) return [];
  return [
    '**Parameters**',
    '',
    '| Name | In | Type | Required | Description |',
    '| --- | --- | --- | --- | --- |',
    ...plain.map((p) => `| ${cell(p.name)} | ${cell(p.in)} | ${cell(schemaOfParameter(p))} | ${p.required ? 'yes' : 'no'} | ${cell(p.description)} |`),
    '',
  ];
}

function requestBody(op: Record<string, any>, parameters: any[]): string[] {
  const body = parameters.find((p) => p?.in === 'body');
  if (body) return ['**Request body**', '', fence(body.schema ?? {}), ''];
  const content = op.requestBody?.content as Record<string, { schema?: unknown }> | undefined;
  if (!content) return op.requestBody?.$ref ? ['**Request body**', '', fence(op.requestBody), ''] : [];
  return ['**Request body**', '', ...Object.entries(content).flatMap(([type, media]) => [`\`${type}\``, '', fence(media.schema ?? {}), ''])];
}

function responses(op: Record<string, any>): string[] {
  const entries = Object.entries<Record<string, any>>(op.responses ?? {});
  if (!entries.length) return [];
  const lines = ['**Responses**', '', '| Status | Description |', '| --- | --- |', ...entries.map(([status, r]) => `| ${cell(status)} | ${cell(r?.description ?? r?.$ref)} |`), ''];
  for (const [status, r] of entries) {
    const schemas = r?.content ? Object.entries<Record<string, any>>(r.content).filter(([, m]) => m?.schema) : r?.schema ? [['', { schema: r.schema }]] : [];
    for (const [type, media] of schemas as [string, Record<string, any>][]) lines.push(`${status}${type ? ` \`${type}\`` : ''}`, '', fence(media.schema), '');
  }
  return lines;
}

/**
 * The reference of a spec as markdown: description, operations by tag (each operation under each of its
 * tags, once), then the models. Cut at MAX_PAGE_MARKDOWN characters, with a note saying so: a computed
 * page is read like any page, and a spec of 5 MB can describe far more than a page holds.
 */
export function openApiMarkdown(doc: Doc, options: { models?: boolean } = {}): string {
  const lines = new BoundedLines(MAX_PAGE_MARKDOWN - CUT_NOTE.length);
  if (doc.info?.description) lines.push(String(doc.info.description), '');
  if (doc.info?.version) lines.push(`Version ${doc.info.version}`, '');
  const operations = operationsOf(doc);
  const declared = ((Array.isArray(doc.tags) ? doc.tags : []) as { name: string; description?: string }[]).filter((t) => t?.name);
  const declaredNames = new Set(declared.map((t) => t.name));
  // Operations by tag, grouped once (each operation once per tag).
  const byTag = new Map<string, Operation[]>();
  for (const operation of operations) {
    for (const tag of new Set(Array.isArray(operation.op.tags) ? (operation.op.tags as string[]) : [])) {
      const tagged = byTag.get(tag);
      if (tagged) tagged.push(operation);
      else byTag.set(tag, [operation]);
    }
  }
  const used = [...byTag.keys()].filter((name) => !declaredNames.has(name));
  const groups = [...declared, ...used.map((name) => ({ name, description: undefined }))];
  const untagged = operations.filter((o) => !o.op.tags?.length);
  const render = (heading: string, description: string | undefined, ops: Operation[]) => {
    if (!ops.length || lines.full) return;
    lines.push(`## ${heading}`, '');
    if (description) lines.push(description, '');
    for (const { method, path, op, shared } of ops) {
      if (lines.full) return;
      const parameters = [...shared, ...(op.parameters ?? [])];
      lines.push(`### ${method.toUpperCase()} ${path}`, '');
      if (op.summary) lines.push(`**${op.summary}**`, '');
      if (op.deprecated) lines.push('*Deprecated*', '');
      if (op.description) lines.push(String(op.description), '');
      // Lists, not spread arguments: an operation may have more parameters than a call takes arguments.
      for (const part of [parametersTable(parameters), requestBody(op, parameters), responses(op)]) lines.pushAll(part);
    }
  };
  for (const tag of groups) render(tag.name, tag.description, byTag.get(tag.name) ?? []);
  render('Other operations', undefined, untagged);
  if (options.models) {
    const schemas = { ...(doc.components?.schemas ?? {}), ...(doc.definitions ?? {}) } as Record<string, unknown>;
    if (Object.keys(schemas).length) {
      lines.push('## Models', '');
      for (const [name, schema] of Object.entries(schemas)) {
        if (lines.full) break;
        lines.push(`### ${name}`, '', fence(schema), '');
      }
    }
  }
  return lines.text().trim() + (lines.full ? `\n\n${CUT_NOTE}` : '') + '\n';
}

const CUT_NOTE = '*This reference is cut here: the spec describes more than one page holds.*';

/** Lines kept while they fit in `max` characters (joined by line breaks); `full` once one did not. */
class BoundedLines {
  private readonly lines: string[] = [];
  private size = 0;
  full = false;
  constructor(private readonly max: number) {}
  push(...lines: string[]) {
    this.pushAll(lines);
  }
  pushAll(lines: readonly string[]) {
    for (const line of lines) {
      if (this.full) return;
      if (this.size + line.length + 1 > this.max) {
        this.full = true;
        return;
      }
      this.lines.push(line);
      this.size += line.length + 1;
    }
  }
  text(): string {
    return this.lines.join('\n');
  }
}
