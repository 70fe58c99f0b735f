import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWED, markdownToDocument, type Place } from '../../src/modules/content/markdown/markdown-document.ts';
import { documentLinks, markdownParser } from '../../src/modules/content/markdown/document-links.ts';
import { MAX_DEPTH } from '../../src/modules/content/markdown/gitbook-markdown-blocks.ts';
import { pageSections } from '../../src/modules/search/page-sections.ts';
import { buildOrganization, buildSpace } from '../factories.ts';
import { expectOk } from '../support/assertions.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';
import { useHarness } from '../support/harness.ts';

/**
 * GitBook's markdown extensions (src/modules/content/gitbook-markdown-blocks.ts) as GitBook's document
 * blocks (markdown-document.ts): each block, its edge cases and hostile input, the bounds on the work,
 * what links and search see inside the blocks, and the API round trip (the markdown answered as
 * written, the document in GitBook's schema).
 */
const h = useHarness();

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A document page as GitBook's getPageById answers it, carrying `document` (see markdown-document.test.ts). */
const pageWith = (document: unknown) => ({
  id: 'p1',
  title: 'Page',
  kind: 'sheet',
  type: 'document',
  slug: 'page',
  path: 'page',
  urls: { app: 'http://localhost:4000/s/s1/page' },
  layout: {
    width: 'default', cover: true, coverSize: 'hero', coverMask: 'none', title: true, description: true, tableOfContents: true,
    outline: true, pagination: true, metadata: true, tags: true, actions: true, anchors: true,
  },
  tags: [],
  pages: [],
  document,
});

/** The document of `markdown`, checked against GitBook's schema first. */
function documentOf(markdown: string): Json {
  const doc = markdownToDocument(markdown);
  expect(validateGitBookResponse('getPageById', 200, pageWith(doc))).toEqual([]);
  return doc;
}
const nodesOf = (markdown: string): Json[] => documentOf(markdown).nodes;

// Node builders, in GitBook's shapes.
const leaf = (text: string, ...marks: string[]) => ({ object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) });
const text = (...leaves: (string | Json)[]) => ({ object: 'text', leaves: leaves.map((l) => (typeof l === 'string' ? leaf(l) : l)) });
const p = (...nodes: (string | Json)[]) => ({ object: 'block', type: 'paragraph', nodes: nodes.map((n) => (typeof n === 'string' ? text(n) : n)) });
const link = (ref: Json, label: string) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [text(label)] });
const codeLine = (line: string) => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(line)] });
const code = (data: Json, ...lines: string[]) => ({ object: 'block', type: 'code', data, nodes: lines.map(codeLine) });
const item = (nodes: Json[], data?: Json) => ({ object: 'block', type: 'list-item', nodes, ...(data ? { data } : {}) });
const hint = (style: string, ...nodes: Json[]) => ({ object: 'block', type: 'hint', data: { style }, nodes });
const tab = (title: string, ...nodes: Json[]) => ({ object: 'block', type: 'tabs-item', data: { title }, nodes });
const expandable = (title: Json, body: Json[], data: Json = {}) => ({
  object: 'block',
  type: 'expandable',
  isVoid: true,
  data,
  fragments: [
    { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [title] },
    { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: body },
  ],
});
const empty = p('');

/** Every block type anywhere in `nodes` (nodes and fragments), depth first. */
function typesIn(nodes: Json[]): string[] {
  return nodes.flatMap((n) => (n.object === 'block' ? [n.type, ...typesIn(n.nodes ?? []), ...typesIn((n.fragments ?? []).flatMap((f: Json) => f.nodes))] : []));
}

/** Each block of the document of `markdown`: a paragraph as its text, another block as its type. */
const textsOf = (markdown: string): string[] => nodesOf(markdown).map((n) => (n.type === 'paragraph' ? textIn([n]) : n.type));

/** All the text of `nodes`. */
function textIn(nodes: Json[]): string {
  return nodes.map((n) => (n.object === 'leaf' ? n.text : textIn([...(n.leaves ?? []), ...(n.nodes ?? []), ...(n.fragments ?? [])]))).join('');
}

