import { decodeUriPart } from '../../lib/uri.ts';
import * as cheerio from 'cheerio';
import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';

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
turndown.use(gfm);

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
  const $ = cheerio.load(html);
  const base = absolute($('base[href]').attr('href'), pageUrl) ?? pageUrl;
  const selector = MAIN_CONTENT.find((candidate) => $(candidate).first().text().trim() !== '');
  const main = selector ? $(selector).first() : $('body');
  main.find(NEVER_CONTENT).remove();
  if (!selector) main.find(CHROME).remove();

  const h1 = main.find('h1').first();
  const title = squash(h1.text()) || squash($('title').first().text()) || decodeUriPart(new URL(pageUrl).pathname.split('/').filter(Boolean).pop() ?? '') || 'Home';
  // The page title is the page's own field: its first heading is not repeated in the body.
  if (h1.length && squash(h1.text()) === title) h1.remove();

  const links = main
    .find('a[href]')
    .toArray()
    .map((a) => absolute($(a).attr('href'), base))
    .filter((url): url is string => url !== null);
  const images = main
    .find('img[src]')
    .toArray()
    .map((img) => absolute($(img).attr('src'), base))
    .filter((url): url is string => url !== null);

  return {
    title: title.slice(0, 256),
    links,
    images,
    toMarkdown(rewrite) {
      main.find('a[href]').each((_, a) => {
        const url = absolute($(a).attr('href'), base);
        if (url) $(a).attr('href', rewrite.link(url) ?? url);
      });
      main.find('img[src]').each((_, img) => {
        const url = absolute($(img).attr('src'), base);
        if (url) $(img).attr('src', rewrite.image(url) ?? url);
        $(img).removeAttr('srcset');
      });
      return turndown.turndown(main.html() ?? '').trim();
    },
  };
}
