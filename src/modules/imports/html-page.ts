import * as cheerio from 'cheerio';
import { selectAll } from 'css-select';
import { highlightedCodeBlock, strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { decodeUriPart } from '../../lib/uri.ts';
import { MAX_PAGE_MARKDOWN } from '../content/index.ts';
import { markdownTables } from './markdown-tables.ts';

/**
 * One fetched HTML page, as the import sees it: its title, the main content (navigation, scripts and
 * the site's chrome removed), the links and images in it, and that content as markdown once the
 * import knows where each link and image goes. Parsed with cheerio (parse5, as browsers parse), turned
 * into markdown by turndown with GitHub-flavoured tables and strikethrough.
 */
export interface HtmlPage {
  title: string;
  /** Absolute URLs of the links of the main content, in document order (fragment kept). */
  links: string[];
  /** Absolute URLs of its images, in document order. */
  images: string[];
  /** The main content as markdown; `rewrite` says where a link or image now points (null: leave it absolute). */
  toMarkdown(rewrite: { link: (url: string) => string | null; image: (url: string) => string | null }): string;
}

/** Where a page's own content is, most specific first; the body when none is there. */
const MAIN_CONTENT = ['main', '[role=main]', 'article', '#content', '.content', '.markdown-body', '.documentation'];
/** Never content: code, embedded objects, forms, and what only navigates. */
const NEVER_CONTENT = 'script, style, noscript, template, iframe, object, embed, form, button, input, select, textarea, svg, canvas, nav, [role=navigation], [aria-hidden=true], [hidden]';
/** The site's chrome, removed when the main content could not be told apart from the body. */
const CHROME = 'header, footer, aside, [role=banner], [role=contentinfo], [role=complementary]';

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*', hr: '---' });
// GitHub-flavoured markdown: the plugin's strikethrough, task lists and highlighted code; tables our own (markdown-tables.ts).
turndown.use([highlightedCodeBlock, strikethrough, taskListItems]);
markdownTables(turndown);
/**
 * Bounds on one imported page, checked before the costly steps: the HTML parser's work grows with the
 * square of the nesting (80,000 nested elements took 34 s), so the raw HTML and its nesting are bounded
 * before parsing; turndown's work grows with the size of the content. A page past a bound is imported
 * with a note linking to the original instead of its content.
 */
const MAX_PAGE_HTML = 2 * 1024 * 1024;
const MAX_CONTENT_HTML = 512 * 1024;
const MAX_NESTING = 512;

function absolute(href: string | undefined, base: string): string | null {
  if (!href) return null;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

export function parseHtmlPage(html: string, pageUrl: string): HtmlPage {
  if (html.length > MAX_PAGE_HTML || roughNesting(html) > MAX_NESTING) return tooLargePage(pageUrl);
  const $ = cheerio.load(html);
  // Queries inside the content go straight to css-select: cheerio's `find` took 1.3 s per query on a
  // page of 20,000 paragraphs (its cost grew with the square of the matches it filters).
  const within = (root: cheerio.Cheerio<any>, selector: string) => $(selectAll(selector, root.toArray()));
  const base = absolute($('base[href]').attr('href'), pageUrl) ?? pageUrl;
  const selector = MAIN_CONTENT.find((candidate) => $(candidate).first().text().trim() !== '');
  const main = selector ? $(selector).first() : $('body');
  within(main, NEVER_CONTENT).remove();
  if (!selector) within(main, CHROME).remove();
  collapseWhitespaceRuns(main.toArray());

  const h1 = within(main, 'h1').first();
  const title = squash(h1.text()) || squash($('title').first().text()) || decodeUriPart(new URL(pageUrl).pathname.split('/').filter(Boolean).pop() ?? '') || 'Home';
  // The page title is the page's own field: its first heading is not repeated in the body.
  if (h1.length && squash(h1.text()) === title) h1.remove();

  const links = within(main, 'a[href]')
    .toArray()
    .map((a) => absolute($(a).attr('href'), base))
    .filter((url): url is string => url !== null);
  const images = within(main, 'img[src]')
    .toArray()
    .map((img) => absolute($(img).attr('src'), base))
    .filter((url): url is string => url !== null);

  return {
    title: title.slice(0, 256),
    links,
    images,
    toMarkdown(rewrite) {
      within(main, 'a[href]').each((_, a) => {
        const url = absolute($(a).attr('href'), base);
        if (url) $(a).attr('href', rewrite.link(url) ?? url);
      });
      within(main, 'img[src]').each((_, img) => {
        const url = absolute($(img).attr('src'), base);
        if (url) $(img).attr('src', rewrite.image(url) ?? url);
        $(img).removeAttr('srcset');
      });
      const content = main.html() ?? '';
      if (content.length > MAX_CONTENT_HTML) return tooLargeNote(pageUrl);
      const markdown = turndown.turndown(content).trim();
      return markdown.length > MAX_PAGE_MARKDOWN ? tooLargeNote(pageUrl) : markdown;
    },
  };
}

const tooLargeNote = (pageUrl: string) => `*This page was too large to import: see [the original](${pageUrl.replace(/[()\s]/g, encodeURIComponent)}).*`;

/** A page past a bound: its address as its title, and the note as its content. */
function tooLargePage(pageUrl: string): HtmlPage {
  const title = decodeUriPart(new URL(pageUrl).pathname.split('/').filter(Boolean).pop() ?? '') || 'Home';
  return { title: title.slice(0, 256), links: [], images: [], toMarkdown: () => tooLargeNote(pageUrl) };
}

/** Elements whose end tag may be left out (the parser closes them): they do not count as nesting. */
const OPTIONAL_END = new Set(['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'rt', 'rp', 'colgroup', 'caption', 'html', 'head', 'body']);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** The deepest nesting of start tags the text reaches, read from its tags alone (an upper bound, in one pass). */
function roughNesting(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const [, closing, name, selfClosing] of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]{0,30})\b[^>]*?(\/?)>/g)) {
    const tag = name.toLowerCase();
    if (OPTIONAL_END.has(tag) || VOID.has(tag) || selfClosing) continue;
    depth = closing ? Math.max(0, depth - 1) : depth + 1;
    if (depth > deepest) deepest = depth;
  }
  return deepest;
}

type DomNode = { type: string; data?: string; name?: string; children?: DomNode[] };

/**
 * Runs of 1,000 or more whitespace characters (no-break spaces included) outside `pre` and `code` become
 * one space: turndown's edge-whitespace regexes backtrack over such runs in time growing with their
 * square (100,000 no-break spaces in an `em` took 7 s). Shorter runs are kept as written.
 */
function collapseWhitespaceRuns(roots: DomNode[]) {
  const stack = [...roots];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'text' && node.data !== undefined && node.data.length >= 1000) node.data = node.data.replace(/[\s\u00a0]{1000,}/g, ' ');
    if (node.name === 'pre' || node.name === 'code') continue;
    for (const child of node.children ?? []) stack.push(child);
  }
}