describe('GitBook blocks → document blocks, one by one', () => {
  const cases: [string, string, Json[]][] = [
    ...['info', 'success', 'warning', 'danger'].map((style): [string, string, Json[]] => [
      `hint (${style})`,
      `{% hint style="${style}" %}\nHello **you**.\n{% endhint %}`,
      [hint(style, p(text('Hello ', leaf('you', 'bold'), '.')))],
    ]),
    [
      'hint holding a heading, a list and code (GitBook allows no code in a hint: a paragraph of it)',
      '{% hint style="warning" %}\n## Careful\n\n- one\n- two\n\n```js\nrun()\n```\n{% endhint %}',
      [
        hint(
          'warning',
          { object: 'block', type: 'heading-2', data: {}, nodes: [text('Careful')] },
          { object: 'block', type: 'list-unordered', nodes: [item([p('one')]), item([p('two')])] },
          p(text(leaf('run()', 'code'))),
        ),
      ],
    ],
    ['hint without a style, or an empty one', '{% hint %}\n{% endhint %}', [hint('info', empty)]],
    [
      'tabs',
      '{% tabs %}\n{% tab title="Python" %}\npip install it\n{% endtab %}\n\n{% tab title="Node" %}\n```sh\nnpm i it\n```\n{% endtab %}\n{% endtabs %}',
      [{ object: 'block', type: 'tabs', data: {}, nodes: [tab('Python', p('pip install it')), tab('Node', code({ syntax: 'sh' }, 'npm i it'))] }],
    ],
    [
      'code with a title, wrapping and line numbers',
      '{% code title="app.js" overflow="wrap" lineNumbers="true" %}\n```js\nconst a = 1;\nconst b = 2;\n```\n{% endcode %}',
      [code({ syntax: 'js', title: 'app.js', overflow: 'wrap', lineNumbers: true }, 'const a = 1;', 'const b = 2;')],
    ],
    [
      'code options GitBook does not know are left out',
      '{% code overflow="sideways" lineNumbers="maybe" %}\n```\nx\n```\n{% endcode %}',
      [code({}, 'x')],
    ],
    ['embed on its own line', '{% embed url="https://www.youtube.com/watch?v=abc" %}', [{ object: 'block', type: 'embed', isVoid: true, data: { url: 'https://www.youtube.com/watch?v=abc' } }]],
    [
      'embed with a caption (GitBook\'s embed has no place for it: it stays in the markdown)',
      '{% embed url="https://example.com/demo" %}\nThe demo\n{% endembed %}\n\nAfter.',
      [{ object: 'block', type: 'embed', isVoid: true, data: { url: 'https://example.com/demo' } }, p('After.')],
    ],
    [
      'content-ref to a page the writer resolved',
      '{% content-ref url="guide.md" %}\n[Guide](/pages/p-guide)\n{% endcontent-ref %}',
      [{ object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: 'p-guide' } } }],
    ],
    [
      'content-ref to an anchor of a page',
      '{% content-ref url="guide.md#install" %}\n[Install](/pages/p-guide#install)\n{% endcontent-ref %}',
      [{ object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'anchor', anchor: 'install', page: 'p-guide' } } }],
    ],
    [
      'content-ref the writer could not resolve: its URL',
      '{% content-ref url="other.md" %}\n[other.md](other.md)\n{% endcontent-ref %}',
      [{ object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'url', url: 'other.md' } } }],
    ],
    [
      'file of the space',
      '{% file src="/files/f-spec" %}\nThe specification\n{% endfile %}',
      [{ object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'f-spec' } } }],
    ],
    [
      'file that is no file of the space: a link to it (GitBook\'s file block holds files only)',
      '{% file src=".gitbook/assets/spec.pdf" %}\nThe specification\n{% endfile %}',
      [p(link({ kind: 'url', url: '.gitbook/assets/spec.pdf' }, 'The specification'))],
    ],
    [
      'expandable as GitBook writes it',
      '<details>\n\n<summary>More about <em>it</em></summary>\n\nHidden **text**.\n\n- a list\n\n</details>',
      [expandable(p(text('More about ', '<em>', 'it', '</em>')), [p(text('Hidden ', leaf('text', 'bold'), '.')), { object: 'block', type: 'list-unordered', nodes: [item([p('a list')])] }])],
    ],
    [
      'expandable with its summary on the opening line, open, with nothing inside',
      '<details open><summary>Title</summary>\n</details>',
      [expandable(p('Title'), [empty], { defaultExpanded: true })],
    ],
    ['math block', '$$\nf(x) = x^2\n+ 1\n$$', [{ object: 'block', type: 'math', isVoid: true, data: { formula: 'f(x) = x^2\n+ 1' } }]],
    [
      'inline math (in a link: its text)',
      'Energy $$E=mc^2$$ and [$$a$$](https://example.com).',
      [
        p(
          'Energy ',
          { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'E=mc^2' } },
          ' and ',
          link({ kind: 'url', url: 'https://example.com' }, 'a'),
          '.',
        ),
      ],
    ],
    [
      'task list',
      '- [ ] to do\n- [x] done\n- [X]',
      [{ object: 'block', type: 'list-tasks', nodes: [item([p('to do')], { checked: false }), item([p('done')], { checked: true }), item([{ object: 'block', type: 'paragraph', nodes: [] }], { checked: true })] }],
    ],
    [
      'a list where only some items have a box is no task list',
      '- [ ] to do\n- plain',
      [{ object: 'block', type: 'list-unordered', nodes: [item([p('[ ] to do')]), item([p('plain')])] }],
    ],
    [
      'a paragraph of one image stays a paragraph with an inline image (GitBook accepts it)',
      '![Diagram](https://example.com/d.png)',
      [p({ object: 'inline', type: 'inline-image', isVoid: true, data: { ref: { kind: 'url', url: 'https://example.com/d.png' }, alt: 'Diagram' } })],
    ],
  ];

  it.each(cases)('%s', (_, markdown, expected) => {
    expect(nodesOf(markdown)).toEqual(expected);
  });

  it('all blocks in one page, between ordinary paragraphs, in order; CRLF line ends too', () => {
    const markdown = cases.map(([, md]) => `Before.\n\n${md}\n\nAfter.`).join('\n\n');
    const expected = cases.flatMap(([, , nodes]) => [p('Before.'), ...nodes, p('After.')]);
    expect(nodesOf(markdown)).toEqual(expected);
    expect(nodesOf(markdown.replace(/\n/g, '\r\n'))).toEqual(expected);
  });
});

