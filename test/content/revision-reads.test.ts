// Content addressed by revision (GitBook's `…/revisions/{revisionId}/…`): any revision of a space the
// caller may read, through both doors and the official client; answers that never change carry an ETag.
import { describe, expect, it } from 'vitest';
import { addFiles, buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { useClientServer } from '../support/client-server.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

/** A page without a body in a tree: GitBook's schema asks for `markdown` or `document` on every one (as for the current revision's routes). */
const LOOSE = { ignoreMissing: ['MarkdownDocument.markdown'] };

/** A space whose first revision has "intro" (v1) and whose active revision, after a merge, has it at v2. */
async function spaceWithHistory() {
  const { admin, organizationId } = await buildOrganization(h, 'History');
  const space = await buildSpace(admin, organizationId);
  const write = async (markdown: string) => {
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: markdown }), 201);
    const changes = markdown.endsWith('1')
      ? [{ operation: 'insert_page', ref: 'intro', title: 'Introduction', document: { markdown } }]
      : [{ operation: 'update_page', page: (await pageId()) as string, document: { markdown } }];
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes }));
    return expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).revision as string;
  };
  const pageId = async () => expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)).pages[0].id as string;
  const first = await write('Version 1');
  await addFiles(h.db, first, [{ id: 'logo', name: 'logo.txt', contentType: 'text/plain', bytes: new Uint8Array(Buffer.from('logo')) }]);
  const second = await write('Version 2');
  return { admin, organizationId, space, first, second, page: await pageId() };
}

