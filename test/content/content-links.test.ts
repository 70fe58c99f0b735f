import { describe, expect, it } from 'vitest';
import { addFiles, addPages, addRevision, buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData, gqlError, restError } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness } from '../support/harness.ts';
import { ROUTE_BUDGETS } from '../support/route-budgets.ts';
import { pageCount, pageRows } from '../support/content-rows.ts';

const h = useHarness();

const spacePath = (s: string) => `/v1/spaces/${s}`;
const crPath = (s: string, c: string) => `/v1/spaces/${s}/change-requests/${c}`;
const bytes = (text: string) => new Uint8Array(Buffer.from(text));

/**
 * A space whose bodies are stored as the revision writer stores them: links it resolved as
 * `/pages/<id>` and `/files/<id>`, the one it could not resolve (`../old.md`) as written.
 */
async function world() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const reader = await buildMember(h, o, 'read');
  const space = await buildSpace(admin, o, { title: 'Docs' });
  const inApp = `${h.config.appUrl}/o/${o}/s/${space.id}/`;
  await addFiles(h.db, space.revision, [
    { id: 'f-logo', name: 'logo.png', contentType: 'image/png', bytes: bytes(`logo ${space.id}`) },
    { id: 'f-spec', name: 'spec.pdf', contentType: 'application/pdf', bytes: bytes(`spec ${space.id}`) },
    { id: 'f-unused', name: 'unused.txt', contentType: 'text/plain', bytes: bytes(`unused ${space.id}`) },
  ]);
  await addPages(h.db, space.revision, [
    {
      id: 'p-home',
      title: 'Home',
      path: 'home',
      markdown: [
        '# Home',
        '',
        'See [the guide](/pages/p-guide), [its install part](/pages/p-guide#install), [the top](#top), ![logo](/files/f-logo),',
        `[the spec](/files/f-spec), [the site](https://example.com/docs), [the app](${inApp}), [old](../old.md),`,
        '[gone](/pages/p-gone), [a gone file](/files/f-gone) and [the guide again](/pages/p-guide).',
      ].join('\n'),
    },
    { id: 'p-guide', title: 'Guide', path: 'guide', markdown: 'Back [home](/pages/p-home). ![logo](/files/f-logo) [site](https://example.com/docs)' },
    { id: 'p-quiet', title: 'Quiet', path: 'quiet', markdown: 'No links here.' },
  ]);
  const at = (page: string) => ({ kind: 'page', page, space: space.id });
  const record = (status: string, targetReference: object, locations = ['p-home']) => ({
    status,
    relation: 'reference',
    targetReference,
    locationReferences: locations.map(at),
  });
  // The links of p-home, in the list's order (by target key).
  const homeLinks = [
    record('ok', { kind: 'anchor', anchor: 'top', page: 'p-home', space: space.id }),
    record('broken', { kind: 'file', file: 'f-gone', space: space.id }),
    record('ok', { kind: 'file', file: 'f-logo', space: space.id }),
    record('ok', { kind: 'file', file: 'f-spec', space: space.id }),
    record('broken', at('p-gone')),
    record('ok', at('p-guide')),
    record('broken', { kind: 'url', url: '../old.md' }),
    record('in-app', { kind: 'url', url: inApp }),
    record('ok', { kind: 'url', url: 'https://example.com/docs' }),
  ];
  return { admin, o, reader, space, inApp, at, record, homeLinks };
}

/** `world` with a change request whose revision drops p-guide and f-spec and adds p-new (as a writer would). */
async function withChangeRequest() {
  const w = await world();
  const cr = expectOk(await w.admin.rest('POST', `${spacePath(w.space.id)}/change-requests`, { subject: 'Edits' }), 201);
  const revision = await addRevision(h.db, w.space.id, w.space.revision, { pages: ['p-guide'], files: ['f-spec'] });
  await addPages(h.db, revision, [
    { id: 'p-new', title: 'New', path: 'new', markdown: 'To [nowhere](/pages/p-nowhere), [home](/pages/p-home) and [the spec](/files/f-spec).' },
  ]);
  await h.db.changeRequest.update({ where: { id: cr.id }, data: { revisionId: revision } });
  return { ...w, cr, crRevision: revision };
}