describe('edge cases: what is not a GitBook block stays text; what GitBook does not allow takes a plainer form', () => {
  it('unknown tags, unclosed blocks, stray or malformed tags: the text of paragraphs, as before', () => {
    expect(textsOf('{% foo bar="1" %}\ntext\n{% endfoo %}')).toEqual(['{% foo bar="1" %} text {% endfoo %}']);
    expect(textsOf('{% hint style="info" %}\nNever closed.\n\nStill text.')).toEqual(['{% hint style="info" %} Never closed.', 'Still text.']);
    expect(textsOf('Text.\n{% endhint %}')).toEqual(['Text. {% endhint %}']);
    expect(textsOf('{% hint style="info %}\nx\n{% endhint %}')).toEqual(['{% hint style="info %} x {% endhint %}']);
    expect(textsOf('{% hint style="info" %}\nx\n{% endhint style="info" %}')).toEqual(['{% hint style="info" %} x {% endhint style="info" %}']);
    expect(textsOf('{% HINT %}\nx\n{% ENDHINT %}')).toEqual(['{% HINT %} x {% ENDHINT %}']);
    // Inline, a tag is text; a tab outside tabs is text; `$$` without its closing line is text.
    expect(textsOf('A {% hint %} inline {% endhint %}.')).toEqual(['A {% hint %} inline {% endhint %}.']);
    expect(textsOf('{% tab title="A" %}\nx\n{% endtab %}')).toEqual(['{% tab title="A" %} x {% endtab %}']);
    expect(textsOf('a\n$$\nb')).toEqual(['a $$ b']);
    expect(textsOf('$$$$ and $$ or $$$x$$$')).toEqual(['$$$$ and $$ or $$$x$$$']);
    // An unclosed `<details>` is the HTML block it was.
    expect(textsOf('<details>\n<summary>T</summary>')).toEqual(['<details>\n<summary>T</summary>']);
  });

  it('a block opening a paragraph ends the paragraph; a stray closing line ends nothing', () => {
    expect(nodesOf('Intro line\n{% hint style="success" %}\nDone.\n{% endhint %}\nOutro')).toEqual([p('Intro line'), hint('success', p('Done.')), p('Outro')]);
  });

  it('tags inside fenced or indented code are code, in a block or outside one', () => {
    const fenced = '```md\n{% hint style="info" %}\nx\n{% endhint %}\n```';
    expect(nodesOf(fenced)).toEqual([code({ syntax: 'md' }, '{% hint style="info" %}', 'x', '{% endhint %}')]);
    expect(nodesOf('    {% hint %}\n    x\n    {% endhint %}')).toEqual([code({}, '{% hint %}', 'x', '{% endhint %}')]);
    // The hint's end is the line after the fence, not the one inside it.
    expect(nodesOf(`{% tabs %}\n{% tab title="Syntax" %}\n${fenced}\n{% endtab %}\n{% endtabs %}`)).toEqual([
      { object: 'block', type: 'tabs', data: {}, nodes: [tab('Syntax', code({ syntax: 'md' }, '{% hint style="info" %}', 'x', '{% endhint %}'))] },
    ]);
  });

  it('tabs inside a hint (GitBook allows none there): each tab\'s title in bold, then its content', () => {
    const markdown = [
      '{% hint style="danger" %}',
      'Pick one:',
      '{% tabs %}',
      '{% tab title="A" %}',
      'In A.',
      '{% endtab %}',
      '{% tab title="B" %}',
      '```',
      'b()',
      '```',
      '{% endtab %}',
      '{% endtabs %}',
      '{% endhint %}',
    ].join('\n');
    expect(nodesOf(markdown)).toEqual([hint('danger', p('Pick one:'), p(text(leaf('A', 'bold'))), p('In A.'), p(text(leaf('B', 'bold'))), p(text(leaf('b()', 'code'))))]);
  });

  it('each container keeps what GitBook allows in it and flattens the rest', () => {
    // A hint in a tab and in a list item stays a hint; a hint in a hint or a quote gives its content.
    const nested = nodesOf('{% tabs %}\n{% tab title="T" %}\n{% hint style="info" %}\n{% hint style="danger" %}\ndeep\n{% endhint %}\n{% endhint %}\n{% endtab %}\n{% endtabs %}');
    expect(nested).toEqual([{ object: 'block', type: 'tabs', data: {}, nodes: [tab('T', hint('info', p('deep')))] }]);
    expect(nodesOf('- item\n\n  {% hint style="info" %}\n  in item\n  {% endhint %}')).toEqual([
      { object: 'block', type: 'list-unordered', nodes: [item([p('item'), hint('info', p('in item'))])] },
    ]);
    expect(nodesOf('> {% hint style="info" %}\n> quoted\n> {% endhint %}')).toEqual([{ object: 'block', type: 'blockquote', nodes: [p('quoted')] }]);
    // A table stays a table in a hint and becomes text in a tab; math stays math in a tab, inline in a hint.
    const table = '| a | b |\n|---|---|\n| 1 | 2 |';
    expect(nodesOf(`{% hint %}\n${table}\n{% endhint %}`)[0].nodes.map((n: Json) => n.type)).toEqual(['table']);
    expect(nodesOf(`{% tabs %}\n{% tab title="T" %}\n${table}\n{% endtab %}\n{% endtabs %}`)[0].nodes[0].nodes).toEqual([p('a\nb\n1\n2')]);
    expect(typesIn(nodesOf('{% tabs %}\n{% tab title="T" %}\n$$\nx\n$$\n{% endtab %}\n{% endtabs %}'))).toEqual(['tabs', 'tabs-item', 'math']);
    expect(nodesOf('{% hint %}\n$$\nx\n$$\n{% endhint %}')).toEqual([hint('info', p({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'x' } }))]);
    // An expandable in a list item gives its title and body; a file in a hint a link to it.
    expect(nodesOf('- <details>\n  <summary>T</summary>\n  body\n  </details>')).toEqual([{ object: 'block', type: 'list-unordered', nodes: [item([p('T'), p('body')])] }]);
    expect(nodesOf('{% hint %}\n{% file src="/files/f1" %}\nSpec\n{% endfile %}\n{% endhint %}')).toEqual([hint('info', p(link({ kind: 'file', file: 'f1' }, 'Spec')))]);
    expect(nodesOf('{% hint %}\n{% content-ref url="a.md" %}\n[A](/pages/pa)\n{% endcontent-ref %}\n{% endhint %}')).toEqual([hint('info', p(link({ kind: 'page', page: 'pa' }, 'A')))]);
    // Text between tabs joins the tab before it (or the first).
    expect(nodesOf('{% tabs %}\nlead\n{% tab title="A" %}\na\n{% endtab %}\ntrail\n{% endtabs %}')).toEqual([{ object: 'block', type: 'tabs', data: {}, nodes: [tab('A', p('lead'), p('a'), p('trail'))] }]);
  });

  it('hostile attributes are data: a style outside the enum is info, titles are kept as written, unsafe URLs make no block', () => {
    expect(nodesOf('{% hint style="<script>alert(1)</script>" %}\nx\n{% endhint %}')).toEqual([hint('info', p('x'))]);
    expect(nodesOf('{% hint style="constructor" %}\nx\n{% endhint %}')).toEqual([hint('info', p('x'))]);
    // Attribute values are strings as written (a backslash escapes the quote); extra attributes go nowhere.
    const tabs = nodesOf('{% tabs %}\n{% tab title="<img src=x onerror=alert(1)> \\"quoted\\"" constructor="y" %}\nx\n{% endtab %}\n{% endtabs %}');
    expect(tabs).toEqual([{ object: 'block', type: 'tabs', data: {}, nodes: [tab('<img src=x onerror=alert(1)> "quoted"', p('x'))] }]);
    // An attribute name must start with a letter: `__proto__=` makes the line text.
    expect(textsOf('{% hint __proto__="x" %}\ny\n{% endhint %}')).toEqual(['{% hint proto="x" %} y {% endhint %}']);
    expect(({} as Json).x).toBeUndefined();
    expect(nodesOf(`{% code title='<b>"x"</b>' %}\n\`\`\`\ny\n\`\`\`\n{% endcode %}`)).toEqual([code({ title: '<b>"x"</b>' }, 'y')]);
    expect(nodesOf('{% embed url="javascript:alert(1)" %}')).toEqual([p('{% embed url="javascript:alert(1)" %}')]);
    expect(nodesOf('{% file src="javascript:alert(1)" %}')).toEqual([p('{% file src="javascript:alert(1)" %}')]);
    expect(nodesOf('{% content-ref url="javascript:alert(1)" %}\n{% endcontent-ref %}')).toEqual([p('{% content-ref url="javascript:alert(1)" %}')]);
  });

  it(`nesting deeper than ${MAX_DEPTH} (or markdown-it's own limit) is text, none of it lost, the document still GitBook's`, () => {
    const depth = 40;
    const markdown = `${'{% hint style="info" %}\n'.repeat(depth)}innermost words\n${'{% endhint %}\n'.repeat(depth)}`;
    const nodes = nodesOf(markdown);
    const hints = typesIn(nodes).filter((t) => t === 'hint');
    // A hint in a hint is flattened (GitBook allows none), so one is left: the text is all there.
    expect(hints).toEqual(['hint']);
    expect(textIn(nodes)).toContain('innermost words');
    expect(textIn(nodes)).toContain('{% hint style="info" %}');
    // Tokens: nesting stops at the limit.
    let deepest = 0;
    for (const token of markdownParser.parse(markdown, {})) deepest = Math.max(deepest, token.level);
    expect(deepest).toBeLessThanOrEqual(20);
    // Tabs in tabs in tabs… alternating with hints, as deep: no crash, GitBook's schema.
    const mixed = `${'{% tabs %}\n{% tab title="t" %}\n{% hint %}\n'.repeat(15)}x\n${'{% endhint %}\n{% endtab %}\n{% endtabs %}\n'.repeat(15)}`;
    expect(textIn(nodesOf(mixed))).toContain('x');
  });
});

