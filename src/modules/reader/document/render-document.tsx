import type { ComponentChild, VNode } from 'preact';
import { HeadingAnchors } from '../../../lib/heading-anchors.ts';
import { highlightLanguage, highlightLines, MAX_HIGHLIGHT_CHARS, syntaxClassName } from './highlight.tsx';
import { renderMath, type MathCache } from './math.tsx';
import { safeAbsoluteUrl, safeLinkHref, safeResourceUrl, type SafeHref } from './safe-url.ts';

export { documentCss, katexCss, katexFontFile, katexFontsDir } from './document-assets.ts';

/**
 * One page's document (GitBook's `JSONDocument`: blocks, inlines, text leaves and marks) as server-rendered
 * HTML for the reader of published sites.
 *
 * - Everything a document says reaches the page through JSX, escaped by the renderer: no HTML is built
 *   from document text. The one exception is KaTeX's output for math (math.tsx).
 * - A document is data written by anyone who may edit a page, and stored documents may come from older
 *   or newer schemas: every field's type is checked where it is read, a shape not understood renders its
 *   text (an unknown block type: a paragraph of its text), and nothing throws.
 * - Bounded work: one pass over the nodes (tables sort their rows), block nesting cut at MAX_DEPTH (deeper
 *   content is drawn as the text of the block at that depth, read without recursion), inline nesting at
 *   MAX_INLINE_DEPTH, and at most MAX_VISITS nodes visited in all (a document built in memory can share
 *   subtrees; a parsed one cannot).
 * - URLs: links only to http(s), `mailto:` or relative targets; images and embeds only from absolute
 *   http(s) URLs or the resolver's files (safe-url.ts).
 *
 * Element ids: headings get slugs of their text (`getting-started`, `getting-started-1` — the anchors
 * site search links to, search/page-sections.ts), which are lower-case letters, digits and dashes. The
 * ids of tabs and task items contain `_` (`tab_1_0`, `task_3`), which no slug has: the two never collide.
 */

/** What DocumentView renders: a JSON document as stored (any shape is accepted; see above). */
export interface JsonDocument {
  object?: unknown;
  data?: unknown;
  nodes?: unknown;
}

export interface DocumentResolver {
  /** href of a page (and optional anchor) of the same site, or null when the page is not readable (render the text without a link). */
  pageHref(pageId: string, anchor?: string): string | null;
  /** A file's signed URL and facts, or null when unknown. */
  file(fileId: string): { url: string; name: string; contentType?: string | null; size?: number | null; width?: number | null; height?: number | null } | null;
  /** Title of a page (content-ref cards). */
  pageTitle(pageId: string): string | null;
}

export interface DocumentHeading {
  id: string;
  title: string;
  level: 1 | 2 | 3;
}

/** Block nesting drawn as elements; a block deeper than this is drawn as a paragraph of its text. */
export const MAX_DEPTH = 50;
/** Inline nesting (links in links …) drawn as elements; deeper inlines are drawn as their text. */
const MAX_INLINE_DEPTH = 16;
/**
 * Nodes visited in one rendering at most: a stored document has at most 100,000 nodes (leaves and
 * marks aside), so this only stops documents built in memory with shared subtrees (2^n paths).
 */
const MAX_VISITS = 1_000_000;
/** Code highlighted in one document at most, in characters (highlight.js takes about 4 ms per KB): past it, code blocks are plain. */
const MAX_DOCUMENT_HIGHLIGHT = 250_000;
/** Table cells drawn at most per table (a table is records × columns: a few nodes can ask for many cells). */
const MAX_TABLE_CELLS = 200_000;
/** Table columns drawn at most. */
const MAX_TABLE_COLUMNS = 100;

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const dataOf = (node: Obj): Obj => (isObj(node.data) ? node.data : {});
const cls = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(' ') || undefined;
const positiveInt = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 100_000 ? value : undefined);

/** The state of one rendering. */
interface Ctx {
  resolve: DocumentResolver;
  /** documentHeadings: only the structure matters (no highlighting, no math, no resolver). */
  dry: boolean;
  headings: DocumentHeading[];
  /** Heading ids given, and per slug the next suffix to try (keeps repeated titles linear). */
  /** The page's heading anchors: the same as site search's (lib/heading-anchors.ts). */
  anchors: HeadingAnchors;
  /** Counter for the ids of tabs and task items. */
  ids: number;
  /** Counter of tables (their scrollable regions are named `Table 1`, `Table 2` …). */
  tables: number;
  visits: number;
  truncated: boolean;
  highlighted: number;
  math: MathCache;
}

