import { common, createLowlight } from 'lowlight';
import type { ComponentChild } from 'preact';

/**
 * Syntax highlighting of code blocks on the server: lowlight (highlight.js grammars, the `common` set)
 * gives a hast tree, turned here into preact elements — `<span class="hljs-…">` and text, escaped by
 * the renderer like any other text. No HTML string of highlight.js is ever used.
 *
 * The tree is split into lines (a token spanning lines, such as a block comment, is closed at the end
 * of a line and reopened on the next) so that each line is one element: line numbers and highlighted
 * lines are drawn per line by CSS.
 */

const lowlight = createLowlight(common);
type HastRoot = ReturnType<typeof lowlight.highlight>;

/** A block's code past this many characters is not highlighted (plain text): highlighting is the costly part of a page. */
export const MAX_HIGHLIGHT_CHARS = 100_000;

/**
 * Nested token spans kept per line; deeper ones give their text to the span around them. A grammar can
 * nest without bound (template literals inside template literals), and every element level costs the
 * string renderer stack frames.
 */
const MAX_SPAN_DEPTH = 20;

/** Syntax names GitBook writes that highlight.js knows by another name (its own aliases — `sh`, `html`, `yml`, `c#` … — it resolves itself). */
const ALIASES: Record<string, string> = { markup: 'xml', 'objective-c': 'objectivec', curl: 'bash', env: 'bash' };

/** A syntax name fit for a class (`language-…`), or null. */
export function syntaxClassName(syntax: unknown): string | null {
  if (typeof syntax !== 'string') return null;
  const name = syntax.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9+#._-]{0,39}$/.test(name) ? name : null;
}

/** The highlight.js language of a syntax name, or null when lowlight has no grammar for it. */
export function highlightLanguage(syntax: unknown): string | null {
  const name = syntaxClassName(syntax);
  if (!name) return null;
  const language = ALIASES[name] ?? name;
  return lowlight.registered(language) ? language : null;
}

/** `code` highlighted as `language` (a registered one): one array of children per line; null when highlighting fails. */
export function highlightLines(code: string, language: string): ComponentChild[][] | null {
  let root: HastRoot;
  try {
    root = lowlight.highlight(language, code);
  } catch {
    return null;
  }
  return hastLines(root);
}

type HastNode = HastRoot['children'][number];

/** The class of a lowlight span: its class names that are plain words (`hljs-keyword`, `function_`). */
function classOf(node: { properties?: Record<string, unknown> }): string {
  const names = node.properties?.className;
  if (!Array.isArray(names)) return '';
  return names.filter((name): name is string => typeof name === 'string' && /^[\w-]+$/.test(name)).join(' ');
}

/**
 * The hast tree as lines of preact children, walked with an explicit stack (no recursion): `open` holds
 * the spans of the current line still open, innermost last; a newline closes them all and reopens them
 * empty on the next line. Empty spans are dropped.
 */
function hastLines(root: HastRoot): ComponentChild[][] {
  const lines: ComponentChild[][] = [];
  let line: ComponentChild[] = [];
  const open: { cls: string; children: ComponentChild[] }[] = [];
  const target = () => (open.length ? open[open.length - 1].children : line);
  const close = () => {
    const span = open.pop()!;
    if (span.children.length) target().push(span.cls ? <span class={span.cls}>{span.children}</span> : span.children);
  };
  const text = (value: string) => {
    const parts = value.split('\n');
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) {
        const classes = open.map((span) => span.cls);
        while (open.length) close();
        lines.push(line);
        line = [];
        for (const cls of classes) open.push({ cls, children: [] });
      }
      if (parts[i]) target().push(parts[i]);
    }
  };
  const stack: { children: readonly HastNode[]; index: number; opened: boolean }[] = [{ children: root.children, index: 0, opened: false }];
  while (stack.length) {
    const frame = stack[stack.length - 1];
    if (frame.index >= frame.children.length) {
      stack.pop();
      if (frame.opened) close();
      continue;
    }
    const child = frame.children[frame.index++];
    if (child.type === 'text') text(child.value);
    else if (child.type === 'element') {
      const opened = open.length < MAX_SPAN_DEPTH;
      if (opened) open.push({ cls: classOf(child), children: [] });
      stack.push({ children: child.children as HastNode[], index: 0, opened });
    }
  }
  while (open.length) close();
  lines.push(line);
  return lines;
}
