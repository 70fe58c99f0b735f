import type { MarkdownIt, StateBlock, StateCore, StateInline, Token } from 'markdown-it';

/**
 * GitBook's own markdown extensions, as markdown-it rules: the shared parser (document-links.ts) reads
 * them, so the structured documents, the link list and the search index all see the same blocks.
 *
 * - Template-tag containers, each tag on a line of its own: `{% hint style="info" %}` … `{% endhint %}`,
 *   `{% tabs %}` `{% tab title="…" %}` … `{% endtab %}` `{% endtabs %}`, `{% code title="…" %}` around a
 *   fence, `{% embed url="…" %}` (with an optional caption and `{% endembed %}`), `{% content-ref
 *   url="…" %}` … `{% endcontent-ref %}`, `{% file src="…" %}` (caption, `{% endfile %}` optional).
 *   Their bodies are parsed as markdown, in place (as markdown-it-container does), so a link or a
 *   paragraph inside a hint is an ordinary token between `gitbook_hint_open` and `gitbook_hint_close`.
 * - `<details>` (optionally `open`) with a `<summary>` line, up to a `</details>` line: GitBook writes
 *   expandable blocks this way. Its body is markdown too (markdown-it alone would keep it raw HTML).
 * - `$$` lines around a formula (`math_block`), and `$$…$$` within text (`math_inline`).
 * - Task lists (`- [ ] a`, `- [x] b`): the list's opening token gets `meta.tasks`, each item
 *   `meta.checked`, and the box is taken out of the item's text.
 *
 * Anything else stays what CommonMark makes of it: an unknown `{% tag %}`, a stray `{% endhint %}`, or
 * an opening tag without its closing one is the text of a paragraph, as before.
 *
 * Bounded work, whatever the input. Finding the closing line of an opening tag is a forward scan, and a
 * naive scan from every opening line is quadratic (20,000 unclosed `{% hint %}` lines: 200 million line
 * visits). So one scan matches every tag it meets with a stack (a closing tag closes the nearest opening
 * of its name; openings left above it are unclosed), and remembers each opening's answer for the
 * container it was read in: an opening line is then looked up, not scanned again. A container's body is
 * read again only by its own parse, so the lines scanned are at most the input times the nesting depth,
 * which is capped (MAX_DEPTH, and markdown-it's own `maxNesting`); a budget proportional to the input
 * stops any scan past that, leaving the rest as text. Nothing here uses a backtracking regex.
 */

/** Nested GitBook blocks deeper than this are left as text (markdown-it stops reading at its `maxNesting`). */
export const MAX_DEPTH = 20;

/** Lines the tag scans of one parse may visit, per line of input (see above): far over any real page. */
const SCAN_BUDGET_PER_LINE = 48;

/** The tags that open a block, and whether the block may stand alone on its line without a closing tag. */
const TAGS: Record<string, { selfClosing: boolean }> = {
  hint: { selfClosing: false },
  tabs: { selfClosing: false },
  tab: { selfClosing: false },
  code: { selfClosing: false },
  embed: { selfClosing: true },
  'content-ref': { selfClosing: false },
  file: { selfClosing: true },
};

/** The token type of a tag's block: `gitbook_hint`, `gitbook_content_ref`, … (`_open` / `_close` added). */
const tokenName = (tag: string) => `gitbook_${tag.replace(/-/g, '_')}`;

/** One line that is a tag: its name (`hint`, `details`…), whether it closes, its attributes. */
interface TagLine {
  name: string;
  closing: boolean;
  /** Its attributes, when asked for (a scan needs the tag's name only). */
  attrs: Map<string, string> | null;
  /** `<details><summary>…</summary>` on one line: the summary's text. */
  summary?: string;
}

