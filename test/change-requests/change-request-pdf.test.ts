import { describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { AppServices } from '../../src/core/context.ts';
import { changeRequestsModule } from '../../src/modules/change-requests/index.ts';
import { PDF_BASE_PATH } from '../../src/modules/change-requests/change-request-pdf.ts';
import { contentModule, signedDownloadRoute } from '../../src/modules/content/index.ts';
import { FILES_BASE_PATH } from '../../src/modules/content/files/file-urls.ts';
import { toWinAnsi } from '../../src/modules/content/export/pdf-fonts.ts';
import { addPages, buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData, gqlError, restError } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness } from '../support/harness.ts';
import { pageCount, updatePageRow } from '../support/content-rows.ts';

const h = useHarness();

const pdfPath = (s: string, cr: string, query = '') => `/v1/spaces/${s}/change-requests/${cr}/pdf${query}`;
const PDF_QUERY = 'query($s: String!, $c: String!, $p: String, $o: Boolean) { changeRequestPdf(spaceId: $s, changeRequestId: $c, page: $p, only: $o) { url } }';

const START = `# Getting started

Install the **CLI** with *care*, then run \`docs init\`. See [the site](https://example.com).

1. Download
2. Configure
   - nested option

> Quoted advice.

\`\`\`sh
docs serve --port 4000
\`\`\`

| Flag | Meaning |
|------|---------|
| --port | Port to listen on |

Unicode beyond Latin-1: 日本語 🔌 Ā done.
`;

/**
 * A space with a change request whose revision holds a small tree (its own revision, not the space's):
 * Guides (group) > Getting started > Deep, Guides > FAQ, then API.
 */
async function changeRequestWithTree() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'PDF' }), 201);
  const revision = await h.db.revision.create({ data: { id: `cr-rev-${cr.id}`, spaceId: space.id, parents: [space.revision] } });
  await h.db.changeRequest.update({ where: { id: cr.id }, data: { revisionId: revision.id } });
  await addPages(h.db, revision.id, [
    { id: 'guides', title: 'Guides', path: 'guides' },
    { id: 'start', title: 'Getting started', path: 'guides/getting-started', markdown: START },
    { id: 'deep', title: 'Deep', path: 'guides/getting-started/deep', markdown: 'Deep body text.' },
    { id: 'faq', title: 'FAQ', path: 'guides/faq', markdown: 'Frequently asked.' },
    { id: 'api', title: 'API', path: 'api', markdown: '## Endpoints\n\nThe API reference.' },
  ]);
  const set = (id: string, data: object) => updatePageRow(h.db, revision.id, id, data);
  await set('guides', { position: 'a0', type: 'group', documentHash: null });
  await set('api', { position: 'a1' });
  await set('start', { parentId: 'guides', position: 'a0' });
  await set('faq', { parentId: 'guides', position: 'a1' });
  await set('deep', { parentId: 'start', position: 'a0' });
  return { admin, o, space, cr, revision: revision.id };
}

/** The text of each page of a PDF, parsed by pdf.js. */
async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const doc = await getDocument({ data: bytes, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? ' ' : '') : '')).join('').replace(/\s+/g, ' ').trim());
  }
  await doc.destroy();
  return pages;
}

/** Fetches a PDF URL without a token: the PDF, checked to be one, and its text. */
async function fetchPdf(url: string) {
  const res = await h.app.fetch(url);
  expect(res.status, await res.clone().text()).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(res.headers.get('content-type')).toBe('application/pdf');
  expect(res.headers.get('content-length')).toBe(String(bytes.byteLength));
  expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  const raw = Buffer.from(bytes).toString('latin1'); // before pdf.js takes the buffer over
  const pages = await pdfText(bytes);
  return { res, pages, text: pages.join('\n'), raw };
}

/** A 1×1 PNG, base64. */
async function tinyPng(): Promise<string> {
  return 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
}

/** Expects each string in `texts` to appear, in this order. */
function expectInOrder(text: string, texts: string[]) {
  const positions = texts.map((t) => text.indexOf(t));
  expect(positions.every((p) => p >= 0), `${texts.join(', ')} in ${text}`).toBe(true);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
}

