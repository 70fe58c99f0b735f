import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { contentCacheOf } from '../../src/modules/content/index.ts';
import { putDocuments } from '../../src/modules/content/store/document-store.ts';
import { markdownToDocument } from '../../src/modules/content/markdown/markdown-document.ts';
import { addFiles, addPages, buildMember, buildOrganization, buildSpace, type PageSeed } from '../factories.ts';
import { expectOk, gqlData, gqlError } from '../support/assertions.ts';
import { useHarness, type Caller } from '../support/harness.ts';
import { updatePageRow, updatePageRows } from '../support/content-rows.ts';

const h = useHarness();

/**
 * `Space.content` and `ChangeRequest.content`: a revision as a typed graph (GraphQL only), read lazily
 * and in batches. The root fields and their REST routes keep the tree as one JSON value.
 */

const PAGE_FIELDS = 'id title kind type slug path emoji description hidden createdAt updatedAt urls { app }';
/** Three levels of children under the top level: the deepest page of `spaceWithTree` and one level below it. */
const TREE = `pages { ${PAGE_FIELDS} pages { ${PAGE_FIELDS} pages { ${PAGE_FIELDS} pages { ${PAGE_FIELDS} } } } }`;
const SPACE_CONTENT = `query($s: String!) { space(spaceId: $s) { id content { id parents type createdAt ${TREE} } } }`;

/** The tree of content.test.ts: two top-level pages, the first a group with two children, one nested further. */
async function spaceWithTree() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  await addPages(h.db, space.revision, [
    { id: 'guides', title: 'Guides', path: 'guides', type: 'group', position: 'a0' },
    { id: 'start', title: 'Getting started', path: 'guides/getting-started', parentId: 'guides', position: 'a0', markdown: '# Start\n\nRead **this** first.\n' },
    { id: 'deep', title: 'Deep', path: 'guides/getting-started/deep', parentId: 'start', position: 'a0' },
    { id: 'faq', title: 'FAQ', path: 'guides/faq', parentId: 'guides', position: 'a1' },
    { id: 'api', title: 'API', path: 'api', position: 'a1' },
  ]);
  await updatePageRow(h.db, space.revision, 'api', { emoji: '🔌', description: 'Reference' });
  return { admin, o, space };
}

/** The fields both trees share, REST's absent optionals as nulls. */
function comparable(pages: any[]): unknown[] {
  return pages.map((p) => ({
    id: p.id,
    title: p.title,
    kind: p.kind,
    type: p.type,
    slug: p.slug,
    path: p.path,
    emoji: p.emoji ?? null,
    description: p.description ?? null,
    hidden: p.hidden,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    urls: p.urls ?? null,
    pages: comparable(p.pages ?? []),
  }));
}

/** SQL statements sent while `action` runs, after the token's last-used write of an earlier request settled. */
async function statements<T>(action: () => Promise<T>): Promise<{ count: number; result: T }> {
  await new Promise((r) => setTimeout(r, 50));
  const before = h.store.queries.length;
  const result = await action();
  await new Promise((r) => setTimeout(r, 50));
  return { count: h.store.queries.length - before, result };
}