describe('GET /spaces/{spaceId}/content/page/{pageId}/links (spacePageLinks)', () => {
  const linksPath = (s: string, p: string, query = '') => `${spacePath(s)}/content/page/${p}/links${query}`;

  it('REST: the targets of one page with their status, in key order, stats over the page, the status filter and paging', async () => {
    const { reader, space, homeLinks } = await world();
    const list = async (query = '') => expectOk(await reader.rest('GET', linksPath(space.id, 'p-home', query)));
    const stats = { total: 9, broken: { total: 3, changeRequest: 0 } };
    const all = await list();
    expect(all).toEqual({ items: homeLinks, count: 9, stats });

    const broken = await list('?status=broken');
    expect(broken).toEqual({ items: homeLinks.filter((r) => r.status === 'broken'), count: 3, stats });
    expect((await list('?status=in-app')).items.map((r: any) => r.targetReference.kind)).toEqual(['url']);

    const seen: unknown[] = [];
    let page = await list('?limit=4');
    seen.push(...page.items);
    while (page.next) {
      expect(page.count).toBe(9);
      page = await list(`?limit=4&page=${encodeURIComponent(page.next.page)}`);
      seen.push(...page.items);
    }
    expect(seen).toEqual(homeLinks);

    // A page without links; a page linked to, whose own links are few.
    expect(expectOk(await reader.rest('GET', linksPath(space.id, 'p-quiet')))).toEqual({
      items: [],
      count: 0,
      stats: { total: 0, broken: { total: 0, changeRequest: 0 } },
    });
    expect(expectOk(await reader.rest('GET', linksPath(space.id, 'p-guide'))).count).toBe(3);
  });

  it('400 on a bad limit, cursor or status; 404 for a page the revision lacks', async () => {
    const { reader, space } = await world();
    restError(await reader.rest('GET', linksPath(space.id, 'p-home', '?limit=0')), 400, 'limit');
    restError(await reader.rest('GET', linksPath(space.id, 'p-home', '?limit=1001')), 400, 'limit');
    restError(await reader.rest('GET', linksPath(space.id, 'p-home', '?page=nope')), 400, 'page');
    restError(await reader.rest('GET', linksPath(space.id, 'p-home', '?status=fine')), 400, 'status');
    expect(restError(await reader.rest('GET', linksPath(space.id, 'p-gone')), 404)).toContain('p-gone');
  });

  it('GraphQL: spacePageLinks', async () => {
    const { reader, space, inApp } = await world();
    const q = `query($s:String!,$p:String!,$st:LinkStatus,$l:Int){spacePageLinks(spaceId:$s,pageId:$p,status:$st,limit:$l){count next{page} stats{total broken{total changeRequest}} items{status targetReference{kind url page file anchor} locationReferences{page}}}}`;
    const app = gqlData(await reader.gql(q, { s: space.id, p: 'p-home', st: 'in-app' }), 'spacePageLinks');
    expect(app).toEqual({
      count: 1,
      next: null,
      stats: { total: 9, broken: { total: 3, changeRequest: 0 } },
      items: [{ status: 'in-app', targetReference: { kind: 'url', url: inApp, page: null, file: null, anchor: null }, locationReferences: [{ page: 'p-home' }] }],
    });
    expect(gqlData(await reader.gql(q, { s: space.id, p: 'p-home', l: 2 }), 'spacePageLinks').next.page).toEqual(expect.any(String));
    gqlError(await reader.gql(q, { s: space.id, p: 'p-home', l: 0 }), 'BAD_REQUEST');
    gqlError(await reader.gql(q, { s: space.id, p: 'p-gone' }), 'NOT_FOUND');
  });
});

