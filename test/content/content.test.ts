import { describe, expect, it } from 'vitest';
import { putDocuments } from '../../src/modules/content/store/document-store.ts';
import { addFiles, addPages, buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData } from '../support/assertions.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type HttpResult } from '../support/harness.ts';
import { fileRows, pageCount, updatePageRow } from '../support/content-rows.ts';

const h = useHarness();

const pagesPath = (s: string) => `/v1/spaces/${s}/content/pages`;
const PAGES_QUERY = 'query($s: String!) { spaceContentPages(spaceId: $s) { pages } }';

/** A space whose revision holds a small tree: two top-level pages, the first with two children (one nested further). */
async function spaceWithTree() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  await addPages(h.db, space.revision, [
    { id: 'guides', title: 'Guides', path: 'guides' },
    { id: 'start', title: 'Getting started', path: 'guides/getting-started' },
    { id: 'deep', title: 'Deep', path: 'guides/getting-started/deep' },
    { id: 'faq', title: 'FAQ', path: 'guides/faq' },
    { id: 'api', title: 'API', path: 'api' },
  ]);
  const set = (id: string, data: object) => updatePageRow(h.db, space.revision, id, data);
  await set('guides', { position: 'a0', type: 'group' });
  await set('api', { position: 'a1', emoji: '🔌', description: 'Reference' });
  await set('start', { parentId: 'guides', position: 'a0' });
  await set('faq', { parentId: 'guides', position: 'a1' });
  await set('deep', { parentId: 'start', position: 'a0' });
  return { admin, o, space };
}

type Tree = { id: string; pages: Tree }[];
const shape = (pages: Tree): unknown => pages.map((p) => [p.id, shape(p.pages)]);

describe('GET /spaces/{spaceId}/content/pages', () => {
  it('REST and GraphQL: the whole tree in order, nested to any depth, without bodies', async () => {
    const { admin, space } = await spaceWithTree();
    const res = await admin.rest('GET', pagesPath(space.id));
    const rest = expectOk(res);
    // GitBook's schema wants a body on every document page; the list carries none (bodies are read page by
    // page): that one requirement is waived, everything else is checked.
    expect(validateGitBookResponse('listPages', res.status, rest, { ignoreMissing: ['MarkdownDocument.markdown'] })).toEqual([]);
    expect(shape(rest.pages)).toEqual([
      ['guides', [['start', [['deep', []]]], ['faq', []]]],
      ['api', []],
    ]);
    const [guides, api] = rest.pages;
    expect(guides).toMatchObject({ kind: 'group', type: 'group', slug: 'guides', path: 'guides', title: 'Guides', hidden: false });
    expect(guides).not.toHaveProperty('urls');
    expect(api).toMatchObject({
      kind: 'sheet',
      type: 'document',
      slug: 'api',
      path: 'api',
      emoji: '🔌',
      description: 'Reference',
      urls: { app: `http://localhost:4000/s/${space.id}/api` },
      tags: [],
    });
    expect(guides.pages[0].pages[0]).toMatchObject({ id: 'deep', path: 'guides/getting-started/deep', slug: 'deep' });
    // Bodies are read page by page, not with the tree.
    expect(JSON.stringify(rest)).not.toContain('markdown');

    const graph = gqlData(await admin.gql(PAGES_QUERY, { s: space.id }), 'spaceContentPages');
    expect(graph.pages).toEqual(rest.pages);
  });

  it('a new space has no pages; metadata and computed are accepted', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await buildSpace(admin, o);
    expect(expectOk(await admin.rest('GET', `${pagesPath(space.id)}?metadata=false&computed=false`), 200, 'listPages')).toEqual({ pages: [] });
    const refused = await admin.rest('GET', `${pagesPath(space.id)}?metadata=maybe`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('metadata');
  });

  it('statements do not grow with the tree: 10 and 500 pages cost the same on every read route, space and change request', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const small = await buildSpace(admin, o);
    const large = await buildSpace(admin, o);
    const seeds = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${i}`, title: `Page ${i}`, path: `page-${i}` }));
    await addPages(h.db, small.revision, seeds(10));
    await addPages(h.db, large.revision, seeds(500));
    const file = (n: number) => ({ id: `f${n}`, name: `f${n}.txt`, contentType: 'text/plain', bytes: new Uint8Array(Buffer.from(`file ${n}`)) });
    await addFiles(h.db, small.revision, [file(0), file(1)]);
    await addFiles(h.db, large.revision, Array.from({ length: 50 }, (_, i) => file(i)));
    const crOf = async (spaceId: string) => (await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests`, {})).body.id as string;
    const crs: Record<string, string> = { [small.id]: await crOf(small.id), [large.id]: await crOf(large.id) };
    const count = async (path: string) => {
      await admin.rest('GET', path); // warm
      await new Promise((r) => setTimeout(r, 50));
      const before = h.store.queries.length;
      const res = await admin.rest('GET', path);
      expect(res.status, res.text).toBe(200);
      await new Promise((r) => setTimeout(r, 50));
      return h.store.queries.length - before;
    };
    const routes = ['/content', '/content/pages', '/content/page/p7', '/content/files', '/content/files/f1'];
    for (const route of routes) {
      for (const base of [(s: string) => `/v1/spaces/${s}`, (s: string) => `/v1/spaces/${s}/change-requests/${crs[s]}`]) {
        const [s, l] = [await count(base(small.id) + route), await count(base(large.id) + route)];
        expect(l, `${base('{s}')}${route}`).toBe(s);
      }
    }
    expect((await admin.rest('GET', pagesPath(large.id))).body.pages).toHaveLength(500);
  });

  it('readers read it; a guest without a grant gets the 404 an unknown space gets', async () => {
    const { admin, o, space } = await spaceWithTree();
    const reader = await buildMember(h, o, 'read');
    expect(expectOk(await reader.rest('GET', pagesPath(space.id))).pages).toHaveLength(2);
    const guest = await buildMember(h, o, null);
    const refused = await guest.rest('GET', pagesPath(space.id));
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe((await guest.rest('GET', pagesPath('unknownSpace00000001'))).body.error.message.replace('unknownSpace00000001', space.id));
  });
});

