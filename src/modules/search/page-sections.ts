import { HeadingAnchors } from '../../lib/heading-anchors.ts';
import { gitbookTokenText, markdownParser } from '../content/index.ts';

/**
 * A page body split into the sections search indexes: the text before the first heading is the page's
 * own section (ordinal 0, no heading), then one section per heading (any level) up to the next one.
 * Text is plain: markup goes, link texts, image alternatives and code stay, and so does the text inside
 * GitBook's blocks (hints, tabs, expandables: their bodies are parsed as markdown), tab titles and
 * formulas. Parsed with the same markdown-it parser as every other reader of page bodies, so a heading
 * here is a heading there.
 */
export interface PageSection {
  ordinal: number;
  /** The heading's anchor within the page ('' for section 0), unique in the page. */
  anchor: string;
  /** The heading's text ('' for section 0). */
  heading: string;
  body: string;
}

/** Text a section keeps for indexing and excerpts: far above any real section, far below tsvector's 1 MB. */
export const MAX_SECTION_TEXT = 100_000;

type Token = ReturnType<typeof markdownParser.parse>[number];

/** The plain text of inline tokens. */
function inlineText(tokens: Token[] | null): string {
  let text = '';
  for (const token of tokens ?? []) {
    if (token.type === 'text' || token.type === 'code_inline') text += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += ' ';
    else if (token.type === 'image') text += inlineText(token.children);
    else if (token.type === 'math_inline') text += gitbookTokenText(token) ?? '';
  }
  return text;
}

export function pageSections(markdown: string): PageSection[] {
  const tokens = markdownParser.parse(markdown, {});
  const sections: PageSection[] = [{ ordinal: 0, anchor: '', heading: '', body: '' }];
  const parts: string[][] = [[]];
  const anchors = new HeadingAnchors();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'heading_open') {
      const heading = inlineText(tokens[i + 1]?.children ?? null).trim();
      sections.push({ ordinal: sections.length, anchor: anchors.next(heading), heading, body: '' });
      parts.push([]);
      i += 2; // the inline token and heading_close
    } else if (token.type === 'inline') {
      parts[parts.length - 1].push(inlineText(token.children));
    } else if (token.type === 'fence' || token.type === 'code_block') {
      parts[parts.length - 1].push(token.content);
    } else {
      const text = gitbookTokenText(token);
      if (text) parts[parts.length - 1].push(text);
    }
  }
  sections.forEach((section, i) => {
    section.body = plainLines(parts[i].join('\n')).slice(0, MAX_SECTION_TEXT);
  });
  return sections;
}

/**
 * Runs of spaces and tabs as one space, each line trimmed, blank lines dropped — line by line, in time
 * linear in the text (one regex pass collapsing whitespace around newlines rescans a long run of
 * whitespace without a newline, such as no-break spaces, from each of its positions: minutes for 500,000).
 */
function plainLines(text: string): string {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const plain = line.replace(/[ \t]+/g, ' ').trim();
    if (plain) lines.push(plain);
  }
  return lines.join('\n');
}
