import { existsSync, readdirSync } from 'node:fs';
import { load } from 'cheerio';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/modules/content/markdown/markdown-document.ts';
import {
  documentCss,
  documentHeadings,
  documentReferences,
  DocumentView,
  katexCss,
  katexFontFile,
  katexFontsDir,
  type DocumentResolver,
  type JsonDocument,
} from '../../src/modules/reader/document/render-document.tsx';
import { pageSections } from '../../src/modules/search/page-sections.ts';

// ---- Document builders ------------------------------------------------------------------------------

type Node = Record<string, unknown>;
const leaf = (text: string, ...marks: string[]) => ({ object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) });
const text = (value: string, ...marks: string[]): Node => ({ object: 'text', leaves: [leaf(value, ...marks)] });
const block = (type: string, data: Record<string, unknown> = {}, nodes: unknown[] = [], extra: Node = {}): Node => ({ object: 'block', type, data, nodes, ...extra });
const p = (...nodes: unknown[]) => block('paragraph', {}, nodes.map((n) => (typeof n === 'string' ? text(n) : n)));
const heading = (level: 1 | 2 | 3, title: string) => block(`heading-${level}`, {}, [text(title)]);
const inline = (type: string, data: Record<string, unknown>, nodes?: unknown[]): Node => ({ object: 'inline', type, data, ...(nodes ? { nodes } : { isVoid: true }) });
const linkTo = (ref: Record<string, unknown>, label = 'label') => inline('link', { ref }, [text(label)]);
const doc = (...nodes: unknown[]): JsonDocument => ({ object: 'document', data: {}, nodes });
const fragment = (name: string, nodes: unknown[], type?: string) => ({ object: 'fragment', fragment: name, ...(type ? { type } : {}), nodes });