describe('Space.content', () => {
  it('the typed tree is the REST tree: ids, order, nesting, paths and every page field', async () => {
    const { admin, space } = await spaceWithTree();
    const rest = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content`));
    const graph = gqlData(await admin.gql(SPACE_CONTENT, { s: space.id }), 'space');
    expect(comparable(graph.content.pages)).toEqual(comparable(rest.pages));
    expect(graph.content.pages.map((p: any) => p.id)).toEqual(['guides', 'api']);
    expect(graph.content.pages[0].pages[0].pages[0]).toMatchObject({ id: 'deep', path: 'guides/getting-started/deep', pages: [] });
    expect(graph.content.pages[0]).toMatchObject({ type: 'group', kind: 'group', urls: null });
    expect(graph.content.pages[1]).toMatchObject({ emoji: '🔌', description: 'Reference', urls: { app: `http://localhost:4000/s/${space.id}/api` } });
    expect(graph.content).toMatchObject({ id: space.revision, parents: rest.parents, type: rest.type, createdAt: rest.createdAt });

    // One page at any depth, by ID; null for an ID the revision lacks.
    const one = gqlData(
      await admin.gql(`query($s: String!) { space(spaceId: $s) { content { deep: page(id: "deep") { id path layout pages { id } } none: page(id: "nope") { id } } } }`, { s: space.id }),
      'space',
    );
    expect(one.content).toEqual({ deep: { id: 'deep', path: 'guides/getting-started/deep', layout: expect.objectContaining({ cover: true }), pages: [] }, none: null });

    // REST shapes are unchanged: the graph field is not in the space's JSON.
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}`))).not.toHaveProperty('content');
  });

  it('markdown and structured document bodies of document pages; none for groups', async () => {
    const { admin, space } = await spaceWithTree();
    const query = `query($s: String!) { space(spaceId: $s) { content { pages { id markdown document pages { id markdown document } } } } }`;
    const [guides, api] = gqlData(await admin.gql(query, { s: space.id }), 'space').content.pages;
    // The group's row holds a body (written by the factory): a group shows none.
    expect(guides).toMatchObject({ id: 'guides', markdown: null, document: null });
    expect(guides.pages[0]).toMatchObject({ id: 'start', markdown: '# Start\n\nRead **this** first.\n', document: markdownToDocument('# Start\n\nRead **this** first.\n') });
    expect(api).toMatchObject({ markdown: '# API', document: { object: 'document', nodes: [expect.objectContaining({ type: 'heading-1' })] } });

    // The same body as the page route gives.
    const page = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/start`));
    expect(guides.pages[0].document).toEqual(page.document);
  });

  it('files, by name, as the files route answers them', async () => {
    const { admin, space } = await spaceWithTree();
    await addFiles(h.db, space.revision, [
      { id: 'f2', name: 'b.txt', contentType: 'text/plain', bytes: new Uint8Array(Buffer.from('b')) },
      { id: 'f1', name: 'a.png', contentType: 'image/png', bytes: new Uint8Array(Buffer.from('a')), width: 2, height: 3 },
    ]);
    const query = `query($s: String!) { space(spaceId: $s) { content { files { id name contentType size dimensions { width height } downloadURL } } } }`;
    const files = gqlData(await admin.gql(query, { s: space.id }), 'space').content.files;
    const rest = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/files`));
    expect(files.map((f: any) => f.id)).toEqual(['f1', 'f2']);
    expect(files.map(({ dimensions, ...f }: any) => ({ ...f, ...(dimensions ? { dimensions } : {}) }))).toEqual(rest.items);
  });

  it('null for a deleted space its admin still sees; a new space has an empty tree', async () => {
    const { admin, space, o } = await spaceWithTree();
    const empty = await buildSpace(admin, o);
    const query = `query($s: String!) { space(spaceId: $s) { deletedAt content { id pages { id } files { id } } } }`;
    expect(gqlData(await admin.gql(query, { s: empty.id }), 'space').content).toEqual({ id: empty.revision, pages: [], files: [] });
    expect(expectOk(await admin.rest('DELETE', `/v1/spaces/${space.id}`), 204)).toBe(undefined);
    const deleted = gqlData(await admin.gql(query, { s: space.id }), 'space');
    expect(deleted.deletedAt).not.toBeNull();
    expect(deleted.content).toBeNull();
    // As the root field refuses it.
    expect((await admin.rest('GET', `/v1/spaces/${space.id}/content`)).status).toBe(404);
  });

  it('an outsider reaches no content: the root fields refuse before; a guest lists only granted spaces', async () => {
    const { o, space } = await spaceWithTree();
    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    gqlError(await outsider.gql(SPACE_CONTENT, { s: space.id }), 'NOT_FOUND');
    gqlError(await outsider.gql(`query($o: String!) { organizationSpaces(organizationId: $o) { items { content { pages { id } } } } }`, { o }), 'NOT_FOUND');
    const guest = await buildMember(h, o, null);
    gqlError(await guest.gql(SPACE_CONTENT, { s: space.id }), 'NOT_FOUND');
    const listed = gqlData(await guest.gql(`query($o: String!) { organizationSpaces(organizationId: $o) { items { id content { id } } } }`, { o }), 'organizationSpaces');
    expect(listed.items).toEqual([]);
    // Granted the space, the guest lists it with its content.
    await h.db.spaceUserGrant.create({ data: { spaceId: space.id, organizationId: o, userId: guest.userId, role: 'read' } });
    const granted = gqlData(await guest.gql(`query($o: String!) { organizationSpaces(organizationId: $o) { items { id content { pages { id } } } } }`, { o }), 'organizationSpaces');
    expect(granted.items).toEqual([{ id: space.id, content: { pages: [{ id: 'guides' }, { id: 'api' }] } }]);
    const reader = await buildMember(h, o, 'read');
    expect(gqlData(await reader.gql(SPACE_CONTENT, { s: space.id }), 'space').content.pages).toHaveLength(2);
  });

  it('a tree five levels deep is within the list-item limit (levels of one tree add up, they do not multiply)', async () => {
    const { admin, space } = await spaceWithTree();
    let selection = 'id';
    for (let i = 0; i < 5; i++) selection = `id pages { ${selection} }`;
    const res = await admin.gql(`query($s: String!) { space(spaceId: $s) { content { pages { ${selection} } } } }`, { s: space.id });
    expect(gqlData(res, 'space').content.pages).toHaveLength(2);
    // Lists of other kinds still multiply: a page of spaces, each with its tree.
    const many = await admin.gql(`query($o: String!) { organizationSpaces(organizationId: $o, limit: 1000) { items { content { pages { id pages { id } } } } } }`, { o: 'x' });
    gqlError(many, 'BAD_REQUEST', 'list items');
  });
});

/** `n` pages in a tree four levels deep: five top-level pages, each page with up to seven children. */
function treeSeeds(n: number): PageSeed[] {
  return Array.from({ length: n }, (_, i) => {
    const parent = i < 5 ? undefined : Math.floor((i - 5) / 7);
    return { id: `p${i}`, title: `Page ${i}`, path: `page-${i}`, markdown: `# Page ${i}\n\nBody ${i}.`, parentId: parent === undefined ? undefined : `p${parent}`, position: String(i).padStart(4, '0') };
  });
}