describe('the same parser for links and search: what is inside the blocks is seen', () => {
  const markdown = [
    '{% hint style="info" %}',
    'See [the guide](/pages/p-guide) and ![logo](/files/f-logo).',
    '{% endhint %}',
    '',
    '{% tabs %}',
    '{% tab title="Kubernetes" %}',
    'Drain the node with [kubectl](https://kubernetes.io/docs).',
    '{% endtab %}',
    '{% endtabs %}',
    '',
    '<details>',
    '<summary>Troubleshooting [help](/pages/p-help)</summary>',
    'Restart the kubelet.',
    '</details>',
    '',
    '## Formulas',
    '',
    '$$',
    'E = mc^2',
    '$$',
    '',
    'Inline $$a^2 + b^2$$ too.',
  ].join('\n');

  it('links inside hints, tabs and expandable titles are extracted', () => {
    expect(documentLinks(markdown).map((l) => [l.kind, l.targetPageId ?? l.targetFileId ?? l.url])).toEqual([
      ['page', 'p-guide'],
      ['file', 'f-logo'],
      ['url', 'https://kubernetes.io/docs'],
      ['page', 'p-help'],
    ]);
  });

  it('text inside tabs, their titles, expandables and formulas is indexed, without the tags', () => {
    const [intro, formulas] = pageSections(markdown);
    expect(intro.body).toBe(['See the guide and logo.', 'Kubernetes', 'Drain the node with kubectl.', 'Troubleshooting help', 'Restart the kubelet.'].join('\n'));
    expect(formulas).toMatchObject({ heading: 'Formulas', body: 'E = mc^2\nInline a^2 + b^2 too.' });
  });
});

