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

/**
 * A heading's anchor as GitBook writes it: lower case, letters and digits of any script kept, runs of
 * anything else one dash; `-1`, `-2` … for a repeat within the page.
 */
export function headingAnchor(heading: string, taken: Set<string>): string {
  const base = trimDashes(heading.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-')).slice(0, 100) || 'section';
  let anchor = base;
  for (let n = 1; taken.has(anchor); n++) anchor = `${base}-${n}`;
  taken.add(anchor);
  return anchor;
}

/** Leading and trailing dashes removed (a `-+$` regex rescans a run of dashes from each of its positions). */
function trimDashes(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '-') start++;
  while (end > start && text[end - 1] === '-') end--;
  return text.slice(start, end);
}

export function pageSections(markdown: string): PageSection[] {
  const tokens = markdownParser.parse(markdown, {});
  const sections: PageSection[] = [{ ordinal: 0, anchor: '', heading: '', body: '' }];
  const parts: string[][] = [[]];
  const anchors = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'heading_open') {
      const heading = inlineText(tokens[i + 1]?.children ?? null).trim();
      sections.push({ ordinal: sections.length, anchor: headingAnchor(heading, anchors), heading, body: '' });
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
