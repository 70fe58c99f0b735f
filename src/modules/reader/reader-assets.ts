import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { documentCss, katexCss, katexFontsDir } from './document/document-assets.ts';
import { readerCss, readerJs } from './layout/assets.ts';
import { compress } from './rendered-pages.ts';

/**
 * The reader's stylesheet and script, served from memory at names that carry their content hash
 * (`/_site/assets/reader.<hash>.css`): cached for a year by browsers and CDNs, replaced by a new name
 * when they change. KaTeX's fonts are served beside them under their own (versioned) names. Built once,
 * on first use, with their compressed forms.
 */
export const ASSETS_PATH = '/_site/assets';

export interface Asset {
  type: string;
  identity: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
}

const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);

function textAsset(type: string, text: string): Asset {
  const identity = Buffer.from(text);
  return { type, identity, br: compress(identity, 'br'), gzip: compress(identity, 'gzip') };
}

interface AssetTable {
  byName: Map<string, Asset>;
  css: string;
  js: string;
}

let table: AssetTable | null = null;

export function readerAssets(): AssetTable {
  if (table) return table;
  const byName = new Map<string, Asset>();
  // KaTeX's CSS refers to its fonts as `fonts/<name>`: served under ASSETS_PATH/fonts/.
  const css = textAsset('text/css; charset=utf-8', `${readerCss()}\n${documentCss()}\n${katexCss()}`);
  const js = textAsset('text/javascript; charset=utf-8', readerJs());
  const cssName = `reader.${hashOf(css.identity)}.css`;
  const jsName = `reader.${hashOf(js.identity)}.js`;
  byName.set(cssName, css);
  byName.set(jsName, js);
  for (const font of readdirSync(katexFontsDir)) {
    if (!font.endsWith('.woff2')) continue;
    byName.set(`fonts/${font}`, { type: 'font/woff2', identity: readFileSync(join(katexFontsDir, font)), br: null, gzip: null });
  }
  table = { byName, css: `${ASSETS_PATH}/${cssName}`, js: `${ASSETS_PATH}/${jsName}` };
  return table;
}