describe('bounded work: every input is read in time linear in its size', () => {
  /**
   * The CPU time the work takes (user and system, in milliseconds): what it costs, not how long the
   * machine took to give it the cores (wall time doubled on a machine busy with other work).
   */
  const timed = (work: () => unknown) => {
    const started = process.cpuUsage();
    work();
    const { user, system } = process.cpuUsage(started);
    return (user + system) / 1000;
  };

  /** The fastest of three runs: the work's own cost, without a collection another run left behind. */
  const fastest = (work: () => unknown) => Math.min(timed(work), timed(work), timed(work));

  it('1 MB of unclosed {% hint %} lines answers within a second (a scan per line would be minutes)', { timeout: 120_000 }, () => {
    const markdown = '{% hint style="info" %}\n'.repeat(45_000);
    expect(markdown.length).toBeGreaterThan(1_000_000);
    const doc = markdownToDocument(markdown);
    expect(doc.nodes).toHaveLength(1);
    expect(doc.nodes[0].type).toBe('paragraph');
    expect(fastest(() => markdownToDocument(markdown))).toBeLessThan(1000);
    expect(fastest(() => documentLinks(markdown))).toBeLessThan(1000);
    expect(fastest(() => pageSections(markdown))).toBeLessThan(1000);
  });

  it.each([
    ['openings with text between', '{% hint style="info" %}\ntext\n'.repeat(35_000)],
    ['openings then one closing', `${'{% tabs %}\n'.repeat(40_000)}{% endtabs %}\n`],
    ['20,000 nested hints, closed', `${'{% hint %}\n'.repeat(20_000)}${'{% endhint %}\n'.repeat(20_000)}`],
    ['closing tags only', '{% endhint %}\n'.repeat(70_000)],
    ['interleaved openings of every kind', '{% tabs %}\n{% tab title="a" %}\n<details>\n{% code %}\n{% content-ref url="x" %}\n'.repeat(8_000)],
    ['unclosed <details>', '<details>\n'.repeat(100_000)],
    ['one $$ line, then a long text', `a\n$$\n${'x\n'.repeat(400_000)}`],
    ['$$ within text, unclosed', `$$a ${'b '.repeat(400_000)}`],
    ['$$$ repeated', '$$$'.repeat(330_000)],
    ['a fence opened after every hint', '{% hint %}\n```\n'.repeat(70_000)],
    ['one unterminated attribute a megabyte long', `{% hint style="${'a'.repeat(1_000_000)}\n`],
    ['backslashes in attributes', `{% hint style="${'\\"'.repeat(1000)}" %}\n{% endhint %}\n`.repeat(100)],
  ])('%s: a few seconds at most', { timeout: 120_000 }, (_, markdown) => {
    expect(fastest(() => markdownToDocument(markdown, { nodes: 10_000_000 }))).toBeLessThan(3000);
  });
});

