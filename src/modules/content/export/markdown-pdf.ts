import { TimeSlice } from '../../../lib/time-slice.ts';
import { markdownParser } from '../markdown/document-links.ts';
import { FONTS, fontOf, toWinAnsi } from './pdf-fonts.ts';

/**
 * Pages' markdown as a PDF (pdfkit, with the PDF standard fonts: nothing to embed or download). Parsed by
 * the parser links and search use (CommonMark, GFM tables and strikethrough, GitBook's blocks) and laid
 * out token by token: page titles, headings, paragraphs with bold/italic/code/strikethrough and links,
 * nested lists, quotes, code blocks (monospace, line by line; a code block's title above it), tables (one
 * row of cells per table row), dividers, and GitBook's blocks as the reader shows their content: hints
 * (a labelled, ruled box), tabs (each tab's title, then its content), expandables (the summary, then the
 * body), embeds and files (their address), math (as written).
 */
export interface PdfPage {
  title: string;
  type: string;
  /** The page's markdown; null for pages without a body (groups, links). */
  markdown: string | null;
}

export interface PdfInput {
  title: string;
  pages: PdfPage[];
  createdAt: Date;
  /** The revision's PNG and JPEG files that bodies show (`![alt](/files/<id>)`), by file ID. */
  images?: ReadonlyMap<string, Uint8Array>;
}

/** A file an image of a body points at (`/files/<id>`, as link resolution writes it), or null. */
export function imageFileId(src: string): string | null {
  const match = /^\/files\/([\w-]{1,64})$/.exec(src);
  return match ? match[1] : null;
}

/** The file IDs a body's images point at, in the order they appear (read with the parser the layout uses). */
export function imageFileIds(markdown: string): string[] {
  const ids: string[] = [];
  for (const token of parser.parse(markdown, {})) {
    for (const child of token.children ?? []) {
      const id = child.type === 'image' ? imageFileId(String(child.attrGet('src') ?? '')) : null;
      if (id) ids.push(id);
    }
  }
  return ids;
}

/** pdfkit is loaded with the first PDF, not at start: it costs about 0.4 s and 30 MiB that most servers never need. */
type PdfDocumentClass = new (options?: PDFKit.PDFDocumentOptions) => PDFKit.PDFDocument;
let pdfkit: Promise<PdfDocumentClass> | undefined;
const loadPdfkit = () => (pdfkit ??= import('pdfkit').then((module) => (module as unknown as { default: PdfDocumentClass }).default));

const parser = markdownParser;
type Token = ReturnType<typeof parser.parse>[number];

/** A GitBook block's attribute (`style` of a hint, `title` of a tab or code block, `url` of an embed). */
const attrOf = (token: Token, name: string): string | undefined => (token.meta as { attrs?: Map<string, string> } | null)?.attrs?.get(name);
const HINT_LABELS: Record<string, string> = { info: 'Info', success: 'Success', warning: 'Warning', danger: 'Danger' };
type Doc = PDFKit.PDFDocument;

const SIZES = { title: 22, h1: 18, h2: 15, h3: 13, h4: 12, body: 11, code: 9.5, table: 10 };
/** Wider tables are written row by row as text: at this many columns a cell is already a word wide. */
const MAX_TABLE_COLUMNS = 20;
/** A flowing paragraph is written in pieces of about this many characters, yielding in between. */
const FLOW_PIECE = 8000;
/** Runs of text without a break opportunity get one (a zero-width space) every this many characters. */
const MAX_UNBROKEN = 64;
const COLORS = { text: '#1f2328', muted: '#59636e', link: '#0969da', rule: '#d1d9e0', codeBackground: '#f2f4f6' };
const INDENT = { list: 18, quote: 14 };

interface Style {
  size: number;
  bold?: boolean;
  italic?: boolean;
  color?: string;
}

interface Segment {
  text: string;
  font: string;
  color: string;
  strike: boolean;
  link: string | null;
}

/** A link target the PDF can open: absolute web and mail URLs only. */
const linkable = (href: string) => (/^(https?:|mailto:)/i.test(href) ? href : null);

class Layout {
  private indent = 0;
  private quotes = 0;
  private readonly lists: { ordered: boolean; next: number }[] = [];
  /** The marker of a list item, drawn beside its first block. */
  private marker: string | null = null;
  /** Whether the current PDF page holds a page body yet (a group's title alone does not start one). */
  private pageHasBody = false;

