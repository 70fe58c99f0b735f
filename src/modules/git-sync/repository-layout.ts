import path from 'node:path/posix';
import { stringify as toYaml } from 'yaml';
import { rewriteLinkDestinations, withLeadingTitle, type FileEntry, type PageEntry } from '../content/index.ts';

/**
 * A space's content laid out as a repository in GitBook's Git Sync format — the reverse of
 * gitbook-repository.ts, so that what an import read, an export writes back as it was:
 *
 * - the space's first page is `README.md`; a page with sub-pages is `<folder>/<slug>/README.md` with its
 *   sub-pages in that folder, any other page `<folder>/<slug>.md`; a group's pages are in a folder
 *   named after the group; files are `.gitbook/assets/<name>`;
 * - a page or file the last sync saw at a path keeps that path (`remembered`), so a repository laid out
 *   by hand keeps its layout;
 * - `SUMMARY.md` lists the tree (`* [Title](file)`, two spaces per level, `## Group` headings);
 * - a page file is its front matter (description, icon, emoji, hidden, layout: what is not the
 *   default), `# Title`, then the body with `/pages/<id>` and `/files/<id>` links made relative paths.
 *
 * Pure: content in, files out. Group keys in `remembered` are `group:<n>`, the n-th group of the tree (from 1),
 * as the reader names them.
 */
export interface LayoutInput {
  /** Pages in tree order (each after its parent), and their children lists. */
  pages: readonly PageEntry[];
  children: (parentId: string | null) => readonly string[];
  files: readonly FileEntry[];
  /** A page's or a file's path at the last sync, by ID (groups: `group:<n>` → ID). */
  remembered: ReadonlyMap<string, string>;
}

export interface Layout {
  /** Page ID → file path (document pages), relative to the content root. */
  pageFile: Map<string, string>;
  /** File ID → path. */
  fileFile: Map<string, string>;
  /** Every path (and group key) → ID: what the next sync remembers. */
  paths: Record<string, string>;
  summary: string;
}

const README = 'README.md';
const ASSETS = '.gitbook/assets';

export function layOutRepository(input: LayoutInput): Layout {
  const byId = new Map(input.pages.map((page) => [page.id, page]));
  const pageFile = new Map<string, string>();
  const fileFile = new Map<string, string>();
  const taken = new Set<string>();
  const paths: Record<string, string> = {};
  const claim = (wanted: string | undefined, fallback: () => string): string => {
    if (wanted && !taken.has(wanted)) {
      taken.add(wanted);
      return wanted;
    }
    let candidate = fallback();
    const ext = path.extname(candidate);
    const stem = candidate.slice(0, candidate.length - ext.length);
    for (let n = 2; taken.has(candidate); n++) candidate = `${stem}-${n}${ext}`;
    taken.add(candidate);
    return candidate;
  };

  // Files first: their names are what pages link to.
  for (const file of input.files) {
    const at = claim(input.remembered.get(file.id), () => `${ASSETS}/${safeName(file.name)}`);
    fileFile.set(file.id, at);
    paths[at] = file.id;
  }

  const firstDocument = input.children(null).find((id) => byId.get(id)?.type === 'document');
  const lines: string[] = ['# Table of contents', ''];
  let groupIndex = 0;
  const place = (id: string, folder: string, depth: number) => {
    const page = byId.get(id);
    if (!page || (page.type !== 'document' && page.type !== 'group')) return;
    if (page.type === 'group') {
      const key = `group:${++groupIndex}`;
      paths[key] = page.id;
      if (lines[lines.length - 1] !== '') lines.push('');
      lines.push(`## ${page.title.replace(/\s+/g, ' ').trim()}`, '');
      for (const child of input.children(page.id)) place(child, page.slug || 'group', 0);
      return;
    }
    const hasChildren = input.children(page.id).some((child) => byId.get(child)?.type === 'document');
    const canonical = () => (id === firstDocument && depth === 0 && folder === '' ? README : hasChildren ? join(folder, page.slug, README) : join(folder, `${page.slug}.md`));
    const file = claim(input.remembered.get(page.id), canonical);
    pageFile.set(page.id, file);
    paths[file] = page.id;
    lines.push(`${'  '.repeat(depth)}* [${escapeLinkText(page.title)}](${linkTo(file)})`);
    const childFolder = path.basename(file) === README && file !== README ? path.dirname(file) : join(folder, page.slug);
    for (const child of input.children(page.id)) place(child, file === README ? page.slug : childFolder, depth + 1);
  };
  for (const id of input.children(null)) place(id, '', 0);
  return { pageFile, fileFile, paths, summary: `${lines.join('\n').trimEnd()}\n` };
}