const NO_RESOLVER: DocumentResolver = { pageHref: () => null, file: () => null, pageTitle: () => null };

function newCtx(resolve: DocumentResolver, dry: boolean): Ctx {
  return { resolve, dry, headings: [], anchors: new HeadingAnchors(), ids: 0, tables: 0, visits: 0, truncated: false, highlighted: 0, math: new Map() };
}

/** Counts a visited node; false once the rendering has visited MAX_VISITS (the rest is not drawn). */
function tick(ctx: Ctx, n = 1): boolean {
  ctx.visits += n;
  if (ctx.visits <= MAX_VISITS) return true;
  ctx.truncated = true;
  return false;
}

// ---------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------

/** The document as HTML: `<div class="document">` and its blocks. */
export function DocumentView(props: { document: JsonDocument; resolve: DocumentResolver }): VNode {
  const ctx = newCtx(props.resolve, false);
  const blocks = renderBlocks(isObj(props.document) ? props.document.nodes : undefined, ctx, 0);
  return (
    <div class="document">
      {blocks}
      {ctx.truncated && <p class="document-truncated">The rest of this page is too large to be shown.</p>}
    </div>
  );
}

/**
 * The headings, in order, with the ids DocumentView gives them (for the table of contents): unique slug
 * ids from the text (`getting-started`, `getting-started-1`, …). Every heading DocumentView draws with an
 * id is listed, at any depth (in a hint, a list, a tab, an expandable …): the same walk decides both.
 */
export function documentHeadings(document: JsonDocument): DocumentHeading[] {
  const ctx = newCtx(NO_RESOLVER, true);
  renderBlocks(isObj(document) ? document.nodes : undefined, ctx, 0);
  return ctx.headings;
}

/** File ids and page ids the document references (the caller loads them in one query before rendering). */
export function documentReferences(document: JsonDocument): { files: string[]; pages: string[] } {
  const files = new Set<string>();
  const pages = new Set<string>();
  const addRef = (ref: unknown) => {
    if (!isObj(ref)) return;
    if (ref.kind === 'file' && typeof ref.file === 'string') files.add(ref.file);
    else if ((ref.kind === 'page' || ref.kind === 'anchor') && typeof ref.page === 'string') pages.add(ref.page);
  };
  const seen = new Set<object>();
  const stack: unknown[] = [isObj(document) ? document.nodes : undefined];
  let visits = 0;
  while (stack.length && visits++ < MAX_VISITS) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    if (!isObj(node) || seen.has(node)) continue;
    seen.add(node);
    const data = dataOf(node);
    addRef(data.ref);
    addRef(data.refDark);
    if (node.type === 'table') {
      const definition = isObj(data.definition) ? data.definition : {};
      const records = isObj(data.records) ? data.records : {};
      for (const record of Object.values(records)) {
        if (!isObj(record) || !isObj(record.values)) continue;
        for (const [column, value] of Object.entries(record.values)) {
          const type = isObj(definition[column]) ? definition[column].type : undefined;
          if (type === 'files') for (const id of list(value)) if (typeof id === 'string') files.add(id);
          if (isObj(value)) (isObj(value.ref) ? addRef(value.ref) : addRef(value));
        }
      }
    }
    if (node.object !== 'text' && node.object !== 'leaf') {
      stack.push(node.fragments);
      stack.push(node.nodes);
    }
  }
  return { files: [...files], pages: [...pages] };
}

// ---------------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------------

/**
 * The text of a node (or an array of nodes): its leaves in order, with image alternatives and emojis;
 * blocks (and their fragments) separated by a space. Iterative and cycle-safe, so a node of any depth
 * or shape has a text.
 */
function textOf(root: unknown, ctx: Ctx | null): string {
  const parts: string[] = [];
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node === 'string') {
      parts.push(node);
      continue;
    }
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    if (!isObj(node) || seen.has(node)) continue;
    seen.add(node);
    if (ctx && !tick(ctx)) break;
    if (node.object === 'leaf') {
      if (typeof node.text === 'string') parts.push(node.text);
    } else if (node.object === 'text') {
      stack.push(node.leaves);
    } else if (node.object === 'inline') {
      const data = dataOf(node);
      if (node.type === 'inline-image' && typeof data.alt === 'string') parts.push(data.alt);
      else if (node.type === 'emoji') parts.push(emojiOf(data.code) ?? '');
      else stack.push(node.nodes);
    } else if (node.object === 'fragment') {
      stack.push(node.nodes);
    } else {
      stack.push(' ', node.fragments, node.nodes);
    }
  }
  return parts.join('');
}