  /**
   * Laying out text is synchronous CPU work (pdfkit measures every glyph): 20–40 ms per page of dense
   * text, seconds for a large space. The event loop is given back every 10 ms between blocks, so other
   * requests are served meanwhile rather than after the PDF.
   */
  private readonly slice = new TimeSlice(10);

  constructor(
    private readonly doc: Doc,
    private readonly images: ReadonlyMap<string, Uint8Array>,
  ) {}

  /**
   * A paragraph of images only (how bodies show a picture): each drawn at the text's width at most and
   * 360 points high at most, when the revision holds it as PNG or JPEG. Answers whether it drew them.
   */
  private drawImages(children: Token[]): boolean {
    const images = children.filter((c) => c.type === 'image');
    if (!images.length || children.some((c) => c.type !== 'image' && c.type !== 'softbreak' && !(c.type === 'text' && c.content.trim() === ''))) return false;
    const bytes = images.map((image) => this.images.get(imageFileId(String(image.attrGet('src') ?? '')) ?? ''));
    if (bytes.some((b) => !b)) return false;
    for (const image of bytes) {
      try {
        const opened = (this.doc as unknown as { openImage(src: Buffer): { width: number; height: number } }).openImage(Buffer.from(image!));
        const scale = Math.min(1, this.width / opened.width, 360 / opened.height);
        const height = opened.height * scale;
        this.ensureSpace(height + 6);
        this.doc.image(opened as never, this.left, this.doc.y, { width: opened.width * scale, height });
        this.doc.y += height + 6;
      } catch {
        return false; // not an image pdfkit reads: the alternative text instead
      }
    }
    this.doc.moveDown(0.3);
    return true;
  }

  private get left() {
    return this.doc.page.margins.left + this.indent;
  }
  private get width() {
    return this.doc.page.width - this.doc.page.margins.right - this.left;
  }
  private get bottom() {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }
  private get textColor() {
    return this.quotes ? COLORS.muted : COLORS.text;
  }

  private ensureSpace(height: number) {
    if (this.doc.y + height > this.bottom && this.doc.y > this.doc.page.margins.top) this.doc.addPage();
  }

  /** Draws a pending list marker in the gutter at the current line. */
  private drawMarker(size: number) {
    if (this.marker === null) return;
    const y = this.doc.y;
    this.doc.font(FONTS.sans[0]).fontSize(size).fillColor(this.textColor);
    this.doc.text(this.marker, this.left - INDENT.list, y, { width: INDENT.list - 4, lineBreak: false });
    this.doc.y = y;
    this.marker = null;
  }

  /** One run of text with marks: segments written as one flowing paragraph. */
  private async inline(children: Token[], style: Style) {
    const segments: Segment[] = [];
    let bold = style.bold ?? false;
    let italic = style.italic ?? false;
    let strike = false;
    let link: string | null = null;
    const color = style.color ?? this.textColor;
    const push = (text: string, family: keyof typeof FONTS = 'sans') => {
      const clean = toWinAnsi(text);
      if (!clean) return;
      const segment = { text: clean, font: fontOf(family, bold, italic), color: link !== null ? COLORS.link : color, strike, link };
      // Text of one style is one segment: markdown-it splits text at every `<`, `\\`, `&`, `*` …, and
      // pdfkit's cost grows with the number of continued pieces.
      const last = segments[segments.length - 1];
      if (last && last.font === segment.font && last.color === segment.color && last.strike === segment.strike && last.link === segment.link) {
        last.text += segment.text;
      } else segments.push(segment);
    };
    for (const token of children) {
      if (token.type === 'strong_open') bold = true;
      else if (token.type === 'strong_close') bold = style.bold ?? false;
      else if (token.type === 'em_open') italic = true;
      else if (token.type === 'em_close') italic = style.italic ?? false;
      else if (token.type === 's_open') strike = true;
      else if (token.type === 's_close') strike = false;
      else if (token.type === 'link_open') link = linkable(String(token.attrGet('href') ?? '')) ?? '';
      else if (token.type === 'link_close') link = null;
      else if (token.type === 'text' || token.type === 'html_inline') push(token.content);
      else if (token.type === 'code_inline' || token.type === 'math_inline') push(token.content, 'mono');
      else if (token.type === 'softbreak') push(' ');
      else if (token.type === 'hardbreak') push('\n');
      else if (token.type === 'image') push(`[${token.children?.map((c: Token) => c.content).join('') || 'image'}]`);
    }
    await this.flow(segments, style.size);
  }