describe('GET /spaces/{spaceId}/content/files/{fileId}/backlinks (spaceFileBacklinks)', () => {
  const backlinksPath = (s: string, f: string, query = '') => `${spacePath(s)}/content/files/${f}/backlinks${query}`;

  it('REST: the pages linking to the file (links and images), by page ID, paged', async () => {
    const { o, reader, space } = await world();
    const location = (page: string) => ({ kind: 'page', organization: o, space: space.id, page, versionContext: { type: 'revision', revision: space.revision } });
    expect(expectOk(await reader.rest('GET', backlinksPath(space.id, 'f-logo')))).toEqual({ items: [location('p-guide'), location('p-home')], count: 2 });
    expect(expectOk(await reader.rest('GET', backlinksPath(space.id, 'f-spec')))).toEqual({ items: [location('p-home')], count: 1 });
    expect(expectOk(await reader.rest('GET', backlinksPath(space.id, 'f-unused')))).toEqual({ items: [], count: 0 });

    const first = expectOk(await reader.rest('GET', backlinksPath(space.id, 'f-logo', '?limit=1')));
    expect(first).toMatchObject({ items: [location('p-guide')], count: 2, next: { page: expect.any(String) } });
    const second = expectOk(await reader.rest('GET', backlinksPath(space.id, 'f-logo', `?limit=1&page=${encodeURIComponent(first.next.page)}`)));
    expect(second).toEqual({ items: [location('p-home')], count: 2 });
  });

  it('400 on a bad limit; 404 for a file the revision lacks, even one that pages link to', async () => {
    const { reader, space } = await world();
    restError(await reader.rest('GET', backlinksPath(space.id, 'f-logo', '?limit=0')), 400, 'limit');
    restError(await reader.rest('GET', backlinksPath(space.id, 'f-logo', '?limit=1001')), 400, 'limit');
    restError(await reader.rest('GET', backlinksPath(space.id, 'f-gone')), 404);
    restError(await reader.rest('GET', backlinksPath(space.id, 'f-nothing')), 404);
  });

  it('GraphQL: spaceFileBacklinks', async () => {
    const { o, reader, space } = await world();
    const q = `query($s:String!,$f:String!,$l:Int){spaceFileBacklinks(spaceId:$s,fileId:$f,limit:$l){count items{kind organization space page versionContext{type revision changeRequest}}}}`;
    expect(gqlData(await reader.gql(q, { s: space.id, f: 'f-spec' }), 'spaceFileBacklinks')).toEqual({
      count: 1,
      items: [{ kind: 'page', organization: o, space: space.id, page: 'p-home', versionContext: { type: 'revision', revision: space.revision, changeRequest: null } }],
    });
    gqlError(await reader.gql(q, { s: space.id, f: 'f-spec', l: 1001 }), 'BAD_REQUEST');
    gqlError(await reader.gql(q, { s: space.id, f: 'f-gone' }), 'NOT_FOUND');
  });
});