/** Text with its line breaks (a markdown hard break is a `\n` in a leaf) as `<br>`. */
function withBreaks(text: string): ComponentChild {
  if (!text.includes('\n')) return text;
  const out: ComponentChild[] = [];
  text.split('\n').forEach((part, i) => {
    if (i > 0) out.push(<br />);
    if (part) out.push(part);
  });
  return out;
}

/** An emoji from GitBook's code (hex code points joined by `-`, e.g. `1f44d` or `1f469-200d-1f4bb`). */
function emojiOf(code: unknown): string | null {
  if (typeof code !== 'string' || !/^[0-9a-f]{1,6}(-[0-9a-f]{1,6}){0,9}$/i.test(code)) return null;
  const points = code.split('-').map((hex) => parseInt(hex, 16));
  if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return null;
  return String.fromCodePoint(...points);
}

// ---------------------------------------------------------------------------------------------------
// Headings
// ---------------------------------------------------------------------------------------------------

function renderHeading(node: Obj, level: 1 | 2 | 3, ctx: Ctx): VNode | null {
  const text = textOf(node.nodes, null).trim();
  const id = ctx.anchors.next(text);
  ctx.headings.push({ id, title: text.replace(/\s+/g, ' '), level });
  if (ctx.dry) return null;
  const content = [
    renderInlines(node.nodes, ctx, 0, false),
    <a class="anchor" href={`#${id}`} aria-label="Link to this section">
      #
    </a>,
  ];
  const className = alignClass(dataOf(node).align);
  if (level === 1) return <h2 id={id} class={className}>{content}</h2>;
  if (level === 2) return <h3 id={id} class={className}>{content}</h3>;
  return <h4 id={id} class={className}>{content}</h4>;
}