  /**
   * Segments written as one flowing paragraph (pdfkit's continued text), the list marker beside it. Long
   * segments are written in pieces (split where a line may break anyway), and the event loop is given
   * back between pieces: a paragraph of 500,000 characters does not hold it for its whole layout.
   */
  private async flow(segments: Segment[], size: number) {
    if (!segments.length) return;
    this.ensureSpace(size * 1.3);
    this.drawMarker(size);
    const { doc } = this;
    const top = doc.y;
    const pieces = segments.flatMap((segment) => piecesOf(breakable(segment.text)).map((text) => ({ ...segment, text })));
    for (const [i, segment] of pieces.entries()) {
      if (i > 0) await this.slice.pause();
      doc.font(segment.font).fontSize(size).fillColor(segment.color);
      const options: PDFKit.Mixins.TextOptions = {
        width: this.width,
        continued: i < pieces.length - 1,
        underline: segment.link !== null,
        strike: segment.strike,
        // pdfkit keeps a continued paragraph's options: a link is turned off explicitly.
        link: segment.link || (null as unknown as string),
      };
      if (i === 0) doc.text(segment.text, this.left, doc.y, options);
      else doc.text(segment.text, options);
    }
    // A quote's bar beside its paragraph (left out when the paragraph ran onto a new PDF page).
    if (this.quotes && doc.y > top) {
      const x = this.left - INDENT.quote + 3;
      doc.moveTo(x, top).lineTo(x, doc.y).lineWidth(2).stroke(COLORS.rule);
    }
  }

  private async codeBlock(content: string) {
    const { doc } = this;
    const pad = 4;
    doc.moveDown(0.2);
    this.drawMarker(SIZES.body);
    doc.font(FONTS.mono[0]).fontSize(SIZES.code);
    for (const line of toWinAnsi(content.replace(/\n$/, '')).split('\n')) {
      await this.slice.pause();
      const text = breakable(line) || ' ';
      const height = doc.heightOfString(text, { width: this.width - 2 * pad });
      this.ensureSpace(height);
      const y = doc.y;
      doc.rect(this.left, y, this.width, height).fill(COLORS.codeBackground);
      doc.fillColor(this.textColor).text(text, this.left + pad, y, { width: this.width - 2 * pad });
    }
    doc.moveDown(0.6);
  }

  /**
   * GFM table: columns of equal width, the header row in bold, rows kept whole on a PDF page. A table of
   * more than MAX_TABLE_COLUMNS columns is written as one line of text per row (`a | b | c`).
   */
  private async table(tokens: Token[]) {
    const rows: { header: boolean; cells: string[] }[] = [];
    for (const token of tokens) {
      if (token.type === 'tr_open') rows.push({ header: false, cells: [] });
      else if (token.type === 'th_open') rows[rows.length - 1].header = true;
      else if (token.type === 'inline') rows[rows.length - 1]?.cells.push(breakable(toWinAnsi(plainText(token.children ?? []))));
    }
    const columns = rows.reduce((most, row) => Math.max(most, row.cells.length), 1);
    const { doc } = this;
    if (columns > MAX_TABLE_COLUMNS) {
      for (const row of rows) {
        await this.slice.pause();
        await this.flow([{ text: row.cells.join(' | '), font: FONTS.sans[row.header ? 1 : 0], color: this.textColor, strike: false, link: null }], SIZES.table);
      }
      doc.moveDown(0.6);
      return;
    }
    const pad = 4;
    const columnWidth = this.width / columns;
    doc.moveDown(0.2);
    this.drawMarker(SIZES.table);
    for (const row of rows) {
      await this.slice.pause();
      doc.font(row.header ? FONTS.sans[1] : FONTS.sans[0]).fontSize(SIZES.table);
      const height = row.cells.reduce((most, c) => Math.max(most, doc.heightOfString(c || ' ', { width: columnWidth - 2 * pad })), SIZES.table) + 2 * pad;
      this.ensureSpace(height);
      const y = doc.y;
      row.cells.forEach((cell, i) => {
        const x = this.left + i * columnWidth;
        doc.rect(x, y, columnWidth, height).lineWidth(0.5).stroke(COLORS.rule);
        doc.fillColor(this.textColor).text(cell, x + pad, y + pad, { width: columnWidth - 2 * pad });
      });
      doc.x = this.left;
      doc.y = y + height;
    }
    doc.moveDown(0.6);
  }

