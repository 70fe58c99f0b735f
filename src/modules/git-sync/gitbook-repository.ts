import path from 'node:path/posix';
import MarkdownIt from 'markdown-it';
import { parse as parseYaml } from 'yaml';
import { detectImage, rewriteLinkDestinations } from '../content/index.ts';
import { slugify } from '../../lib/slugify.ts';

/**
 * A repository in GitBook's Git Sync format, read into the content changes that write it into a space
 * (issue 40, "The format"), so that a repository GitBook synced imports unchanged:
 *
 * - `.gitbook.yaml` (optional): `root` (the folder the content is in), `structure.readme` (default
 *   `README.md`), `structure.summary` (default `SUMMARY.md`) and `redirects` (old path → file).
 * - `SUMMARY.md` is the page tree: nested list items are pages (`[Title](path.md)`), `##` headings page
 *   groups. Without it the tree is the folders': the readme first, then each folder's files by name, a
 *   folder's `README.md` being that folder's page. A file listed twice is refused, naming it.
 * - Page files are GitBook markdown, taken as written (their front matter and leading `# Title` are read
 *   by insert_page, change-requests/apply-changes.ts); relative links to other pages and to files (the
 *   `.gitbook/assets/` images) become the refs of the pages and files inserted with them.
 *
 * Pure: files in, changes out. Fetching the repository (Git over HTTP) and writing the changes are the
 * callers'. Paths are relative to the repository; `projectDirectory` selects a folder of a monorepo.
 */
export interface RepositoryFile {
  path: string;
  bytes: Uint8Array;
}

export interface RepositoryContent {
  /** insert_files then insert_page changes (pages in tree order, each `ref` its file's path from the root). */
  changes: object[];
  /** `.gitbook.yaml` redirects: an old page path and the file it now is. */
  redirects: { source: string; destination: string }[];
  /** How many pages and files the changes insert. */
  pages: number;
  files: number;
}

/** Why a repository cannot be read as GitBook content: the file it is about, and what is wrong. */
export class RepositoryFormatError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}

export interface RepositoryLimits {
  maxPages: number;
  maxFileBytes: number;
}

const DEFAULT_LIMITS: RepositoryLimits = { maxPages: 5000, maxFileBytes: 20 * 1024 * 1024 };
/** Files one insert_files change holds at most (content-changes.ts MAX_FILES_PER_CHANGE). */
const FILES_PER_CHANGE = 20;

interface Config {
  root: string;
  readme: string;
  summary: string;
  redirects: { source: string; destination: string }[];
}

interface PageNode {
  kind: 'document' | 'group';
  /** The file, relative to the root (null for a group, or a page SUMMARY names without a file). */
  file: string | null;
  title: string | null;
  children: PageNode[];
}

const summaryParser = new MarkdownIt('commonmark');
const decoder = new TextDecoder('utf-8', { fatal: false });
const text = (bytes: Uint8Array) => decoder.decode(bytes);
const isMarkdown = (file: string) => /\.md$/i.test(file);

