import { parse as parseYaml } from 'yaml';
import type { Prisma } from '../../generated/prisma/client.ts';

/**
 * GitBook's markdown front matter (the YAML block Git Sync writes above a page's body): the page's
 * description, icon, emoji, visibility, indexing, cover and layout. A markdown body given to
 * `insert_page` / `update_page` may start with one; its values take precedence over the change's own
 * fields, as GitBook's do, and the block is not part of the body.
 */

/** Front matter beyond this is not looked for (the block must close within it). */
export const MAX_FRONT_MATTER = 16 * 1024;

export interface FrontMatter {
  title?: string;
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  cover?: Prisma.JsonValue | null;
  layout?: Prisma.JsonValue;
}

export class FrontMatterError extends Error {}

/** The layout options GitBook's front matter names `{ visible }`, as the page's layout flags. */
const LAYOUT_FLAGS = ['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function text(meta: Record<string, unknown>, key: string, max: number): string | undefined {
  const value = meta[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') throw new FrontMatterError(`"${key}" must be text`);
  const s = String(value);
  if (s.length > max) throw new FrontMatterError(`"${key}" is longer than ${max} characters`);
  return s;
}

function flag(meta: Record<string, unknown>, key: string): boolean | undefined {
  const value = meta[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new FrontMatterError(`"${key}" must be true or false`);
  return value;
}

function layoutOf(value: unknown): Prisma.JsonValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new FrontMatterError('"layout" must be a mapping');
  const layout: Record<string, Prisma.JsonValue> = {};
  if (value.width === 'default' || value.width === 'wide') layout.width = value.width;
  for (const key of LAYOUT_FLAGS) {
    const option = value[key];
    if (isObject(option) && typeof option.visible === 'boolean') layout[key] = option.visible;
  }
  if (isObject(value.cover) && typeof value.cover.visible === 'boolean') layout.cover = value.cover.visible;
  if (isObject(value.cover) && (value.cover.size === 'hero' || value.cover.size === 'full')) layout.coverSize = value.cover.size;
  return layout;
}

function coverOf(meta: Record<string, unknown>): Prisma.JsonValue | null | undefined {
  if (!('cover' in meta)) return undefined;
  const url = text(meta, 'cover', 2048);
  if (!url) return null;
  if (!/^https?:\/\//i.test(url)) throw new FrontMatterError('"cover" must be an http or https URL');
  const y = meta.coverY;
  if (y !== undefined && (typeof y !== 'number' || !Number.isFinite(y))) throw new FrontMatterError('"coverY" must be a number');
  return { ref: { kind: 'url', url }, yPos: (y as number | undefined) ?? 0 };
}

/** The markdown's front matter and the body after it; `meta` is null when it has none. */
export function splitFrontMatter(markdown: string): { meta: FrontMatter | null; body: string } {
  const open = /^---\r?\n/.exec(markdown);
  if (!open) return { meta: null, body: markdown };
  const head = markdown.slice(0, MAX_FRONT_MATTER + open[0].length + 8);
  const close = /\r?\n---[ \t]*(?:\r?\n|$)/.exec(head.slice(open[0].length - 1));
  if (!close) return { meta: null, body: markdown };
  const yamlText = head.slice(open[0].length, open[0].length - 1 + close.index);
  const body = markdown.slice(open[0].length - 1 + close.index + close[0].length);
  let parsed: unknown;
  try {
    parsed = parseYaml(yamlText, { maxAliasCount: 16, prettyErrors: false });
  } catch {
    throw new FrontMatterError('the front matter is not valid YAML');
  }
  if (parsed === null || parsed === undefined) return { meta: {}, body };
  if (!isObject(parsed)) throw new FrontMatterError('the front matter must be a mapping');
  const icon = text(parsed, 'icon', 50);
  if (icon !== undefined && !/^$|^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(icon)) throw new FrontMatterError('"icon" must be an icon name');
  const meta: FrontMatter = {
    title: text(parsed, 'title', 256),
    description: text(parsed, 'description', 1000),
    icon,
    emoji: text(parsed, 'emoji', 50),
    hidden: flag(parsed, 'hidden'),
    noIndex: flag(parsed, 'noIndex'),
    noRobotsIndex: flag(parsed, 'noRobotsIndex'),
    cover: coverOf(parsed),
    layout: layoutOf(parsed.layout),
  };
  for (const key of Object.keys(meta) as (keyof FrontMatter)[]) if (meta[key] === undefined) delete meta[key];
  return { meta, body };
}
