import katex from 'katex';
import type { VNode } from 'preact';

/**
 * Math (`math` blocks, `inline-math` inlines) typeset on the server by KaTeX, as HTML (drawn with
 * KaTeX's stylesheet and fonts, see katex-assets.ts) plus MathML (read by screen readers).
 */

/** Longer formulas are shown as code, not typeset (KaTeX's time grows with the formula; a real one is far shorter). */
export const MAX_FORMULA_LENGTH = 10_000;

const OPTIONS = {
  throwOnError: false,
  output: 'htmlAndMathml',
  // No \href, \url, \htmlClass, \htmlData, \includegraphics …: a formula cannot make links, classes or images.
  trust: false,
  strict: 'ignore',
  // Bounds on what one formula may cost: macro expansions, and the size of a \rule or \kern (in em).
  maxExpand: 1000,
  maxSize: 100,
} as const;

/** What KaTeX made of each formula during one rendering (a page often repeats a formula); null when it failed. */
export type MathCache = Map<string, string | null>;

function typeset(formula: string, display: boolean, cache: MathCache): string | null {
  const key = `${display ? 'D' : 'I'}${formula}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  let html: string | null;
  try {
    html = katex.renderToString(formula, { ...OPTIONS, displayMode: display });
  } catch {
    html = null;
  }
  cache.set(key, html);
  return html;
}

/** A formula typeset (a block in display mode), or shown as code when it is not a string, too long or KaTeX fails. */
export function renderMath(formula: unknown, display: boolean, cache: MathCache): VNode | null {
  if (typeof formula !== 'string' || !formula.trim()) return null;
  const html = formula.length <= MAX_FORMULA_LENGTH ? typeset(formula, display, cache) : null;
  if (html === null) {
    return display ? (
      <pre class="math math-display math-error">
        <code>{formula}</code>
      </pre>
    ) : (
      <code class="math math-inline math-error">{formula}</code>
    );
  }
  // The one place markup is inserted as HTML: KaTeX's own output, generated from the formula by the library,
  // which escapes every text it writes and, with `trust: false`, emits no link, URL, class or attribute
  // taken from the formula. Turning its markup into elements ourselves would mean parsing it back.
  return display ? <div class="math math-display" dangerouslySetInnerHTML={{ __html: html }} /> : <span class="math math-inline" dangerouslySetInnerHTML={{ __html: html }} />;
}