const FILES: Record<string, ReturnType<DocumentResolver['file']>> = {
  img1: { url: '/files/img1?sig=abc', name: 'diagram.png', contentType: 'image/png', size: 12_345, width: 640, height: 480 },
  pdf1: { url: 'https://cdn.example.com/files/pdf1?sig=x', name: 'guide.pdf', contentType: 'application/pdf', size: 2_500_000 },
};
const resolver: DocumentResolver = {
  pageHref: (pageId, anchor) => (pageId === 'hidden' ? null : `/docs/${pageId}${anchor ? `#${anchor}` : ''}`),
  file: (fileId) => FILES[fileId] ?? null,
  pageTitle: (pageId) => (pageId === 'hidden' ? 'Secret page' : `Page ${pageId}`),
};

function render(document: JsonDocument, resolve: DocumentResolver = resolver): string {
  return renderToString(DocumentView({ document, resolve }));
}
const $of = (html: string) => load(html, null, false);

// ---- Tests ----------------------------------------------------------------------------------------------

describe('DocumentView: the blocks of markdownToDocument', () => {
  const markdown = [
    '# Getting started',
    '',
    'Some **bold**, _italic_, `code` and ~~struck~~ text,  ',
    'after a hard break.',
    '',
    '## Install',
    '',
    '### Details',
    '',
    '- one',
    '- two',
    '  1. nested',
    '',
    '3. three',
    '4. four',
    '',
    '> quoted',
    '',
    '```javascript',
    'const x = 1;',
    '```',
    '',
    '| Name | Size |',
    '|:----:|-----:|',
    '| a | 1 |',
    '| b | 2 |',
    '',
    '---',
    '',
    '![A diagram](/files/img1) and ![remote](https://img.example.com/r.png)',
    '',
    '[site](https://example.com) [page](/pages/p1) [section](/pages/p1#usage) [here](#install) [file](/files/pdf1) [secret](/pages/hidden)',
  ].join('\n');
  const document = markdownToDocument(markdown);
  const html = render(document);
  const $ = $of(html);

  it('wraps the blocks in div.document', () => {
    expect($.root().children().first().is('div.document')).toBe(true);
  });

  it('headings: h2/h3/h4 with slug ids and a link to themselves', () => {
    expect($('h2').attr('id')).toBe('getting-started');
    expect($('h3').attr('id')).toBe('install');
    expect($('h4').attr('id')).toBe('details');
    const anchor = $('h2 a.anchor');
    expect(anchor.attr('href')).toBe('#getting-started');
    expect(anchor.attr('aria-label')).toBe('Link to this section');
    expect($('h1')).toHaveLength(0);
  });

  it('marks and hard breaks', () => {
    const first = $('p').first();
    expect(first.find('strong').text()).toBe('bold');
    expect(first.find('em').text()).toBe('italic');
    expect(first.find('code').text()).toBe('code');
    expect(first.find('s').text()).toBe('struck');
    expect(first.find('br')).toHaveLength(1);
  });

  it('lists (ordered ones keep their start), quotes, dividers', () => {
    expect($('ul > li')).toHaveLength(2);
    expect($('ul > li ol > li').text()).toBe('nested');
    expect($('ol[start="3"] > li')).toHaveLength(2);
    expect($('blockquote p').text()).toBe('quoted');
    expect($('hr')).toHaveLength(1);
  });

  it('code blocks: a figure with highlighted code and a harmless copy button', () => {
    const figure = $('figure.code');
    expect(figure.find('pre > code.language-javascript .hljs-keyword').first().text()).toBe('const');
    const button = figure.find('button.copy');
    expect(button.attr('type')).toBe('button');
    expect(button.attr('aria-label')).toBe('Copy code');
    expect(button.is('[data-copy]')).toBe(true);
    expect(figure.find('code').text()).toBe('const x = 1;');
  });

  it('tables: a header from the definition, alignment, rows in order, in a scrollable region', () => {
    const wrapper = $('div.table-wrapper');
    expect(wrapper.attr('tabindex')).toBe('0');
    expect(wrapper.attr('role')).toBe('region');
    expect(wrapper.attr('aria-label')).toBe('Table 1');
    expect(wrapper.find('thead th').map((_, th) => $(th).text()).get()).toEqual(['Name', 'Size']);
    expect(wrapper.find('th').first().hasClass('align-center')).toBe(true);
    expect(wrapper.find('th').last().hasClass('align-right')).toBe(true);
    expect(wrapper.find('tbody tr').map((_, tr) => $(tr).text()).get()).toEqual(['a1', 'b2']);
  });

  it('images: a file of the space with its size, an http(s) URL, lazy', () => {
    const file = $('img[alt="A diagram"]');
    expect(file.attr('src')).toBe('/files/img1?sig=abc');
    expect(file.attr('width')).toBe('640');
    expect(file.attr('height')).toBe('480');
    expect(file.attr('loading')).toBe('lazy');
    expect(file.attr('decoding')).toBe('async');
    expect($('img[alt="remote"]').attr('src')).toBe('https://img.example.com/r.png');
  });

  it('links: external ones with rel, pages and anchors through the resolver, unreadable pages as text', () => {
    const a = (label: string) => $('a').filter((_, el) => $(el).text() === label);
    expect(a('site').attr('href')).toBe('https://example.com');
    expect(a('site').attr('rel')).toBe('noopener noreferrer');
    expect(a('page').attr('href')).toBe('/docs/p1');
    expect(a('page').attr('rel')).toBeUndefined();
    expect(a('section').attr('href')).toBe('/docs/p1#usage');
    expect(a('here').attr('href')).toBe('#install');
    expect(a('file').attr('href')).toBe('https://cdn.example.com/files/pdf1?sig=x');
    expect(a('secret')).toHaveLength(0);
    expect($('p').last().text()).toContain('secret');
  });

  it('documentHeadings lists the headings with the ids drawn', () => {
    expect(documentHeadings(document)).toEqual([
      { id: 'getting-started', title: 'Getting started', level: 1 },
      { id: 'install', title: 'Install', level: 2 },
      { id: 'details', title: 'Details', level: 3 },
    ]);
  });
});

describe('DocumentView: GitBook blocks', () => {
  it('hints: a note with its style (unknown styles are info), an icon and a label', () => {
    const $ = $of(render(doc(...['info', 'success', 'warning', 'danger', 'bogus'].map((style) => block('hint', { style }, [p(`${style} text`)])))));
    const hints = $('div.hint');
    expect(hints.map((_, el) => $(el).attr('class')).get()).toEqual(['hint hint-info', 'hint hint-success', 'hint hint-warning', 'hint hint-danger', 'hint hint-info']);
    hints.each((_, el) => {
      expect($(el).attr('role')).toBe('note');
      expect($(el).attr('aria-label')).toBeTruthy();
      expect($(el).find('svg.hint-icon[aria-hidden="true"]')).toHaveLength(1);
    });
    expect($('.hint-danger p').text()).toBe('danger text');
  });

  it('tabs: ARIA tabs, every panel in the HTML, the first shown, ids unique in the document', () => {
    const tabs = (a: string, b: string) => block('tabs', {}, [block('tabs-item', { title: a }, [p(`${a} body`)]), block('tabs-item', { title: b }, [heading(2, `${b} heading`), p(`${b} body`)])]);
    const $ = $of(render(doc(tabs('npm', 'yarn'), tabs('macOS', 'Linux'))));
    expect($('[role="tablist"]')).toHaveLength(2);
    const tabEls = $('[role="tab"]');
    expect(tabEls).toHaveLength(4);
    tabEls.each((_, el) => {
      const tab = $(el);
      expect(tab.is('button[type="button"]')).toBe(true);
      const panel = $(`#${tab.attr('aria-controls')}`);
      expect(panel.attr('role')).toBe('tabpanel');
      expect(panel.attr('aria-labelledby')).toBe(tab.attr('id'));
    });
    expect(tabEls.map((_, el) => $(el).attr('aria-selected')).get()).toEqual(['true', 'false', 'true', 'false']);
    expect(tabEls.map((_, el) => $(el).attr('tabindex')).get()).toEqual(['0', '-1', '0', '-1']);
    expect(tabEls.map((_, el) => $(el).text()).get()).toEqual(['npm', 'yarn', 'macOS', 'Linux']);
    const panels = $('[role="tabpanel"]');
    expect(panels.map((_, el) => $(el).is('[hidden]')).get()).toEqual([false, true, false, true]);
    // Every panel's content is in the page, each with its title for readers without JavaScript.
    expect(panels.eq(1).find('.tab-panel-title').text()).toBe('yarn');
    expect(panels.eq(1).text()).toContain('yarn body');
    const ids = $('[id]').map((_, el) => $(el).attr('id')).get();
    expect(new Set(ids).size).toBe(ids.length);
    expect($('h3').attr('id')).toBe('yarn-heading');
  });

  it('code: title, line numbers, wrapping, highlighted lines, multi-line tokens split per line', () => {
    const code = block('code', { syntax: 'js', title: 'index.js', lineNumbers: true, overflow: 'wrap' }, [
      block('code-line', {}, [text('/* one')]),
      block('code-line', { highlighted: true }, [text('two */ let y = "s";')]),
    ]);
    const $ = $of(render(doc(code)));
    const figure = $('figure.code');
    expect(figure.attr('class')).toBe('code line-numbers code-wrap');
    expect(figure.find('figcaption.code-title').text()).toBe('index.js');
    const lines = figure.find('code > span.line');
    expect(lines).toHaveLength(2);
    expect(lines.eq(0).find('.hljs-comment').text()).toBe('/* one');
    expect(lines.eq(1).find('.hljs-comment').text()).toBe('two */');
    expect(lines.eq(1).hasClass('line-highlighted')).toBe(true);
    expect(figure.find('code').text()).toBe('/* one\ntwo */ let y = "s";');
  });

  it('code: unknown syntax and code past 100 KB are plain, escaped text', () => {
    const plain = render(doc(block('code', { syntax: 'no-such-language' }, [block('code-line', {}, [text('<b>if</b> const')])])));
    expect(plain).toContain('&lt;b>if&lt;/b> const');
    expect(plain).not.toContain('hljs-');
    const long = 'const a = 1;\n'.repeat(9_000);
    const big = render(doc(block('code', { syntax: 'javascript' }, long.split('\n').map((line) => block('code-line', {}, [text(line)])))));
    expect(big).not.toContain('hljs-keyword');
    expect($of(big)('code').text().length).toBeGreaterThan(100_000);
  });

  it('math: KaTeX for blocks (display) and inlines; a bad or too long formula is shown, never thrown', () => {
    const $ = $of(render(doc(block('math', { formula: 'E = mc^2' }, [], { isVoid: true }), p('inline ', inline('inline-math', { formula: '\\frac{a}{b}' }), ' end'))));
    expect($('div.math.math-display .katex-display .katex')).toHaveLength(1);
    expect($('span.math.math-inline .katex')).toHaveLength(1);
    expect($('.katex math')).toHaveLength(2); // MathML for screen readers
    const bad = render(doc(block('math', { formula: '\\frac{' }), block('math', { formula: 'x'.repeat(10_001) }), block('math', { formula: { not: 'a string' } })));
    expect($of(bad)('.math-error, .katex-error').length).toBeGreaterThanOrEqual(2);
    expect(bad).toContain('x'.repeat(100));
    const href = render(doc(block('math', { formula: '\\href{javascript:alert(1)}{click}' })));
    expect(href).not.toMatch(/<a /);
  });

  it('task lists: disabled checkboxes labelled by their item', () => {
    const $ = $of(render(doc(block('list-tasks', {}, [block('list-item', { checked: true }, [p('done')]), block('list-item', {}, [p('todo')])]))));
    const boxes = $('ul.task-list input[type="checkbox"]');
    expect(boxes).toHaveLength(2);
    expect(boxes.map((_, el) => $(el).is('[disabled]')).get()).toEqual([true, true]);
    expect(boxes.map((_, el) => $(el).is('[checked]')).get()).toEqual([true, false]);
    boxes.each((_, el) => expect($(`#${$(el).attr('aria-labelledby')}`).text()).toBeTruthy());
    expect($(`#${boxes.eq(1).attr('aria-labelledby')}`).text()).toBe('todo');
  });

  it('expandables: details and summary, open when defaultExpanded', () => {
    const expandable = (open: boolean) =>
      block('expandable', { defaultExpanded: open }, [], {
        isVoid: true,
        fragments: [fragment('expandable-title', [p('More ', text('info', 'bold'))], 'expandable-title'), fragment('expandable-body', [p('Hidden body')], 'expandable-body')],
      });
    const $ = $of(render(doc(expandable(false), expandable(true))));
    expect($('details.expandable')).toHaveLength(2);
    expect($('details').eq(0).is('[open]')).toBe(false);
    expect($('details').eq(1).is('[open]')).toBe(true);
    expect($('summary').first().html()).toBe('More <strong>info</strong>');
    expect($('details .expandable-body p').first().text()).toBe('Hidden body');
  });

  it('images and image blocks: captions, dark versions, sizes from the file, unusable sources as their alternative', () => {
    const image = (ref: unknown, extra: Record<string, unknown> = {}, caption?: string) =>
      block('image', { ref, ...extra }, [], { isVoid: true, fragments: caption ? [fragment('caption', [p(caption)])] : [] });
    const $ = $of(
      render(
        doc(
          block('images', { align: 'left' }, [
            image({ kind: 'file', file: 'img1' }, { refDark: { kind: 'url', url: 'https://img.example.com/dark.png' } }, 'The diagram'),
            image({ kind: 'url', url: 'data:image/png;base64,AAAA' }, { alt: 'inline data' }),
            image({ kind: 'file', file: 'unknown' }, { alt: 'gone' }),
          ]),
        ),
      ),
    );
    expect($('div.images.images-left figure.image')).toHaveLength(3);
    const first = $('figure.image').first();
    expect(first.find('img.only-light').attr('src')).toBe('/files/img1?sig=abc');
    expect(first.find('img.only-light').attr('alt')).toBe('The diagram');
    expect(first.find('img.only-dark').attr('src')).toBe('https://img.example.com/dark.png');
    expect(first.find('figcaption').text()).toBe('The diagram');
    expect($('img')).toHaveLength(2);
    expect($('.image-missing').map((_, el) => $(el).text()).get()).toEqual(['inline data', 'gone']);
  });

  it('files: a download card; an unknown file is its caption without a link', () => {
    const file = (id: string, caption?: string) => block('file', { ref: { kind: 'file', file: id } }, [], { isVoid: true, fragments: caption ? [fragment('caption', [p(caption)])] : [] });
    const $ = $of(render(doc(file('pdf1', 'The guide'), file('pdf1'), file('nope', 'Missing'))));
    const cards = $('a.file-card');
    expect(cards).toHaveLength(2);
    expect(cards.eq(0).attr('href')).toBe('https://cdn.example.com/files/pdf1?sig=x');
    expect(cards.eq(0).attr('download')).toBe('guide.pdf');
    expect(cards.eq(0).find('.card-title').text()).toBe('The guide');
    expect(cards.eq(0).find('.card-meta').text()).toBe('guide.pdf · application/pdf · 2.5 MB');
    expect(cards.eq(1).find('.card-title').text()).toBe('guide.pdf');
    expect($('div.file-missing').text()).toBe('Missing');
  });

  it('embeds: a link card to an http(s) URL, no iframe; other URLs are text', () => {
    const $ = $of(render(doc(block('embed', { url: 'https://www.youtube.com/watch?v=1' }, [], { isVoid: true }), block('embed', { url: 'javascript:alert(1)' }, [], { isVoid: true }))));
    const card = $('a.embed-card');
    expect(card).toHaveLength(1);
    expect(card.attr('href')).toBe('https://www.youtube.com/watch?v=1');
    expect(card.attr('rel')).toBe('noopener noreferrer');
    expect(card.find('.card-title').text()).toBe('www.youtube.com');
    expect($('iframe')).toHaveLength(0);
    expect($('a[href^="javascript"]')).toHaveLength(0);
  });

  it('content-ref: a card to the page with its title; nothing for an unreadable page', () => {
    const ref = (r: unknown) => block('content-ref', { ref: r }, [], { isVoid: true });
    const $ = $of(render(doc(ref({ kind: 'page', page: 'p2' }), ref({ kind: 'page', page: 'hidden' }), ref({ kind: 'url', url: 'https://example.com/x' }), ref({ kind: 'user', user: 'u1' }))));
    const cards = $('a.content-ref');
    expect(cards).toHaveLength(2);
    expect(cards.eq(0).attr('href')).toBe('/docs/p2');
    expect(cards.eq(0).find('.card-title').text()).toBe('Page p2');
    expect(cards.eq(1).attr('rel')).toBe('noopener noreferrer');
    expect($.html()).not.toContain('Secret page');
  });

  it('tables: rows by orderIndex, columns by the view, hidden header, merges, typed cells', () => {
    const table = block('table', {
      view: { type: 'grid', columns: ['b', 'a', 'c', 'missing'], hideHeader: true },
      definition: {
        a: { id: 'a', title: 'A', type: 'text', textAlignment: 'right' },
        b: { id: 'b', title: 'B', type: 'number' },
        c: { id: 'c', title: 'Done', type: 'checkbox' },
      },
      records: {
        third: { orderIndex: 'a2', values: { a: 'f3', b: 3, c: false } },
        first: { orderIndex: 'a0', values: { a: 'f1', b: 1, c: true } },
        second: { orderIndex: 'a1', values: { a: 'f2', b: 2 } },
      },
      cellMerges: [{ anchor: { record: 'second', column: 'a' }, rowSpan: 2, colSpan: 1 }],
    }, [], {
      isVoid: true,
      fragments: [fragment('f1', [p('one')]), fragment('f2', [p('two')]), fragment('f3', [p('three')])],
    });
    const $ = $of(render(doc(table)));
    expect($('thead')).toHaveLength(0);
    const rows = $('tbody tr');
    expect(rows.map((_, tr) => $(tr).find('td').first().text()).get()).toEqual(['1', '2', '3']);
    expect(rows.eq(0).find('td').eq(1).text()).toBe('one');
    expect(rows.eq(0).find('td').eq(1).hasClass('align-right')).toBe(true);
    expect(rows.eq(1).find('td').eq(1).attr('rowspan')).toBe('2');
    expect(rows.eq(2).find('td')).toHaveLength(2);
    expect($('td input[type="checkbox"][disabled]')).toHaveLength(3);
    expect($('td input[checked]')).toHaveLength(1);
    expect($.html()).not.toContain('three'); // covered by the merge
  });

  it('unknown blocks and inlines render their text; garbage shapes render without throwing', () => {
    const $ = $of(render(doc(block('updates', {}, [block('update', {}, [p('Release ', text('notes'))])]), p('a ', inline('new-inline', {}, [text('kept')]), ' b'))));
    expect($('p').first().text()).toBe('Release notes');
    expect($('p').last().text()).toBe('a kept b');
    const garbage: unknown[] = [
      null,
      42,
      'string',
      [],
      { object: 'block' },
      { object: 'block', type: 'paragraph', nodes: 'not an array' },
      { object: 'block', type: 'heading-1', data: 'x', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 5, marks: 'bold' }] }] },
      { object: 'block', type: 'list-ordered', data: { start: 'x' }, nodes: [null, { type: 'list-item', nodes: 3 }] },
      { object: 'block', type: 'code', data: { syntax: 5, title: {} }, nodes: [null, { object: 'block', type: 'code-line' }] },
      { object: 'block', type: 'table', data: { view: 7, records: [1, 2], definition: null }, fragments: 'x' },
      { object: 'block', type: 'table', data: { records: { r: { values: { c: 'x' } } }, definition: { c: { type: 'text' } } } },
      { object: 'block', type: 'tabs', nodes: [{}, null, { object: 'block', type: 'tabs-item', data: { title: 7 } }] },
      { object: 'block', type: 'expandable', fragments: [null, { fragment: 'expandable-title', nodes: [null] }] },
      { object: 'block', type: 'image', data: { ref: { kind: 'file', file: {} } } },
      { object: 'block', type: 'images', nodes: [null, 1] },
      { object: 'block', type: 'file', data: { ref: 'x' } },
      { object: 'block', type: 'content-ref', data: { ref: { kind: 'page' } } },
      { object: 'block', type: 'embed', data: { url: ['x'] } },
      { object: 'block', type: 'hint', data: null, nodes: [{ object: 'text', leaves: [leaf('loose text')] }] },
      { object: 'block', type: 'math', data: { formula: null } },
      { object: 'block', type: 'paragraph', nodes: [{ object: 'inline', type: 'link', data: { ref: 'x' }, nodes: [text('no ref')] }, { object: 'inline', type: 'emoji', data: { code: 'zzz' } }, { object: 'inline', type: 'emoji', data: { code: '1f44d' } }] },
    ];
    const html = render({ object: 'document', data: {}, nodes: garbage });
    expect(html).toContain('loose text');
    expect(html).toContain('no ref');
    expect(html).toContain('👍');
    expect(() => render({ nodes: 'nope' } as JsonDocument)).not.toThrow();
    expect(() => render(null as unknown as JsonDocument)).not.toThrow();
    expect(documentHeadings({ nodes: garbage })).toHaveLength(1);
    expect(documentReferences({ nodes: garbage })).toEqual({ files: [], pages: [] });
  });
});

