import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData, gqlError, restError } from '../support/assertions.ts';
import { useFixtureSite } from '../support/fixture-site.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller } from '../support/harness.ts';
import { pageRows } from '../support/content-rows.ts';

// Fixtures are served on 127.0.0.1: private addresses are allowed here (FETCH_ALLOW_PRIVATE), as the
// guard's own tests (safe-fetch.test.ts) show it refusing them when they are not.
const h = useHarness({ fetch: { allowPrivate: true, timeoutMs: 1000 } });
const site = useFixtureSite();

const importPath = (spaceId: string) => `/v1/spaces/${spaceId}/content/import`;

async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  return { admin, o, space };
}

/** The page tree as [title, path, children…]. */
async function tree(caller: Caller, base: string): Promise<any[]> {
  const shape = (pages: any[]): any[] => pages.map((p) => (p.pages.length ? [p.title, p.path, shape(p.pages)] : [p.title, p.path]));
  return shape(expectOk(await caller.rest('GET', `${base}/content/pages`)).pages);
}

function flatten(pages: any[]): any[] {
  return pages.flatMap((p) => [p, ...flatten(p.pages)]);
}

describe('website import', () => {
  it('crawls the site under the start path, breadth first, into one new revision: tree from URL paths, images as files, links rewritten', async () => {
    const { admin, space } = await setup();
    site.requests.length = 0;
    const started = Date.now();
    const result = expectOk(await admin.rest('POST', importPath(space.id), { url: `${site.origin}/docs/`, source: 'website' }));
    // Pages: home, guide, about, install, configure, deep page (6) and the 404 and the slow one (not
    // brought in); images: logo, diagram (brought in) and the broken one. The redirect lands on a page
    // already taken and the PDF is no page: neither is a resource.
    expect(result).toEqual({ revision: expect.any(String), importedResources: 8, totalResources: 11 });
    // The slow page (3 s) was given up after FETCH_TIMEOUT_MS (1 s).
    expect(Date.now() - started).toBeLessThan(2900);

    const current = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}`));
    expect(current.revision).toBe(result.revision);
    expect(await tree(admin, `/v1/spaces/${space.id}`)).toEqual([
      ['Acme Docs', 'acme-docs'],
      ['Guide', 'guide', [['Installing Acme', 'guide/install'], ['Configure', 'guide/configure']]],
      ['About', 'about'],
      ['Deep', 'deep', [['Nested', 'deep/nested', [['Deep page', 'deep/nested/page']]]]],
    ]);

    // Nothing outside the prefix or the origin was asked for; each page once (about once more, as the
    // redirect's target).
    expect(site.requests.filter((p) => !p.startsWith('/docs'))).toEqual([]);
    const pageRequests = site.requests.filter((p) => !p.includes('/img/'));
    expect(pageRequests.filter((p) => p === '/docs/about')).toHaveLength(2);
    expect(new Set(pageRequests).size).toBe(pageRequests.length - 1);

    const pages = flatten(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)).pages);
    const byTitle = Object.fromEntries(pages.map((p) => [p.title, p]));
    const markdown = async (title: string) => expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/${byTitle[title].id}?format=markdown`)).markdown as string;
    const files = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/files`)).items;
    expect(files.map((f: any) => [f.name, f.contentType, f.dimensions]).sort()).toEqual([
      ['diagram.gif', 'image/gif', { width: 3, height: 2 }],
      ['logo.png', 'image/png', { width: 1, height: 1 }],
    ]);
    const fileId = (name: string) => files.find((f: any) => f.name === name).id;

    const install = await markdown('Installing Acme');
    expect(install).toContain('Acme runs on a zeppelin cluster.');
    expect(install).toContain('## Requirements');
    expect(install).toContain('```sh\nnpm install acme\n```');
    // Links between imported pages are page links; others stay absolute.
    expect(install).toContain(`[configuration](/pages/${byTitle.Configure.id})`);
    expect(install).toContain(`[missing page](${site.origin}/docs/missing)`);
    expect(install).toContain(`![Diagram](/files/${fileId('diagram.gif')})`);
    expect(install).toContain(`![Broken](${site.origin}/docs/img/broken.png)`);
    // The title is the page's own; scripts, styles, navigation, header and footer are gone.
    expect(install).not.toMatch(/^# Installing/m);
    for (const chrome of ['tracker', 'injected', 'Copyright', 'Pricing', 'color: red', 'Blog']) expect(install).not.toContain(chrome);

    const guide = await markdown('Guide');
    expect(guide).toContain(`[configure](/pages/${byTitle.Configure.id}#options)`);
    expect(guide).toContain(`[about](/pages/${byTitle.About.id})`);
    expect(await markdown('Configure')).toContain('| port | 4000 |');
    const about = await markdown('About');
    expect(about).toContain('[Acme](https://example.com/)');
    expect(about).toContain(`[blog](${site.origin}/blog/post)`);
    expect(about).toContain('[us](mailto:hello@acme.test)');
    // A link to a URL that redirects to an imported page links that page.
    expect(about).toContain(`[old about](/pages/${byTitle.About.id})`);
    expect(await markdown('Acme Docs')).toContain(`![Acme logo](/files/${fileId('logo.png')})`);

    // The links are the revision's links: page links resolve, the 404 is an external URL.
    const links = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/${byTitle['Installing Acme'].id}/links`));
    expect(JSON.stringify(links)).toContain(byTitle.Configure.id);

    // And search finds a word of it at once (the index follows the import in its transaction).
    const found = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/search?query=zeppelin`));
    expect(found.items.map((p: any) => p.title)).toEqual(['Installing Acme']);
  });

  it('adds to what the space holds; importing again adds a second copy beside the first', async () => {
    const { admin, space } = await setup();
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, {}), 201);
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'insert_page', title: 'Existing', document: { markdown: 'kept' } }] }));
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
    const first = expectOk(await admin.rest('POST', importPath(space.id), { url: `${site.origin}/docs/guide/`, source: 'website' }));
    expect(first.importedResources).toBe(3 + 1); // guide, install, configure; the diagram
    // The start page's sub-pages sit beside it (the start is where the import is rooted).
    expect(await tree(admin, `/v1/spaces/${space.id}`)).toEqual([
      ['Existing', 'existing'],
      ['Guide', 'guide'],
      ['Installing Acme', 'install'],
      ['Configure', 'configure'],
    ]);
    const revision = await h.db.revision.findUniqueOrThrow({ where: { id: first.revision } });
    expect(revision.parents).toEqual([(await h.db.revision.findFirstOrThrow({ where: { spaceId: space.id, type: 'merge' } })).id]);
    expectOk(await admin.rest('POST', importPath(space.id), { url: `${site.origin}/docs/guide/`, source: 'website' }));
    expect((await tree(admin, `/v1/spaces/${space.id}`)).map((p) => p[1])).toEqual(['existing', 'guide', 'install', 'configure', 'guide-2', 'install-2', 'configure-2']);
  });

  it('into a change request: a new revision of it, the space untouched until the merge', async () => {
    const { admin, space } = await setup();
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, {}), 201);
    const base = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    const result = expectOk(await admin.rest('POST', `${base}/content/import`, { url: `${site.origin}/docs/guide/configure`, source: 'website' }));
    expect(result).toEqual({ revision: expect.any(String), importedResources: 1, totalResources: 1 });
    expect(expectOk(await admin.rest('GET', base)).revision).toBe(result.revision);
    expect(await tree(admin, base)).toEqual([['Configure', 'configure']]);
    expect(await tree(admin, `/v1/spaces/${space.id}`)).toEqual([]);
    expectOk(await admin.rest('POST', `${base}/merge`));
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/search?query=port`)).items.map((p: any) => p.title)).toEqual(['Configure']);
    // A merged change request takes no more content.
    restError(await admin.rest('POST', `${base}/content/import`, { url: `${site.origin}/docs/`, source: 'website' }), 409);
  });

  it('the GraphQL door', async () => {
    const { admin, space } = await setup();
    const data = gqlData(
      await admin.gql('mutation($s: String!, $u: String!) { importSpaceContent(spaceId: $s, url: $u, source: website) { revision importedResources totalResources } }', {
        s: space.id,
        u: `${site.origin}/docs/deep/nested/page`,
      }),
      'importSpaceContent',
    );
    expect(data).toEqual({ revision: expect.any(String), importedResources: 1, totalResources: 1 });
    gqlError(await admin.gql(`mutation { importSpaceContent(spaceId: "${space.id}", url: "${site.origin}/docs/", source: git) { revision } }`), 'BAD_REQUEST');
  });

  it('400 for a bad url or source, and for a start page that cannot be fetched; nothing is written', async () => {
    const { admin, space } = await setup();
    const post = (body: unknown) => admin.rest('POST', importPath(space.id), body);
    restError(await post({ source: 'website' }), 400, 'url');
    restError(await post({ url: `${site.origin}/docs/` }), 400, 'source');
    restError(await post({ url: `${site.origin}/docs/`, source: 'git' }), 400, 'source');
    restError(await post({ url: `${site.origin}/docs/`, source: 'Website' }), 400, 'source');
    restError(await post({ url: 'not a url', source: 'website' }), 400, 'url');
    restError(await post({ url: '/docs/', source: 'website' }), 400, 'url');
    restError(await post({ url: 'ftp://example.com/docs/', source: 'website' }), 400, 'url');
    restError(await post({ url: 'file:///etc/passwd', source: 'website' }), 400, 'url');
    restError(await post({ url: `https://example.com/${'a'.repeat(2040)}`, source: 'website' }), 400, 'url');
    restError(await post({ url: 12, source: 'website' }), 400, 'url');
    const missing = restError(await post({ url: `${site.origin}/docs/nowhere`, source: 'website' }), 400, 'url');
    expect(missing).toContain('404');
    const closed = restError(await post({ url: 'http://127.0.0.1:1/docs/', source: 'website' }), 400, 'url');
    expect(closed).toContain('could not be reached');
    const pdf = restError(await post({ url: `${site.origin}/docs/file.pdf`, source: 'website' }), 400, 'url');
    expect(pdf).toContain('application/pdf');
    expect(await h.db.revision.count({ where: { spaceId: space.id } })).toBe(1);
  });
});