describe("the places blocks may stand, as GitBook's OpenAPI document lays them out", () => {
  const schemas = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/@gitbook/api/spec/openapi.json'), 'utf8')).components.schemas;
  /** The `type`s of the blocks a schema (or a list of `$ref`s) admits. */
  function typesOf(schema: Json): string[] {
    if (schema.$ref) return typesOf(schemas[schema.$ref.split('/').pop()]);
    if (schema.oneOf || schema.anyOf) return (schema.oneOf ?? schema.anyOf).flatMap(typesOf);
    return schema.properties?.type?.enum ?? [];
  }
  const expandableBody = schemas.DocumentBlockExpandable.properties.fragments.items.oneOf
    .map((branch: Json) => branch.allOf[1])
    .find((fragment: Json) => fragment.properties.fragment.enum[0] === 'expandable-body');
  const spec: Record<Place, string[]> = {
    document: typesOf(schemas.JSONDocument.properties.nodes.items),
    blockquote: typesOf(schemas.DocumentBlockQuote.properties.nodes.items),
    'list-item': typesOf(schemas.DocumentBlockListItem.properties.nodes.items),
    hint: typesOf(schemas.DocumentBlockHint.properties.nodes.items),
    'tabs-item': typesOf(schemas.DocumentBlockTabsItem.properties.nodes.items),
    'expandable-body': typesOf(expandableBody.properties.nodes.items),
  };
  /** Every block type markdownToDocument builds at a place that holds blocks. */
  const BUILT = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider', 'blockquote', 'hint', 'tabs', 'code', 'table', 'embed', 'content-ref', 'file', 'expandable', 'math'];

  it.each(Object.keys(spec) as Place[])('%s: exactly the types GitBook allows there', (place) => {
    expect(spec[place].length).toBeGreaterThan(3);
    expect([...ALLOWED[place]].filter((type) => !spec[place].includes(type))).toEqual([]);
    expect(BUILT.filter((type) => spec[place].includes(type)).sort()).toEqual(BUILT.filter((type) => ALLOWED[place].has(type)).sort());
  });
});

