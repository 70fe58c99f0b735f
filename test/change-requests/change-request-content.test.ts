import { describe, expect, it } from 'vitest';
import { addPages, buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness } from '../support/harness.ts';
import { pageCount } from '../support/content-rows.ts';

const h = useHarness();

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const crsPath = (s: string) => `/v1/spaces/${s}/change-requests`;

async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  const cr = expectOk(await admin.rest('POST', crsPath(space.id), { subject: 'Write' }), 201);
  const path = `${crsPath(space.id)}/${cr.id}`;
  return { admin, o, space, cr, path };
}

async function pagesOfCr(admin: Awaited<ReturnType<typeof setup>>['admin'], path: string) {
  return expectOk(await admin.rest('GET', `${path}/content/pages`)).pages as any[];
}

async function markdownOf(admin: Awaited<ReturnType<typeof setup>>['admin'], path: string, pageId: string): Promise<string> {
  return expectOk(await admin.rest('GET', `${path}/content/page/${pageId}?format=markdown`)).markdown;
}

describe('updateChangeRequestContent: a batch of changes as one new revision', () => {
  it('REST: answers the change request (compat default), GitBook shape; the space is untouched until merged', async () => {
    const { admin, space, cr, path } = await setup();
    const body = { changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: '# Intro\n\nHello.' } }] };
    const updated = expectOk(await admin.rest('POST', `${path}/content`, body), 200, 'updateChangeRequestContent');
    expect(updated).toMatchObject({ object: 'change-request', id: cr.id, revisionInitial: space.revision });
    expect(updated.revision).not.toBe(cr.revision);
    const revision = await h.db.revision.findUniqueOrThrow({ where: { id: updated.revision } });
    expect(revision).toMatchObject({ parents: [cr.revision], type: 'edits', createdById: admin.userId });

    const pages = await pagesOfCr(admin, path);
    expect(pages.map((p) => [p.title, p.slug, p.path])).toEqual([['Intro', 'intro', 'intro']]);
    // The leading heading is the page's title: not kept in the body (leading-title.test.ts).
    expect(await markdownOf(admin, path, pages[0].id)).toBe('Hello.');
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)).pages).toEqual([]);
  });

  it('compat=false answers ChangeRequestContentUpdate: created, updated, deleted pages with refs and locations; inserted files', async () => {
    const { admin, path } = await setup();
    const first = expectOk(
      await admin.rest('POST', `${path}/content?compat=false`, {
        changes: [
          { operation: 'insert_page', ref: 'a', title: 'A', document: { markdown: 'a' } },
          { operation: 'insert_page', ref: 'b', title: 'B', document: { markdown: 'b' } },
          { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG }] },
        ],
      }),
      200,
      'updateChangeRequestContent',
    );
    expect(first.changeRequest.object).toBe('change-request');
    expect(first.changes.map((c: any) => [c.object, c.ref])).toEqual([
      ['created_page', 'a'],
      ['created_page', 'b'],
    ]);
    const [a, b] = first.changes.map((c: any) => c.page.id);
    expect(first.changes[0].page.urls.location).toBe(`${h.config.apiUrl}${path.slice(3)}/content/page/${a}`);
    expect(first.insertedFiles).toHaveLength(1);
    expect(first.insertedFiles[0]).toMatchObject({ name: 'dot.png', contentType: 'image/png', size: 70, dimensions: { width: 1, height: 1 } });
    const served = await h.app.fetch(new Request(first.insertedFiles[0].downloadURL));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).toString('base64')).toBe(PNG);

    const second = expectOk(
      await admin.rest('POST', `${path}/content?compat=false`, {
        changes: [
          { operation: 'update_page', page: a, title: 'A2' },
          { operation: 'delete_page', page: b },
          { operation: 'insert_page', ref: 'gone', title: 'Gone', document: { markdown: 'x' } },
        ],
      }),
      200,
      'updateChangeRequestContent',
    );
    // A page inserted and deleted in one batch would be listed; here "gone" stays.
    expect(second.changes.map((c: any) => c.object)).toEqual(['updated_page', 'deleted_page', 'created_page']);
    expect(second.changes[1]).toEqual({ object: 'deleted_page', page: b });
  });

  it('links resolve at apply time: refs of pages and files in the batch, page IDs, slug paths, relative .md paths; unknown ones stay', async () => {
    const { admin, path } = await setup();
    const res = expectOk(
      await admin.rest('POST', `${path}/content?compat=false`, {
        changes: [
          // Refers to pages and a file inserted after it: refs resolve whatever the order.
          { operation: 'insert_page', ref: 'home', title: 'Home', document: { markdown: 'See [guide](./guide.md), ![logo](./logo) and [nowhere](./missing.md).' } },
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: '# Guide' } },
          { operation: 'insert_files', files: [{ name: 'logo.png', ref: 'logo', contentType: 'image/png', base64: PNG }] },
        ],
      }),
    );
    const [home, guide] = res.changes.map((c: any) => c.page.id);
    const fileId = res.insertedFiles[0].id;
    expect(await markdownOf(admin, path, home)).toBe(`See [guide](/pages/${guide}), ![logo](/files/${fileId}) and [nowhere](./missing.md).`);

    const nested = expectOk(
      await admin.rest('POST', `${path}/content?compat=false`, {
        changes: [
          { operation: 'insert_page', title: 'Getting started', into: guide, document: { markdown: 'Back to [the guide](../guide.md#top) or [home](/pages/home.md).' } },
          { operation: 'insert_page', title: 'Links', document: { markdown: `[by id](/pages/${home}) [by path](/pages/guide/getting-started) [ext](https://example.com/x.md)` } },
        ],
      }),
    );
    const [started, links] = nested.changes.map((c: any) => c.page.id);
    expect(await markdownOf(admin, path, started)).toBe(`Back to [the guide](/pages/${guide}#top) or [home](/pages/${home}).`);
    expect(await markdownOf(admin, path, links)).toBe(`[by id](/pages/${home}) [by path](/pages/${started}) [ext](https://example.com/x.md)`);
    // The structured document carries the references too.
    const doc = expectOk(await admin.rest('GET', `${path}/content/page/${started}`)).document;
    expect(JSON.stringify(doc)).toContain(guide);
  });

  it('update_page moves (into, at), renames, re-slugs; delete_page takes sub-pages; revert_page restores the base', async () => {
    const { admin, path } = await setup();
    const made = expectOk(
      await admin.rest('POST', `${path}/content?compat=false`, {
        changes: ['One', 'Two', 'Three'].map((title) => ({ operation: 'insert_page', title, document: { markdown: `${title} body` } })),
      }),
    );
    const [one, two, three] = made.changes.map((c: any) => c.page.id);
    expectOk(
      await admin.rest('POST', `${path}/content`, {
        changes: [
          { operation: 'update_page', page: three, into: one, title: 'Third', slug: 'third' },
          { operation: 'update_page', page: two, at: 0, document: { markdown: 'Two, edited' } },
        ],
      }),
    );
    let pages = await pagesOfCr(admin, path);
    expect(pages.map((p) => p.title)).toEqual(['Two', 'One']);
    expect(pages[1].pages.map((p: any) => [p.title, p.path])).toEqual([['Third', 'one/third']]);
    expect(await markdownOf(admin, path, two)).toBe('Two, edited');

    restError(await admin.rest('POST', `${path}/content`, { changes: [{ operation: 'update_page', page: one, into: three }] }), 400, 'changes[0].into');
    restError(await admin.rest('POST', `${path}/content`, { changes: [{ operation: 'update_page', page: two, slug: 'one' }] }), 400, 'changes[0].slug');

    // Make a base to revert to: the change request's revision becomes the space's by merging is later;
    // here revert to the revision where "two" had its first body.
    expectOk(await admin.rest('POST', `${path}/content`, { changes: [{ operation: 'revert_page', page: two, revision: made.changeRequest.revision }] }));
    expect(await markdownOf(admin, path, two)).toBe('Two body');
    expectOk(await admin.rest('POST', `${path}/content`, { changes: [{ operation: 'delete_page', page: one }] }));
    pages = await pagesOfCr(admin, path);
    expect(pages.map((p) => p.title)).toEqual(['Two']);
    // Reverting a page the base does not have removes it.
    expectOk(await admin.rest('POST', `${path}/content`, { changes: [{ operation: 'revert_page', page: two }] }));
    expect(await pagesOfCr(admin, path)).toEqual([]);
  });

  it('into takes the ref of a page inserted earlier in the batch', async () => {
    const { admin, path } = await setup();
    expectOk(
      await admin.rest('POST', `${path}/content`, {
        changes: [
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: '' } },
          { operation: 'insert_page', title: 'Install', into: 'guide', document: { markdown: 'x' } },
          { operation: 'insert_page', title: 'Upgrade', into: 'guide', at: 0, document: { markdown: 'y' } },
        ],
      }),
    );
    const pages = await pagesOfCr(admin, path);
    expect(pages.map((p) => [p.title, p.pages.map((c: any) => c.path)])).toEqual([['Guide', ['guide/upgrade', 'guide/install']]]);
    restError(
      await admin.rest('POST', `${path}/content`, { changes: [{ operation: 'insert_page', title: 'Later', into: 'later-ref', document: { markdown: '' } }, { operation: 'insert_page', ref: 'later-ref', document: { markdown: '' } }] }),
      400,
      'changes[0].into',
    );
  });

  it('insert_files: the content type must match the bytes of an image; other types are taken as declared', async () => {
    const { admin, path } = await setup();
    const insert = (file: object) => admin.rest('POST', `${path}/content`, { changes: [{ operation: 'insert_files', files: [file] }] });
    restError(await insert({ name: 'x.jpg', contentType: 'image/jpeg', base64: PNG }), 400, 'changes[0].files[0].contentType');
    restError(await insert({ name: 'x.png', contentType: 'image/png', base64: Buffer.from('not an image').toString('base64') }), 400, 'changes[0].files[0].contentType');
    restError(await insert({ name: 'x.png', contentType: 'image/png', base64: '@@@' }), 400, 'changes[0].files[0].base64');
    restError(await insert({ name: '', contentType: 'text/plain', base64: '' }), 400, 'changes[0].files[0].name');
    const res = expectOk(await admin.rest('POST', `${path}/content?compat=false`, { changes: [{ operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: Buffer.from('hello').toString('base64') }] }] }));
    expect(res.insertedFiles[0]).toMatchObject({ name: 'a.txt', contentType: 'text/plain', size: 5 });
    expect(res.insertedFiles[0].dimensions).toBeUndefined();
    const files = expectOk(await admin.rest('GET', `${path}/content/files`), 200, 'listFilesInChangeRequestById');
    expect(files.items.map((f: any) => f.name)).toEqual(['a.txt']);
  });

  it('400 names the field; a batch that fails anywhere writes nothing', async () => {
    const { admin, cr, path } = await setup();
    const post = (changes: unknown) => admin.rest('POST', `${path}/content`, { changes });
    restError(await post([]), 400, 'changes');
    restError(await post(Array.from({ length: 51 }, () => ({ operation: 'delete_page', page: 'x' }))), 400, 'changes');
    restError(await post([{ operation: 'rename_page' }]), 400, 'changes[0].operation');
    restError(await post([{ operation: 'insert_page', title: 'No body' }]), 400, 'changes[0].document');
    restError(await post([{ operation: 'insert_page', title: '', document: { markdown: '' } }]), 400, 'changes[0].title');
    restError(await post([{ operation: 'insert_page', slug: 'Not A Slug', document: { markdown: '' } }]), 400, 'changes[0].slug');
    restError(await post([{ operation: 'insert_page', at: -1, document: { markdown: '' } }]), 400, 'changes[0].at');
    restError(await post([{ operation: 'insert_page', into: 'nope', document: { markdown: '' } }]), 400, 'changes[0].into');
    restError(await post('nope'), 400, 'changes');
    restError(await admin.rest('POST', `${path}/content`, {}), 400, 'changes');
    const revisions = await h.db.revision.count();
    const documents = await h.db.document.count();
    restError(
      await post([
        { operation: 'insert_page', title: 'Fine', document: { markdown: 'a brand new body' } },
        { operation: 'update_page', page: 'unknownPage' },
      ]),
      400,
      'changes[1].page',
    );
    expect([await h.db.revision.count(), await h.db.document.count()]).toEqual([revisions, documents]);
    expect((await h.db.changeRequest.findUniqueOrThrow({ where: { id: cr.id } })).revisionId).toBe(cr.revision);
  });

  it('a merged or archived change request takes no content (409)', async () => {
    const { admin, space } = await setup();
    const other = expectOk(await admin.rest('POST', crsPath(space.id), {}), 201);
    expectOk(await admin.rest('PATCH', `${crsPath(space.id)}/${other.id}`, { status: 'archived' }));
    restError(
      await admin.rest('POST', `${crsPath(space.id)}/${other.id}/content`, { changes: [{ operation: 'insert_page', document: { markdown: '' } }] }),
      409,
    );
  });

  it('one page changed in a 500-page tree writes one document and one revision', async () => {
    const { admin, space, cr, path } = await setup();
    // The change request starts from a space revision of 500 pages.
    await addPages(
      h.db,
      cr.revision,
      Array.from({ length: 500 }, (_, i) => ({ id: `p${String(i).padStart(3, '0')}`, title: `Page ${i}`, path: `page-${i}`, markdown: `Body ${i}` })),
    );
    const [revisions, documents, blobs] = [await h.db.revision.count(), await h.db.document.count(), await h.db.fileBlob.count()];
    expectOk(await admin.rest('POST', `${path}/content`, { changes: [{ operation: 'update_page', page: 'p007', document: { markdown: 'Body 7, edited' } }] }));
    expect([await h.db.revision.count(), await h.db.document.count(), await h.db.fileBlob.count()]).toEqual([revisions + 1, documents + 1, blobs]);
    const updated = expectOk(await admin.rest('GET', `${path}`));
    expect(await pageCount(h.db, updated.revision)).toBe(500);
    expect(await markdownOf(admin, path, 'p007')).toBe('Body 7, edited');
    expect(await markdownOf(admin, path, 'p008')).toBe('Body 8');
    void space;
  });

  it('two batches racing from the same revision: both land in order or one is refused (409), nothing is lost', async () => {
    const { admin, path } = await setup();
    const results = await Promise.all(
      ['Left', 'Right'].map((title) => admin.rest('POST', `${path}/content`, { changes: [{ operation: 'insert_page', title, document: { markdown: title } }] })),
    );
    expect(results.map((r) => r.status).sort()).toContain(200);
    for (const r of results) expect([200, 409]).toContain(r.status);
    const titles = (await pagesOfCr(admin, path)).map((p) => p.title).sort();
    const landed = results.filter((r) => r.status === 200).length;
    expect(titles).toHaveLength(landed);
  });

  it('GraphQL: the same mutation answers the ChangeRequestContentUpdate', async () => {
    const { admin, space, cr } = await setup();
    const res = await admin.gql(
      `mutation($s: String!, $c: String!, $changes: JSON!) {
        updateChangeRequestContent(spaceId: $s, changeRequestId: $c, changes: $changes) {
          changeRequest { id revision createdBy { id } } changes insertedFiles { name dimensions { width height } }
        }
      }`,
      { s: space.id, c: String(cr.number), changes: [{ operation: 'insert_page', ref: 'x', title: 'X', document: { markdown: 'x' } }, { operation: 'insert_files', files: [{ name: 'p.png', contentType: 'image/png', base64: PNG }] }] },
    );
    const data = gqlData(res, 'updateChangeRequestContent');
    expect(data.changeRequest).toMatchObject({ id: cr.id, createdBy: { id: admin.userId } });
    expect(data.changes).toMatchObject([{ object: 'created_page', ref: 'x' }]);
    expect(data.insertedFiles).toEqual([{ name: 'p.png', dimensions: { width: 1, height: 1 } }]);
    const bad = await admin.gql(`mutation($s: String!, $c: String!) { updateChangeRequestContent(spaceId: $s, changeRequestId: $c, changes: []) { changes } }`, { s: space.id, c: cr.id });
    expect(bad.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });
});