describe("a change request's links and backlinks", () => {
  it("REST: page links of the change request's revision; stats.broken.changeRequest counts the broken links it introduces", async () => {
    const { reader, space, cr, homeLinks, record, at } = await withChangeRequest();
    const links = async (c: string, p: string, query = '') => expectOk(await reader.rest('GET', `${crPath(space.id, c)}/content/page/${p}/links${query}`));

    // p-guide and f-spec are gone from the change request: links to them are broken there, not in the space.
    const home = await links(cr.id, 'p-home');
    const nowBroken = (r: any) => ['p-guide', 'f-spec'].includes(r.targetReference.page ?? r.targetReference.file);
    expect(home).toEqual({
      items: homeLinks.map((r) => (nowBroken(r) ? { ...r, status: 'broken' } : r)),
      count: 9,
      stats: { total: 9, broken: { total: 5, changeRequest: 2 } },
    });
    expect(await links(String(cr.number), 'p-home', '?limit=2')).toMatchObject({ items: home.items.slice(0, 2), next: { page: expect.any(String) } });
    expect(expectOk(await reader.rest('GET', `${spacePath(space.id)}/content/page/p-home/links`)).stats).toEqual({ total: 9, broken: { total: 3, changeRequest: 0 } });

    // A page the change request adds: every broken link on it is its own.
    expect(await links(cr.id, 'p-new')).toEqual({
      items: [
        record('broken', { kind: 'file', file: 'f-spec', space: space.id }, ['p-new']),
        record('ok', at('p-home'), ['p-new']),
        record('broken', at('p-nowhere'), ['p-new']),
      ],
      count: 3,
      stats: { total: 3, broken: { total: 2, changeRequest: 2 } },
    });
    restError(await reader.rest('GET', `${crPath(space.id, cr.id)}/content/page/p-guide/links`), 404);
    expect(expectOk(await reader.rest('GET', `${spacePath(space.id)}/content/page/p-guide/links`)).count).toBe(3);
    restError(await reader.rest('GET', `${crPath(space.id, cr.id)}/content/page/p-home/links?limit=1001`), 400, 'limit');
    restError(await reader.rest('GET', `${crPath(space.id, 'nope00000000000000000')}/content/page/p-home/links`), 404);
  });

  it("REST: file backlinks of the change request's revision", async () => {
    const { o, reader, space, cr } = await withChangeRequest();
    const backlinks = (f: string, query = '') => reader.rest('GET', `${crPath(space.id, cr.id)}/content/files/${f}/backlinks${query}`);
    const location = (page: string) => ({ kind: 'page', organization: o, space: space.id, page, versionContext: { type: 'changeRequest', changeRequest: cr.id } });
    expect(expectOk(await backlinks('f-logo'))).toEqual({ items: [location('p-home')], count: 1 });
    restError(await backlinks('f-spec'), 404);
    expect(expectOk(await reader.rest('GET', `${spacePath(space.id)}/content/files/f-spec/backlinks`)).count).toBe(1);
    restError(await backlinks('f-logo', '?limit=0'), 400, 'limit');
    restError(await reader.rest('GET', `${crPath(space.id, '999')}/content/files/f-logo/backlinks`), 404);
  });

  it('GraphQL: changeRequestPageLinks and changeRequestFileBacklinks', async () => {
    const { reader, space, cr } = await withChangeRequest();
    const links = `query($s:String!,$c:String!,$p:String!){changeRequestPageLinks(spaceId:$s,changeRequestId:$c,pageId:$p){count stats{total broken{total changeRequest}} items{status targetReference{page}}}}`;
    const data = gqlData(await reader.gql(links, { s: space.id, c: String(cr.number), p: 'p-new' }), 'changeRequestPageLinks');
    expect(data).toEqual({
      count: 3,
      stats: { total: 3, broken: { total: 2, changeRequest: 2 } },
      items: [
        { status: 'broken', targetReference: { page: null } },
        { status: 'ok', targetReference: { page: 'p-home' } },
        { status: 'broken', targetReference: { page: 'p-nowhere' } },
      ],
    });
    const backlinks = `query($s:String!,$c:String!,$f:String!,$l:Int){changeRequestFileBacklinks(spaceId:$s,changeRequestId:$c,fileId:$f,limit:$l){count items{page versionContext{type changeRequest}}}}`;
    expect(gqlData(await reader.gql(backlinks, { s: space.id, c: cr.id, f: 'f-logo' }), 'changeRequestFileBacklinks')).toEqual({
      count: 1,
      items: [{ page: 'p-home', versionContext: { type: 'changeRequest', changeRequest: cr.id } }],
    });
    gqlError(await reader.gql(backlinks, { s: space.id, c: cr.id, f: 'f-logo', l: 0 }), 'BAD_REQUEST');
    gqlError(await reader.gql(backlinks, { s: space.id, c: cr.id, f: 'f-spec' }), 'NOT_FOUND');
  });
});