  private divider() {
    const { doc } = this;
    doc.moveDown(0.3);
    this.ensureSpace(8);
    doc.moveTo(this.left, doc.y).lineTo(this.left + this.width, doc.y).lineWidth(0.5).stroke(COLORS.rule);
    doc.moveDown(0.6);
  }

  /** A line in bold (the label of a hint, the title of a tab or of a code block). */
  private async label(text: string, size: number, family: 'sans' | 'mono' = 'sans') {
    await this.flow([{ text: breakable(toWinAnsi(text)), font: fontOf(family, true, false), color: this.textColor, strike: false, link: null }], size);
    this.doc.moveDown(0.2);
  }

  /** A page's body, block token by block token; a leading h1 that repeats the page title is left out. */
  private async body(markdown: string, title: string) {
    const tokens = parser.parse(markdown, {});
    const start =
      tokens[0]?.type === 'heading_open' && tokens[0].tag === 'h1' && plainText(tokens[1]?.children ?? []).trim() === title.trim() ? 3 : 0;
    for (let i = start; i < tokens.length; i++) {
      await this.slice.pause();
      const token = tokens[i];
      switch (token.type) {
        case 'heading_open': {
          const size = SIZES[token.tag as 'h1' | 'h2' | 'h3' | 'h4'] ?? SIZES.h4;
          this.doc.moveDown(0.4);
          await this.inline(tokens[i + 1]?.children ?? [], { size, bold: true });
          this.doc.moveDown(0.3);
          i += 2;
          break;
        }
        case 'paragraph_open':
          if (this.drawImages(tokens[i + 1]?.children ?? [])) {
            i += 2;
            break;
          }
          await this.inline(tokens[i + 1]?.children ?? [], { size: SIZES.body });
          // Tight list items hide their paragraphs: no space between the items.
          this.doc.moveDown(token.hidden ? 0.15 : 0.5);
          i += 2;
          break;
        case 'bullet_list_open':
        case 'ordered_list_open':
          this.lists.push({ ordered: token.type === 'ordered_list_open', next: Number(token.attrGet('start') ?? 1) });
          this.indent += INDENT.list;
          break;
        case 'bullet_list_close':
        case 'ordered_list_close':
          this.lists.pop();
          this.indent -= INDENT.list;
          if (!this.lists.length) this.doc.moveDown(0.35);
          break;
        case 'list_item_open': {
          const list = this.lists[this.lists.length - 1];
          this.marker = list?.ordered ? `${list.next++}.` : '•';
          break;
        }
        case 'list_item_close':
          // An empty item still shows its marker.
          if (this.marker !== null) {
            this.drawMarker(SIZES.body);
            this.doc.moveDown(1);
          }
          break;
        case 'blockquote_open':
          this.quotes++;
          this.indent += INDENT.quote;
          break;
        case 'blockquote_close':
          this.quotes--;
          this.indent -= INDENT.quote;
          break;
        case 'fence':
        case 'code_block':
          await this.codeBlock(token.content);
          break;
        case 'html_block':
          await this.flow(
            [{ text: toWinAnsi(token.content.trim()), font: FONTS.mono[0], color: COLORS.muted, strike: false, link: null }].filter((s) => s.text),
            SIZES.code,
          );
          this.doc.moveDown(0.5);
          break;
        case 'table_open': {
          let end = i + 1;
          while (end < tokens.length && tokens[end].type !== 'table_close') end++;
          await this.table(tokens.slice(i + 1, end));
          i = end;
          break;
        }
        case 'hr':
          this.divider();
          break;
        case 'math_block':
          await this.codeBlock(token.content);
          break;
        case 'gitbook_hint_open':
          this.quotes++;
          this.indent += INDENT.quote;
          await this.label(HINT_LABELS[attrOf(token, 'style') ?? 'info'] ?? 'Info', SIZES.body);
          break;
        case 'gitbook_hint_close':
          this.quotes--;
          this.indent -= INDENT.quote;
          this.doc.moveDown(0.3);
          break;
        case 'gitbook_tab_open':
          await this.label(attrOf(token, 'title') || 'Tab', SIZES.h4);
          break;
        case 'gitbook_tab_close':
          this.doc.moveDown(0.3);
          break;
        case 'gitbook_details_open':
        case 'gitbook_details_close':
          this.indent += token.nesting * INDENT.quote;
          if (token.nesting < 0) this.doc.moveDown(0.3);
          break;
        case 'gitbook_summary_open':
          await this.inline(tokens[i + 1]?.children ?? [], { size: SIZES.body, bold: true });
          this.doc.moveDown(0.3);
          i += 2;
          break;
        case 'gitbook_code_open': {
          const codeTitle = attrOf(token, 'title');
          if (codeTitle) await this.label(codeTitle, SIZES.code, 'mono');
          break;
        }
        case 'gitbook_embed_open':
        case 'gitbook_file_open': {
          const target = attrOf(token, token.type === 'gitbook_embed_open' ? 'url' : 'src') ?? '';
          const caption = attrOf(token, 'caption');
          const what = token.type === 'gitbook_embed_open' ? 'Embed' : 'File';
          await this.flow([{ text: toWinAnsi(`${what}: ${caption ? `${caption} ` : ''}${target}`), font: fontOf('sans', false, true), color: COLORS.muted, strike: false, link: linkable(target) }], SIZES.body);
          this.doc.moveDown(0.5);
          break;
        }
      }
    }
  }