export function readGitBookRepository(files: readonly RepositoryFile[], options: { projectDirectory?: string; limits?: Partial<RepositoryLimits> } = {}): RepositoryContent {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const project = normalizeFolder(options.projectDirectory ?? '', 'repoProjectDirectory');
  const inProject = new Map<string, Uint8Array>();
  for (const file of files) {
    const relative = project ? (file.path.startsWith(`${project}/`) ? file.path.slice(project.length + 1) : null) : file.path;
    if (relative !== null) inProject.set(relative, file.bytes);
  }
  const config = readConfig(inProject);
  const content = new Map<string, Uint8Array>();
  for (const [file, bytes] of inProject) {
    const relative = config.root ? (file.startsWith(`${config.root}/`) ? file.slice(config.root.length + 1) : null) : file;
    if (relative !== null) content.set(relative, bytes);
  }

  const tree = content.has(config.summary) ? treeFromSummary(content, config) : treeFromFolders(content, config);
  const pageFiles = new Set<string>();
  let pageCount = 0;
  const count = (nodes: PageNode[]) => {
    for (const node of nodes) {
      pageCount++;
      if (pageCount > limits.maxPages) throw new RepositoryFormatError(config.summary, `more than ${limits.maxPages} pages`);
      if (node.file) pageFiles.add(node.file);
      count(node.children);
    }
  };
  count(tree);

  // Files the pages point at (images, downloads), by their path from the root.
  const assets = new Map<string, Uint8Array>();
  const pageChanges: object[] = [];
  const refOf = (file: string) => file;
  let groups = 0;
  const visit = (nodes: PageNode[], parentRef: string | null) => {
    for (const node of nodes) {
      if (node.kind === 'group') {
        const ref = `group:${++groups}`;
        pageChanges.push({ operation: 'insert_page', type: 'group', ref, title: (node.title ?? 'Untitled').slice(0, 256) });
        visit(node.children, ref);
        continue;
      }
      const markdown = node.file && content.has(node.file) ? text(content.get(node.file)!) : '';
      const body = node.file ? rewriteLinks(markdown, node.file, pageFiles, content, assets, limits) : markdown;
      const leadingTitle = /^\s*(?:---\r?\n[\s\S]*?\r?\n---[ \t]*\r?\n)?\s*# /.test(body);
      const ref = node.file ? refOf(node.file) : `page:${pageChanges.length + 1}`;
      const slug = node.file ? slugOf(node.file, config) : '';
      pageChanges.push({
        operation: 'insert_page',
        ref,
        ...(parentRef ? { into: parentRef } : {}),
        // The title is the body's leading heading when it has one, else SUMMARY's link text.
        ...(leadingTitle || !node.title ? {} : { title: node.title.slice(0, 256) }),
        ...(slug ? { slug } : {}),
        document: { markdown: body },
      });
      visit(node.children, ref);
    }
  };
  visit(tree, null);

  const fileChanges: object[] = [];
  const entries = [...assets];
  for (let at = 0; at < entries.length; at += FILES_PER_CHANGE) {
    fileChanges.push({
      operation: 'insert_files',
      files: entries.slice(at, at + FILES_PER_CHANGE).map(([file, bytes]) => ({
        name: path.basename(file).slice(0, 256),
        ref: file,
        contentType: contentTypeOf(file, bytes),
        base64: Buffer.from(bytes).toString('base64'),
      })),
    });
  }
  return { changes: [...fileChanges, ...pageChanges], redirects: config.redirects, pages: pageCount, files: assets.size };
}

/** A folder path as the repository writes it: no leading `./` or `/`, no trailing `/`, never above the top. */
function normalizeFolder(folder: string, field: string): string {
  const normalized = path.normalize(folder.replace(/^\/+/, '') || '.').replace(/\/+$/g, '');
  if (normalized === '..' || normalized.startsWith('../')) throw new RepositoryFormatError(field, 'must stay inside the repository');
  return normalized === '.' ? '' : normalized;
}