describe('DocumentView: hostile content', () => {
  it('text is escaped, never markup', () => {
    const html = render(doc(p('<script>alert(1)</script>'), heading(1, '<img src=x onerror=alert(1)>'), block('code', { syntax: 'html', title: '<b>t</b>' }, [block('code-line', {}, [text('<script>alert(2)</script>')])])));
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script>alert(1)&lt;/script>');
    expect(html).not.toContain('<b>t</b>');
    const $ = $of(html);
    expect($('script')).toHaveLength(0);
    expect($('img')).toHaveLength(0);
    expect($('p').first().text()).toBe('<script>alert(1)</script>');
  });

  it('javascript:, data:, vbscript: and other schemes are never an href', () => {
    const urls = ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', '\u0001javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'jar:x'];
    const html = render(doc(p(...urls.map((url) => linkTo({ kind: 'url', url }, 'bad'))), p(linkTo({ kind: 'url', url: 'mailto:a@example.com' }, 'mail'), linkTo({ kind: 'url', url: '/relative' }, 'rel'), linkTo({ kind: 'url', url: '?q=1' }, 'query'))));
    const $ = $of(html);
    expect($('a').map((_, a) => $(a).text()).get()).toEqual(['mail', 'rel', 'query']);
    expect($('a').first().attr('rel')).toBe('noopener noreferrer');
    expect($('a').eq(1).attr('rel')).toBeUndefined();
    expect(html).not.toMatch(/href="\s*(java|data|vb)/i);
    expect($('p').first().text()).toBe('bad'.repeat(urls.length));
  });

  it('quotes in alternatives and URLs stay inside their attribute', () => {
    const html = render(doc(p(inline('inline-image', { ref: { kind: 'url', url: 'https://x.example/a.png" onerror="alert(1)' }, alt: '" onerror="alert(2)' }), linkTo({ kind: 'url', url: 'https://x.example/"><script>alert(3)</script>' }))));
    const $ = $of(html);
    const img = $('img');
    expect(img).toHaveLength(1);
    expect(img.attr('onerror')).toBeUndefined();
    expect(img.attr('alt')).toBe('" onerror="alert(2)');
    expect(img.attr('src')).toBe('https://x.example/a.png" onerror="alert(1)');
    expect($('script')).toHaveLength(0);
    expect($('a').attr('href')).toBe('https://x.example/"><script>alert(3)</script>');
  });

  it('images only from http(s) URLs or known files', () => {
    const html = render(doc(p(...['javascript:alert(1)', 'data:image/svg+xml,<svg onload=alert(1)>', '//evil.example/x.png', '/relative.png'].map((url) => inline('inline-image', { ref: { kind: 'url', url }, alt: 'x' })))));
    expect($of(html)('img')).toHaveLength(0);
  });

  it('a 10,000-level nested list renders (deep levels as text) without overflowing the stack', () => {
    let node: Node = p('deepest');
    for (let i = 0; i < 10_000; i++) node = block('list-unordered', {}, [block('list-item', {}, [p(`level ${i}`), node])]);
    const document = doc(node, heading(1, 'After'));
    const html = render(document);
    expect(html).toContain('deepest');
    expect(html).toContain('id="after"');
    const $ = $of(html);
    expect($('ul').length).toBeLessThanOrEqual(30);
    expect(documentHeadings(document)).toEqual([{ id: 'after', title: 'After', level: 1 }]);
    expect(documentReferences(document)).toEqual({ files: [], pages: [] });
  });

  it('deeply nested quotes, links and marks, and shared or cyclic nodes, stay bounded', () => {
    let quote: Node = p('q');
    for (let i = 0; i < 10_000; i++) quote = block('blockquote', {}, [quote]);
    let linkNode: Node = text('in');
    for (let i = 0; i < 10_000; i++) linkNode = inline('link', { ref: { kind: 'url', url: 'https://x.example' } }, [linkNode]);
    const manyMarks = { object: 'text', leaves: [{ object: 'leaf', text: 'marked', marks: Array.from({ length: 100_000 }, () => ({ object: 'mark', type: 'bold' })) }] };
    const cyclic: Node = block('blockquote', {}, []);
    (cyclic.nodes as unknown[]).push(cyclic, p('in cycle'));
    const html = render(doc(quote, p(linkNode), block('paragraph', {}, [manyMarks]), cyclic));
    const $ = $of(html);
    expect(html).toContain('>q<');
    expect($('a a')).toHaveLength(0);
    expect($('a')).toHaveLength(1);
    expect(html).toContain('<strong>marked</strong>');
    expect(html).toContain('in cycle');
  });

  it('a document built with shared subtrees (2^60 paths) stops at the visit budget, saying so', () => {
    let shared: Node = p('shared');
    for (let i = 0; i < 60; i++) shared = block('blockquote', {}, [shared, shared]);
    const start = performance.now();
    const html = render(doc(shared));
    expect(performance.now() - start).toBeLessThan(3_000);
    expect(html.length).toBeLessThan(5_000_000);
    expect(html).toContain('class="document-truncated"');
    expect(documentHeadings(doc(shared))).toEqual([]);
    expect(documentReferences(doc(shared))).toEqual({ files: [], pages: [] });
  });

  it('a 100,000-node document renders in about a second at most, in time linear in its size', () => {
    const nodes: unknown[] = [];
    let count = 0;
    for (let i = 0; count < 100_000; i++) {
      if (i % 50 === 0) nodes.push(heading(2, `Section ${i % 500}`)), (count += 3);
      else if (i % 7 === 0) nodes.push(block('list-unordered', {}, [block('list-item', {}, [p('item ', text('bold', 'bold'))])])), (count += 7);
      else nodes.push(p(`Paragraph ${i} with `, linkTo({ kind: 'url', url: `https://example.com/${i}` }, 'a link'), ' <and> text.')), (count += 8);
    }
    const document = doc(...nodes);
    render(doc(...nodes.slice(0, 1000))); // warm up
    const start = performance.now();
    const html = render(document);
    const elapsed = performance.now() - start;
    expect(html.length).toBeGreaterThan(1_000_000);
    expect(elapsed).toBeLessThan(1_000);
    const ids = documentHeadings(document).map((h) => h.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, 3)).toEqual(['section-0', 'section-50', 'section-100']);
  });
});