describe('website import limits', () => {
  const limited = useHarness({ fetch: { allowPrivate: true, timeoutMs: 1000 }, imports: { maxPages: 2 } });
  const hurried = useHarness({ fetch: { allowPrivate: true, timeoutMs: 10_000 }, imports: { timeoutMs: 400 } });

  it('stops when IMPORT_TIMEOUT_MS is spent: what was not fetched by then is counted, not imported', async () => {
    const { admin, organizationId: o } = await buildOrganization(hurried);
    const space = await buildSpace(admin, o);
    const started = Date.now();
    const result = expectOk(await admin.rest('POST', importPath(space.id), { url: `${site.origin}/docs/`, source: 'website' }));
    expect(Date.now() - started).toBeLessThan(2500);
    // The slow page holds its batch past the budget: pages found and images are counted, not all imported.
    expect(result.importedResources).toBeGreaterThanOrEqual(3);
    expect(result.importedResources).toBeLessThan(result.totalResources);
    expect((await pageRows(hurried.db, result.revision)).filter((p) => p.title === 'Slow')).toHaveLength(0);
  });

  it('stops at IMPORT_MAX_PAGES pages; what it found beyond them is not counted', async () => {
    const { admin, organizationId: o } = await buildOrganization(limited);
    const space = await buildSpace(admin, o);
    const result = expectOk(await admin.rest('POST', importPath(space.id), { url: `${site.origin}/docs/`, source: 'website' }));
    // Home and the first page it links (guide); the logo of the home page.
    expect(result).toEqual({ revision: expect.any(String), importedResources: 3, totalResources: 3 });
  });
});