const isSpace = (code: number) => code === 0x20 || code === 0x09;
const isNameChar = (code: number) => (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x5f;

/** `src[start, end)` without its trailing spaces and tabs: the end. */
function trimEnd(src: string, start: number, end: number): number {
  while (end > start && isSpace(src.charCodeAt(end - 1))) end--;
  return end;
}

/**
 * The `{% name attr="value" … %}` on `src[start, end)` (the line's content), read left to right once:
 * null when the line is anything else or malformed. Values are quoted with `"` or `'` (a backslash
 * escapes the quote or a backslash) or bare; attribute names start with a letter. The attributes are
 * put in `attrs` when given (a Map: no name reaches an object's prototype), else only checked.
 */
function templateTag(src: string, start: number, end: number, attrs: Map<string, string> | null = null): TagLine | null {
  end = trimEnd(src, start, end);
  if (end - start < 4 || src.charCodeAt(start) !== 0x7b || src.charCodeAt(start + 1) !== 0x25) return null;
  if (src.charCodeAt(end - 2) !== 0x25 || src.charCodeAt(end - 1) !== 0x7d) return null;
  const close = end - 2;
  let pos = start + 2;
  while (pos < close && isSpace(src.charCodeAt(pos))) pos++;
  const nameStart = pos;
  while (pos < close && isNameChar(src.charCodeAt(pos))) pos++;
  let name = src.slice(nameStart, pos);
  const closing = name.startsWith('end');
  if (closing) name = name.slice(3);
  if (!Object.hasOwn(TAGS, name)) return null;
  let count = 0;
  for (;;) {
    const before = pos;
    while (pos < close && isSpace(src.charCodeAt(pos))) pos++;
    if (pos >= close) break;
    if (pos === before) return null; // `{% hintstyle… %}`: a name runs into something else
    const first = src.charCodeAt(pos);
    if (!((first >= 0x61 && first <= 0x7a) || (first >= 0x41 && first <= 0x5a))) return null;
    const keyStart = pos;
    while (pos < close && isNameChar(src.charCodeAt(pos))) pos++;
    const keyEnd = pos;
    if (src.charCodeAt(pos) !== 0x3d) return null;
    pos++;
    const quote = src.charCodeAt(pos);
    let value = '';
    if (quote === 0x22 || quote === 0x27) {
      pos++;
      let from = pos;
      while (pos < close && src.charCodeAt(pos) !== quote) {
        const next = src.charCodeAt(pos + 1);
        if (src.charCodeAt(pos) === 0x5c && pos + 1 < close && (next === quote || next === 0x5c)) {
          if (attrs) value += src.slice(from, pos);
          from = pos + 1;
          pos++;
        }
        pos++;
      }
      if (pos >= close) return null; // unterminated value
      if (attrs) value += src.slice(from, pos);
      pos++;
    } else {
      const valueStart = pos;
      while (pos < close && !isSpace(src.charCodeAt(pos)) && src.charCodeAt(pos) !== 0x22 && src.charCodeAt(pos) !== 0x27) pos++;
      if (attrs) value = src.slice(valueStart, pos);
    }
    attrs?.set(src.slice(keyStart, keyEnd), value);
    count++;
  }
  if (closing && count) return null;
  return { name, closing, attrs };
}

const DETAILS_OPEN = /^<details(\s+open(?:=(?:"open"|'open'|""|open))?)?\s*>/i;

/** `<details>` / `<details open>` (optionally followed by `<summary>…</summary>` on the line), or `</details>`. */
function detailsTag(src: string, start: number, end: number): TagLine | null {
  end = trimEnd(src, start, end);
  if (src.charCodeAt(start) !== 0x3c) return null;
  const line = src.slice(start, Math.min(end, start + 64)).toLowerCase();
  if (line === '</details>' && end - start === 10) return { name: 'details', closing: true, attrs: new Map() };
  if (!line.startsWith('<details')) return null;
  // The anchored pattern reads a bounded prefix: no backtracking over the rest of the line.
  const opening = DETAILS_OPEN.exec(line);
  if (!opening) return null;
  const attrs = new Map<string, string>();
  if (opening[1]) attrs.set('open', 'open');
  const rest = src.slice(start + opening[0].length, end).trim();
  if (!rest) return { name: 'details', closing: false, attrs };
  const summary = summaryText(rest);
  return summary === null ? null : { name: 'details', closing: false, attrs, summary };
}

/** The text of a `<summary>…</summary>` line, or null. */
function summaryText(line: string): string | null {
  if (line.length < 19 || !line.startsWith('<summary>') || !line.endsWith('</summary>')) return null;
  return line.slice(9, -10).trim();
}

/**
 * The tag on line `line` as the block state sees it (its container's indentation), or null. A line is
 * read by the rules several times (as a paragraph's possible end, as a block, in scans): its tag is read
 * once per parse, unless a container shows the line from another position (a quote's `>` taken off).
 */
function tagAt(state: StateBlock, line: number): TagLine | null {
  if (state.sCount[line] - state.blkIndent >= 4) return null; // indented code
  const start = state.bMarks[line] + state.tShift[line];
  const first = state.src.charCodeAt(start);
  if (first !== 0x7b && first !== 0x3c) return null;
  const scratch = scratchOf(state);
  if (scratch.tagStart[line] !== start) {
    scratch.tags[line] = (first === 0x7b ? templateTag(state.src, start, state.eMarks[line]) : detailsTag(state.src, start, state.eMarks[line])) ?? false;
    scratch.tagStart[line] = start;
  }
  return scratch.tags[line] || null;
}

/** Whether line `line` is only `$$` (a math block's delimiter). */
function isMathFence(state: StateBlock, line: number): boolean {
  if (state.sCount[line] - state.blkIndent >= 4) return false;
  const start = state.bMarks[line] + state.tShift[line];
  const end = trimEnd(state.src, start, state.eMarks[line]);
  return end - start === 2 && state.src.charCodeAt(start) === 0x24 && state.src.charCodeAt(start + 1) === 0x24;
}

/** A code fence's opening on line `line` (markdown-it's rule): its marker and length, or null. */
function fenceOpening(state: StateBlock, line: number): { marker: number; length: number } | null {
  if (state.sCount[line] - state.blkIndent >= 4) return null;
  const start = state.bMarks[line] + state.tShift[line];
  const end = state.eMarks[line];
  const marker = state.src.charCodeAt(start);
  if (marker !== 0x60 && marker !== 0x7e) return null;
  const after = state.skipChars(start, marker);
  if (after - start < 3) return null;
  if (marker === 0x60 && state.src.slice(after, end).includes('`')) return null;
  return { marker, length: after - start };
}

function closesFence(state: StateBlock, line: number, fence: { marker: number; length: number }): boolean {
  if (state.sCount[line] - state.blkIndent >= 4) return false;
  const start = state.bMarks[line] + state.tShift[line];
  if (state.src.charCodeAt(start) !== fence.marker) return false;
  const after = state.skipChars(start, fence.marker);
  return after - start >= fence.length && state.skipSpaces(after) >= state.eMarks[line];
}

/**
 * What the rules of one parse share: the tags read, the closing lines found, the scan budget, the open
 * GitBook blocks. Indexed by line in typed arrays: a rule asks about a line several times, and a Map of
 * positions cost more than the rest of the rule.
 */
interface Scratch {
  /** Per line: where its content started when its tag was read (-1: not read yet), and the tag (false: none). */
  tagStart: Int32Array;
  tags: (TagLine | false)[];
  /**
   * Per opening line (a tag or `$$`): the container its closing line was looked for in (see
   * `containerKey`), where the line's content started then, and the closing line found (-1: none).
   */
  closerContainer: Float64Array;
  closerStart: Int32Array;
  closerLine: Int32Array;
  /** Lines the scans may still visit. */
  budget: number;
  /** The GitBook blocks being parsed, innermost last, with the level of their content. */
  open: { name: string; level: number }[];
}

const scratches = new WeakMap<StateBlock, Scratch>();

function scratchOf(state: StateBlock): Scratch {
  let scratch = scratches.get(state);
  if (!scratch) {
    // Every line of the source (`lineMax` may be a container's end already: a quote's, a block's).
    const lines = state.bMarks.length;
    scratch = {
      tagStart: new Int32Array(lines).fill(-1),
      tags: new Array(lines).fill(false),
      closerContainer: new Float64Array(lines).fill(-1),
      closerStart: new Int32Array(lines),
      closerLine: new Int32Array(lines),
      budget: SCAN_BUDGET_PER_LINE * lines + 1024,
      open: [],
    };
    scratches.set(state, scratch);
  }
  return scratch;
}

/** The container a rule runs in, as one number: its end line and indentation (both below the source's length). */
const containerKey = (state: StateBlock, endLine: number) => state.blkIndent * (state.src.length + 2) + endLine;

/** The closing line remembered for the opening on `line` in this container, or undefined. */
function remembered(state: StateBlock, scratch: Scratch, line: number, container: number): number | undefined {
  if (scratch.closerContainer[line] !== container || scratch.closerStart[line] !== state.bMarks[line] + state.tShift[line]) return undefined;
  return scratch.closerLine[line];
}

function remember(state: StateBlock, scratch: Scratch, line: number, container: number, closing: number): void {
  scratch.closerContainer[line] = container;
  scratch.closerStart[line] = state.bMarks[line] + state.tShift[line];
  scratch.closerLine[line] = closing;
}

/**
 * The line closing the tag opened on `startLine` (before `endLine`, in the current container), or -1.
 * One scan answers for every opening it meets (see the file's comment); an answer remembered is checked
 * again before use (the line must still close that tag here), and a wrong one counts as none.
 */
function closingLine(state: StateBlock, startLine: number, endLine: number, name: string): number {
  const scratch = scratchOf(state);
  const container = containerKey(state, endLine);
  let line = remembered(state, scratch, startLine, container);
  if (line === undefined) {
    scanTags(state, startLine, endLine, container);
    line = remembered(state, scratch, startLine, container) ?? -1;
  }
  if (line < 0 || line >= endLine) return -1;
  const tag = tagAt(state, line);
  return tag?.closing && tag.name === name ? line : -1;
}

function scanTags(state: StateBlock, startLine: number, endLine: number, container: number): void {
  const scratch = scratchOf(state);
  const stack: { name: string; line: number }[] = [];
  const openCount = new Map<string, number>();
  let fence: { marker: number; length: number } | null = null;
  for (let line = startLine; line < endLine && scratch.budget > 0; line++) {
    scratch.budget--;
    if (state.isEmpty(line)) continue;
    if (state.sCount[line] < state.blkIndent) break; // the container ends here
    if (fence) {
      if (closesFence(state, line, fence)) fence = null;
      continue;
    }
    // Tags inside a fenced code block are code (a page documenting GitBook's syntax shows them).
    fence = fenceOpening(state, line);
    if (fence) continue;
    const tag = tagAt(state, line);
    if (!tag) continue;
    if (!tag.closing) {
      stack.push({ name: tag.name, line });
      openCount.set(tag.name, (openCount.get(tag.name) ?? 0) + 1);
      continue;
    }
    if (!openCount.get(tag.name)) continue; // a stray closing tag: text
    // Each opening is popped once: the scan stays linear however many are left unclosed.
    for (;;) {
      const top = stack.pop()!;
      openCount.set(top.name, openCount.get(top.name)! - 1);
      remember(state, scratch, top.line, container, top.name === tag.name ? line : -1);
      if (top.name === tag.name) break;
    }
    if (!stack.length) break;
  }
  for (const open of stack) remember(state, scratch, open.line, container, -1);
}

/** The line closing the `$$` opened on `startLine`, or -1 (remembered like tags: see closingLine). */
function mathClosingLine(state: StateBlock, startLine: number, endLine: number): number {
  const scratch = scratchOf(state);
  const container = containerKey(state, endLine);
  let found = remembered(state, scratch, startLine, container);
  if (found === undefined) {
    found = -1;
    for (let line = startLine + 1; line < endLine && scratch.budget > 0; line++) {
      scratch.budget--;
      if (!state.isEmpty(line) && state.sCount[line] < state.blkIndent) break;
      if (isMathFence(state, line)) {
        found = line;
        break;
      }
    }
    remember(state, scratch, startLine, container, found);
  }
  return found;
}

/** The block rule: a GitBook block opening on `startLine`, its body parsed in place. */
function gitbookBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (isMathFence(state, startLine)) return mathBlock(state, startLine, endLine, silent);
  const tag = tagAt(state, startLine);
  if (!tag || tag.closing) return false;
  const scratch = scratchOf(state);
  const parent = scratch.open[scratch.open.length - 1];
  // A tab is one only directly inside tabs; tabs hold nothing but tabs (anything else is text).
  const inTabs = parent?.name === 'tabs' && parent.level === state.level;
  if ((tag.name === 'tab') !== inTabs) return false;
  // Too deep: text, rather than markdown-it dropping what lies past its maxNesting.
  if (scratch.open.length >= MAX_DEPTH || state.level + 3 > (state.md.options.maxNesting ?? 100)) return false;
  const selfClosing = TAGS[tag.name]?.selfClosing ?? false;
  // A line a paragraph, quote or list item would take lazily (less indented than its container) ends
  // it: the tag is then read where the line belongs.
  if (silent && state.sCount[startLine] < state.blkIndent) return true;
  const closing = closingLine(state, startLine, endLine, tag.name);
  if (closing < 0 && !selfClosing) return false;
  if (silent) return true;
  const last = closing < 0 ? startLine : closing;
  const type = tag.name === 'details' ? 'gitbook_details' : tokenName(tag.name);

  const contentStart = state.bMarks[startLine] + state.tShift[startLine];
  let attrs = tag.attrs;
  if (!attrs) templateTag(state.src, contentStart, state.eMarks[startLine], (attrs = new Map()));

  const open = state.push(`${type}_open`, tag.name === 'details' ? 'details' : 'div', 1);
  open.map = [startLine, last + 1];
  open.block = true;
  open.info = tag.name;
  open.meta = { attrs };
  open.markup = state.src.slice(contentStart, state.eMarks[startLine]);

  let bodyStart = startLine + 1;
  if (tag.name === 'details') {
    // The title: on the opening line, or the first line of the body (GitBook leaves a blank line between).
    let summary = tag.summary ?? null;
    if (summary === null) {
      const line = state.skipEmptyLines(bodyStart);
      if (line < last) {
        const start = state.bMarks[line] + state.tShift[line];
        summary = summaryText(state.src.slice(start, trimEnd(state.src, start, state.eMarks[line])));
        if (summary !== null) bodyStart = line + 1;
      }
    }
    const summaryOpen = state.push('gitbook_summary_open', 'summary', 1);
    summaryOpen.map = [startLine, bodyStart];
    const inline = state.push('inline', '', 0);
    inline.content = summary ?? '';
    inline.map = [startLine, bodyStart];
    inline.children = [];
    state.push('gitbook_summary_close', 'summary', -1);
  }

  if (last > bodyStart) {
    const oldParent = state.parentType;
    const oldLineMax = state.lineMax;
    // The body ends at the closing line: no lazy continuation or fence runs past it.
    state.parentType = 'gitbook' as StateBlock['parentType'];
    state.lineMax = last;
    scratch.open.push({ name: tag.name, level: state.level });
    state.md.block.tokenize(state, bodyStart, last);
    scratch.open.pop();
    state.parentType = oldParent;
    state.lineMax = oldLineMax;
  }

  const close = state.push(`${type}_close`, tag.name === 'details' ? 'details' : 'div', -1);
  close.block = true;
  close.info = tag.name;
  if (closing >= 0) close.markup = state.src.slice(state.bMarks[closing] + state.tShift[closing], state.eMarks[closing]);
  state.line = last + 1;
  return true;
}