describe('links follow the revision read', () => {
  it('a page deleted in a later revision makes the links to it broken there; the earlier revision keeps them ok', async () => {
    const { admin, space } = await world();
    const before = expectOk(await admin.rest('GET', `${spacePath(space.id)}/links?status=broken`));
    expect(before.stats).toEqual({ total: 10, broken: { total: 3, changeRequest: 0 } });

    // A change request opened now reads the earlier revision.
    const cr = expectOk(await admin.rest('POST', `${spacePath(space.id)}/change-requests`, {}), 201);

    const later = await addRevision(h.db, space.id, space.revision, { pages: ['p-guide'] });
    await h.db.space.update({ where: { id: space.id }, data: { revisionId: later } });
    const after = expectOk(await admin.rest('GET', `${spacePath(space.id)}/links?status=broken`));
    expect(after.stats).toEqual({ total: 9, broken: { total: 4, changeRequest: 0 } });
    expect(after.items.map((r: any) => r.targetReference.page ?? r.targetReference.file ?? r.targetReference.url)).toEqual([
      'f-gone',
      'p-gone',
      'p-guide',
      '../old.md',
    ]);
    // p-guide's own links went with it: p-home has one location fewer.
    const all = expectOk(await admin.rest('GET', `${spacePath(space.id)}/links?limit=1000`));
    expect(all.items.find((r: any) => r.targetReference.file === 'f-logo').locationReferences.map((l: any) => l.page)).toEqual(['p-home']);
    expect(all.items.find((r: any) => r.targetReference.kind === 'page' && r.targetReference.page === 'p-home')).toBeUndefined();

    const guideFrom = async (path: string) =>
      expectOk(await admin.rest('GET', `${path}/content/page/p-home/links?limit=1000`)).items.find((r: any) => r.targetReference.page === 'p-guide').status;
    expect(await guideFrom(spacePath(space.id))).toBe('broken');
    expect(await guideFrom(crPath(space.id, cr.id))).toBe('ok');
  });

  it('links are stored with the documents: pages sharing a body share its links', async () => {
    const { admin, space } = await world();
    const home = (await pageRows(h.db, space.revision)).find((p) => p.id === 'p-home')!;
    expect(await h.db.documentLink.count({ where: { documentHash: home.documentHash! } })).toBe(10);
    // A second page with the same body: one more location for each of its targets, no new rows.
    await addPages(h.db, space.revision, [{ id: 'p-copy', title: 'Copy', path: 'copy', markdown: (await h.db.document.findUniqueOrThrow({ where: { hash: home.documentHash! } })).markdown }]);
    expect(await h.db.documentLink.count({ where: { documentHash: home.documentHash! } })).toBe(10);
    const all = expectOk(await admin.rest('GET', `${spacePath(space.id)}/links?limit=1000`));
    expect(all.items.find((r: any) => r.targetReference.file === 'f-spec').locationReferences.map((l: any) => l.page)).toEqual(['p-copy', 'p-home']);
    // Anchors are on the page they are found on: one record per page.
    expect(all.items.filter((r: any) => r.targetReference.kind === 'anchor').map((r: any) => r.targetReference.page)).toEqual(['p-copy', 'p-home']);
  });
});

describe('content written through the change-request content API', () => {
  it("the writer's resolved links are indexed: page links, backlinks and the broken links the change request introduces", async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await buildSpace(admin, o, { title: 'Docs' });
    const cr = expectOk(await admin.rest('POST', `${spacePath(space.id)}/change-requests`, { subject: 'Write' }), 201);
    const text = Buffer.from(`notes ${space.id}`).toString('base64');
    const written = expectOk(
      await admin.rest('POST', `${crPath(space.id, cr.id)}/content?compat=false`, {
        changes: [
          { operation: 'insert_page', ref: 'home', title: 'Home', document: { markdown: 'See [guide](./guide.md#setup), ![logo](./logo) and [nowhere](./missing.md).' } },
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'Back [home](../home.md).' } },
          { operation: 'insert_files', files: [{ name: 'notes.txt', ref: 'logo', contentType: 'text/plain', base64: text }] },
        ],
      }),
    );
    const [home, guide] = written.changes.map((c: any) => c.page.id);
    const logo = written.insertedFiles[0].id;
    const links = expectOk(await admin.rest('GET', `${crPath(space.id, cr.id)}/content/page/${home}/links`));
    expect(links.items.map((r: any) => [r.status, r.targetReference])).toEqual([
      ['ok', { kind: 'file', file: logo, space: space.id }],
      ['ok', { kind: 'page', page: guide, space: space.id }],
      ['broken', { kind: 'url', url: './missing.md' }],
    ]);
    // The space it is based on had none of these pages: the broken link is the change request's own.
    expect(links.stats).toEqual({ total: 3, broken: { total: 1, changeRequest: 1 } });
    const backlinks = expectOk(await admin.rest('GET', `${crPath(space.id, cr.id)}/content/files/${logo}/backlinks`));
    expect(backlinks.items.map((l: any) => l.page)).toEqual([home]);
  });
});