describe('content by revision', () => {
  it('each revision answers as it was: tree, page, document, files; REST and GraphQL agree; GitBook shapes', async () => {
    const { admin, space, first, second, page } = await spaceWithHistory();
    const base = `/v1/spaces/${space.id}/revisions`;
    const old = expectOk(await admin.rest('GET', `${base}/${first}/page/${page}?format=markdown`));
    const now = expectOk(await admin.rest('GET', `${base}/${second}/page/${page}?format=markdown`));
    expect([old.markdown, now.markdown]).toEqual(['Version 1', 'Version 2']);

    const revision = await admin.rest('GET', `${base}/${first}`);
    expect(revision.body).toMatchObject({ object: 'revision', id: first, type: 'merge' });
    expect(validateGitBookResponse('getRevisionById', revision.status, revision.body, LOOSE)).toEqual([]);
    const pages = await admin.rest('GET', `${base}/${first}/pages`);
    expect(pages.body.pages.map((p: any) => p.title)).toEqual(['Introduction']);
    expect(validateGitBookResponse('listPagesInRevisionById', pages.status, pages.body, LOOSE)).toEqual([]);
    const document = await admin.rest('GET', `${base}/${second}/page/${page}/document`);
    expect(document.body).toMatchObject({ object: 'document', nodes: [expect.objectContaining({ type: 'paragraph' })] });
    expect(validateGitBookResponse('getPageDocumentInRevisionById', document.status, document.body)).toEqual([]);
    const asDocument = await admin.rest('GET', `${base}/${second}/page/${page}`);
    expect(validateGitBookResponse('getPageInRevisionById', asDocument.status, asDocument.body, LOOSE)).toEqual([]);
    const files = await admin.rest('GET', `${base}/${first}/files`);
    expect(files.body.items.map((f: any) => f.id)).toEqual(['logo']);
    expect(validateGitBookResponse('listFilesInRevisionById', files.status, files.body)).toEqual([]);
    const file = await admin.rest('GET', `${base}/${first}/files/logo`);
    expect(validateGitBookResponse('getFileInRevisionById', file.status, file.body)).toEqual([]);
    // Later revisions keep the file; a file no revision has is a 404.
    expectOk(await admin.rest('GET', `${base}/${second}/files/logo`));
    restError(await admin.rest('GET', `${base}/${second}/files/nope`), 404);

    const answer = await admin.gql(
        `query($s: String!, $r: String!, $p: String!) {
          revision(spaceId: $s, revisionId: $r) { id type pages }
          revisionPage(spaceId: $s, revisionId: $r, pageId: $p, format: markdown)
          revisionPageDocument(spaceId: $s, revisionId: $r, pageId: $p)
          revisionFiles(spaceId: $s, revisionId: $r) { items { id name } }
        }`,
        { s: space.id, r: first, p: page },
    );
    gqlData(answer, 'revision');
    const graph = answer.body.data;
    expect(graph.revision).toMatchObject({ id: first, type: 'merge' });
    expect(graph.revisionPage.markdown).toBe('Version 1');
    expect(graph.revisionPageDocument.nodes[0].type).toBe('paragraph');
    expect(graph.revisionFiles.items).toEqual([{ id: 'logo', name: 'logo.txt' }]);
  });

  it('a revision of another space, an unknown revision, a group page without a document: 404; outsiders learn nothing', async () => {
    const { admin, organizationId, space, first, page } = await spaceWithHistory();
    const other = await buildSpace(admin, organizationId, { title: 'Other' });
    for (const path of [`/v1/spaces/${other.id}/revisions/${first}`, `/v1/spaces/${other.id}/revisions/${first}/page/${page}`, `/v1/spaces/${space.id}/revisions/nope/pages`]) {
      restError(await admin.rest('GET', path), 404);
    }
    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    const known = await outsider.rest('GET', `/v1/spaces/${space.id}/revisions/${first}`);
    const unknown = await outsider.rest('GET', `/v1/spaces/no-such-space/revisions/${first}`);
    expect([known.status, unknown.status]).toEqual([404, 404]);
    expect(known.body.error.message.replace(space.id, 'X')).toBe(unknown.body.error.message.replace('no-such-space', 'X'));
    const reader = await buildMember(h, organizationId, 'read');
    expectOk(await reader.rest('GET', `/v1/spaces/${space.id}/revisions/${first}/page/${page}`));
  });

  it('answers carry a strong ETag and a private Cache-Control; If-None-Match with it is a 304 without a body', async () => {
    const { admin, space, first, second, page } = await spaceWithHistory();
    const url = (revision: string) => `http://localhost/v1/spaces/${space.id}/revisions/${revision}/page/${page}`;
    const get = (revision: string, headers: Record<string, string> = {}) => h.app.fetch(url(revision), { headers: { authorization: `Bearer ${admin.token}`, ...headers } });
    const res = await get(first);
    const tag = res.headers.get('etag')!;
    expect(tag).toMatch(/^"[\w-]{32}"$/);
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    expect((await get(first)).headers.get('etag')).toBe(tag);
    for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
      const again = await get(first, { 'if-none-match': ifNoneMatch });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(tag);
    }
    const newer = await get(second, { 'if-none-match': tag });
    expect(newer.status).toBe(200);
    expect(newer.headers.get('etag')).not.toBe(tag);
    // The space's current content is not addressed by revision: never kept.
    const current = await h.app.fetch(`http://localhost/v1/spaces/${space.id}/content/page/${page}`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect([current.headers.get('etag'), current.headers.get('cache-control')]).toEqual([null, 'no-store']);
    // Refusals are never kept either.
    const missing = await h.app.fetch(`http://localhost/v1/spaces/${space.id}/revisions/nope/pages`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect([missing.status, missing.headers.get('etag'), missing.headers.get('cache-control')]).toEqual([404, null, 'no-store']);
  });
});

describe('pages by path', () => {
  it('the path takes the rest of the URL, slashes included; link pages and unknown paths are 404', async () => {
    const { admin, organizationId } = await buildOrganization(h, 'Paths');
    const space = await buildSpace(admin, organizationId);
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Tree' }), 201);
    expectOk(
      await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        changes: [
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: '# Guide' } },
          { operation: 'insert_page', ref: 'install', title: 'Install it', into: 'guide', document: { markdown: '# Install' } },
        ],
      }),
    );
    const revision = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).revision;
    const nested = await admin.rest('GET', `/v1/spaces/${space.id}/content/path/guide/install-it?format=markdown`);
    expect(nested.body).toMatchObject({ title: 'Install it', path: 'guide/install-it', markdown: '# Install' });
    expect(validateGitBookResponse('getPageByPath', nested.status, nested.body, LOOSE)).toEqual([]);
    const top = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/revisions/${revision}/path/guide`));
    expect(top).toMatchObject({ title: 'Guide', pages: [expect.objectContaining({ title: 'Install it' })] });
    // Encoded slashes are the same path; a trailing slash too.
    expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/revisions/${revision}/path/guide%2Finstall-it/`));
    for (const path of ['nope', 'guide/nope', 'guide/install-it/deeper']) restError(await admin.rest('GET', `/v1/spaces/${space.id}/content/path/${path}`), 404);
    const graph = await admin.gql('query($s: String!, $p: String!) { spacePageByPath(spaceId: $s, pagePath: $p, format: markdown) }', { s: space.id, p: 'guide/install-it' });
    expect(gqlData(graph, 'spacePageByPath').markdown).toBe('# Install');
  });
});

