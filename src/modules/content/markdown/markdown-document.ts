import { BadRequestError } from '../../../core/errors.ts';
import { classifyHref, markdownParser } from './document-links.ts';

/**
 * A page's markdown as GitBook's structured document (`format=document`, GitBook's `JSONDocument`):
 * blocks, inlines, text leaves and marks, parsed by markdown-it (CommonMark plus GFM tables and
 * strikethrough, and GitBook's own blocks: hints, tabs, code options, embeds, content references,
 * files, expandables, math and task lists — gitbook-markdown-blocks.ts) and mapped token by token. The
 * mapping keeps to what GitBook's schema allows where markdown allows more: headings stop at level 3
 * (h4–h6 become heading-3), images are inline images (GitBook accepts them in a paragraph), and a block
 * GitBook does not accept where it stands takes a plainer form (`fit`): a code block or table inside a
 * quote or a hint becomes a paragraph of its text, tabs inside a hint their titles and contents.
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
    // `$$formula$$`: GitBook's inline math, but a link holds text and images only: there, its text.
    else if (token.type === 'math_inline') {
      if (stack.length) leaf(token.content);
      else target.push({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: token.content } });
    }
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

/**
 * The places that hold blocks, as GitBook's schema lays them out, and the block types (of those built
 * here) each accepts: `DocumentBlocksTopLevels`, and the `nodes` of `DocumentBlockQuote`,
 * `DocumentBlockListItem`, `DocumentBlockHint`, `DocumentBlockTabsItem` and the `expandable-body`
 * fragment of `DocumentBlockExpandable` (test/content/gitbook-markdown.test.ts reads them from GitBook's
 * OpenAPI document). Markdown nests anything anywhere; what GitBook does not accept where it stands is
 * given its plainer form (`plainer`).
 */
export type Place = 'document' | 'blockquote' | 'list-item' | 'hint' | 'tabs-item' | 'expandable-body';
const ESSENTIALS = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'];
export const ALLOWED: Record<Place, ReadonlySet<string>> = {
  document: new Set([...ESSENTIALS, 'blockquote', 'hint', 'images', 'file', 'embed', 'code', 'math', 'expandable', 'tabs', 'table', 'content-ref']),
  blockquote: new Set([...ESSENTIALS, 'blockquote']),
  'list-item': new Set([...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table']),
  hint: new Set([...ESSENTIALS, 'embed', 'table']),
  'tabs-item': new Set([...ESSENTIALS, 'content-ref', 'code', 'embed', 'file', 'images', 'hint', 'blockquote', 'math']),
  'expandable-body': new Set([...ESSENTIALS, 'file', 'images', 'code', 'table', 'hint', 'blockquote']),
};

const HINT_STYLES = new Set(['info', 'warning', 'danger', 'success']);

const text = (value: string, marks: Mark['type'][] = []): Text => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }] });
const textParagraph = (value: string, marks: Mark['type'][] = []): Block => paragraph([text(value, marks)]);
/** An empty paragraph: where GitBook's editor always has one (an empty hint, tab or expandable). */
const emptyParagraph = (): Block => textParagraph('');
const orEmpty = (nodes: Block[]): Block[] => (nodes.length ? nodes : [emptyParagraph()]);
const link = (ref: Record<string, string>, label: string): Inline => ({ object: 'inline', type: 'link', data: { ref }, nodes: [text(label)] });

/** The text of blocks (their leaves; a paragraph a line). */
function textOf(nodes: unknown[] | undefined): string {
  const lines: string[] = [];
  type Node = { object?: string; text?: string; leaves?: Node[]; nodes?: Node[] } | null | undefined;
  const walk = (node: Node, line: string[]): void => {
    if (node?.object === 'leaf') line.push(node.text ?? '');
    for (const leaf of node?.leaves ?? []) walk(leaf, line);
    for (const child of node?.nodes ?? []) walk(child, line);
  };
  for (const node of nodes ?? []) {
    const line: string[] = [];
    walk(node as Node, line);
    if (line.join('')) lines.push(line.join(''));
  }
  return lines.join('\n');
}

