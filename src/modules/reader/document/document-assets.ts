import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The stylesheets rendered documents need: document.css (the classes render-document.tsx writes) and
 * KaTeX's stylesheet and fonts for math.
 *
 * KaTeX's stylesheet is its own `katex.min.css`, unchanged: its fonts are `url(fonts/KaTeX_….woff2)`
 * (then .woff, .ttf), relative to the URL of the stylesheet that holds them. So the fonts must be served
 * in a `fonts/` folder beside the stylesheet the CSS ends up in — e.g. a stylesheet at
 * `/_site/assets/reader.<hash>.css` needs `/_site/assets/fonts/KaTeX_Main-Regular.woff2` (files from
 * `katexFontsDir`, named safely by `katexFontFile`). Inlined into a `<style>` of the page, the URLs would
 * resolve against the page's URL instead. Every browser the reader supports takes the woff2 (listed first).
 */

const require = createRequire(import.meta.url);

/** KaTeX's `dist/` folder (resolved like an import, so it holds from `src/` and from `dist/`). */
const katexDistDir = path.dirname(require.resolve('katex'));

/** The folder of KaTeX's fonts (`KaTeX_*.woff2`, `.woff`, `.ttf`). */
export const katexFontsDir = path.join(katexDistDir, 'fonts');

let katex: string | undefined;
let document: string | undefined;

/** KaTeX's stylesheet (read once). Its font URLs are relative, `fonts/KaTeX_….woff2`: see above. */
export function katexCss(): string {
  katex ??= readFileSync(path.join(katexDistDir, 'katex.min.css'), 'utf8');
  return katex;
}

/**
 * document.css (read once). `npm run build` compiles src/ to dist/ with tsc, which copies no .css file:
 * when dist/ lacks it, it is read from src/ beside it (the same relative path holds from both).
 */
export function documentCss(): string {
  if (document === undefined) {
    const here = new URL('./document.css', import.meta.url);
    const inSources = new URL('../../../../src/modules/reader/document/document.css', import.meta.url);
    document = readFileSync(existsSync(fileURLToPath(here)) ? here : inSources, 'utf8');
  }
  return document;
}

const FONT_TYPES: Record<string, string> = { woff2: 'font/woff2', woff: 'font/woff', ttf: 'font/ttf' };

/**
 * One of KaTeX's fonts by its file name (the last segment of a request's path): its path and content
 * type, or null for any other name — only `KaTeX_<name>.<woff2|woff|ttf>`, so no path leaves the folder.
 */
export function katexFontFile(name: string): { path: string; contentType: string } | null {
  const match = /^KaTeX_[A-Za-z0-9_-]{1,60}\.(woff2|woff|ttf)$/.exec(name);
  if (!match) return null;
  const file = path.join(katexFontsDir, name);
  return existsSync(file) ? { path: file, contentType: FONT_TYPES[match[1]] } : null;
}