function readConfig(files: ReadonlyMap<string, Uint8Array>): Config {
  const config: Config = { root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: [] };
  const raw = files.get('.gitbook.yaml') ?? files.get('.gitbook.yml');
  if (!raw) return config;
  let parsed: unknown;
  try {
    parsed = parseYaml(text(raw), { maxAliasCount: 16, prettyErrors: false });
  } catch {
    throw new RepositoryFormatError('.gitbook.yaml', 'is not valid YAML');
  }
  if (parsed === null || parsed === undefined) return config;
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new RepositoryFormatError('.gitbook.yaml', 'must be a mapping');
  const value = parsed as Record<string, unknown>;
  const str = (v: unknown, field: string): string | undefined => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' || v.length > 1024) throw new RepositoryFormatError('.gitbook.yaml', `"${field}" must be a path`);
    return v;
  };
  const root = str(value.root, 'root');
  if (root !== undefined) config.root = normalizeFolder(root, '.gitbook.yaml root');
  const structure = value.structure;
  if (structure !== undefined && structure !== null) {
    if (typeof structure !== 'object' || Array.isArray(structure)) throw new RepositoryFormatError('.gitbook.yaml', '"structure" must be a mapping');
    const s = structure as Record<string, unknown>;
    const readme = str(s.readme, 'structure.readme');
    const summary = str(s.summary, 'structure.summary');
    if (readme) config.readme = normalizeFolder(readme, '.gitbook.yaml structure.readme');
    if (summary) config.summary = normalizeFolder(summary, '.gitbook.yaml structure.summary');
  }
  const redirects = value.redirects;
  if (redirects !== undefined && redirects !== null) {
    if (typeof redirects !== 'object' || Array.isArray(redirects)) throw new RepositoryFormatError('.gitbook.yaml', '"redirects" must be a mapping of old paths to files');
    for (const [source, destination] of Object.entries(redirects as Record<string, unknown>).slice(0, 1000)) {
      const target = str(destination, `redirects.${source}`);
      if (target) config.redirects.push({ source: source.replace(/^\/+/, ''), destination: normalizeFolder(target, `.gitbook.yaml redirects.${source}`) });
    }
  }
  return config;
}

type Token = ReturnType<typeof summaryParser.parse>[number];

/** The tree SUMMARY.md describes: list items are pages (nested lists their children), `##` headings groups. */
function treeFromSummary(files: ReadonlyMap<string, Uint8Array>, config: Config): PageNode[] {
  const tokens = summaryParser.parse(text(files.get(config.summary)!), {});
  const summaryDir = path.dirname(config.summary) === '.' ? '' : path.dirname(config.summary);
  const top: PageNode[] = [];
  let group: PageNode | null = null;
  const listed = new Set<string>();
  // One frame per open list: where its items go, its last item (a nested list's parent), whether the
  // item open now has its page yet (an item's first line is its page; what follows is not).
  const frames: { items: PageNode[]; last: PageNode | null; taken: boolean }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const frame = frames[frames.length - 1];
    if (token.type === 'heading_open' && token.tag !== 'h1' && !frame) {
      group = { kind: 'group', file: null, title: inlineText(tokens[i + 1]) || 'Untitled', children: [] };
      top.push(group);
    } else if (token.type === 'bullet_list_open' || token.type === 'ordered_list_open') {
      frames.push({ items: frame ? (frame.last?.children ?? frame.items) : group ? group.children : top, last: null, taken: false });
    } else if (token.type === 'bullet_list_close' || token.type === 'ordered_list_close') {
      frames.pop();
    } else if (token.type === 'list_item_open' && frame) {
      frame.taken = false;
    } else if (token.type === 'inline' && frame && !frame.taken) {
      frame.taken = true;
      const link = (token.children ?? []).find((child: Token) => child.type === 'link_open');
      const href = link ? String(link.attrGet('href') ?? '') : '';
      let file: string | null = null;
      if (href && !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('#')) {
        let decoded: string;
        try {
          decoded = decodeURIComponent(href.split('#')[0]);
        } catch {
          decoded = href.split('#')[0];
        }
        file = normalizeFolder(path.join(summaryDir, decoded), config.summary);
        if (listed.has(file)) throw new RepositoryFormatError(config.summary, `lists "${file}" twice`);
        listed.add(file);
      }
      const node: PageNode = { kind: 'document', file, title: inlineText(token) || null, children: [] };
      frame.items.push(node);
      frame.last = node;
    }
  }
  // The readme is the first page, listed or not (GitBook's "Introduction").
  if (files.has(config.readme) && !listed.has(config.readme)) top.unshift({ kind: 'document', file: config.readme, title: null, children: [] });
  return top;
}

