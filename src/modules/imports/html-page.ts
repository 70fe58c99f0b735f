import { createHash } from 'node:crypto';
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
  /** Absolute URLs of the links of the site's navigation (sidebar, `<nav>`, menus), in document order. */
  navLinks: string[];
  /**
   * The navigation's sections: a label that links nowhere above a list of page links (MkDocs' sections,
   * Docusaurus' categories without a page, this server's sidebar groups), outermost ones only. The
   * import makes GitBook's page groups of them.
   */
  navGroups: { title: string; links: string[] }[];
  /** A digest of the main content as parsed: two addresses of one page (a site's root showing its first page) share it. */
  fingerprint: string;
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
/** Where sites keep their navigation: its links are pages of the site too (a sidebar links them all). */
const NAVIGATION = 'nav a[href], [role=navigation] a[href], aside a[href], .sidebar a[href], .menu a[href], .md-nav a[href], .theme-doc-sidebar-container a[href], .summary a[href]';
/**
 * Chrome inside the main content, by the class names the usual generators give it (Docusaurus, MkDocs
 * Material, GitBook, this server's reader): on-page tables of contents, "last updated", edit links,
 * breadcrumbs, previous/next, and content footers.
 */
const INNER_CHROME = [
  'footer',
  '.toc',
  '.toc-inline',
  '.table-of-contents',
  '.theme-doc-toc-mobile',
  '.theme-doc-toc-desktop',
  '.theme-last-updated',
  '.theme-edit-this-page',
  '.theme-doc-breadcrumbs',
  '.theme-doc-footer',
  '.pagination-nav',
  '.breadcrumbs',
  '.md-source-file',
  '.md-content__button',
  '.md-footer',
  '.page-footer',
  '.last-updated',
  '.headerlink',
  '.hash-link',
].join(', ');
/** Text that is the page's chrome when an element says nothing else: "Last updated 3 days ago", "On this page". */
const CHROME_TEXT = /^(last updated|last modified|on this page|edit this page|was this page helpful)\b/i;

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
  // The navigation's links, before anything is removed: the pages a sidebar lists are pages to import.
  const navLinks = $(selectAll(NAVIGATION, $.root().toArray()))
    .toArray()
    .map((a) => absolute($(a).attr('href'), base))
    .filter((url): url is string => url !== null);
  const navGroups = navGroupsOf($, base);
  const selector = MAIN_CONTENT.find((candidate) => $(candidate).first().text().trim() !== '');
  const main = selector ? $(selector).first() : $('body');
  removeInnerChrome($, main, within);
  // Blocks become GitBook's before hidden parts are dropped: a tab set hides every panel but the first.
  markGitBookBlocks($, main, within);
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

  const fingerprint = createHash('sha256').update(title).update('\n').update(main.html() ?? '').digest('base64url');

  return {
    title: title.slice(0, 256),
    links,
    navLinks,
    navGroups,
    fingerprint,
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
  return { title: title.slice(0, 256), links: [], navLinks: [], navGroups: [], fingerprint: `too-large ${pageUrl}`, images: [], toMarkdown: () => tooLargeNote(pageUrl) };
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

type Within = (root: cheerio.Cheerio<any>, selector: string) => cheerio.Cheerio<any>;

/** Where a site keeps its navigation (NAVIGATION's containers). */
const NAVIGATION_ROOTS = 'nav, [role=navigation], aside, .sidebar, .menu, .md-nav, .theme-doc-sidebar-container, .summary';
/** Links that go nowhere: a section's label is no page. */
const PAGE_LINK = 'a[href]:not([href="#"]):not([href=""])';

/** The navigation's sections (HtmlPage.navGroups), in document order; at most 100. */
function navGroupsOf($: cheerio.CheerioAPI, base: string): { title: string; links: string[] }[] {
  const groups: { title: string; links: string[] }[] = [];
  const sections = new Set<unknown>();
  for (const item of selectAll('li', $(NAVIGATION_ROOTS).toArray())) {
    if (groups.length >= 100) break;
    if ($(item).parents('li').toArray().some((parent) => sections.has(parent))) continue;
    const label = $(item)
      .children()
      .filter((_, child) => /^(h[1-6]|label|p|span|div|strong|b)$/i.test((child as { name?: string }).name ?? '') && $(child).find(PAGE_LINK).length === 0)
      .first();
    const list = $(item).children('ul, ol, nav').first();
    const title = squash(label.text());
    if (!title || !list.length) continue;
    const links = list
      .find(PAGE_LINK)
      .toArray()
      .map((a) => absolute($(a).attr('href'), base))
      .filter((url): url is string => url !== null);
    if (!links.length) continue;
    sections.add(item);
    groups.push({ title: title.slice(0, 256), links });
  }
  return groups;
}

/**
 * Chrome inside the main content (INNER_CHROME, CHROME_TEXT) and heading anchors (a `#`, `¶` or icon
 * link to the heading itself, which would become `[#](#x)` in every heading).
 */
function removeInnerChrome($: cheerio.CheerioAPI, main: cheerio.Cheerio<any>, within: Within) {
  within(main, INNER_CHROME).remove();
  within(main, 'h1 a[href^="#"], h2 a[href^="#"], h3 a[href^="#"], h4 a[href^="#"], h5 a[href^="#"], h6 a[href^="#"]').each((_, a) => {
    if (squash($(a).text()).length <= 2) $(a).remove();
  });
  // Text nodes that open with chrome words, each looked at once: the nearest element around one (up to
  // three levels, while it says little else) goes. Linear in the page, unlike asking every element its text.
  const found: DomNode[] = [];
  const stack: DomNode[] = [...main.toArray()];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'text' && node.data && CHROME_TEXT.test(node.data.trimStart())) found.push(node);
    for (const child of node.children ?? []) stack.push(child);
  }
  for (const text of found) {
    let element = (text as { parent?: DomNode }).parent;
    for (let level = 0; element && level < 3; level++) {
      const parent = (element as { parent?: DomNode }).parent;
      const parentText = parent && parent !== main.get(0) ? squash($(parent as never).text()) : '';
      if (!parentText || parentText.length >= 120) break;
      element = parent;
    }
    if (element && element !== main.get(0) && squash($(element as never).text()).length < 120) $(element as never).remove();
  }
}