describe('statements do not grow with the content', () => {
  it('10 and 500 pages cost the same, through both doors, within the route budgets', { timeout: 120_000 }, async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const build = async (n: number) => {
      const space = await buildSpace(admin, o, { title: `S${n}` });
      await addFiles(h.db, space.revision, [{ id: 'f-0', name: 'f.png', contentType: 'image/png', bytes: bytes(`f ${space.id}`) }]);
      await addPages(
        h.db,
        space.revision,
        Array.from({ length: n }, (_, i) => ({
          id: `p${i}`,
          title: `Page ${i}`,
          path: `page-${i}`,
          markdown: `[next](/pages/p${i + 1}) ![f](/files/f-0) [site](https://example.com/${i}) [rel](rel-${i}.md) [me](#me)`,
        })),
      );
      const cr = expectOk(await admin.rest('POST', `${spacePath(space.id)}/change-requests`, {}), 201);
      return { space, cr };
    };
    const routes = (w: Awaited<ReturnType<typeof build>>) => ({
      'GET /v1/spaces/{s}/links': `${spacePath(w.space.id)}/links?limit=100`,
      'GET /v1/spaces/{s}/content/page/{pg}/links': `${spacePath(w.space.id)}/content/page/p0/links?limit=100`,
      'GET /v1/spaces/{s}/content/files/{fl}/backlinks': `${spacePath(w.space.id)}/content/files/f-0/backlinks?limit=100`,
      'GET /v1/spaces/{s}/change-requests/{cr}/content/page/{pg}/links': `${crPath(w.space.id, w.cr.id)}/content/page/p0/links?limit=100`,
      'GET /v1/spaces/{s}/change-requests/{cr}/content/files/{fl}/backlinks': `${crPath(w.space.id, w.cr.id)}/content/files/f-0/backlinks?limit=100`,
    });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
    const measure = async (path: string) => {
      await admin.rest('GET', path); // warm
      await settle();
      const before = h.store.queries.length;
      const res = await admin.rest('GET', path);
      await settle();
      return { statements: h.store.queries.length - before, body: expectOk(res) };
    };
    const small = await build(10);
    const large = await build(500);
    for (const [route, smallPath] of Object.entries(routes(small))) {
      const s = await measure(smallPath);
      const l = await measure(routes(large)[route as keyof ReturnType<typeof routes>]);
      expect(l.statements, route).toBe(s.statements);
      expect(l.statements, route).toBeLessThanOrEqual(ROUTE_BUDGETS[route]);
      if (route.endsWith('backlinks')) expect([s.body.count, l.body.count], route).toEqual([10, 500]);
    }
    const whole = await measure(routes(large)['GET /v1/spaces/{s}/links']);
    // 500 pages linked (p500 missing), the file, 500 URLs, 500 unresolved relative links and 500 anchors.
    expect(whole.body.stats).toEqual({ total: 2001, broken: { total: 501, changeRequest: 0 } });
    expect(whole.body.items).toHaveLength(100);
  });
});

const OPS: RefusalOp<{ s: string; c: string }>[] = [
  {
    name: 'space page links',
    rest: ({ s }) => ['GET', `${spacePath(s)}/content/page/p-home/links`],
    gql: ({ s }) => ['query($s:String!){spacePageLinks(spaceId:$s,pageId:"p-home"){count}}', { s }],
  },
  {
    name: 'space file backlinks',
    rest: ({ s }) => ['GET', `${spacePath(s)}/content/files/f-logo/backlinks`],
    gql: ({ s }) => ['query($s:String!){spaceFileBacklinks(spaceId:$s,fileId:"f-logo"){count}}', { s }],
  },
  {
    name: 'change request page links',
    rest: ({ s, c }) => ['GET', `${crPath(s, c)}/content/page/p-home/links`],
    gql: ({ s, c }) => ['query($s:String!,$c:String!){changeRequestPageLinks(spaceId:$s,changeRequestId:$c,pageId:"p-home"){count}}', { s, c }],
  },
  {
    name: 'change request file backlinks',
    rest: ({ s, c }) => ['GET', `${crPath(s, c)}/content/files/f-logo/backlinks`],
    gql: ({ s, c }) => ['query($s:String!,$c:String!){changeRequestFileBacklinks(spaceId:$s,changeRequestId:$c,fileId:"f-logo"){count}}', { s, c }],
  },
];

refusalMatrix(OPS, {
  h,
  setup: withChangeRequest,
  ids: (w) => ({ s: w.space.id, c: w.cr.id }),
  unknown: { s: 'unknownSpace00000001' },
  unchanged: async (w) => {
    expect(await pageCount(h.db, w.space.revision)).toBe(3);
  },
});
