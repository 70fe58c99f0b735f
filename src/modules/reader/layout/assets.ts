import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The layout's stylesheet and script (reader.css, reader.js: plain files served as they are), read from
 * disk once, on first use.
 *
 * `npm run build` compiles src/ to dist/ with tsc, which copies no .css or .js file: when dist/ lacks
 * them they are read from src/ beside it (dist/ sits beside src/, so the same relative path holds).
 */
function readLayoutFile(name: string): string {
  const here = new URL(`./${name}`, import.meta.url);
  const inSources = new URL(`../../../../src/modules/reader/layout/${name}`, import.meta.url);
  const path = existsSync(fileURLToPath(here)) ? here : inSources;
  return readFileSync(path, 'utf8');
}

let css: string | null = null;
let js: string | null = null;

/** reader.css: the page layout's styles and the colour variables both it and the document's styles use. */
export function readerCss(): string {
  css ??= readLayoutFile('reader.css');
  return css;
}

/** reader.js: the page's script (theme toggle, search as you type, copy buttons, tabs, TOC highlight). */
export function readerJs(): string {
  js ??= readLayoutFile('reader.js');
  return js;
}

/** The first 12 hex digits of the SHA-256 of a text: the cache-busting part of an asset's name. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12);
}

/** `reader.<hash>.css` and `reader.<hash>.js`. */
export function readerAssetNames(): { css: string; js: string } {
  return { css: `reader.${contentHash(readerCss())}.css`, js: `reader.${contentHash(readerJs())}.js` };
}