/** The style of GitBook's hint a callout's class names say: danger, warning, success or info. */
function hintStyleOf(classes: string): string {
  const words = new Set(classes.toLowerCase().split(/[^a-z]+/));
  if (['danger', 'error', 'failure', 'bug', 'caution-danger'].some((w) => words.has(w))) return 'danger';
  if (['warning', 'warn', 'caution', 'attention'].some((w) => words.has(w))) return 'warning';
  if (['success', 'tip', 'check', 'done'].some((w) => words.has(w))) return 'success';
  return 'info';
}

/** Text fit for a GitBook tag's attribute: one line, no double quote, no tag delimiters. */
const attributeText = (text: string) => squash(text).replace(/"/g, "'").replace(/\{%|%\}/g, '').slice(0, 200);

/**
 * Tab sets and callouts become elements turndown writes as GitBook's blocks (the rules below):
 * - tabs: the ARIA pattern (`role=tablist` of `role=tab`, `role=tabpanel` panels: Docusaurus, GitBook,
 *   this server's reader) and MkDocs Material's `.tabbed-set` (labels and `.tabbed-block`s);
 * - hints: `.admonition` (MkDocs, Docusaurus), `.hint`, `.callout`, `.alert`, their style from their
 *   class names, their title element dropped (the style says it).
 * `<details>` keeps its own rule. Innermost first, so that a hint inside a tab is converted once.
 */
function markGitBookBlocks($: cheerio.CheerioAPI, main: cheerio.Cheerio<any>, within: Within) {
  for (const list of within(main, '[role=tablist]').toArray().reverse()) {
    const titles = $(list).find('[role=tab]').toArray().map((tab) => attributeText($(tab).text()));
    let container = $(list).parent();
    while (container.length && container.find('[role=tabpanel]').length === 0 && !container.is(main)) container = container.parent();
    const panels = container.find('[role=tabpanel]').toArray().slice(0, titles.length);
    if (!titles.length || panels.length !== titles.length) continue;
    // A panel that repeats its tab's title first (for readers without JavaScript) starts after it.
    panels.forEach((panel, i) => {
      const first = $(panel).children().first();
      if (first.length && attributeText(first.text()) === titles[i]) first.remove();
    });
    const set = $('<div data-gb-tabs></div>');
    panels.forEach((panel, i) => set.append($('<div data-gb-tab></div>').attr('data-title', titles[i] || `Tab ${i + 1}`).append($(panel).contents())));
    container.replaceWith(set);
  }
  for (const tabbed of within(main, '.tabbed-set').toArray().reverse()) {
    const titles = $(tabbed).find('label').toArray().map((label) => attributeText($(label).text()));
    const panels = $(tabbed).find('.tabbed-block').toArray();
    if (!titles.length || panels.length !== titles.length) continue;
    const set = $('<div data-gb-tabs></div>');
    panels.forEach((panel, i) => set.append($('<div data-gb-tab></div>').attr('data-title', titles[i] || `Tab ${i + 1}`).append($(panel).contents())));
    $(tabbed).replaceWith(set);
  }
  for (const callout of within(main, 'div.admonition, aside.admonition, div.hint, div.callout, div.alert, aside.callout').toArray().reverse()) {
    const box = $(callout);
    const style = hintStyleOf(box.attr('class') ?? '');
    box.find('.admonition-title, [class*=admonitionHeading], .hint-icon, .hints-icon, .callout-title').remove();
    const hint = $('<div data-gb-hint></div>').attr('data-style', style).append(box.contents());
    box.replaceWith(hint);
  }
}

type TurndownNode = { nodeName: string; getAttribute(name: string): string | null; hasAttribute?(name: string): boolean; querySelector?(selector: string): { textContent: string | null } | null };
const marked = (node: TurndownNode, attribute: string) => node.nodeName === 'DIV' && node.getAttribute(attribute) !== null;
turndown.addRule('gitbookTabs', { filter: (node) => marked(node as unknown as TurndownNode, 'data-gb-tabs'), replacement: (content) => `\n\n{% tabs %}\n${content.trim()}\n{% endtabs %}\n\n` });
turndown.addRule('gitbookTab', {
  filter: (node) => marked(node as unknown as TurndownNode, 'data-gb-tab'),
  replacement: (content, node) => `\n\n{% tab title="${(node as unknown as TurndownNode).getAttribute('data-title') ?? ''}" %}\n${content.trim()}\n{% endtab %}\n\n`,
});
turndown.addRule('gitbookHint', {
  filter: (node) => marked(node as unknown as TurndownNode, 'data-gb-hint'),
  replacement: (content, node) => `\n\n{% hint style="${(node as unknown as TurndownNode).getAttribute('data-style') ?? 'info'}" %}\n${content.trim()}\n{% endhint %}\n\n`,
});
// An expandable, as GitBook's markdown writes one (its summary on a line of its own).
turndown.addRule('summary', { filter: ['summary'], replacement: () => '' });
turndown.addRule('details', {
  filter: ['details'],
  replacement: (content, node) => {
    const summary = squash((node as unknown as TurndownNode).querySelector?.('summary')?.textContent ?? '') || 'Details';
    return `\n\n<details>\n\n<summary>${summary.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!)}</summary>\n\n${content.trim()}\n\n</details>\n\n`;
  },
});