const count = (pages: any[]): number => pages.reduce((sum, p) => sum + 1 + count(p.pages ?? []), 0);

describe('statements do not grow with the content', () => {
  it('the whole tree of 10 and of 500 pages, with every body: the same statements', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const small = await buildSpace(admin, o);
    const large = await buildSpace(admin, o);
    await addPages(h.db, small.revision, treeSeeds(10));
    await addPages(h.db, large.revision, treeSeeds(500));
    const level = 'id title markdown document';
    const tree = `pages { ${level} pages { ${level} pages { ${level} pages { ${level} } } } }`;
    const query = `query($s: String!) { space(spaceId: $s) { content { type ${tree} files { id } } } }`;
    const run = (spaceId: string) => statements(() => admin.gql(query, { s: spaceId }));
    await run(small.id); // warm: the token's last use is written once a minute
    // Cold: neither revision's content is in the cache yet.
    contentCacheOf(h.db).forget(small.revision);
    contentCacheOf(h.db).forget(large.revision);
    const s = await run(small.id);
    const l = await run(large.id);
    const pagesOf = (r: typeof s) => gqlData(r.result, 'space').content.pages;
    expect([count(pagesOf(s)), count(pagesOf(l))]).toEqual([10, 500]);
    expect(pagesOf(l)[0].pages[0].pages[0].pages[0]).toMatchObject({ id: 'p285', markdown: '# Page 285\n\nBody 285.' });
    expect(l.count).toBe(s.count);
    // Token, space (with the access check), revision, its pages and files (one statement), documents.
    expect(l.count).toBeLessThanOrEqual(5);
    // Warm: a revision never changes, so its tree is served again without SQL.
    const [s2, l2] = [await run(small.id), await run(large.id)];
    expect(count(pagesOf(l2))).toBe(500);
    expect([s2.count, l2.count]).toEqual([s.count - 1, l.count - 1]);
  });

  it('a list of 1 and of 20 spaces, each with its content: the same statements', async () => {
    const orgWith = async (n: number) => {
      const org = await buildOrganization(h, `Org of ${n}`);
      for (let i = 0; i < n; i++) {
        const space = await buildSpace(org.admin, org.organizationId, { title: `S${i}` });
        await addPages(h.db, space.revision, treeSeeds(3 + i));
        await addFiles(h.db, space.revision, [{ id: `f${i}`, name: `f${i}.txt`, contentType: 'text/plain', bytes: new Uint8Array(Buffer.from(`f${i}`)) }]);
      }
      return org;
    };
    const one = await orgWith(1);
    const twenty = await orgWith(20);
    const query = `query($o: String!) { organizationSpaces(organizationId: $o, limit: 20) { items { id content { id type pages { title markdown pages { title } } files { name } } } } }`;
    const run = (org: typeof one) => statements(() => org.admin.gql(query, { o: org.organizationId }));
    await run(one);
    await run(twenty);
    const a = await run(one);
    const b = await run(twenty);
    const items = (r: typeof a) => gqlData(r.result, 'organizationSpaces').items;
    expect(items(a)).toHaveLength(1);
    expect(items(b)).toHaveLength(20);
    // Space i holds 3 + i pages on two levels and one file.
    expect(items(b).map((s: any) => count(s.content.pages)).sort((x: number, y: number) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => 3 + i));
    expect(items(b).every((s: any) => s.content.files.length === 1 && s.content.pages[0].markdown === '# Page 0\n\nBody 0.')).toBe(true);
    expect(b.count).toBe(a.count);

    // Through the graph too: organizations → spaces → content.
    const graph = `{ organizations(limit: 5) { items { spaces(limit: 20) { items { content { pages { title } } } } } } }`;
    await statements(() => one.admin.gql(graph));
    const ga = await statements(() => one.admin.gql(graph));
    const gb = await statements(() => twenty.admin.gql(graph));
    expect(gqlData(gb.result, 'organizations').items[0].spaces.items).toHaveLength(20);
    expect(gb.count).toBe(ga.count);
  });
});

