import type { ComponentChild, VNode } from 'preact';
import { highlightLanguage, highlightLines, MAX_HIGHLIGHT_CHARS, syntaxClassName } from './highlight.tsx';
import { cls, dataOf, isObj, list, MAX_DOCUMENT_HIGHLIGHT, str, textOf, tick, type Ctx, type Obj } from './document-kit.tsx';
import { fragment, fragmentInlines } from './media.tsx';

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

export function renderHint(node: Obj, ctx: Ctx, depth: number): VNode {
  const style: HintStyle = HINT_STYLES.find((s) => s === dataOf(node).style) ?? 'info';
  return (
    <div class={`hint hint-${style}`} role="note" aria-label={HINT_LABELS[style]}>
      {HintIcon(style)}
      <div class="hint-body">{ctx.blocks(node.nodes, ctx, depth + 1)}</div>
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
export function renderCode(node: Obj, ctx: Ctx): VNode {
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
// Expandables and tabs
// ---------------------------------------------------------------------------------------------------

export function renderExpandable(node: Obj, ctx: Ctx, depth: number): VNode {
  const title = fragment(node, 'expandable-title');
  const body = fragment(node, 'expandable-body');
  const summary = ctx.dry ? null : fragmentInlines(title, ctx);
  // Older documents hold the body as the block's own nodes.
  const blocks = ctx.blocks(body ? body.nodes : node.nodes, ctx, depth + 1);
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
export function renderTabs(node: Obj, ctx: Ctx, depth: number): VNode | null {
  const items = list(node.nodes).filter(isObj);
  if (!items.length) return null;
  const n = ++ctx.ids;
  const titles = items.map((item, i) => str(dataOf(item).title)?.trim() || `Tab ${i + 1}`);
  const panels = items.map((item, i) => {
    if (!tick(ctx)) return null;
    const blocks = item.type === 'tabs-item' ? ctx.blocks(item.nodes, ctx, depth + 2) : ctx.blocks([item], ctx, depth + 1);
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