describe('GET /spaces/{spaceId}/change-requests/{changeRequestId}/pdf', () => {
  it("REST: a signed URL that serves the change request's pages as a PDF, without a token", async () => {
    const { admin, space, cr, revision } = await changeRequestWithTree();
    const answer = expectOk(await admin.rest('GET', pdfPath(space.id, cr.id)), 200, 'getChangeRequestPDF');
    expect(Object.keys(answer)).toEqual(['url']);
    expect(answer.url).toMatch(new RegExp(`^http://localhost:4000/pdf/${space.id}/${revision}\\?expires=\\d+&signature=[\\w-]{43}$`));
    // By number too.
    expect(expectOk(await admin.rest('GET', pdfPath(space.id, String(cr.number)))).url).toBe(answer.url);

    const { res, pages, text } = await fetchPdf(answer.url);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Docs.pdf"; filename*=UTF-8''Docs.pdf`);
    // Every page in tree order, the group's title sharing its first child's PDF page.
    expectInOrder(text, ['Guides', 'Getting started', 'Install the CLI with care, then run docs init', 'Deep', 'FAQ', 'API', 'Endpoints', 'The API reference.']);
    expect(pages).toHaveLength(4);
    expect(pages[0]).toContain('Guides');
    expect(pages[0]).toContain('Getting started');
    // Lists, quotes, code, tables; the body's leading "# Getting started" is not repeated under the title.
    for (const body of ['1. Download', '2. Configure', 'nested option', 'Quoted advice.', 'docs serve --port 4000', 'Flag', 'Port to listen on']) {
      expect(pages[0]).toContain(body);
    }
    expect(pages[0].match(/Getting started/g)).toHaveLength(1);
    // Characters the standard fonts cannot show are replaced, not fatal.
    expect(pages[0]).toContain('Unicode beyond Latin-1: ??? ? A done.');

    const head = await h.app.fetch(answer.url, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type'), head.headers.get('content-length')]).toEqual([
      200,
      'application/pdf',
      res.headers.get('content-length'),
    ]);
    expect((await h.app.fetch(answer.url, { method: 'POST' })).status).toBe(405);

    // A revision never changes: the same PDF is served again from memory, not rendered again (a new
    // rendering would carry another creation date).
    const first = new Uint8Array(await (await h.app.fetch(answer.url)).arrayBuffer());
    h.clock.advance(60_000);
    const again = new Uint8Array(await (await h.app.fetch(answer.url)).arrayBuffer());
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
  });

  it("GitBook's blocks as the reader shows them, no tag printed raw: hints, tabs, expandables, code titles, embeds, files, math (issue 39 §2)", async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await buildSpace(admin, o, { title: 'Blocks' });
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Blocks' }), 201);
    const markdown = [
      '{% hint style="warning" %}',
      'Back up **first**.',
      '{% endhint %}',
      '',
      '{% tabs %}',
      '{% tab title="macOS" %}',
      'Use brew.',
      '{% endtab %}',
      '',
      '{% tab title="Linux" %}',
      'Use apt.',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '<details>',
      '<summary>Advanced options</summary>',
      '',
      'Hidden until opened.',
      '',
      '</details>',
      '',
      '{% code title="config.yaml" %}',
      '```yaml',
      'port: 4000',
      '```',
      '{% endcode %}',
      '',
      '{% embed url="https://www.youtube.com/watch?v=abc" %}',
      '',
      '$$',
      'E = mc^2',
      '$$',
      '',
      '| Flag | Meaning |',
      '|------|---------|',
      '| --port | Port |',
      '',
    ].join('\n');
    const png = await tinyPng();
    expectOk(
      await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        changes: [
          { operation: 'insert_files', files: [{ name: 'dot.png', ref: 'dot', contentType: 'image/png', base64: png }] },
          { operation: 'insert_page', title: 'Every block', document: { markdown: `${markdown}\n![A dot](./dot)\n\nAfter the image.\n` } },
        ],
      }),
    );
    const { text, raw } = await fetchPdf(expectOk(await admin.rest('GET', pdfPath(space.id, cr.id))).url);
    // The picture is drawn (an image XObject in the PDF), not its alternative text.
    expect(raw).toMatch(/\/Subtype \/Image/);
    expect(text).not.toContain('[A dot]');
    expect(text).toContain('After the image.');
    expect(text).not.toContain('{%');
    expect(text).not.toContain('<details>');
    expectInOrder(text, ['Warning', 'Back up first.', 'macOS', 'Use brew.', 'Linux', 'Use apt.', 'Advanced options', 'Hidden until opened.', 'config.yaml', 'port: 4000', 'Embed: https://www.youtube.com/watch?v=abc', 'E = mc^2', 'Flag', 'Port']);
  });

  it('GraphQL: the same URL; a reader may ask', async () => {
    const { admin, o, space, cr } = await changeRequestWithTree();
    const rest = expectOk(await admin.rest('GET', pdfPath(space.id, cr.id)));
    const reader = await buildMember(h, o, 'read');
    const graph = gqlData(await reader.gql(PDF_QUERY, { s: space.id, c: cr.id }), 'changeRequestPdf');
    expect(graph).toEqual(rest);
    expect((await fetchPdf(graph.url)).text).toContain('Frequently asked.');
  });

  it('page: that page and its sub-pages; with only, that page alone; unknown pages are 404', async () => {
    const { admin, space, cr } = await changeRequestWithTree();
    const subtree = expectOk(await admin.rest('GET', pdfPath(space.id, cr.id, '?page=start')), 200, 'getChangeRequestPDF');
    expect(new URL(subtree.url).searchParams.get('page')).toBe('start');
    const { res, text } = await fetchPdf(subtree.url);
    expect(res.headers.get('content-disposition')).toContain('filename="Getting started.pdf"');
    expectInOrder(text, ['Getting started', 'Install the CLI', 'Deep', 'Deep body text.']);
    for (const other of ['Guides', 'FAQ', 'API']) expect(text).not.toContain(other);

    const only = expectOk(await admin.rest('GET', pdfPath(space.id, cr.id, '?page=start&only=true')));
    const alone = await fetchPdf(only.url);
    expect(alone.text).toContain('Install the CLI');
    expect(alone.text).not.toContain('Deep');
    expect(gqlData(await admin.gql(PDF_QUERY, { s: space.id, c: cr.id, p: 'start', o: true }), 'changeRequestPdf')).toEqual(only);

    // A group page: its title, then its children.
    expectInOrder((await fetchPdf(expectOk(await admin.rest('GET', pdfPath(space.id, cr.id, '?page=guides'))).url)).text, ['Guides', 'Getting started', 'Deep', 'FAQ']);
    // `only` without a page changes nothing.
    expect(expectOk(await admin.rest('GET', pdfPath(space.id, cr.id, '?only=true'))).url).toBe(expectOk(await admin.rest('GET', pdfPath(space.id, cr.id))).url);

    restError(await admin.rest('GET', pdfPath(space.id, cr.id, '?page=nope')), 404);
    gqlError(await admin.gql(PDF_QUERY, { s: space.id, c: cr.id, p: 'nope' }), 'NOT_FOUND');
    // A page of the space's revision that the change request's revision does not hold.
    await addPages(h.db, space.revision, [{ id: 'main-only', title: 'Main only', path: 'main-only' }]);
    restError(await admin.rest('GET', pdfPath(space.id, cr.id, '?page=main-only')), 404);
    restError(await admin.rest('GET', pdfPath(space.id, '99')), 404);
    restError(await admin.rest('GET', pdfPath(space.id, cr.id, '?only=maybe')), 400, 'only');
  });

  it("the URL names the revision the change request had when asked; once that revision's space is gone, 404", async () => {
    const { admin, space, cr, revision } = await changeRequestWithTree();
    const { url } = expectOk(await admin.rest('GET', pdfPath(space.id, cr.id)));
    // The change request moves on to another revision: the URL still shows what the caller saw.
    const next = await h.db.revision.create({ data: { id: `next-${revision}`, spaceId: space.id, parents: [revision] } });
    await addPages(h.db, next.id, [{ id: 'other', title: 'Rewritten', path: 'rewritten', markdown: 'All new.' }]);
    await h.db.changeRequest.update({ where: { id: cr.id }, data: { revisionId: next.id } });
    expect((await fetchPdf(url)).text).toContain('Install the CLI');
    const now = expectOk(await admin.rest('GET', pdfPath(space.id, cr.id)));
    expect(now.url).toContain(`/pdf/${space.id}/${next.id}?`);
    expect((await fetchPdf(now.url)).text).toContain('All new.');

    // An empty revision still makes a PDF.
    const empty = await h.db.revision.create({ data: { id: `empty-${revision}`, spaceId: space.id } });
    await h.db.changeRequest.update({ where: { id: cr.id }, data: { revisionId: empty.id } });
    expect((await fetchPdf(expectOk(await admin.rest('GET', pdfPath(space.id, cr.id))).url)).text).toContain('There are no pages');

    expect((await admin.rest('DELETE', `/v1/spaces/${space.id}`)).status).toBe(204);
    const gone = await h.app.fetch(url);
    expect(gone.status).toBe(404);
    expect((await gone.json()).error.code).toBe(404);
  });

  it('a tampered or expired URL is a 403; the signature covers the space, revision, page, only and expiry', async () => {
    const { admin, space, cr, revision } = await changeRequestWithTree();
    const { url } = expectOk(await admin.rest('GET', pdfPath(space.id, cr.id, '?page=start&only=true')));
    const tampered = (change: (u: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      return h.app.fetch(copy.toString());
    };
    const other = await buildSpace(admin, (await h.db.space.findUniqueOrThrow({ where: { id: space.id } })).organizationId);
    for (const res of [
      await tampered((u) => u.searchParams.set('page', 'faq')),
      await tampered((u) => u.searchParams.delete('only')),
      await tampered((u) => u.searchParams.delete('page')),
      await tampered((u) => u.searchParams.set('extra', '1')),
      await tampered((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
      await tampered((u) => u.searchParams.set('signature', 'x'.repeat(43))),
      await tampered((u) => u.searchParams.delete('signature')),
      await tampered((u) => (u.pathname = `/pdf/${space.id}/${other.revision}`)),
      await tampered((u) => (u.pathname = `/pdf/${other.id}/${revision}`)),
      // A signature made for a file download is no good for a PDF, and the other way round.
      await tampered((u) => (u.pathname = `/files/${space.id}/${revision}`)),
    ]) {
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe(403);
    }
    expect((await fetchPdf(url)).text).toContain('Install the CLI');
    h.clock.advance(3 * 3600 * 1000);
    const expired = await h.app.fetch(url);
    expect(expired.status).toBe(403);
    expect((await expired.json()).error.message).toContain('expired');
  });
});

describe('signed download routes', () => {
  it('are declared with their path written out, under the base path their URLs are signed under; one elsewhere does not start', () => {
    const services = {} as AppServices;
    expect(contentModule.httpRoutes!(services).map((r) => r.path)).toEqual(['/files/{hash}/{name}']);
    expect(changeRequestsModule.httpRoutes!(services).map((r) => r.path)).toEqual(['/pdf/{spaceId}/{revisionId}']);
    expect('/files/{hash}/{name}'.startsWith(`${FILES_BASE_PATH}/`)).toBe(true);
    expect('/pdf/{spaceId}/{revisionId}'.startsWith(`${PDF_BASE_PATH}/`)).toBe(true);
    const elsewhere = { path: '/exports/{spaceId}', signedUnder: PDF_BASE_PATH, what: 'PDF URL', verify: async () => 'invalid' as const, serve: async () => new Response() };
    expect(() => signedDownloadRoute(services, elsewhere)).toThrow(/not under \/pdf/);
  });
});

const refusalOps: RefusalOp<{ s: string; c: string }>[] = [
  { name: 'change request PDF', rest: ({ s, c }) => ['GET', pdfPath(s, c)], gql: ({ s, c }) => [PDF_QUERY, { s, c }] },
];

describe('text for the standard fonts (WinAnsi)', () => {
  it('keeps Latin-1 and the WinAnsi extras, decomposes what it can, replaces the rest, drops controls', () => {
    expect(toWinAnsi('Café “quoted” – 5 € … Œuvre')).toBe('Café “quoted” – 5 € … Œuvre');
    expect(toWinAnsi('Ā ﬁle ①')).toBe('A file 1');
    expect(toWinAnsi('日本 🔌 \u{1F468}\u200D\u{1F469}')).toBe('?? ? ??');
    expect(toWinAnsi('a\tb\u0000c\u0301\nd')).toBe('a    bc\nd');
  });
});

refusalMatrix(
  refusalOps,
  {
    h,
    setup: changeRequestWithTree,
    ids: (w) => ({ s: w.space.id, c: w.cr.id }),
    unknown: { s: 'unknownSpace00000001' },
    unchanged: async (w) => {
      expect(await pageCount(h.db, w.revision)).toBe(5);
    },
  },
);