describe('ChangeRequest.content', () => {
  const CR_CONTENT = `query($s: String!, $c: String!) { spaceChangeRequest(spaceId: $s, changeRequestId: $c) { number content { id parents ${TREE} } } }`;

  async function withChangeRequest(caller: Caller, spaceId: string) {
    return expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' }), 201);
  }

  it("is the space's revision until edited, then its own; the root route agrees", async () => {
    const { admin, space } = await spaceWithTree();
    const cr = await withChangeRequest(admin, space.id);
    const before = gqlData(await admin.gql(CR_CONTENT, { s: space.id, c: cr.id }), 'spaceChangeRequest');
    const ofSpace = gqlData(await admin.gql(SPACE_CONTENT, { s: space.id }), 'space');
    expect(before.content.id).toBe(space.revision);
    expect(before.content.pages).toEqual(ofSpace.content.pages);

    // An edit, as a change request's writer will make it: a new revision of the space with its own pages.
    const revisionId = newId();
    await h.db.revision.create({ data: { id: revisionId, spaceId: space.id, parents: [space.revision], type: 'edits' } });
    await addPages(h.db, revisionId, [
      { id: 'api', title: 'API v2', path: 'api', position: 'a0', markdown: '# API v2' },
      { id: 'new', title: 'New', path: 'api/new', parentId: 'api', position: 'a0' },
    ]);
    await h.db.changeRequest.update({ where: { id: cr.id }, data: { revisionId } });

    const after = gqlData(await admin.gql(CR_CONTENT, { s: space.id, c: String(cr.number) }), 'spaceChangeRequest');
    expect(after.content).toMatchObject({ id: revisionId, parents: [space.revision] });
    const rest = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`));
    expect(comparable(after.content.pages)).toEqual(comparable(rest.pages));
    expect(after.content.pages.map((p: any) => [p.id, p.title, p.pages.map((c: any) => c.path)])).toEqual([['api', 'API v2', ['api/new']]]);
    // The space's content has not moved.
    expect(gqlData(await admin.gql(SPACE_CONTENT, { s: space.id }), 'space').content.pages).toEqual(ofSpace.content.pages);

    // Bodies of the change request's pages.
    const bodies = gqlData(
      await admin.gql(`query($s: String!, $c: String!) { spaceChangeRequest(spaceId: $s, changeRequestId: $c) { content { page(id: "api") { markdown } } } }`, { s: space.id, c: cr.id }),
      'spaceChangeRequest',
    );
    expect(bodies.content.page.markdown).toBe('# API v2');

    // In lists, batched, and absent from the REST shape.
    const listed = gqlData(
      await admin.gql(`query($s: String!) { spaceChangeRequests(spaceId: $s, status: draft) { items { number content { id pages { id } } } } }`, { s: space.id }),
      'spaceChangeRequests',
    );
    expect(listed.items).toEqual([{ number: cr.number, content: { id: revisionId, pages: [{ id: 'api' }] } }]);
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`))).not.toHaveProperty('content');
  });

  it('follows edits made through the API, and the space follows the merge', async () => {
    const { admin, space } = await spaceWithTree();
    const cr = await withChangeRequest(admin, space.id);
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    const body = { changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: '# Intro\n\nHello.' } }] };
    const edited = expectOk(await admin.rest('POST', `${path}/content`, body));
    const query = `query($s: String!, $c: String!) { spaceChangeRequest(spaceId: $s, changeRequestId: $c) { content { id parents pages { title markdown } } } }`;
    const content = gqlData(await admin.gql(query, { s: space.id, c: cr.id }), 'spaceChangeRequest').content;
    expect(content).toMatchObject({ id: edited.revision, parents: [space.revision] });
    expect(content.pages.map((p: any) => p.title)).toEqual(['Guides', 'API', 'Intro']);
    expect(content.pages[2].markdown).toBe('Hello.');
    const spaceTitles = async () => gqlData(await admin.gql(SPACE_CONTENT, { s: space.id }), 'space').content.pages.map((p: any) => p.title);
    expect(await spaceTitles()).toEqual(['Guides', 'API']);
    expectOk(await admin.rest('POST', `${path}/merge`, {}));
    expect(await spaceTitles()).toEqual(['Guides', 'API', 'Intro']);
  });

  it('an outsider or a guest without a grant cannot reach it: the root field refuses', async () => {
    const { admin, o, space } = await spaceWithTree();
    const cr = await withChangeRequest(admin, space.id);
    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    gqlError(await outsider.gql(CR_CONTENT, { s: space.id, c: cr.id }), 'NOT_FOUND');
    const guest = await buildMember(h, o, null);
    gqlError(await guest.gql(CR_CONTENT, { s: space.id, c: cr.id }), 'NOT_FOUND');
    const reader = await buildMember(h, o, 'read');
    expect(gqlData(await reader.gql(CR_CONTENT, { s: space.id, c: cr.id }), 'spaceChangeRequest').content.pages).toHaveLength(2);
  });

  it('bodies shared by many pages are read once', async () => {
    const { admin, space } = await spaceWithTree();
    const [hash] = await putDocuments(h.db, ['# Same']);
    await updatePageRows(h.db, space.revision, { documentHash: hash });
    const cr = await withChangeRequest(admin, space.id);
    const res = await admin.gql(`query($s: String!, $c: String!) { spaceChangeRequest(spaceId: $s, changeRequestId: $c) { content { pages { markdown pages { markdown } } } } }`, {
      s: space.id,
      c: cr.id,
    });
    const pages = gqlData(res, 'spaceChangeRequest').content.pages;
    expect(pages.map((p: any) => p.markdown)).toEqual([null, '# Same']);
    expect(pages[0].pages.map((p: any) => p.markdown)).toEqual(['# Same', '# Same']);
  });
});