/** Plainer forms of void blocks holding no text of their own (embed, content-ref, file): a paragraph with a link. */
const plainForms = new WeakMap<Block, Block[]>();

/**
 * A block GitBook does not accept where it stands, as blocks it does: a container gives its content (a
 * tab or an expandable its title first, as a paragraph), code and tables a paragraph of their text, a
 * formula a paragraph holding it inline, a reference a paragraph with its link.
 */
function plainer(block: Block): Block[] {
  const nodes = (block.nodes ?? []) as Block[];
  switch (block.type) {
    case 'code':
      return [textParagraph(nodes.map((line) => textOf([line])).join('\n'), ['code'])];
    case 'table': {
      const titles = Object.values((block.data?.definition ?? {}) as Record<string, { title: string }>).map((column) => column.title);
      const cells = ((block.fragments ?? []) as { nodes: unknown[] }[]).map((fragment) => textOf(fragment.nodes));
      return [textParagraph([...titles, ...cells].filter(Boolean).join('\n'))];
    }
    case 'math':
      return [paragraph([{ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: String(block.data?.formula ?? '') } }])];
    case 'hint':
    case 'blockquote':
      return nodes;
    case 'tabs':
      return nodes.flatMap(plainer);
    case 'tabs-item': {
      const title = String(block.data?.title ?? '');
      return [...(title ? [textParagraph(title, ['bold'])] : []), ...nodes];
    }
    case 'expandable':
      return ((block.fragments ?? []) as { nodes: Block[] }[]).flatMap((fragment) => fragment.nodes);
    default:
      return plainForms.get(block) ?? [];
  }
}

/** `blocks` as they may stand in `place`: each GitBook does not accept there in its plainer form. */
function fit(blocks: Block[], place: Place): Block[] {
  const out: Block[] = [];
  for (const block of blocks) {
    if (ALLOWED[place].has(block.type)) out.push(block);
    else out.push(...fit(plainer(block), place));
  }
  return out;
}

/** The attributes of a GitBook block's opening tag (gitbook-markdown-blocks.ts): strings, as written. */
const attrsOf = (token: Token): Map<string, string> => (token.meta?.attrs as Map<string, string> | undefined) ?? new Map();

/** An attribute naming a link target, as markdown-it reads a link's (normalised), or null when it refuses it (`javascript:`…). */
function targetOf(value: string | undefined): string | null {
  if (!value) return null;
  const href = parser.normalizeLink(value.trim());
  return parser.validateLink(href) ? href : null;
}

const booleanOf = (value: string | undefined) => (value === 'true' ? true : value === 'false' ? false : undefined);

/** `{% code title="…" overflow="wrap" lineNumbers="true" %}` around a fence: the fence's code block with those options. */
function codeWithOptions(tokens: Token[], start: number, end: number): Block[] {
  const body = blocks(tokens, start + 1, end);
  const code = body.find((block) => block.type === 'code');
  if (!code) return body;
  const attrs = attrsOf(tokens[start]);
  const data = code.data as Record<string, unknown>;
  const title = attrs.get('title');
  const overflow = attrs.get('overflow');
  if (title !== undefined) data.title = title;
  if (overflow === 'wrap' || overflow === 'scroll') data.overflow = overflow;
  for (const option of ['lineNumbers', 'fullWidth'] as const) {
    const value = booleanOf(attrs.get(option));
    if (value !== undefined) data[option] = value;
  }
  return body;
}