/** A page's file: front matter, `# Title`, the body with its links made relative to the file. */
export function pageFileText(page: PageEntry, body: string, file: string, layout: Pick<Layout, 'pageFile' | 'fileFile'>): string {
  const folder = path.dirname(file);
  const relative = (target: string) => linkTo(path.relative(folder === '.' ? '' : folder, target) || path.basename(target));
  const linked = rewriteLinkDestinations(body, (href) => {
    const pageLink = /^\/pages\/([^/#?]+)(#.*)?$/.exec(href);
    if (pageLink) {
      const target = layout.pageFile.get(pageLink[1]);
      return target ? `${relative(target)}${pageLink[2] ?? ''}` : null;
    }
    const fileLink = /^\/files\/([^/#?]+)$/.exec(href);
    if (fileLink) {
      const target = layout.fileFile.get(fileLink[1]);
      return target ? relative(target) : null;
    }
    return null;
  });
  return `${frontMatterOf(page)}${withLeadingTitle(page.title, linked)}`;
}

/** GitBook's front matter for what is not the default: nothing at all for a plain page. */
export function frontMatterOf(page: Pick<PageEntry, 'description' | 'icon' | 'emoji' | 'hidden' | 'noIndex' | 'noRobotsIndex' | 'layout'>): string {
  const meta: Record<string, unknown> = {};
  if (page.description) meta.description = page.description;
  if (page.icon) meta.icon = page.icon;
  if (page.emoji) meta.emoji = page.emoji;
  if (page.hidden) meta.hidden = true;
  if (page.noIndex) meta.noIndex = true;
  if (page.noRobotsIndex) meta.noRobotsIndex = true;
  const layout = layoutOf(page.layout);
  if (layout) meta.layout = layout;
  if (!Object.keys(meta).length) return '';
  return `---\n${toYaml(meta, { lineWidth: 0 })}---\n\n`;
}

/** The stored layout flags back in GitBook's nested form (`title: { visible: true }`). */
function layoutOf(stored: unknown): Record<string, unknown> | null {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return null;
  const flags = stored as Record<string, unknown>;
  const layout: Record<string, unknown> = {};
  if (flags.width === 'wide' || flags.width === 'default') layout.width = flags.width;
  if (typeof flags.cover === 'boolean' || flags.coverSize) {
    layout.cover = { ...(typeof flags.cover === 'boolean' ? { visible: flags.cover } : {}), ...(flags.coverSize ? { size: flags.coverSize } : {}) };
  }
  for (const key of ['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata']) {
    if (typeof flags[key] === 'boolean') layout[key] = { visible: flags[key] };
  }
  return Object.keys(layout).length ? layout : null;
}

const join = (...parts: string[]) => parts.filter(Boolean).join('/');

/** A file name safe as one path segment. */
const safeName = (name: string) => name.replace(/[/\\\0]/g, '-').replace(/^\.+/, '') || 'file';

/** A link destination: as is, or in `<>` when it holds spaces or parentheses. */
const linkTo = (target: string) => (/[\s()<>]/.test(target) ? `<${target.replace(/[<>]/g, encodeURIComponent)}>` : target);

const escapeLinkText = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/([\\[\]])/g, '\\$1');