function inlineText(token: Token | undefined): string {
  return (token?.children ?? [])
    .filter((child: Token) => child.type === 'text' || child.type === 'code_inline')
    .map((child: Token) => child.content)
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Without SUMMARY.md: the readme, then each folder's markdown files by name; a folder's README.md is its page. */
function treeFromFolders(files: ReadonlyMap<string, Uint8Array>, config: Config): PageNode[] {
  const markdown = [...files.keys()].filter((file) => isMarkdown(file) && !file.startsWith('.gitbook/') && file !== config.summary).sort();
  const folderNodes = new Map<string, PageNode>();
  const top: PageNode[] = [];
  const childrenOf = (folder: string): PageNode[] => {
    if (folder === '') return top;
    let node = folderNodes.get(folder);
    if (!node) {
      const readme = `${folder}/README.md`;
      node = { kind: 'document', file: files.has(readme) ? readme : null, title: files.has(readme) ? null : titleOfSegment(path.basename(folder)), children: [] };
      folderNodes.set(folder, node);
      childrenOf(path.dirname(folder) === '.' ? '' : path.dirname(folder)).push(node);
    }
    return node.children;
  };
  if (files.has(config.readme)) top.push({ kind: 'document', file: config.readme, title: null, children: [] });
  for (const file of markdown) {
    if (file === config.readme || /(^|\/)README\.md$/i.test(file)) {
      if (file !== config.readme) childrenOf(path.dirname(file));
      continue;
    }
    childrenOf(path.dirname(file) === '.' ? '' : path.dirname(file)).push({ kind: 'document', file, title: titleOfSegment(path.basename(file, '.md')), children: [] });
  }
  return top;
}

const titleOfSegment = (segment: string) => {
  const words = segment.replace(/[-_]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Untitled';
};

/** A page's slug from its file: its name, or its folder's for a README (none for the root readme). */
function slugOf(file: string, config: Config): string {
  if (file === config.readme) return '';
  const base = /(^|\/)README\.md$/i.test(file) ? path.basename(path.dirname(file)) : path.basename(file, path.extname(file));
  return slugify(base).slice(0, 100);
}

/**
 * The page's links to other pages and files of the repository, relative to its file, as `./<ref>` of
 * what the changes insert (apply-changes.ts resolves those); the files pointed at are collected.
 */
function rewriteLinks(
  markdown: string,
  file: string,
  pageFiles: ReadonlySet<string>,
  content: ReadonlyMap<string, Uint8Array>,
  assets: Map<string, Uint8Array>,
  limits: RepositoryLimits,
): string {
  const folder = path.dirname(file) === '.' ? '' : path.dirname(file);
  return rewriteLinkDestinations(markdown, (href) => {
    if (/^[a-z][a-z0-9+.-]*:|^\/\/|^#/i.test(href)) return null;
    const hashAt = href.indexOf('#');
    const target = hashAt === -1 ? href : href.slice(0, hashAt);
    const anchor = hashAt === -1 ? '' : href.slice(hashAt);
    let decoded: string;
    try {
      decoded = decodeURIComponent(target);
    } catch {
      return null;
    }
    const joined = path.normalize(path.join(folder, decoded)).replace(/^\/+/, '');
    if (joined.startsWith('..')) return null;
    if (pageFiles.has(joined)) return `./${joined}${anchor}`;
    const folderReadme = `${joined.replace(/\/+$/, '')}/README.md`;
    if (pageFiles.has(folderReadme)) return `./${folderReadme}${anchor}`;
    const bytes = content.get(joined);
    if (!bytes || isMarkdown(joined)) return null;
    if (bytes.byteLength > limits.maxFileBytes) throw new RepositoryFormatError(joined, `is larger than ${limits.maxFileBytes} bytes`);
    assets.set(joined, bytes);
    return `./${joined}`;
  });
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  pdf: 'application/pdf',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  txt: 'text/plain',
  zip: 'application/zip',
};

function contentTypeOf(file: string, bytes: Uint8Array): string {
  const image = detectImage(bytes);
  if (image) return image.contentType;
  return TYPES[path.extname(file).slice(1).toLowerCase()] ?? 'application/octet-stream';
}