function alignClass(align: unknown): string | undefined {
  if (align === 'center') return 'align-center';
  if (align === 'end' || align === 'right') return 'align-end';
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// Blocks
// ---------------------------------------------------------------------------------------------------

/** A list of blocks. Text and inline nodes found among blocks are gathered into paragraphs. */
function renderBlocks(nodes: unknown, ctx: Ctx, depth: number): ComponentChild[] {
  const out: ComponentChild[] = [];
  let inlines: unknown[] | null = null;
  const flush = () => {
    if (inlines) out.push(ctx.dry ? null : <p>{renderInlines(inlines, ctx, 0, false)}</p>);
    inlines = null;
  };
  for (const node of list(nodes)) {
    if (ctx.truncated) break;
    if (!isObj(node)) continue;
    if (node.object === 'text' || node.object === 'inline' || node.object === 'leaf') {
      (inlines ??= []).push(node);
      continue;
    }
    flush();
    out.push(renderBlock(node, ctx, depth));
  }
  flush();
  return out;
}

/** A paragraph of a block's text: for unknown block types, and for blocks past MAX_DEPTH. */
function textParagraph(node: unknown, ctx: Ctx): VNode | null {
  const text = textOf(node, ctx).trim();
  return text && !ctx.dry ? <p>{text}</p> : null;
}

function renderBlock(node: Obj, ctx: Ctx, depth: number): ComponentChild {
  if (!tick(ctx)) return null;
  if (depth > MAX_DEPTH) return textParagraph(node, ctx);
  const data = dataOf(node);
  switch (node.type) {
    case 'paragraph':
      return ctx.dry ? null : <p class={alignClass(data.align)}>{renderInlines(node.nodes, ctx, 0, false)}</p>;
    case 'heading-1':
      return renderHeading(node, 1, ctx);
    case 'heading-2':
      return renderHeading(node, 2, ctx);
    case 'heading-3':
      return renderHeading(node, 3, ctx);
    case 'list-unordered':
      return <ul>{renderListItems(node, ctx, depth)}</ul>;
    case 'list-ordered': {
      const start = typeof data.start === 'number' && Number.isInteger(data.start) && Math.abs(data.start) < 1e9 && data.start !== 1 ? data.start : undefined;
      return <ol start={start}>{renderListItems(node, ctx, depth)}</ol>;
    }
    case 'list-tasks':
      return <ul class="task-list">{renderTaskItems(node, ctx, depth)}</ul>;
    case 'list-item':
      return <ul>{renderListItems({ nodes: [node] }, ctx, depth)}</ul>;
    case 'blockquote':
      return <blockquote>{renderBlocks(node.nodes, ctx, depth + 1)}</blockquote>;
    case 'hint':
      return renderHint(node, ctx, depth);
    case 'divider':
      return <hr />;
    case 'code':
      return ctx.dry ? null : renderCode(node, ctx);
    case 'math':
      return ctx.dry ? null : renderMath(data.formula, true, ctx.math);
    case 'table':
      return renderTable(node, ctx, depth);
    case 'images':
      return renderImages(node, ctx);
    case 'image':
    case 'drawing':
      return ctx.dry ? null : <div class="images">{renderImageFigure(node, ctx)}</div>;
    case 'file':
      return ctx.dry ? null : renderFile(node, ctx);
    case 'embed':
      return ctx.dry ? null : renderEmbed(node);
    case 'content-ref':
      return ctx.dry ? null : renderContentRef(data.ref, ctx);
    case 'expandable':
      return renderExpandable(node, ctx, depth);
    case 'tabs':
      return renderTabs(node, ctx, depth);
    case 'tabs-item':
    case 'column':
    case 'stepper-step':
      return <div class="block-group">{renderBlocks(node.nodes, ctx, depth + 1)}</div>;
    case 'columns':
      return (
        <div class="columns">
          {list(node.nodes).map((column) => (isObj(column) ? <div class="column">{column.type === 'column' ? renderBlocks(column.nodes, ctx, depth + 2) : renderBlock(column, ctx, depth + 1)}</div> : null))}
        </div>
      );
    case 'stepper':
      return (
        <ol class="stepper">
          {list(node.nodes).map((step) => (isObj(step) ? <li class="stepper-step">{step.type === 'stepper-step' ? renderBlocks(step.nodes, ctx, depth + 2) : renderBlock(step, ctx, depth + 1)}</li> : null))}
        </ol>
      );
    default:
      return textParagraph(node, ctx);
  }
}

/** The items of a list: a `list-item`'s blocks, or any other node as an item of its own. */
function renderListItems(node: Obj, ctx: Ctx, depth: number): ComponentChild[] {
  return list(node.nodes).map((item) => {
    if (!isObj(item) || ctx.truncated) return null;
    if (item.type === 'list-item' && tick(ctx)) return <li>{renderBlocks(item.nodes, ctx, depth + 2)}</li>;
    return <li>{renderBlocks([item], ctx, depth + 1)}</li>;
  });
}

/** Task items: a disabled checkbox (checked from `data.checked`) labelled by the item's content. */
function renderTaskItems(node: Obj, ctx: Ctx, depth: number): ComponentChild[] {
  return list(node.nodes).map((item) => {
    if (!isObj(item) || ctx.truncated || !tick(ctx)) return null;
    const id = `task_${++ctx.ids}`;
    const checked = dataOf(item).checked === true;
    const content = item.type === 'list-item' ? renderBlocks(item.nodes, ctx, depth + 2) : renderBlocks([item], ctx, depth + 1);
    return (
      <li class={cls('task-list-item', checked && 'checked')}>
        <input type="checkbox" disabled checked={checked} aria-labelledby={id} />
        <div id={id} class="task-body">
          {content}
        </div>
      </li>
    );
  });
}

const HINT_STYLES = ['info', 'success', 'warning', 'danger'] as const;
type HintStyle = (typeof HINT_STYLES)[number];
const HINT_LABELS: Record<HintStyle, string> = { info: 'Info', success: 'Success', warning: 'Warning', danger: 'Danger' };

function HintIcon(style: HintStyle): VNode {
  // 20×20 glyphs in the hint's colour (currentColor): i in a circle, a check, a triangle with !, a circle with !.
  const path = {
    info: 'M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16zm0 3.5a1.1 1.1 0 1 1 0 2.2 1.1 1.1 0 0 1 0-2.2zM8.8 9h2.4v5.5H8.8z',
    success: 'M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16zm-1.2 11.3L5.2 9.7l1.4-1.4 2.2 2.2 4.6-4.6 1.4 1.4z',
    warning: 'M10 2.5 1.5 17.5h17zM8.9 7.5h2.2v5H8.9zm0 6.2h2.2v2.1H8.9z',
    danger: 'M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16zM8.9 5.5h2.2v6H8.9zm0 7.2h2.2v2.1H8.9z',
  }[style];
  return (
    <svg class="hint-icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
      <path fill="currentColor" d={path} />
    </svg>
  );
}

function renderHint(node: Obj, ctx: Ctx, depth: number): VNode {
  const style: HintStyle = HINT_STYLES.find((s) => s === dataOf(node).style) ?? 'info';
  return (
    <div class={`hint hint-${style}`} role="note" aria-label={HINT_LABELS[style]}>
      {HintIcon(style)}
      <div class="hint-body">{renderBlocks(node.nodes, ctx, depth + 1)}</div>
    </div>
  );
}

/**
 * A code block: `<figure class="code">` with its title, the code highlighted by lowlight (when its syntax
 * is known and it is not too long), one `<span class="line">` per line (line numbers are CSS counters, so
 * copying the code copies no number), and the copy button the page script wires (`data-copy`: it copies
 * the text of the `<code>`; without the script it is a button of `type="button"` outside any form, which
 * does nothing).
 */
function renderCode(node: Obj, ctx: Ctx): VNode {
  const data = dataOf(node);
  const lines: { text: string; highlighted: boolean }[] = [];
  for (const line of list(node.nodes)) {
    if (!isObj(line)) continue;
    if (line.type === 'code-line') lines.push({ text: textOf(line.nodes, ctx), highlighted: dataOf(line).highlighted === true });
    else lines.push({ text: textOf(line, ctx), highlighted: false });
  }
  const code = lines.map((line) => line.text).join('\n');
  const language = highlightLanguage(data.syntax);
  let rendered: ComponentChild[][] | null = null;
  if (language && code.length <= MAX_HIGHLIGHT_CHARS && ctx.highlighted + code.length <= MAX_DOCUMENT_HIGHLIGHT) {
    ctx.highlighted += code.length;
    rendered = highlightLines(code, language);
  }
  const shown = rendered ?? code.split('\n').map((text) => [text]);
  const syntax = syntaxClassName(data.syntax);
  const title = str(data.title)?.trim();
  return (
    <figure class={cls('code', data.lineNumbers === true && 'line-numbers', data.overflow === 'wrap' && 'code-wrap')}>
      {title && <figcaption class="code-title">{title}</figcaption>}
      {/* Focusable: a keyboard reader must be able to scroll a long line into view (axe: scrollable-region-focusable). */}
      <pre tabIndex={0}>
        <code class={cls(syntax && `language-${syntax}`, rendered && 'hljs')}>
          {shown.map((children, i) => [i > 0 && '\n', <span class={cls('line', lines[i]?.highlighted && 'line-highlighted')}>{children}</span>])}
        </code>
      </pre>
      <button type="button" class="copy" data-copy="" aria-label="Copy code">
        Copy
      </button>
    </figure>
  );
}

// ---------------------------------------------------------------------------------------------------
// Inlines
// ---------------------------------------------------------------------------------------------------

function renderInlines(nodes: unknown, ctx: Ctx, depth: number, inLink: boolean): ComponentChild[] {
  const out: ComponentChild[] = [];
  for (const node of list(nodes)) {
    if (!isObj(node) || !tick(ctx)) continue;
    if (node.object === 'text') {
      for (const leaf of list(node.leaves)) if (isObj(leaf) && tick(ctx)) out.push(renderLeaf(leaf));
    } else if (node.object === 'leaf') out.push(renderLeaf(node));
    else if (depth > MAX_INLINE_DEPTH) out.push(textOf(node, ctx));
    else out.push(renderInline(node, ctx, depth, inLink));
  }
  return out;
}

/** Marks, outermost first; each at most once per leaf whatever the leaf lists. */
const MARK_ORDER = ['color', 'bold', 'italic', 'strikethrough', 'superscript', 'subscript', 'keyboard', 'code'] as const;
const COLORS = new Set(['green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'violet', 'cyan', '$primary', '$info', '$success', '$warning', '$danger', '$tint']);

function renderLeaf(leaf: Obj): ComponentChild {
  const text = str(leaf.text);
  if (!text) return null;
  const marks = new Map<string, Obj>();
  for (const mark of list(leaf.marks)) if (isObj(mark) && typeof mark.type === 'string' && !marks.has(mark.type)) marks.set(mark.type, mark);
  let out: ComponentChild = withBreaks(text);
  for (let i = MARK_ORDER.length - 1; i >= 0; i--) {
    const type = MARK_ORDER[i];
    const mark = marks.get(type);
    if (!mark) continue;
    if (type === 'code') out = <code>{out}</code>;
    else if (type === 'keyboard') out = <kbd>{out}</kbd>;
    else if (type === 'subscript') out = <sub>{out}</sub>;
    else if (type === 'superscript') out = <sup>{out}</sup>;
    else if (type === 'strikethrough') out = <s>{out}</s>;
    else if (type === 'italic') out = <em>{out}</em>;
    else if (type === 'bold') out = <strong>{out}</strong>;
    else {
      const data = dataOf(mark);
      const color = (value: unknown, prefix: string) => (typeof value === 'string' && COLORS.has(value) ? `${prefix}${value.replace('$', '')}` : null);
      const className = cls(color(data.text, 'text-'), color(data.background, 'bg-'));
      if (className) out = <span class={className}>{out}</span>;
    }
  }
  return out;
}

/** Where a content reference leads, or null when it leads nowhere the reader may go. */
function refTarget(ref: unknown, ctx: Ctx): SafeHref | null {
  if (!isObj(ref)) return null;
  const page = str(ref.page);
  switch (ref.kind) {
    case 'url':
      return safeLinkHref(ref.url);
    case 'page':
      return page ? internal(ctx.resolve.pageHref(page)) : null;
    case 'anchor': {
      const anchor = str(ref.anchor);
      if (!anchor) return page ? internal(ctx.resolve.pageHref(page)) : null;
      return page ? internal(ctx.resolve.pageHref(page, anchor)) : { href: `#${anchor}`, external: false };
    }
    case 'file': {
      const file = typeof ref.file === 'string' ? ctx.resolve.file(ref.file) : null;
      return file ? internal(file.url) : null;
    }
    default:
      return null;
  }
}

/** An href the resolver made, checked all the same. */
function internal(href: unknown): SafeHref | null {
  const safe = safeResourceUrl(href);
  return safe ? { href: safe, external: false } : null;
}

function link(target: SafeHref, children: ComponentChild, className?: string): VNode {
  return (
    <a href={target.href} class={className} rel={target.external ? 'noopener noreferrer' : undefined}>
      {children}
    </a>
  );
}

function renderInline(node: Obj, ctx: Ctx, depth: number, inLink: boolean): ComponentChild {
  const data = dataOf(node);
  switch (node.type) {
    case 'link': {
      const content = renderInlines(node.nodes, ctx, depth + 1, true);
      // A link in a link is invalid HTML: the inner one is drawn as its content.
      const target = inLink ? null : refTarget(data.ref, ctx);
      return target ? link(target, content) : content;
    }
    case 'inline-image':
      return renderImage(data, ctx, cls('inline-image', data.size === 'line' && 'inline-image-line'));
    case 'inline-math':
      return ctx.dry ? null : renderMath(data.formula, false, ctx.math);
    case 'emoji': {
      const emoji = emojiOf(data.code);
      return emoji ? <span class="emoji">{emoji}</span> : null;
    }
    case 'mention': {
      const ref = isObj(data.ref) ? data.ref : null;
      const page = ref && (ref.kind === 'page' || ref.kind === 'anchor') ? str(ref.page) : undefined;
      const target = inLink ? null : refTarget(ref, ctx);
      if (!target) return null;
      const title = (page && ctx.resolve.pageTitle(page)) || (ref?.kind === 'url' ? target.href : null);
      return title ? link(target, title, 'mention') : null;
    }
    case 'button': {
      const label = str(data.label);
      if (!label) return null;
      const target = inLink ? null : refTarget(data.ref, ctx);
      const className = cls('button', data.kind === 'secondary' ? 'button-secondary' : 'button-primary');
      return target ? link(target, label, className) : <span class={className}>{label}</span>;
    }
    case 'annotation':
      return <span class="annotation">{renderInlines(node.nodes, ctx, depth + 1, inLink)}</span>;
    case 'icon':
    case 'expression':
      // An icon needs an icon set, an expression the visitor's variables: the reader has neither.
      return null;
    default:
      return textOf(node, ctx);
  }
}

// ---------------------------------------------------------------------------------------------------
// Images, files, embeds, content references
// ---------------------------------------------------------------------------------------------------

interface ImageSource {
  src: string;
  width?: number;
  height?: number;
}

/** An image's source: an absolute http(s) URL written in the document, or a file of the space. */
function imageSource(ref: unknown, ctx: Ctx): ImageSource | null {
  if (!isObj(ref)) return null;
  if (ref.kind === 'url') {
    const url = safeAbsoluteUrl(ref.url);
    return url ? { src: url.href } : null;
  }
  if (ref.kind === 'file' && typeof ref.file === 'string') {
    const file = ctx.resolve.file(ref.file);
    const src = file ? safeResourceUrl(file.url) : null;
    return file && src ? { src, width: positiveInt(file.width), height: positiveInt(file.height) } : null;
  }
  return null;
}

/**
 * `<img>` of `data.ref` (and of `data.refDark`, drawn instead in the dark theme), or the alternative text
 * when the image cannot be shown.
 */
function renderImage(data: Obj, ctx: Ctx, className: string | undefined, fallbackAlt = ''): ComponentChild {
  if (ctx.dry) return null;
  const alt = str(data.alt) ?? str(data.caption) ?? fallbackAlt;
  const light = imageSource(data.ref, ctx);
  const dark = imageSource(data.refDark, ctx);
  const img = (source: ImageSource, extra?: string) => (
    <img src={source.src} alt={alt} width={source.width} height={source.height} loading="lazy" decoding="async" class={cls(className, extra)} />
  );
  if (!light) return alt ? <span class={cls('image-missing', className)}>{alt}</span> : null;
  if (!dark || dark.src === light.src) return img(light);
  return [img(light, 'only-light'), img(dark, 'only-dark')];
}

/** A fragment of a block by its name (`caption`, `expandable-title` …). */
function fragment(node: Obj, name: string): Obj | undefined {
  for (const f of list(node.fragments)) if (isObj(f) && (f.fragment === name || f.type === name)) return f;
  return undefined;
}

/** The inline content of a fragment's paragraphs (captions, expandable titles). */
function fragmentInlines(f: Obj | undefined, ctx: Ctx): ComponentChild[] {
  if (!f) return [];
  return list(f.nodes).map((block, i) => (isObj(block) ? [i > 0 && ' ', block.object === 'block' ? renderInlines(block.nodes, ctx, 0, false) : renderInlines([block], ctx, 0, false)] : null));
}

function renderImageFigure(node: Obj, ctx: Ctx): VNode | null {
  const data = dataOf(node);
  const caption = fragment(node, 'caption');
  const captionText = caption ? textOf(caption, ctx).trim() : str(data.caption)?.trim() ?? '';
  const image = renderImage(data, ctx, undefined, captionText);
  if (!image) return null;
  return (
    <figure class="image">
      {image}
      {caption ? <figcaption>{fragmentInlines(caption, ctx)}</figcaption> : captionText && <figcaption>{captionText}</figcaption>}
    </figure>
  );
}

function renderImages(node: Obj, ctx: Ctx): VNode | null {
  if (ctx.dry) return null;
  const data = dataOf(node);
  const align = data.align === 'left' || data.align === 'right' ? data.align : 'center';
  const figures = list(node.nodes).map((image) => (isObj(image) && tick(ctx) ? renderImageFigure(image, ctx) : null));
  return <div class={cls('images', `images-${align}`, data.fullWidth === true && 'full-width')}>{figures}</div>;
}

/** `12.3 kB` */
function formatSize(size: unknown): string | null {
  if (typeof size !== 'number' || !Number.isFinite(size) || size < 0) return null;
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = size;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} ${value === 1 ? 'byte' : 'bytes'}` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

const FileIcon = () => (
  <svg class="card-icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
    <path fill="currentColor" d="M5 2h6.5L16 6.5V18H5zm6 1.5V7h3.5zM7 10h7v1.5H7zm0 3h7v1.5H7z" />
  </svg>
);

/** A file block: a download card (its caption or name, type and size), or the caption alone when the file is unknown. */
function renderFile(node: Obj, ctx: Ctx): VNode | null {
  const data = dataOf(node);
  const ref = isObj(data.ref) ? data.ref : {};
  const file = typeof ref.file === 'string' ? ctx.resolve.file(ref.file) : null;
  const caption = fragment(node, 'caption');
  const captionText = caption ? textOf(caption, ctx).trim() : str(data.caption)?.trim();
  const name = file && typeof file.name === 'string' ? file.name : '';
  const href = file ? safeResourceUrl(file.url) : null;
  const title = captionText || name || 'File';
  if (!href) return <div class="file-card file-missing">{title}</div>;
  const facts = [captionText && name !== captionText ? name : null, str(file?.contentType), formatSize(file?.size)].filter(Boolean).join(' · ');
  return (
    <a class="file-card" href={href} download={name || true}>
      <FileIcon />
      <span class="card-text">
        <span class="card-title">{title}</span>
        {facts && <span class="card-meta">{facts}</span>}
      </span>
      <span class="card-action">Download</span>
    </a>
  );
}

/** An embed: a card linking to its URL (no iframe: the reader runs no third-party page). */
function renderEmbed(node: Obj): VNode | null {
  const raw = dataOf(node).url;
  const url = safeAbsoluteUrl(raw);
  if (!url) return typeof raw === 'string' && raw.trim() ? <p class="embed-invalid">{raw.trim()}</p> : null;
  return (
    <a class="embed-card" href={url.href} rel="noopener noreferrer">
      <span class="card-text">
        <span class="card-title">{url.host}</span>
        <span class="card-meta">{url.href}</span>
      </span>
      <span class="card-action" aria-hidden="true">
        ↗
      </span>
    </a>
  );
}

/** A content-ref block: a card linking to a page (with its title), an anchor, a URL or a file; nothing when it leads nowhere readable. */
function renderContentRef(ref: unknown, ctx: Ctx): VNode | null {
  if (!isObj(ref)) return null;
  const target = refTarget(ref, ctx);
  if (!target) return null;
  const page = str(ref.page);
  let title: string | null | undefined;
  if (ref.kind === 'page' || ref.kind === 'anchor') title = (page && ctx.resolve.pageTitle(page)) || str(ref.anchor);
  else if (ref.kind === 'file' && typeof ref.file === 'string') title = ctx.resolve.file(ref.file)?.name;
  else if (ref.kind === 'url') title = target.href;
  return link(
    target,
    [
      <span class="card-text">
        <span class="card-title">{title || 'Untitled'}</span>
      </span>,
      <span class="card-action" aria-hidden="true">
        {target.external ? '↗' : '→'}
      </span>,
    ],
    'content-ref',
  );
}

// ---------------------------------------------------------------------------------------------------
// Expandables and tabs
// ---------------------------------------------------------------------------------------------------

function renderExpandable(node: Obj, ctx: Ctx, depth: number): VNode {
  const title = fragment(node, 'expandable-title');
  const body = fragment(node, 'expandable-body');
  const summary = ctx.dry ? null : fragmentInlines(title, ctx);
  // Older documents hold the body as the block's own nodes.
  const blocks = renderBlocks(body ? body.nodes : node.nodes, ctx, depth + 1);
  return (
    <details class="expandable" open={dataOf(node).defaultExpanded === true}>
      <summary>{summary && summary.length ? summary : 'Details'}</summary>
      <div class="expandable-body">{blocks}</div>
    </details>
  );
}

/**
 * Tabs: the ARIA tabs pattern — a `role="tablist"` of `role="tab"` buttons, each `aria-controls` its
 * `role="tabpanel"`; the first tab `aria-selected="true"` with `tabindex="0"`, the others `"false"` and
 * `-1`; every panel in the HTML, all but the first `hidden`. The page script switches tabs the usual
 * way: `aria-selected` and `tabindex` on the tabs, `hidden` on the panels.
 *
 * Without JavaScript every panel stays readable: the layout's boot script marks `<html class="js">`
 * (layout/parts.tsx, THEME_BOOT_SCRIPT), and where that class is missing document.css shows the hidden
 * panels one after the other, each under its title (`.tab-panel-title`, hidden otherwise), and hides the
 * tablist, whose buttons would do nothing.
 */
function renderTabs(node: Obj, ctx: Ctx, depth: number): VNode | null {
  const items = list(node.nodes).filter(isObj);
  if (!items.length) return null;
  const n = ++ctx.ids;
  const titles = items.map((item, i) => str(dataOf(item).title)?.trim() || `Tab ${i + 1}`);
  const panels = items.map((item, i) => {
    if (!tick(ctx)) return null;
    const blocks = item.type === 'tabs-item' ? renderBlocks(item.nodes, ctx, depth + 2) : renderBlocks([item], ctx, depth + 1);
    return (
      <div role="tabpanel" id={`tabpanel_${n}_${i}`} aria-labelledby={`tab_${n}_${i}`} tabIndex={0} class="tab-panel" hidden={i > 0}>
        <p class="tab-panel-title">{titles[i]}</p>
        {blocks}
      </div>
    );
  });
  return (
    <div class="tabs" data-tabs="">
      <div role="tablist" class="tabs-list">
        {titles.map((title, i) => (
          <button type="button" role="tab" id={`tab_${n}_${i}`} aria-selected={i === 0 ? 'true' : 'false'} aria-controls={`tabpanel_${n}_${i}`} tabIndex={i === 0 ? 0 : -1} class="tab">
            {title}
          </button>
        ))}
      </div>
      {panels}
    </div>
  );
}

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
function renderTable(node: Obj, ctx: Ctx, depth: number): VNode | null {
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
  if (typeof value === 'string' && fragments.has(value)) return renderBlocks(fragments.get(value)!.nodes, ctx, depth + 1);
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
