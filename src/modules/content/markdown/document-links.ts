import MarkdownIt from 'markdown-it';
import { decodeUriPart } from '../../../lib/uri.ts';
import { gitbookMarkdown } from './gitbook-markdown-blocks.ts';

/**
 * The links of a page body. The revision writer normalises markdown before storing it: a link or image
 * it resolves to a page of the revision is written `/pages/<pageId>` (optionally `#anchor`), one to a
 * file `/files/<fileId>`; what it cannot resolve stays as written. So the links of a document are a
 * function of its text: they are extracted once, when the document is first stored (`putDocuments`),
 * and whether a page or file target exists is asked of a revision at read time.
 */
export type LinkTarget =
  | { kind: 'page'; page: string; anchor: string | null }
  | { kind: 'file'; file: string }
  | { kind: 'anchor'; anchor: string }
  /** `relative`: neither absolute nor normalised to a page or file; the writer could not resolve it. */
  | { kind: 'url'; url: string; relative: boolean };

/**
 * The same parser as `markdownToDocument`, so a link list and a structured document see the same links;
 * with GitBook's blocks (hints, tabs, expandables…: gitbook-markdown-blocks.ts), whose bodies are parsed
 * as markdown, so a link inside a hint is a link here too.
 */
export const markdownParser = new MarkdownIt('commonmark').enable(['table', 'strikethrough']).use(gitbookMarkdown);

const PAGE = /^\/pages\/([^/?#]+)(?:#(.*))?$/;
const FILE = /^\/files\/([^/?#]+)$/;
const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** markdown-it percent-encodes destinations; IDs and anchors are kept as the writer meant them. */
const decoded = decodeUriPart;

/** What one href (as markdown-it normalised it) points to; null for an empty one. */
export function classifyHref(href: string): LinkTarget | null {
  if (!href || href === '#') return null;
  if (href.startsWith('#')) return { kind: 'anchor', anchor: decoded(href.slice(1)) };
  const page = PAGE.exec(href);
  if (page) return { kind: 'page', page: decoded(page[1]), anchor: page[2] ? decoded(page[2]) : null };
  const file = FILE.exec(href);
  if (file) return { kind: 'file', file: decoded(file[1]) };
  return { kind: 'url', url: href, relative: !ABSOLUTE.test(href) };
}

type Token = ReturnType<typeof markdownParser.parse>[number];

/** Every link and image destination of the markdown, in document order. */
export function hrefsOf(markdown: string): string[] {
  const hrefs: string[] = [];
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'link_open') hrefs.push(String(token.attrGet('href') ?? ''));
      if (token.type === 'image') hrefs.push(String(token.attrGet('src') ?? ''));
      if (token.children) visit(token.children);
    }
  };
  visit(markdownParser.parse(markdown, {}));
  return hrefs;
}

/** A `DocumentLink` row without its document. */
export interface DocumentLinkRow {
  ordinal: number;
  kind: LinkTarget['kind'];
  targetPageId: string | null;
  targetFileId: string | null;
  url: string | null;
  relative: boolean;
  anchor: string | null;
}

/** The distinct links of a document (by target and anchor), in order of first appearance. */
export function documentLinks(markdown: string): DocumentLinkRow[] {
  const rows = new Map<string, DocumentLinkRow>();
  for (const href of hrefsOf(markdown)) {
    const target = classifyHref(href);
    if (!target) continue;
    const row: DocumentLinkRow = {
      ordinal: rows.size,
      kind: target.kind,
      targetPageId: target.kind === 'page' ? target.page : null,
      targetFileId: target.kind === 'file' ? target.file : null,
      url: target.kind === 'url' ? target.url : null,
      relative: target.kind === 'url' && target.relative,
      anchor: target.kind === 'page' || target.kind === 'anchor' ? target.anchor : null,
    };
    const key = JSON.stringify([row.kind, row.targetPageId, row.targetFileId, row.url, row.anchor]);
    if (!rows.has(key)) rows.set(key, row);
  }
  return [...rows.values()];
}