const OPS: RefusalOp<{ s: string }>[] = [
  { name: 'list pages', rest: ({ s }) => ['GET', pagesPath(s)], gql: ({ s }) => [PAGES_QUERY, { s }] },
];

refusalMatrix(OPS, {
  h,
  setup: spaceWithTree,
  ids: (w) => ({ s: w.space.id }),
  unknown: { s: 'unknownSpace00000001' },
  unchanged: async (w) => {
    expect(await pageCount(h.db, w.space.revision)).toBe(5);
  },
});

describe('GET /spaces/{spaceId}/content/page/{pageId}', () => {
  const pagePath = (s: string, p: string, query = '') => `/v1/spaces/${s}/content/page/${p}${query}`;
  const PAGE_QUERY = 'query($s: String!, $p: String!, $f: DocumentFormat) { spacePage(spaceId: $s, pageId: $p, format: $f) }';

  it('REST and GraphQL: a document page with its children and its body as a document (default) or markdown', async () => {
    const { admin, space } = await spaceWithTree();
    const [changed] = await putDocuments(h.db, ['# Getting started\n\nRead **this** first.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n']);
    await updatePageRow(h.db, space.revision, 'start', { documentHash: changed });

    // Child pages come without bodies, like the pages list: the one requirement of GitBook's schema waived.
    const gitbook = (res: HttpResult) => {
      expect(validateGitBookResponse('getPageById', res.status, res.body, { ignoreMissing: ['MarkdownDocument.markdown'] })).toEqual([]);
      return expectOk(res);
    };
    const asDocument = gitbook(await admin.rest('GET', pagePath(space.id, 'start')));
    expect(asDocument).toMatchObject({ id: 'start', type: 'document', path: 'guides/getting-started', document: { object: 'document' } });
    expect(asDocument).not.toHaveProperty('markdown');
    expect(asDocument.document.nodes.map((n: { type: string }) => n.type)).toEqual(['heading-1', 'paragraph', 'table']);
    expect(shape(asDocument.pages)).toEqual([['deep', []]]);
    // Children come without bodies.
    expect(asDocument.pages[0]).not.toHaveProperty('document');

    const asMarkdown = gitbook(await admin.rest('GET', pagePath(space.id, 'start', '?format=markdown')));
    expect(asMarkdown.markdown).toBe('# Getting started\n\nRead **this** first.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
    expect(asMarkdown).not.toHaveProperty('document');

    expect(gqlData(await admin.gql(PAGE_QUERY, { s: space.id, p: 'start', f: 'markdown' }), 'spacePage')).toEqual(asMarkdown);
    expect(gqlData(await admin.gql(PAGE_QUERY, { s: space.id, p: 'start' }), 'spacePage')).toEqual(asDocument);
  });

  it('a group page has no body; an unknown page is a 404; an unknown format a 400 naming it', async () => {
    const { admin, space } = await spaceWithTree();
    const groupRes = await admin.rest('GET', pagePath(space.id, 'guides'));
    expect(validateGitBookResponse('getPageById', groupRes.status, groupRes.body, { ignoreMissing: ['MarkdownDocument.markdown'] })).toEqual([]);
    const group = expectOk(groupRes);
    expect(group).toMatchObject({ id: 'guides', kind: 'group', type: 'group' });
    expect(group).not.toHaveProperty('document');
    expect(shape(group.pages)).toEqual([['start', [['deep', []]]], ['faq', []]]);

    const missing = await admin.rest('GET', pagePath(space.id, 'nope'));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 404, message: 'Page "nope" not found in this space' } });
    const bad = await admin.rest('GET', pagePath(space.id, 'start', '?format=html'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('format');
  });
});