/** `$$` lines around a formula: one `math_block` token, its content the lines between, as written. */
function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (silent && state.sCount[startLine] < state.blkIndent) return true;
  const closing = mathClosingLine(state, startLine, endLine);
  if (closing < 0) return false;
  if (silent) return true;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.markup = '$$';
  token.map = [startLine, closing + 1];
  token.content = state.getLines(startLine + 1, closing, state.sCount[startLine], false);
  state.line = closing + 1;
  return true;
}

/**
 * `$$formula$$` within text: one `math_inline` token. A delimiter is exactly two `$` (a run of three or
 * more — `$$$$`, an amount in dollars — delimits nothing). The next delimiter is found by `indexOf`, and
 * where it is (or that there is none) is remembered for the text, so a text full of unmatched `$$` is
 * read once.
 */
const nextDelimiters = new WeakMap<StateInline, { from: number; at: number }>();

/** Whether `src[at, at + 2)` is a run of exactly two `$`. */
const isDelimiter = (src: string, at: number) =>
  src.charCodeAt(at) === 0x24 && src.charCodeAt(at + 1) === 0x24 && src.charCodeAt(at + 2) !== 0x24 && (at === 0 || src.charCodeAt(at - 1) !== 0x24);

/** The first delimiter at or after `from`, or -1: each run of `$` is passed once. */
function nextDelimiter(src: string, from: number): number {
  for (let at = src.indexOf('$$', from); at >= 0; at = src.indexOf('$$', at)) {
    if (isDelimiter(src, at)) return at;
    while (src.charCodeAt(at) === 0x24) at++;
  }
  return -1;
}

