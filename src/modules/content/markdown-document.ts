import { BadRequestError } from '../../core/errors.ts';
import { classifyHref, markdownParser } from './document-links.ts';

/**
 * A page's markdown as GitBook's structured document (`format=document`, GitBook's `JSONDocument`):
 * blocks, inlines, text leaves and marks, parsed by markdown-it (CommonMark plus GFM tables and
 * strikethrough) and mapped token by token. The mapping keeps to what GitBook's schema allows where
 * markdown allows more: headings stop at level 3 (h4–h6 become heading-3), images are inline images,
 * a code block or table inside a quote becomes a paragraph of its text.
 */
export interface JsonDocument {
  object: 'document';
  data: Record<string, never>;
  nodes: Block[];
}

type Mark = { object: 'mark'; type: 'bold' | 'italic' | 'code' | 'strikethrough' };
type Leaf = { object: 'leaf'; text: string; marks: Mark[] };
type Text = { object: 'text'; leaves: Leaf[] };
type Inline = { object: 'inline'; type: string; isVoid?: boolean; data: Record<string, unknown>; nodes?: (Text | Inline)[] };
type Block = { object: 'block'; type: string; isVoid?: boolean; data?: Record<string, unknown>; nodes?: unknown[]; fragments?: unknown[] };
const parser = markdownParser;
type Token = ReturnType<typeof parser.parse>[number];

const MARKS: Record<string, Mark['type']> = { strong: 'bold', em: 'italic', s: 'strikethrough' };

/**
 * A link or image target as a content reference. The writer stores links it resolved as `/pages/<id>`
 * (with an optional `#anchor`) and `/files/<id>`: those become page, anchor and file references. An
 * image can only reference a file or a URL (GitBook's schema), so an image of a page stays a URL.
 */
function refFor(href: string, image = false): Record<string, string> {
  const target = classifyHref(href);
  if (target?.kind === 'file') return { kind: 'file', file: target.file };
  if (!image && target?.kind === 'anchor') return { kind: 'anchor', anchor: target.anchor };
  if (!image && target?.kind === 'page') return target.anchor ? { kind: 'anchor', anchor: target.anchor, page: target.page } : { kind: 'page', page: target.page };
  return { kind: 'url', url: href || '#' };
}

/** Inline tokens (the children of one `inline` token) as text and inline nodes. */
function inlines(tokens: Token[]): (Text | Inline)[] {
  const out: (Text | Inline)[] = [];
  const marks: Mark['type'][] = [];
  const stack: { link: Inline; out: (Text | Inline)[] }[] = [];
  let target = out;
  const leaf = (text: string, extra: Mark['type'][] = []) => {
    if (!text) return;
    const last = target[target.length - 1];
    const node: Leaf = { object: 'leaf', text, marks: [...marks, ...extra].map((type) => ({ object: 'mark', type })) };
    if (last?.object === 'text') last.leaves.push(node);
    else target.push({ object: 'text', leaves: [node] });
  };
  for (const token of tokens) {
    const mark = MARKS[token.tag];
    if (token.type.endsWith('_open') && mark) marks.push(mark);
    else if (token.type.endsWith('_close') && mark) marks.splice(marks.lastIndexOf(mark), 1);
    else if (token.type === 'text' || token.type === 'html_inline') leaf(token.content);
    else if (token.type === 'code_inline') leaf(token.content, ['code']);
    else if (token.type === 'softbreak') leaf(' ');
    else if (token.type === 'hardbreak') leaf('\n');
    else if (token.type === 'image') {
      const data: Record<string, unknown> = { ref: refFor(String(token.attrGet('src') ?? ''), true) };
      const alt = token.children?.map((c: Token) => c.content).join('') ?? '';
      if (alt) data.alt = alt;
      target.push({ object: 'inline', type: 'inline-image', isVoid: true, data });
    } else if (token.type === 'link_open') {
      const link: Inline = { object: 'inline', type: 'link', data: { ref: refFor(String(token.attrGet('href') ?? '')) }, nodes: [] };
      target.push(link);
      stack.push({ link, out: target });
      target = link.nodes!;
    } else if (token.type === 'link_close' && stack.length) {
      target = stack.pop()!.out;
    }
  }
  return out;
}

/** The plain text of a block's tokens (for blocks GitBook does not allow where markdown put them). */
function plainText(tokens: Token[]): string {
  return tokens
    .map((t) => (t.type === 'inline' ? (t.children ?? []).map((c: Token) => (c.type === 'softbreak' ? ' ' : c.content)).join('') : t.type === 'fence' || t.type === 'code_block' ? t.content.replace(/\n$/, '') : ''))
    .filter(Boolean)
    .join('\n');
}

const paragraph = (nodes: (Text | Inline)[]): Block => ({ object: 'block', type: 'paragraph', nodes });

/** The index of the token closing the one opened at `start`. */
function closing(tokens: Token[], start: number): number {
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    depth += tokens[i].nesting;
    if (depth === 0) return i;
  }
  return tokens.length - 1;
}

function codeBlock(token: Token): Block {
  const syntax = token.info.trim().split(/\s+/)[0];
  const lines = token.content.replace(/\n$/, '').split('\n');
  return {
    object: 'block',
    type: 'code',
    data: syntax ? { syntax } : {},
    nodes: lines.map((line: string) => ({
      object: 'block',
      type: 'code-line',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }],
    })),
  };
}

