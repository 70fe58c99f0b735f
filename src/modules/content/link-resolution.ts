import path from 'node:path/posix';
import MarkdownIt from 'markdown-it';
import type { RevisionDraft } from './revision-draft.ts';

/**
 * Resolves the links of a page body written through the API to stable references, as GitBook's
 * `updateChangeRequestContent` describes: `./<ref>` of a page or file inserted in the same batch, a page
 * ID (`/pages/<id>`), a slug path (`/pages/guides/intro`, `.md` and `/README.md` forms) and relative
 * markdown paths (`../other.md`, `./section`) become `/pages/<pageId>` (anchor kept) or
 * `/files/<fileId>`. Anything else (external URLs, unknown targets) is left as written; unknown targets
 * then show as broken links. Stored bodies hold only these stable forms, so the links of a document are
 * a function of its text alone (and are extracted once, when the document is stored).
 */
export interface LinkTargets {
  draft: RevisionDraft;
  /** `ref` → page ID, of pages inserted in this batch. */
  pageRefs: ReadonlyMap<string, string>;
  /** `ref` → file ID, of files inserted in this batch. */
  fileRefs: ReadonlyMap<string, string>;
}

// Hrefs exactly as written: no percent-encoding, and every scheme let through (nothing is rendered here).
const parser = new MarkdownIt({ linkify: false });
parser.normalizeLink = (url) => url;
parser.validateLink = () => true;

const EXTERNAL = /^[a-z][a-z0-9+.-]*:|^\/\//i;

function hrefsOf(markdown: string): Set<string> {
  const hrefs = new Set<string>();
  const visit = (tokens: ReturnType<typeof parser.parse>) => {
    for (const token of tokens) {
      if (token.type === 'link_open') hrefs.add(String(token.attrGet('href') ?? ''));
      if (token.type === 'image') hrefs.add(String(token.attrGet('src') ?? ''));
      if (token.children) visit(token.children);
    }
  };
  visit(parser.parse(markdown, {}));
  hrefs.delete('');
  return hrefs;
}

/** The page a slug path names (`guides/intro`, `guides/intro.md`, `guides/README.md`), if any. */
function pageAtGitPath(draft: RevisionDraft, gitPath: string): string | undefined {
  let slugPath = gitPath.replace(/^\/+|\/+$/g, '');
  if (slugPath === 'README.md' || slugPath === 'README') return undefined;
  slugPath = slugPath.replace(/\/README(\.md)?$/i, '').replace(/\.md$/i, '');
  return slugPath ? draft.pageAtPath(slugPath)?.id : undefined;
}

/** The stable form of one href on page `pageId`, or null to leave it as written. */
export function resolveHref(href: string, pageId: string, targets: LinkTargets): string | null {
  if (EXTERNAL.test(href)) return null;
  const hashAt = href.indexOf('#');
  const target = hashAt === -1 ? href : href.slice(0, hashAt);
  const anchor = hashAt === -1 ? '' : href.slice(hashAt);
  if (!target) return null;
  const { draft } = targets;
  let decoded: string;
  try {
    decoded = decodeURI(target);
  } catch {
    return null;
  }
  const toPage = (id: string | undefined) => (id ? `/pages/${id}${anchor}` : null);

  const ref = /^\.\/(.+?)(\.md)?$/.exec(decoded);
  if (ref) {
    const page = targets.pageRefs.get(ref[1]) ?? targets.pageRefs.get(`${ref[1]}${ref[2] ?? ''}`);
    if (page) return toPage(page);
    const file = targets.fileRefs.get(`${ref[1]}${ref[2] ?? ''}`) ?? targets.fileRefs.get(ref[1]);
    if (file) return `/files/${file}`;
  }
  if (decoded.startsWith('/files/')) return null;
  if (decoded.startsWith('/pages/')) {
    const rest = decoded.slice('/pages/'.length);
    if (draft.pages.has(rest)) return null;
    return toPage(pageAtGitPath(draft, rest));
  }
  if (decoded.startsWith('/')) return toPage(pageAtGitPath(draft, decoded));
  // Relative to the page's own markdown file: `<path>.md`, or `<path>/README.md` when it has sub-pages.
  const own = draft.pathOf(pageId);
  const directory = draft.hasChildren(pageId) ? own : path.dirname(`/${own}`);
  const joined = path.normalize(path.join('/', directory, decoded));
  if (/(^|\/)README(\.md)?$/i.test(joined)) {
    const folder = path.dirname(joined).replace(/^\/+/, '');
    return toPage(folder ? draft.pageAtPath(folder)?.id : undefined);
  }
  return toPage(pageAtGitPath(draft, joined));
}

/** Where a link destination starts: after `](` (and spaces, and `<`) or a reference definition's `]:`. */
const DESTINATION_OPENER = /\]\(\s*<?|\]:[ \t]*<?/g;
/** Longer hrefs are left as written: no page path or ref is that long. */
const MAX_RESOLVED_HREF = 1024;
/** Hrefs are looked up by their first characters, then by length. */
const PREFIX = 8;

/**
 * The body of `pageId` with every resolvable link destination replaced by its stable form. Hrefs are
 * found by markdown-it (so text that merely looks like a link is not touched); each is replaced where
 * it stands as a destination — `](href`, `](<href>` and reference definitions `]: href` — and ends
 * (before `>`, `)`, whitespace or the end). One pass over the text: at each destination only the hrefs
 * sharing its first characters are tried. (A regex per href cost links × length: over a minute for a
 * body of 48,000 links.)
 */
export function resolveLinks(markdown: string, pageId: string, targets: LinkTargets): string {
  const stableOf = new Map<string, string>();
  for (const href of hrefsOf(markdown)) {
    if (href.length > MAX_RESOLVED_HREF) continue;
    const stable = resolveHref(href, pageId, targets);
    if (stable !== null && stable !== href) stableOf.set(href, stable);
  }
  if (stableOf.size === 0) return markdown;
  // First characters → the hrefs starting with them, longest first.
  const byPrefix = new Map<string, string[]>();
  for (const href of stableOf.keys()) {
    const key = href.slice(0, PREFIX);
    byPrefix.set(key, [...(byPrefix.get(key) ?? []), href]);
  }
  for (const hrefs of byPrefix.values()) hrefs.sort((a, b) => b.length - a.length);
  let result = '';
  let copied = 0;
  for (const opener of markdown.matchAll(DESTINATION_OPENER)) {
    const start = opener.index + opener[0].length;
    if (start < copied) continue;
    const href = destinationAt(markdown, start, byPrefix);
    if (href === null) continue;
    result += markdown.slice(copied, start) + stableOf.get(href)!;
    copied = start + href.length;
  }
  return result + markdown.slice(copied);
}

/** The longest of the hrefs written at `start` and ending there as a destination does. */
function destinationAt(text: string, start: number, byPrefix: ReadonlyMap<string, readonly string[]>): string | null {
  for (let length = Math.min(PREFIX, text.length - start); length > 0; length--) {
    for (const href of byPrefix.get(text.slice(start, start + length)) ?? []) {
      if (endsDestination(text, start + href.length) && text.startsWith(href, start)) return href;
    }
  }
  return null;
}

/** Whether a destination may end at `end`: before `>`, `)`, whitespace or the end of the text. */
function endsDestination(text: string, end: number): boolean {
  if (end > text.length) return false;
  if (end === text.length) return true;
  const code = text.charCodeAt(end);
  return code === 0x3e || code === 0x29 || code === 0x20 || (code >= 0x09 && code <= 0x0d);
}
