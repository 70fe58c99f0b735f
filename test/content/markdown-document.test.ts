import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/modules/content/markdown/markdown-document.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';

/** A document page as GitBook's getPageById answers it, carrying `document`. */
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

const SAMPLE = `# Title

Some **bold**, *italic*, ~~gone~~ and \`code\`, a [link](https://example.com/x) and an [anchor](#part).
A second line.

## Part

1. first
2. second
   - nested *item*

> quoted text
>
> \`\`\`js
> quoted code
> \`\`\`

\`\`\`ts
const a = 1;
const b = 2;
\`\`\`

| Name | Count |
|:-----|------:|
| a    | 1     |
| **b** | 2    |

---

![diagram](https://example.com/d.png)

#### Deep heading
`;

describe('markdown → GitBook document (format=document)', () => {
  it('maps CommonMark and GFM tables onto blocks GitBook accepts', () => {
    const doc = markdownToDocument(SAMPLE);
    expect(validateGitBookResponse('getPageById', 200, pageWith(doc))).toEqual([]);
    expect(doc.nodes.map((n) => n.type)).toEqual([
      'heading-1', 'paragraph', 'heading-2', 'list-ordered', 'blockquote', 'code', 'table', 'divider', 'paragraph', 'heading-3',
    ]);
  });

  it('keeps the text, marks, links and structure', () => {
    const doc = markdownToDocument(SAMPLE) as any;
    const leaves = doc.nodes[1].nodes.flatMap((n: any) => (n.object === 'text' ? n.leaves : n.nodes.flatMap((c: any) => c.leaves)));
    expect(leaves.find((l: any) => l.text === 'bold').marks).toEqual([{ object: 'mark', type: 'bold' }]);
    expect(leaves.find((l: any) => l.text === 'gone').marks).toEqual([{ object: 'mark', type: 'strikethrough' }]);
    expect(leaves.find((l: any) => l.text === 'code').marks).toEqual([{ object: 'mark', type: 'code' }]);
    const links = doc.nodes[1].nodes.filter((n: any) => n.type === 'link');
    expect(links.map((l: any) => l.data.ref)).toEqual([{ kind: 'url', url: 'https://example.com/x' }, { kind: 'anchor', anchor: 'part' }]);
    // Lists nest; code keeps its lines and language; the table its header, alignment and cells.
    expect(doc.nodes[3].nodes[1].nodes[1].type).toBe('list-unordered');
    expect(doc.nodes[5]).toMatchObject({ data: { syntax: 'ts' } });
    expect(doc.nodes[5].nodes.map((l: any) => l.nodes[0].leaves[0].text)).toEqual(['const a = 1;', 'const b = 2;']);
    const table = doc.nodes[6];
    expect(Object.values(table.data.definition).map((d: any) => [d.title, d.textAlignment])).toEqual([['Name', 'left'], ['Count', 'right']]);
    expect(Object.keys(table.data.records)).toHaveLength(2);
    expect(table.fragments).toHaveLength(4);
    // A code block inside a quote (GitBook allows none there) becomes a paragraph of code.
    expect(doc.nodes[4].nodes.map((n: any) => n.type)).toEqual(['paragraph', 'paragraph']);
  });

  it("links the writer resolved (`/pages/<id>`, `/files/<id>`) become page, anchor and file references", () => {
    const markdown = [
      'To [setup](/pages/p-setup), [its part](/pages/p-setup#install%20steps), [here](#top), [the file](/files/f-1),',
      '[elsewhere](https://example.com/a), [unresolved](../old.md), ![logo](/files/f-logo), ![remote](https://example.com/i.png)',
      'and ![not a file](/pages/p-setup).',
    ].join('\n');
    const doc = markdownToDocument(markdown) as any;
    expect(validateGitBookResponse('getPageById', 200, pageWith(doc))).toEqual([]);
    const refs = doc.nodes[0].nodes.filter((n: any) => n.object === 'inline').map((n: any) => n.data.ref);
    expect(refs).toEqual([
      { kind: 'page', page: 'p-setup' },
      { kind: 'anchor', anchor: 'install steps', page: 'p-setup' },
      { kind: 'anchor', anchor: 'top' },
      { kind: 'file', file: 'f-1' },
      { kind: 'url', url: 'https://example.com/a' },
      { kind: 'url', url: '../old.md' },
      { kind: 'file', file: 'f-logo' },
      { kind: 'url', url: 'https://example.com/i.png' },
      // An image can only show a file or a URL (GitBook's schema): a page stays a URL.
      { kind: 'url', url: '/pages/p-setup' },
    ]);
  });

  it('an empty page is an empty document', () => {
    const doc = markdownToDocument('');
    expect(doc).toEqual({ object: 'document', data: {}, nodes: [] });
    expect(validateGitBookResponse('getPageById', 200, pageWith(doc))).toEqual([]);
  });
});