describe('what a revision changed, and documents by ID', () => {
  it('pages created, edited, moved and deleted, files created, from the first parent; a first revision creates everything', async () => {
    const { admin, organizationId } = await buildOrganization(h, 'Changes');
    const space = await buildSpace(admin, organizationId);
    const merge = async (changes: object[]) => {
      const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' }), 201);
      const update = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes }));
      const merged = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
      return { revision: merged.revision as string, update };
    };
    const first = await merge([
      { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: 'Alpha body' } },
      { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: 'Beta body' } },
      { operation: 'insert_page', ref: 'c', title: 'Gamma', document: { markdown: 'Gamma body' } },
    ]);
    const [alpha, beta, gamma] = first.update.changes.map((c: any) => c.page.id);
    const changesOf = async (revision: string, query = '') => {
      const res = await admin.rest('GET', `/v1/spaces/${space.id}/revisions/${revision}/changes${query}`);
      expect(validateGitBookResponse('getRevisionSemanticChanges', res.status, res.body)).toEqual([]);
      return res.body.changes as any[];
    };
    expect((await changesOf(first.revision)).map((c) => [c.type, c.page.title])).toEqual([
      ['page_created', 'Alpha'],
      ['page_created', 'Beta'],
      ['page_created', 'Gamma'],
    ]);
    expect(await changesOf(first.revision, '?limit=2')).toHaveLength(2);
    const second = await merge([
      { operation: 'update_page', page: alpha, title: 'Alpha 2', document: { markdown: 'Alpha, again' } },
      { operation: 'update_page', page: gamma, into: alpha },
      { operation: 'delete_page', page: beta },
    ]);
    const changes = await changesOf(second.revision, '?limit=100');
    const byType = (type: string) => changes.filter((c) => c.type === type);
    expect(byType('page_edited').find((c) => c.page.id === alpha).attributes).toMatchObject({ title: { before: 'Alpha', after: 'Alpha 2' }, document: { before: expect.any(String), after: expect.any(String) } });
    expect(byType('page_deleted').map((c) => c.page.id)).toEqual([beta]);
    expect(byType('page_moved').find((c) => c.page.id === gamma)).toMatchObject({ parent: { after: { id: alpha, title: 'Alpha 2' } } });
    expect(byType('page_created')).toEqual([]);
    // The document of the current Alpha, by the ID the change names.
    const documentId = byType('page_edited').find((c) => c.page.id === alpha).attributes.document.after;
    const document = await admin.rest('GET', `/v1/spaces/${space.id}/documents/${documentId}`);
    expect(document.body).toMatchObject({ object: 'document', nodes: [expect.objectContaining({ type: 'paragraph' })] });
    expect(validateGitBookResponse('getDocumentById', document.status, document.body)).toEqual([]);
    // A document the space does not hold now (Alpha's first body) or at all: 404.
    const before = byType('page_edited').find((c) => c.page.id === alpha).attributes.document.before;
    restError(await admin.rest('GET', `/v1/spaces/${space.id}/documents/${before}`), 404);
    const other = await buildSpace(admin, organizationId, { title: 'Other' });
    restError(await admin.rest('GET', `/v1/spaces/${other.id}/documents/${documentId}`), 404);
  });
});

const s = useClientServer();

describe("a page's documentId (GitBook's RevisionPageDocument.documentId, issue 39 §4)", () => {
  it('names the body getDocumentById answers, in the tree and on the page, through both doors; a new body a new ID', async () => {
    const { admin, space, first, second, page } = await spaceWithHistory();
    const tree = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`));
    const documentId = tree.pages[0].documentId as string;
    expect(documentId).toEqual(expect.any(String));
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/${page}`)).documentId).toBe(documentId);
    const body = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/documents/${documentId}`));
    expect(JSON.stringify(body)).toContain('Version 2');
    const graph = gqlData(
      await admin.gql('query($s: String!, $r: String!, $p: String!) { revisionPage(spaceId: $s, revisionId: $r, pageId: $p) }', { s: space.id, r: first, p: page }),
      'revisionPage',
    );
    expect(graph.documentId).toEqual(expect.any(String));
    expect(graph.documentId).not.toBe(documentId);
    expect(second).not.toBe(first);
  });
});

describe('official GitBookAPI client: content by revision', () => {
  it('reads a revision, its pages, a page, its document and its files', async () => {
    const { api } = await s.newUser('Reader');
    const org = (await api.orgs.createOrganization({ title: 'Readers' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Book' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Pages' })).data;
    const update = (await api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', ref: 'a', title: 'A', document: { markdown: 'A' } }] } as any, { compat: false }))
      .data as any;
    const merged = (await api.spaces.mergeChangeRequest(space.id, cr.id)).data;
    const pageId = update.changes[0].page.id;
    expect((await api.spaces.getRevisionById(space.id, merged.revision)).data).toMatchObject({ id: merged.revision });
    expect((await api.spaces.listPagesInRevisionById(space.id, merged.revision)).data.pages.map((p: any) => p.id)).toEqual([pageId]);
    expect(((await api.spaces.getPageInRevisionById(space.id, merged.revision, pageId, { format: 'markdown' } as any)).data as any).markdown).toBe('A');
    expect((await api.spaces.getPageDocumentInRevisionById(space.id, merged.revision, pageId)).data).toMatchObject({ object: 'document' });
    expect((await api.spaces.listFilesInRevisionById(space.id, merged.revision)).data.items).toEqual([]);
  });
});