const OPS: RefusalOp<{ s: string; c: string }>[] = [
  {
    name: 'updateChangeRequestContent',
    rest: ({ s, c }) => ['POST', `${crsPath(s)}/${c}/content`, { changes: [{ operation: 'insert_page', title: 'T', document: { markdown: 'x' } }] }],
    gql: ({ s, c }) => [
      'mutation($s: String!, $c: String!, $ch: JSON!) { updateChangeRequestContent(spaceId: $s, changeRequestId: $c, changes: $ch) { changes } }',
      { s, c, ch: [{ operation: 'insert_page', title: 'T', document: { markdown: 'x' } }] },
    ],
    refuse: 'below edit',
  },
  ...[
    ['content', '', 'changeRequestContent', 'id'],
    ['content pages', '/pages', 'changeRequestContentPages', 'pages'],
    ['content files', '/files', 'changeRequestFiles', 'count'],
  ].map(([name, route, field, selection]) => ({
    name: `read change request ${name}`,
    rest: ({ s, c }: { s: string; c: string }) => ['GET', `${crsPath(s)}/${c}/content${route}`] as [string, string],
    gql: ({ s, c }: { s: string; c: string }) =>
      [`query($s: String!, $c: String!) { ${field}(spaceId: $s, changeRequestId: $c) { ${selection} } }`, { s, c }] as [string, Record<string, unknown>],
  })),
];

describe('reading a change request\'s content: bad input', () => {
  it('400 for a bad limit or format, 404 for an unknown change request, page or file', async () => {
    const { admin, space, path } = await setup();
    restError(await admin.rest('GET', `${path}/content/files?limit=1001`), 400, 'limit');
    restError(await admin.rest('GET', `${path}/content/page/x?format=html`), 400, 'format');
    restError(await admin.rest('GET', `${path}/content/page/unknownPage`), 404);
    restError(await admin.rest('GET', `${path}/content/files/unknownFile`), 404);
    restError(await admin.rest('GET', `${crsPath(space.id)}/999/content`), 404);
  });
});

refusalMatrix(OPS, {
  h,
  setup,
  ids: (w) => ({ s: w.space.id, c: w.cr.id }),
  unknown: { s: 'unknownSpace00000001' },
  forbidden: async (w) => ({ callers: [await buildMember(h, w.o, 'comment'), await buildMember(h, w.o, 'read')] }),
  unchanged: async (w) => {
    const row = await h.db.changeRequest.findUniqueOrThrow({ where: { id: w.cr.id } });
    expect(row.revisionId).toBe(w.cr.revision);
  },
});