function table(tokens: Token[]): Block {
  const rows: Token[][] = [];
  const aligns: string[] = [];
  let row: Token[] | null = null;
  for (const token of tokens) {
    if (token.type === 'tr_open') row = [];
    else if (token.type === 'tr_close' && row) rows.push(row), (row = null);
    else if (token.type === 'th_open') aligns.push(/text-align:(\w+)/.exec(String(token.attrGet('style') ?? ''))?.[1] ?? 'left');
    else if (token.type === 'inline' && row) row.push(token);
  }
  const [header = [], ...body] = rows;
  const columns = header.map((_, i) => `c${i}`);
  const fragments: unknown[] = [];
  const records: Record<string, unknown> = {};
  body.forEach((cells, r) => {
    const values: Record<string, string> = {};
    columns.forEach((column, c) => {
      const fragment = `r${r}${column}`;
      values[column] = fragment;
      fragments.push({ object: 'fragment', fragment, nodes: [paragraph(inlines(cells[c]?.children ?? []))] });
    });
    records[`r${r}`] = { orderIndex: `a${String(r).padStart(6, '0')}`, values };
  });
  const definition = Object.fromEntries(
    columns.map((id, i) => [
      id,
      { id, title: plainText([header[i]]), type: 'text', textAlignment: aligns[i] === 'center' || aligns[i] === 'right' ? aligns[i] : 'left' },
    ]),
  );
  return { object: 'block', type: 'table', isVoid: true, data: { view: { type: 'grid', columns, hideHeader: false }, records, definition }, fragments };
}

/** Block tokens from `start` to `end` (exclusive) as blocks; `inside` is the enclosing block type. */
function blocks(tokens: Token[], start: number, end: number, inside?: string): Block[] {
  const out: Block[] = [];
  for (let i = start; i < end; i++) {
    const token = tokens[i];
    const close = token.nesting === 1 ? closing(tokens, i) : i;
    const children = () => blocks(tokens, i + 1, close, token.type.replace(/_open$/, ''));
    const restricted = inside === 'blockquote';
    switch (token.type) {
      case 'paragraph_open':
        out.push(paragraph(inlines(tokens[i + 1]?.children ?? [])));
        break;
      case 'heading_open':
        out.push({ object: 'block', type: `heading-${Math.min(3, Number(token.tag.slice(1)))}`, data: {}, nodes: inlines(tokens[i + 1]?.children ?? []) });
        break;
      case 'bullet_list_open':
        out.push({ object: 'block', type: 'list-unordered', nodes: children() });
        break;
      case 'ordered_list_open': {
        const first = Number(token.attrGet('start') ?? 1);
        out.push({ object: 'block', type: 'list-ordered', data: first !== 1 ? { start: first } : {}, nodes: children() });
        break;
      }
      case 'list_item_open':
        out.push({ object: 'block', type: 'list-item', nodes: children() });
        break;
      case 'blockquote_open':
        out.push({ object: 'block', type: 'blockquote', nodes: children() });
        break;
      case 'fence':
      case 'code_block':
        out.push(restricted ? paragraph([{ object: 'text', leaves: [{ object: 'leaf', text: plainText([token]), marks: [{ object: 'mark', type: 'code' }] }] }]) : codeBlock(token));
        break;
      case 'table_open':
        out.push(restricted ? paragraph([{ object: 'text', leaves: [{ object: 'leaf', text: plainText(tokens.slice(i, close + 1)), marks: [] }] }]) : table(tokens.slice(i, close + 1)));
        break;
      case 'hr':
        out.push({ object: 'block', type: 'divider', isVoid: true, data: {} });
        break;
      case 'html_block':
        out.push(paragraph([{ object: 'text', leaves: [{ object: 'leaf', text: token.content.replace(/\n$/, ''), marks: [] }] }]));
        break;
    }
    i = close;
  }
  return out;
}

/**
 * The most nodes the documents answered to one request may hold together (a long page of prose has a
 * few thousand). A document is about 100 times the size of its markdown at worst — a table of 250,000
 * one-letter rows made 58 MB of JSON and 740 MB of memory — so past this a request is refused, naming
 * `format`: the markdown is always there.
 */
export const MAX_DOCUMENT_NODES = 100_000;

/** What is left of a request's document nodes (see MAX_DOCUMENT_NODES). */
export interface DocumentBudget {
  nodes: number;
}

const tooLarge = () =>
  new BadRequestError(`Invalid "format": too large to answer as documents (over ${MAX_DOCUMENT_NODES} nodes in this request): ask for format=markdown, or for fewer items`);

/**
 * The document of `markdown`, its nodes counted against `budget`: first by its lines and table cells
 * (each is at least a node) before it is parsed, then by its tokens before any node is built.
 */
export function markdownToDocument(markdown: string, budget: DocumentBudget = { nodes: MAX_DOCUMENT_NODES }): JsonDocument {
  if (atLeastNodes(markdown) > budget.nodes) throw tooLarge();
  const tokens = parser.parse(markdown, {});
  let size = tokens.length;
  for (const token of tokens) size += token.children?.length ?? 0;
  budget.nodes -= size;
  if (budget.nodes < 0) throw tooLarge();
  return { object: 'document', data: {}, nodes: blocks(tokens, 0, tokens.length) };
}

/** A lower bound of the nodes a document of `markdown` holds, read without parsing: its non-blank lines and table cells. */
function atLeastNodes(markdown: string): number {
  let lines = 0;
  let pipes = 0;
  let blank = true;
  for (let i = 0; i < markdown.length; i++) {
    const code = markdown.charCodeAt(i);
    if (code === 0x0a) {
      if (!blank) lines++;
      blank = true;
    } else if (code === 0x7c) {
      pipes++;
      blank = false;
    } else if (code !== 0x20 && code !== 0x09 && code !== 0x0d) blank = false;
  }
  return Math.max(lines + (blank ? 0 : 1), pipes / 2);
}