refusalMatrix(
  [{ name: 'get page', rest: ({ s }) => ['GET', `/v1/spaces/${s}/content/page/api`], gql: ({ s }) => ['query($s: String!) { spacePage(spaceId: $s, pageId: "api") }', { s }] }],
  {
    h,
    setup: spaceWithTree,
    ids: (w) => ({ s: w.space.id }),
    unknown: { s: 'unknownSpace00000001' },
    unchanged: async (w) => {
      expect(await pageCount(h.db, w.space.revision)).toBe(5);
    },
  },
);

describe('files: GET /spaces/{spaceId}/content/files[/{fileId}] and signed downloads', () => {
  const PNG = new Uint8Array(Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
  async function spaceWithFiles() {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await buildSpace(admin, o);
    await addFiles(h.db, space.revision, [
      { id: 'f-logo', name: 'logo.png', contentType: 'image/png', bytes: PNG, width: 1, height: 1 },
      { id: 'f-page', name: 'évil page.html', contentType: 'text/html', bytes: new Uint8Array(Buffer.from('<script>alert(1)</script>')) },
      { id: 'f-copy', name: 'another-logo.png', contentType: 'image/png', bytes: new Uint8Array(PNG) },
    ]);
    return { admin, o, space };
  }
  const filesPath = (s: string) => `/v1/spaces/${s}/content/files`;

  it('REST and GraphQL: files by name with size, dimensions and a download URL; one blob for identical bytes', async () => {
    const { admin, space } = await spaceWithFiles();
    const list = expectOk(await admin.rest('GET', filesPath(space.id)), 200, 'listFiles');
    expect(list.items.map((f: { name: string }) => f.name)).toEqual(['another-logo.png', 'logo.png', 'évil page.html']);
    expect(list.count).toBe(3);
    const logo = list.items[1];
    expect(logo).toMatchObject({ id: 'f-logo', contentType: 'image/png', size: PNG.byteLength, dimensions: { width: 1, height: 1 } });
    expect(list.items[2]).not.toHaveProperty('dimensions');
    expect(logo.downloadURL).toMatch(/^http:\/\/localhost:4000\/files\/[0-9a-f]{64}\/logo\.png\?/);
    expect(await h.db.fileBlob.count({ where: { hash: (await fileRows(h.db, space.revision)).find((f) => f.id === 'f-logo')!.blobHash } })).toBe(1);

    expect(expectOk(await admin.rest('GET', `${filesPath(space.id)}/f-logo`), 200, 'getFileById')).toEqual(logo);
    const paged = expectOk(await admin.rest('GET', `${filesPath(space.id)}?limit=2`));
    expect(paged.items).toHaveLength(2);
    const rest = expectOk(await admin.rest('GET', `${filesPath(space.id)}?limit=2&page=${paged.next.page}`));
    expect(rest.items.map((f: { id: string }) => f.id)).toEqual(['f-page']);

    const graph = gqlData(await admin.gql('query($s: String!) { spaceFiles(spaceId: $s) { count items { id name size downloadURL } } }', { s: space.id }), 'spaceFiles');
    expect(graph.items.map((f: { id: string }) => f.id)).toEqual(['f-copy', 'f-logo', 'f-page']);
    const missing = await admin.rest('GET', `${filesPath(space.id)}/nope`);
    expect(missing.status).toBe(404);
  });

  it('a download URL serves the bytes with their type, length, ETag and disposition, without a token', async () => {
    const { admin, space } = await spaceWithFiles();
    const [, logo, page] = expectOk(await admin.rest('GET', filesPath(space.id))).items;
    const res = await h.app.fetch(logo.downloadURL);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from(PNG));
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe(String(PNG.byteLength));
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="logo.png"; filename*=UTF-8''logo.png`);
    expect((await h.app.fetch(logo.downloadURL, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const head = await h.app.fetch(logo.downloadURL, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(PNG.byteLength)]);

    // HTML (or anything that is not a plain image) is only ever downloaded, never rendered on our origin.
    const html = await h.app.fetch(page.downloadURL);
    expect(html.headers.get('content-disposition')).toBe(`attachment; filename="_vil page.html"; filename*=UTF-8''%C3%A9vil%20page.html`);
  });

  it('a tampered or expired download URL is a 403; the signature covers hash, name, type and expiry', async () => {
    const { admin, space } = await spaceWithFiles();
    const logo = expectOk(await admin.rest('GET', `${filesPath(space.id)}/f-logo`));
    const url = new URL(logo.downloadURL);
    const tampered = (change: (u: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      return h.app.fetch(copy.toString());
    };
    for (const res of [
      await tampered((u) => u.searchParams.set('type', 'text/html')),
      await tampered((u) => (u.pathname = u.pathname.replace('logo.png', 'logo.html'))),
      await tampered((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
      await tampered((u) => u.searchParams.set('signature', 'x'.repeat(43))),
      await tampered((u) => (u.pathname = `/files/${'0'.repeat(64)}/logo.png`)),
    ]) {
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe(403);
    }
    h.clock.advance(3 * 3600 * 1000);
    const expired = await h.app.fetch(logo.downloadURL);
    expect(expired.status).toBe(403);
    expect((await expired.json()).error.message).toContain('expired');
  });
});

refusalMatrix(
  [
    { name: 'list files', rest: ({ s }) => ['GET', `/v1/spaces/${s}/content/files`], gql: ({ s }) => ['query($s: String!) { spaceFiles(spaceId: $s) { count } }', { s }] },
    { name: 'get file', rest: ({ s }) => ['GET', `/v1/spaces/${s}/content/files/f1`], gql: ({ s }) => ['query($s: String!) { spaceFile(spaceId: $s, fileId: "f1") { id } }', { s }] },
  ],
  {
    h,
    setup: async () => {
      const w = await spaceWithTree();
      await addFiles(h.db, w.space.revision, [{ id: 'f1', name: 'a.txt', contentType: 'text/plain', bytes: new Uint8Array(Buffer.from('a')) }]);
      return w;
    },
    ids: (w) => ({ s: w.space.id }),
    unknown: { s: 'unknownSpace00000001' },
    unchanged: async (w) => {
      expect((await fileRows(h.db, w.space.revision)).length).toBe(1);
    },
  },
);

describe('GET /spaces/{spaceId}/content (the active revision)', () => {
  const REVISION_QUERY = 'query($s: String!) { spaceContent(spaceId: $s) { object id parents type createdAt pages files { id name downloadURL } reusableContents tags urls { app published public } } }';

  it('REST and GraphQL: the revision with its page tree (no bodies) and its files, in one read', async () => {
    const { admin, space } = await spaceWithTree();
    await addFiles(h.db, space.revision, [{ id: 'f1', name: 'notes.txt', contentType: 'text/plain', bytes: new Uint8Array(Buffer.from('notes')) }]);
    const res = await admin.rest('GET', `/v1/spaces/${space.id}/content`);
    // Pages carry no bodies here either: the one requirement of GitBook's schema waived.
    expect(validateGitBookResponse('getCurrentRevision', res.status, res.body, { ignoreMissing: ['MarkdownDocument.markdown'] })).toEqual([]);
    const revision = expectOk(res);
    expect(revision).toMatchObject({ object: 'revision', id: space.revision, parents: [], type: 'edits', reusableContents: [], tags: [] });
    expect(revision.urls.app).toContain(space.revision);
    expect(revision.urls).not.toHaveProperty('published');
    expect(shape(revision.pages)).toEqual([
      ['guides', [['start', [['deep', []]]], ['faq', []]]],
      ['api', []],
    ]);
    expect(revision.files).toEqual([expect.objectContaining({ id: 'f1', name: 'notes.txt', size: 5, downloadURL: expect.stringContaining('/files/') })]);

    const graph = gqlData(await admin.gql(REVISION_QUERY, { s: space.id }), 'spaceContent');
    expect(graph.pages).toEqual(revision.pages);
    expect(graph.files.map((f: { id: string }) => f.id)).toEqual(['f1']);

    // One read whatever the size of the tree (token, access, the revision with its pages and files).
    await new Promise((r) => setTimeout(r, 50));
    const before = h.store.queries.length;
    await admin.rest('GET', `/v1/spaces/${space.id}/content?metadata=false`);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.store.queries.length - before).toBeLessThanOrEqual(3);
  });
});

refusalMatrix(
  [{ name: 'get revision', rest: ({ s }) => ['GET', `/v1/spaces/${s}/content`], gql: ({ s }) => ['query($s: String!) { spaceContent(spaceId: $s) { id } }', { s }] }],
  {
    h,
    setup: spaceWithTree,
    ids: (w) => ({ s: w.space.id }),
    unknown: { s: 'unknownSpace00000001' },
    unchanged: async (w) => {
      expect(await pageCount(h.db, w.space.revision)).toBe(5);
    },
  },
);