describe('documentHeadings', () => {
  it('unique slug ids from the text, letters of any script kept, repeats suffixed', () => {
    const document = doc(heading(1, 'Getting started'), heading(2, 'Getting started'), heading(3, 'Getting started'), heading(1, 'Getting started 1'), heading(1, 'Ünïcode — 日本語!'), heading(1, '   '), heading(2, ''), p('x'));
    expect(documentHeadings(document)).toEqual([
      { id: 'getting-started', title: 'Getting started', level: 1 },
      { id: 'getting-started-1', title: 'Getting started', level: 2 },
      { id: 'getting-started-2', title: 'Getting started', level: 3 },
      { id: 'getting-started-1-1', title: 'Getting started 1', level: 1 },
      { id: 'ünïcode-日本語', title: 'Ünïcode — 日本語!', level: 1 },
      { id: 'section', title: '', level: 1 },
      { id: 'section-1', title: '', level: 2 },
    ]);
  });

  it('every heading drawn with an id is listed, in the order drawn (in hints, tabs, tables, expandables)', () => {
    const document = doc(
      heading(1, 'Top'),
      block('hint', { style: 'info' }, [heading(2, 'In hint')]),
      block('tabs', {}, [block('tabs-item', { title: 'T' }, [heading(2, 'In tab')])]),
      block('table', { view: { type: 'grid', columns: ['c'], hideHeader: false }, definition: { c: { id: 'c', title: 'C', type: 'text' } }, records: { b: { orderIndex: 'b', values: { c: 'f2' } }, a: { orderIndex: 'a', values: { c: 'f1' } } } }, [], {
        fragments: [fragment('f2', [heading(3, 'Second row')]), fragment('f1', [heading(3, 'First row')])],
      }),
      block('expandable', {}, [], { fragments: [fragment('expandable-title', [p('More')]), fragment('expandable-body', [heading(3, 'In expandable')])] }),
      heading(1, 'Top'),
    );
    const listed = documentHeadings(document).map((h) => h.id);
    expect(listed).toEqual(['top', 'in-hint', 'in-tab', 'first-row', 'second-row', 'in-expandable', 'top-1']);
    const $ = $of(render(document));
    expect($('h2, h3, h4').map((_, el) => $(el).attr('id')).get()).toEqual(listed);
  });

  it('gives the anchors site search links to', () => {
    const markdown = '# Intro\n\n## Intro\n\nText\n\n> ### Quoted `code`\n\n- ## In a list\n\n#### Deep heading\n\n# Émoji 🎉 and ![logo](https://x.example/l.png)\n';
    const fromSearch = pageSections(markdown).slice(1).map((section) => section.anchor);
    expect(documentHeadings(markdownToDocument(markdown)).map((h) => h.id)).toEqual(fromSearch);
  });
});