/** `{% tabs %}`: its tabs; anything between them joins the tab before (or the first); without tabs, just that. */
function tabs(tokens: Token[], start: number, end: number): Block[] {
  const items: Block[] = [];
  const before: Block[] = [];
  for (let j = start + 1; j < end; j++) {
    const close = tokens[j].nesting === 1 ? closing(tokens, j) : j;
    if (tokens[j].type === 'gitbook_tab_open') {
      const title = attrsOf(tokens[j]).get('title');
      items.push({ object: 'block', type: 'tabs-item', data: title !== undefined ? { title } : {}, nodes: [...before.splice(0), ...blocks(tokens, j + 1, close)] });
    } else {
      (items.length ? (items[items.length - 1].nodes as Block[]) : before).push(...blocks(tokens, j, close + 1));
    }
    j = close;
  }
  if (!items.length) return before;
  for (const item of items) item.nodes = orEmpty(fit(item.nodes as Block[], 'tabs-item'));
  return [{ object: 'block', type: 'tabs', data: {}, nodes: items }];
}

/** `{% embed url="…" %}`: GitBook's embed holds its URL only; a caption stays in the markdown (and its plainer form). */
function embed(tokens: Token[], start: number, end: number): Block[] {
  const caption = blocks(tokens, start + 1, end);
  const url = targetOf(attrsOf(tokens[start]).get('url'));
  if (!url) return [textParagraph(tokens[start].markup), ...caption];
  const block: Block = { object: 'block', type: 'embed', isVoid: true, data: { url } };
  plainForms.set(block, [paragraph([link({ kind: 'url', url }, url)]), ...caption]);
  return [block];
}

/**
 * `{% content-ref url="…" %}[text](…){% endcontent-ref %}`: a reference like a link's. The writer
 * resolves the link inside (to `/pages/<id>`), not the attribute: a page, anchor or file either names
 * is taken first, the link's before the attribute's, then the attribute's URL.
 */
function contentRef(tokens: Token[], start: number, end: number): Block[] {
  let href: string | null = null;
  let label = '';
  for (let j = start + 1; j < end && href === null; j++) {
    const children = tokens[j].children ?? [];
    const at = children.findIndex((child: Token) => child.type === 'link_open');
    if (at < 0) continue;
    href = String(children[at].attrGet('href') ?? '');
    for (let k = at + 1; k < children.length && children[k].type !== 'link_close'; k++) label += children[k].content;
  }
  const url = targetOf(attrsOf(tokens[start]).get('url'));
  const candidates = [href, url].filter((candidate): candidate is string => !!candidate);
  if (!candidates.length) return [textParagraph(tokens[start].markup), ...blocks(tokens, start + 1, end)];
  const resolved = (candidate: string) => ['page', 'anchor', 'file'].includes(classifyHref(candidate)?.kind ?? 'url');
  const chosen = candidates.find(resolved) ?? url ?? candidates[0];
  const ref = refFor(chosen);
  const block: Block = { object: 'block', type: 'content-ref', isVoid: true, data: { ref } };
  plainForms.set(block, [paragraph([link(ref, label || url || chosen)])]);
  return [block];
}

/**
 * `{% file src="…" %}caption{% endfile %}`: GitBook's file block references a file of the space only
 * (`ContentRefFile`), so a `src` the writer resolved (`/files/<id>`) is one; any other is a paragraph
 * with a link to it. The caption has no place in GitBook's block: it stays in the markdown.
 */
function file(tokens: Token[], start: number, end: number): Block[] {
  const caption = blocks(tokens, start + 1, end);
  const written = attrsOf(tokens[start]).get('src');
  const src = targetOf(written);
  if (!src) return [textParagraph(tokens[start].markup), ...caption];
  const target = classifyHref(src);
  const label = textOf(caption) || written!;
  const linked = paragraph([link(refFor(src), label)]);
  if (target?.kind !== 'file') return [linked];
  const block: Block = { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: target.file } } };
  plainForms.set(block, [linked]);
  return [block];
}

