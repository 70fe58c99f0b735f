import path from 'node:path/posix';
import MarkdownIt from 'markdown-it';
import { gitbookMarkdown } from './gitbook-markdown-blocks.ts';
import type { RevisionDraft } from '../store/revision-draft.ts';

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
// GitBook's blocks as the readers parse them (document-links.ts), so the links resolved are the links read:
// those inside a hint or a tab, not a `[x](y)` inside a `$$` formula.
const parser = new MarkdownIt({ linkify: false }).use(gitbookMarkdown);
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

/** Where a link destination may start: after `](` and spaces, or a reference definition's `]:` and spaces. */
const DESTINATION_OPENER = /\]\(\s*|\]:[ \t]*/g;
/** Longer hrefs are left as written: no page path or ref is that long. */
const MAX_RESOLVED_HREF = 1024;

/**
 * The body of `pageId` with every resolvable link destination replaced by its stable form. Hrefs are
 * found by markdown-it (so text that merely looks like a link is not touched); each is replaced where
 * it stands as a destination — `](href`, `](<href>` and reference definitions `]: href` — read with
 * markdown-it's own destination parser, so the span replaced is exactly the destination markdown-it
 * read. Each destination is read no further than the longest href resolved: one pass over the text,
 * whatever the number of links (a regex per href cost links × length: 83 s for 48,000 links).
 */
export function resolveLinks(markdown: string, pageId: string, targets: LinkTargets): string {
  return rewriteLinkDestinations(markdown, (href) => resolveHref(href, pageId, targets));
}

/**
 * The markdown with each link and image destination `rewrite` gives a new form replaced (null: left
 * as written), found and replaced as `resolveLinks` describes. Git Sync uses it to turn a repository's
 * relative paths into the refs of the pages and files it inserts.
 */
export function rewriteLinkDestinations(markdown: string, rewrite: (href: string) => string | null): string {
  const stableOf = new Map<string, string>();
  let longest = 0;
  for (const href of hrefsOf(markdown)) {
    if (href.length > MAX_RESOLVED_HREF) continue;
    const stable = rewrite(href);
    if (stable === null || stable === href) continue;
    stableOf.set(href, stable);
    longest = Math.max(longest, href.length);
  }
  if (stableOf.size === 0) return markdown;
  let result = '';
  let copied = 0;
  for (const opener of markdown.matchAll(DESTINATION_OPENER)) {
    const start = opener.index + opener[0].length;
    if (start < copied) continue;
    // One character past the longest href (two with angle brackets, plus escapes' backslashes counted
    // loosely): a destination reaching it is longer than any href resolved.
    const max = Math.min(markdown.length, start + 2 * longest + 3);
    const destination = parser.helpers.parseLinkDestination(markdown, start, max);
    if (!destination.ok || (destination.pos === max && max < markdown.length)) continue;
    const stable = stableOf.get(destination.str);
    if (stable === undefined) continue;
    const angled = markdown.charCodeAt(start) === 0x3c;
    const [from, to] = angled ? [start + 1, destination.pos - 1] : [start, destination.pos];
    result += markdown.slice(copied, from) + stable;
    copied = to;
  }
  return result + markdown.slice(copied);
}