describe('documentReferences', () => {
  it('the files and pages a document references, once each', () => {
    const document = doc(
      p(linkTo({ kind: 'page', page: 'p1' }), linkTo({ kind: 'anchor', anchor: 'x', page: 'p2' }), linkTo({ kind: 'anchor', anchor: 'y' }), linkTo({ kind: 'file', file: 'f1' }), inline('inline-image', { ref: { kind: 'file', file: 'f2' } })),
      block('image', { ref: { kind: 'file', file: 'f3' }, refDark: { kind: 'file', file: 'f4' } }),
      block('file', { ref: { kind: 'file', file: 'f1' } }),
      block('content-ref', { ref: { kind: 'page', page: 'p3' } }),
      block('hint', { style: 'info' }, [p(linkTo({ kind: 'page', page: 'p1' }))]),
      block('table', {
        view: { type: 'grid', columns: ['files', 'ref', 'img'] },
        definition: { files: { type: 'files' }, ref: { type: 'content-ref' }, img: { type: 'image' } },
        records: { r: { orderIndex: 'a', values: { files: ['f5', 'f6'], ref: { kind: 'page', page: 'p4' }, img: { ref: { kind: 'file', file: 'f7' } } } } },
      }),
    );
    expect(documentReferences(document)).toEqual({ files: ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7'], pages: ['p1', 'p2', 'p3', 'p4'] });
  });

  it('from markdownToDocument', () => {
    const document = markdownToDocument('[a](/pages/p1) ![b](/files/f1) [c](/pages/p2#x) [d](/files/f2) [e](https://x.example)');
    expect(documentReferences(document)).toEqual({ files: ['f1', 'f2'], pages: ['p1', 'p2'] });
  });
});

describe('document assets', () => {
  it("KaTeX's stylesheet, with font URLs relative to it, and its fonts", () => {
    const css = katexCss();
    expect(css).toContain('.katex');
    expect(css).toMatch(/url\(fonts\/KaTeX_Main-Regular\.woff2\)/);
    expect(readdirSync(katexFontsDir)).toContain('KaTeX_Main-Regular.woff2');
    expect(katexFontFile('KaTeX_Main-Regular.woff2')).toMatchObject({ contentType: 'font/woff2' });
    expect(existsSync(katexFontFile('KaTeX_Main-Regular.woff2')!.path)).toBe(true);
    expect(katexFontFile('../katex.min.css')).toBeNull();
    expect(katexFontFile('KaTeX_Main-Regular.woff2/../../x')).toBeNull();
  });

  it("document.css styles the renderer's classes with the layout's variables", () => {
    const css = documentCss();
    for (const selector of ['.hint-info', '.tabs-list', '.tab-panel', '.task-list', '.table-wrapper', '.line-numbers', '.copy', '.hljs-keyword', '.file-card', '.embed-card', '.content-ref', '.only-dark']) expect(css).toContain(selector);
    for (const variable of ['--primary', '--text', '--muted', '--border', '--surface', '--code-bg', '--hint-info', '--hint-success', '--hint-warning', '--hint-danger']) expect(css).toContain(`var(${variable}`);
    expect(css).toContain("[data-theme='dark']");
  });
});