/** `<details><summary>Title</summary> … </details>`: an expandable, its title and body as fragments. */
function expandable(tokens: Token[], start: number, end: number): Block {
  let bodyStart = start + 1;
  let title: Block = emptyParagraph();
  if (tokens[bodyStart]?.type === 'gitbook_summary_open') {
    const summary = tokens[bodyStart + 1]?.children ?? [];
    if (summary.length) title = paragraph(inlines(summary));
    bodyStart = closing(tokens, bodyStart) + 1;
  }
  const body = orEmpty(fit(blocks(tokens, bodyStart, end), 'expandable-body'));
  return {
    object: 'block',
    type: 'expandable',
    isVoid: true,
    data: attrsOf(tokens[start]).has('open') ? { defaultExpanded: true } : {},
    fragments: [
      { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [title] },
      { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: body },
    ],
  };
}

/**
 * Block tokens from `start` to `end` (exclusive) as blocks, each container's content fitted to what
 * GitBook accepts there (`fit`); the caller fits these to where they stand.
 */
function blocks(tokens: Token[], start: number, end: number): Block[] {
  const out: Block[] = [];
  for (let i = start; i < end; i++) {
    const token = tokens[i];
    const close = token.nesting === 1 ? closing(tokens, i) : i;
    const content = (place: Place) => fit(blocks(tokens, i + 1, close), place);
    switch (token.type) {
      case 'paragraph_open':
        out.push(paragraph(inlines(tokens[i + 1]?.children ?? [])));
        break;
      case 'heading_open':
        out.push({ object: 'block', type: `heading-${Math.min(3, Number(token.tag.slice(1)))}`, data: {}, nodes: inlines(tokens[i + 1]?.children ?? []) });
        break;
      case 'bullet_list_open':
        // A task list (every item starting with `[ ]` or `[x]`: gitbook-markdown-blocks.ts) is GitBook's list-tasks.
        out.push({ object: 'block', type: token.meta?.tasks ? 'list-tasks' : 'list-unordered', nodes: blocks(tokens, i + 1, close) });
        break;
      case 'ordered_list_open': {
        const first = Number(token.attrGet('start') ?? 1);
        out.push({ object: 'block', type: 'list-ordered', data: first !== 1 ? { start: first } : {}, nodes: blocks(tokens, i + 1, close) });
        break;
      }
      case 'list_item_open': {
        const item: Block = { object: 'block', type: 'list-item', nodes: content('list-item') };
        if (typeof token.meta?.checked === 'boolean') item.data = { checked: token.meta.checked };
        out.push(item);
        break;
      }
      case 'blockquote_open':
        out.push({ object: 'block', type: 'blockquote', nodes: content('blockquote') });
        break;
      case 'fence':
      case 'code_block':
        out.push(codeBlock(token));
        break;
      case 'table_open':
        out.push(table(tokens.slice(i, close + 1)));
        break;
      case 'hr':
        out.push({ object: 'block', type: 'divider', isVoid: true, data: {} });
        break;
      case 'html_block':
        out.push(textParagraph(token.content.replace(/\n$/, '')));
        break;
      case 'math_block':
        out.push({ object: 'block', type: 'math', isVoid: true, data: { formula: token.content } });
        break;
      case 'gitbook_hint_open': {
        // A style outside GitBook's four (or hostile: `style="<script>"`) is the default one.
        const style = attrsOf(token).get('style');
        out.push({ object: 'block', type: 'hint', data: { style: HINT_STYLES.has(style ?? '') ? style : 'info' }, nodes: orEmpty(content('hint')) });
        break;
      }
      case 'gitbook_tabs_open':
        out.push(...tabs(tokens, i, close));
        break;
      case 'gitbook_code_open':
        out.push(...codeWithOptions(tokens, i, close));
        break;
      case 'gitbook_embed_open':
        out.push(...embed(tokens, i, close));
        break;
      case 'gitbook_content_ref_open':
        out.push(...contentRef(tokens, i, close));
        break;
      case 'gitbook_file_open':
        out.push(...file(tokens, i, close));
        break;
      case 'gitbook_details_open':
        out.push(expandable(tokens, i, close));
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
  return { object: 'document', data: {}, nodes: fit(blocks(tokens, 0, tokens.length), 'document') };
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