describe('through the API: the markdown answered as written, the document in GitBook\'s blocks', () => {
  /** A 1×1 PNG. */
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

  it('written with every block, read back byte for byte (format=markdown) and as GitBook\'s document (format=document); links and search see inside', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await buildSpace(admin, o, { title: 'Docs' });
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'GitBook blocks' }), 201);
    const base = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    const first = expectOk(
      await admin.rest('POST', `${base}/content?compat=false`, {
        changes: [
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: '# Guide\n\n## Install\n' } },
          { operation: 'insert_files', files: [{ name: 'diagram.png', ref: 'diagram', contentType: 'image/png', base64: PNG }] },
        ],
      }),
    );
    const guide = first.changes.find((c: Json) => c.ref === 'guide').page.id;
    const fileId = first.insertedFiles[0].id;

    const markdown = [
      '# Every block',
      '',
      '{% hint style="warning" %}',
      'Read [the guide](/pages/' + guide + ') first.',
      '{% endhint %}',
      '',
      '{% tabs %}',
      '{% tab title="macOS" %}',
      'Install with zanzibarbrew.',
      '{% endtab %}',
      '',
      '{% tab title="Linux" %}',
      '```bash',
      'apt install it',
      '```',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '{% code title="config.yaml" overflow="wrap" lineNumbers="true" %}',
      '```yaml',
      'key: value',
      '```',
      '{% endcode %}',
      '',
      '{% embed url="https://www.youtube.com/watch?v=abc" %}',
      'A video',
      '{% endembed %}',
      '',
      '{% content-ref url="guide.md" %}',
      '[Guide](/pages/' + guide + ')',
      '{% endcontent-ref %}',
      '',
      '{% file src="/files/' + fileId + '" %}',
      'The diagram',
      '{% endfile %}',
      '',
      '<details>',
      '',
      '<summary>Why?</summary>',
      '',
      'Because.',
      '',
      '</details>',
      '',
      '$$',
      'a^2 + b^2 = c^2',
      '$$',
      '',
      'Inline $$x^2$$ math.',
      '',
      '- [ ] open',
      '- [x] done',
      '',
      '{% hint style="<script>" %}',
      'Hostile style.',
      '{% endhint %}',
      '',
    ].join('\n');
    const written = expectOk(
      await admin.rest('POST', `${base}/content?compat=false`, {
        changes: [
          { operation: 'insert_page', ref: 'blocks', title: 'Blocks', document: { markdown } },
          // The writer resolves the link inside a content-ref (as any link), not its attribute.
          { operation: 'insert_page', ref: 'refs', title: 'Refs', document: { markdown: '{% content-ref url="guide.md" %}\n[Guide](guide.md)\n{% endcontent-ref %}\n' } },
        ],
      }),
    );
    const page = written.changes.find((c: Json) => c.ref === 'blocks').page.id;
    const refs = written.changes.find((c: Json) => c.ref === 'refs').page.id;

    const asMarkdown = await admin.rest('GET', `${base}/content/page/${page}?format=markdown`);
    expect(validateGitBookResponse('getPageInChangeRequestById', asMarkdown.status, asMarkdown.body)).toEqual([]);
    expect(expectOk(asMarkdown).markdown).toBe(markdown);

    const asDocument = await admin.rest('GET', `${base}/content/page/${page}?format=document`);
    expect(validateGitBookResponse('getPageInChangeRequestById', asDocument.status, asDocument.body)).toEqual([]);
    const nodes = expectOk(asDocument).document.nodes;
    expect(nodes.map((n: Json) => n.type)).toEqual(['heading-1', 'hint', 'tabs', 'code', 'embed', 'content-ref', 'file', 'expandable', 'math', 'paragraph', 'list-tasks', 'hint']);
    expect(nodes[1]).toEqual(hint('warning', p('Read ', link({ kind: 'page', page: guide }, 'the guide'), ' first.')));
    expect(nodes[2].nodes.map((n: Json) => n.data.title)).toEqual(['macOS', 'Linux']);
    expect(nodes[3].data).toEqual({ syntax: 'yaml', title: 'config.yaml', overflow: 'wrap', lineNumbers: true });
    expect(nodes[4].data).toEqual({ url: 'https://www.youtube.com/watch?v=abc' });
    expect(nodes[5].data).toEqual({ ref: { kind: 'page', page: guide } });
    expect(nodes[6].data).toEqual({ ref: { kind: 'file', file: fileId } });
    expect(nodes[7]).toEqual(expandable(p('Why?'), [p('Because.')]));
    expect(nodes[8].data).toEqual({ formula: 'a^2 + b^2 = c^2' });
    expect(nodes[9].nodes[1]).toEqual({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'x^2' } });
    expect(nodes[10].nodes.map((n: Json) => n.data.checked)).toEqual([false, true]);
    expect(nodes[11].data).toEqual({ style: 'info' });

    const refsPage = expectOk(await admin.rest('GET', `${base}/content/page/${refs}?format=markdown`));
    expect(refsPage.markdown).toBe(`{% content-ref url="guide.md" %}\n[Guide](/pages/${guide})\n{% endcontent-ref %}\n`);
    const refsDocument = expectOk(await admin.rest('GET', `${base}/content/page/${refs}`));
    expect(refsDocument.document.nodes).toEqual([{ object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: guide } } }]);

    // Merged: the link inside the hint is one of the page's links, the text inside a tab is found.
    expectOk(await admin.rest('POST', `${base}/merge`));
    const links = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/${page}/links`));
    expect(links.items.map((l: Json) => [l.status, l.targetReference.kind, l.targetReference.page])).toEqual([['ok', 'page', guide]]);
    const found = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/search?query=zanzibarbrew`), 200, 'searchSpaceContent');
    expect(found.items.map((item: Json) => item.id)).toEqual([page]);
  });
});