  async page(page: PdfPage) {
    await this.slice.pause();
    const { doc } = this;
    if (this.pageHasBody) {
      doc.addPage();
      this.pageHasBody = false;
    } else if (doc.y > doc.page.margins.top) {
      doc.moveDown(0.8);
    }
    this.indent = 0;
    this.ensureSpace(SIZES.title * 2.5);
    doc.font(FONTS.sans[1]).fontSize(SIZES.title).fillColor(COLORS.text);
    doc.text(breakable(toWinAnsi(page.title)) || 'Untitled', this.left, doc.y, { width: this.width });
    doc.moveDown(0.2);
    doc.moveTo(this.left, doc.y).lineTo(this.left + this.width, doc.y).lineWidth(0.75).stroke(COLORS.rule);
    doc.moveDown(0.8);
    if (page.type === 'group') return;
    this.pageHasBody = true;
    if (page.markdown) await this.body(page.markdown, page.title);
  }

  empty(message: string) {
    this.doc.font(FONTS.sans[2]).fontSize(SIZES.body).fillColor(COLORS.muted).text(message, this.left, this.doc.y, { width: this.width });
  }
}

/**
 * Text with a zero-width space after every MAX_UNBROKEN characters of a run that has no place to break
 * (a long word, a URL, no-break spaces): pdfkit breaks such a run by measuring what remains of it for
 * every line, so its cost grew with the square of its length (minutes for a word of 500,000 letters).
 * The zero-width space is a break opportunity and draws nothing.
 */
const UNBROKEN_RUN = new RegExp(`[^ \\t\\n\\r\\u200b-]{${MAX_UNBROKEN}}(?=[^ \\t\\n\\r\\u200b-])`, 'g');
function breakable(text: string): string {
  return text.length <= MAX_UNBROKEN ? text : text.replace(UNBROKEN_RUN, '$&\u200b');
}

/** Text in pieces of about FLOW_PIECE characters, each ending where a line may break (a space, a zero-width space). */
function piecesOf(text: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  while (text.length - from > FLOW_PIECE) {
    let cut = from + FLOW_PIECE;
    while (cut < text.length && !' \u200b\n-'.includes(text[cut - 1])) cut++;
    pieces.push(text.slice(from, cut));
    from = cut;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/** The text of inline tokens, without marks. */
function plainText(children: Token[]): string {
  return children
    .map((c) => (c.type === 'softbreak' ? ' ' : c.type === 'hardbreak' ? '\n' : c.type === 'image' ? `[${c.content || 'image'}]` : c.content))
    .join('');
}

/** The pages, in the order given, each starting a PDF page (a group's title shares its first child's). */
export async function renderPdf(input: PdfInput): Promise<Uint8Array<ArrayBuffer>> {
  const PDFDocument = await loadPdfkit();
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    bufferPages: false,
    info: { Title: toWinAnsi(input.title), Creator: 'Docs Platform', CreationDate: input.createdAt, ModDate: input.createdAt },
  });
  const chunks: Uint8Array[] = [];
  const done = new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const layout = new Layout(doc, input.images ?? new Map());
  if (!input.pages.length) layout.empty('There are no pages to show.');
  for (const page of input.pages) await layout.page(page);
  doc.end();
  return done;
}
