import type { ComponentChild } from 'preact';
import { HeadingAnchors } from '../../../lib/heading-anchors.ts';
import type { MathCache } from './math.tsx';

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
export const MAX_INLINE_DEPTH = 16;
/**
 * Nodes visited in one rendering at most: a stored document has at most 100,000 nodes (leaves and
 * marks aside), so this only stops documents built in memory with shared subtrees (2^n paths).
 */
export const MAX_VISITS = 1_000_000;
/** Code highlighted in one document at most, in characters (highlight.js takes about 4 ms per KB): past it, code blocks are plain. */
export const MAX_DOCUMENT_HIGHLIGHT = 250_000;
/** Table cells drawn at most per table (a table is records × columns: a few nodes can ask for many cells). */
export const MAX_TABLE_CELLS = 200_000;
/** Table columns drawn at most. */
export const MAX_TABLE_COLUMNS = 100;

export type Obj = Record<string, unknown>;
export const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const dataOf = (node: Obj): Obj => (isObj(node.data) ? node.data : {});
export const cls = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(' ') || undefined;
export const positiveInt = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 100_000 ? value : undefined);

/** The state of one rendering. */
export interface Ctx {
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
  /**
   * Draws a list of blocks (render-document.tsx): blocks hold blocks (a hint, a tab, a table cell), and
   * the files that draw them reach the block renderer through the rendering's state, not an import.
   */
  blocks: (nodes: unknown, ctx: Ctx, depth: number) => ComponentChild[];
}

export const NO_RESOLVER: DocumentResolver = { pageHref: () => null, file: () => null, pageTitle: () => null };

export function newCtx(resolve: DocumentResolver, dry: boolean, blocks: Ctx['blocks']): Ctx {
  return { resolve, dry, headings: [], anchors: new HeadingAnchors(), ids: 0, tables: 0, visits: 0, truncated: false, highlighted: 0, math: new Map(), blocks };
}

/** Counts a visited node; false once the rendering has visited MAX_VISITS (the rest is not drawn). */
export function tick(ctx: Ctx, n = 1): boolean {
  ctx.visits += n;
  if (ctx.visits <= MAX_VISITS) return true;
  ctx.truncated = true;
  return false;
}


// ---------------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------------

/**
 * The text of a node (or an array of nodes): its leaves in order, with image alternatives and emojis;
 * blocks (and their fragments) separated by a space. Iterative and cycle-safe, so a node of any depth
 * or shape has a text.
 */
export function textOf(root: unknown, ctx: Ctx | null): string {
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
export function withBreaks(text: string): ComponentChild {
  if (!text.includes('\n')) return text;
  const out: ComponentChild[] = [];
  text.split('\n').forEach((part, i) => {
    if (i > 0) out.push(<br />);
    if (part) out.push(part);
  });
  return out;
}

/** An emoji from GitBook's code (hex code points joined by `-`, e.g. `1f44d` or `1f469-200d-1f4bb`). */
export function emojiOf(code: unknown): string | null {
  if (typeof code !== 'string' || !/^[0-9a-f]{1,6}(-[0-9a-f]{1,6}){0,9}$/i.test(code)) return null;
  const points = code.split('-').map((hex) => parseInt(hex, 16));
  if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return null;
  return String.fromCodePoint(...points);
}