type Ids = { s: string; c: string };
const OPS: RefusalOp<Ids>[] = [
  {
    name: 'import into a space',
    rest: ({ s }) => ['POST', importPath(s), { url: `${site.origin}/docs/about`, source: 'website' }],
    gql: ({ s }) => ['mutation($s: String!, $u: String!) { importSpaceContent(spaceId: $s, url: $u, source: website) { revision } }', { s, u: `${site.origin}/docs/about` }],
    refuse: 'reader',
  },
  {
    name: 'import into a change request',
    rest: ({ s, c }) => ['POST', `/v1/spaces/${s}/change-requests/${c}/content/import`, { url: `${site.origin}/docs/about`, source: 'website' }],
    gql: ({ s, c }) => [
      'mutation($s: String!, $c: String!, $u: String!) { importChangeRequestContent(spaceId: $s, changeRequestId: $c, url: $u, source: website) { revision } }',
      { s, c, u: `${site.origin}/docs/about` },
    ],
    refuse: 'reader',
  },
];

refusalMatrix(OPS, {
  h,
  setup: async () => {
    const w = await setup();
    const cr = expectOk(await w.admin.rest('POST', `/v1/spaces/${w.space.id}/change-requests`, {}), 201);
    const reader = await buildMember(h, w.o, 'read');
    return { ...w, cr, reader };
  },
  ids: (w) => ({ s: w.space.id, c: w.cr.id }),
  unknown: { s: 'unknownSpace00000001' },
  forbidden: async (w) => ({ callers: [w.reader] }),
  unchanged: async (w) => {
    expect(await h.db.revision.count({ where: { spaceId: w.space.id } })).toBe(1);
  },
});
