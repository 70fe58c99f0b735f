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

/** Pipes and line breaks would break a table cell. */
const cell = (value: unknown) => String(value ?? '').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
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

export function openApiMarkdown(doc: Doc, options: { models?: boolean } = {}): string {
  const lines: string[] = [];
  if (doc.info?.description) lines.push(String(doc.info.description), '');
  if (doc.info?.version) lines.push(`Version ${doc.info.version}`, '');
  const operations = operationsOf(doc);
  const declared = ((doc.tags ?? []) as { name: string; description?: string }[]).filter((t) => t?.name);
  const used = [...new Set(operations.flatMap((o) => (o.op.tags?.length ? o.op.tags : [])))].filter((name) => !declared.some((t) => t.name === name));
  const groups = [...declared, ...used.map((name) => ({ name, description: undefined }))];
  const untagged = operations.filter((o) => !o.op.tags?.length);
  const render = (heading: string, description: string | undefined, ops: Operation[]) => {
    if (!ops.length) return;
    lines.push(`## ${heading}`, '');
    if (description) lines.push(description, '');
    for (const { method, path, op, shared } of ops) {
      const parameters = [...shared, ...(op.parameters ?? [])];
      lines.push(`### ${method.toUpperCase()} ${path}`, '');
      if (op.summary) lines.push(`**${op.summary}**`, '');
      if (op.deprecated) lines.push('*Deprecated*', '');
      if (op.description) lines.push(String(op.description), '');
      lines.push(...parametersTable(parameters), ...requestBody(op, parameters), ...responses(op));
    }
  };
  for (const tag of groups) render(tag.name, tag.description, operations.filter((o) => o.op.tags?.includes(tag.name)));
  render('Other operations', undefined, untagged);
  if (options.models) {
    const schemas = { ...(doc.components?.schemas ?? {}), ...(doc.definitions ?? {}) } as Record<string, unknown>;
    if (Object.keys(schemas).length) {
      lines.push('## Models', '');
      for (const [name, schema] of Object.entries(schemas)) lines.push(`### ${name}`, '', fence(schema), '');
    }
  }
  return lines.join('\n').trim() + '\n';
}