function mathInline(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const src = state.src;
  if (!isDelimiter(src, start)) return false;
  const from = start + 2;
  let known = nextDelimiters.get(state);
  if (!known || from < known.from || (known.at !== -1 && from > known.at)) {
    known = { from, at: nextDelimiter(src, from) };
    nextDelimiters.set(state, known);
  }
  const end = known.at;
  if (end < 0 || end === from || end + 2 > state.posMax) return false;
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.markup = '$$';
    token.content = src.slice(from, end);
  }
  state.pos = end + 2;
  return true;
}

const TASK_BOX = /^\[([ xX])\](?=[ \t]|$)[ \t]?/;

/**
 * Task lists: a bullet list whose every item starts with `[ ]` or `[x]` (then a space or nothing). Read
 * after inline parsing, in one pass with a stack of open lists.
 */
function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  const lists: { open: Token; items: { item: Token; inline: Token | null }[] }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'bullet_list_open') lists.push({ open: token, items: [] });
    else if (token.type === 'list_item_open') {
      const list = lists[lists.length - 1];
      if (!list || list.open.level !== token.level - 1) continue;
      const inline = tokens[i + 1]?.type === 'paragraph_open' && tokens[i + 2]?.type === 'inline' ? tokens[i + 2] : null;
      list.items.push({ item: token, inline });
    } else if (token.type === 'bullet_list_close') {
      const list = lists.pop();
      if (!list?.items.length) continue;
      const boxes = list.items.map(({ inline }) => {
        const first = inline?.children?.[0];
        return first?.type === 'text' ? TASK_BOX.exec(first.content) : null;
      });
      if (boxes.some((box) => !box)) continue;
      list.open.meta = { ...list.open.meta, tasks: true };
      list.items.forEach(({ item, inline }, k) => {
        const box = boxes[k]!;
        item.meta = { ...item.meta, checked: box[1] !== ' ' };
        const first = inline!.children![0];
        first.content = first.content.slice(box[0].length);
        inline!.content = inline!.content.replace(TASK_BOX, '');
      });
    }
  }
}

/** The plugin: registered on every parser that reads page bodies (document-links.ts, link-resolution.ts). */
export function gitbookMarkdown(md: MarkdownIt): void {
  // Before fences and HTML blocks (`<details>`), and able to end a paragraph, quote or list like them.
  md.block.ruler.before('fence', 'gitbook_blocks', gitbookBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.inline.ruler.after('backticks', 'math_inline', mathInline);
  md.core.ruler.push('gitbook_task_lists', taskLists);
}

/** Text of a GitBook token that search indexes beyond the inline tokens: a tab's title, a formula. */
export function gitbookTokenText(token: Token): string | null {
  if (token.type === 'math_block' || token.type === 'math_inline') return token.content;
  if (token.type === 'gitbook_tab_open') return (token.meta as { attrs?: Map<string, string> } | null)?.attrs?.get('title') ?? '';
  return null;
}
