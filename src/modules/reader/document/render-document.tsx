import type { ComponentChild, VNode } from 'preact';
import { renderMath } from './math.tsx';
import { cls, dataOf, isObj, list, MAX_DEPTH, MAX_VISITS, newCtx, NO_RESOLVER, textOf, tick, type Ctx, type DocumentHeading, type DocumentResolver, type JsonDocument, type Obj } from './document-kit.tsx';
import { renderCode, renderExpandable, renderHint, renderTabs } from './containers.tsx';
import { renderInlines } from './inlines.tsx';
import { renderContentRef, renderEmbed, renderFile, renderImageFigure, renderImages } from './media.tsx';
import { renderTable } from './tables.tsx';

export { documentCss, katexCss, katexFontFile, katexFontsDir } from './document-assets.ts';
export type { DocumentHeading, DocumentResolver, JsonDocument } from './document-kit.tsx';
export { MAX_DEPTH } from './document-kit.tsx';

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


// ---------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------

/** The document as HTML: `<div class="document">` and its blocks. */
export function DocumentView(props: { document: JsonDocument; resolve: DocumentResolver }): VNode {
  const ctx = newCtx(props.resolve, false, renderBlocks);
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
  const ctx = newCtx(NO_RESOLVER, true, renderBlocks);
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

