// The reader (issue 25): published sites served as HTML at their urls.published — pages, navigation,
// caching, who may read, machines' files — through the app, as a browser or a crawler asks.
import { brotliDecompressSync } from 'node:zlib';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { buildOrganization } from '../factories.ts';
import { expectOk, restError } from '../support/assertions.ts';
import { useHarness } from '../support/harness.ts';
import { GUIDE_PAGES, read, readerSite, spaceWithPages } from '../support/reader-site.ts';

const h = useHarness();

/** The href values of links in the HTML whose text is `text`. */
const hrefsOf = (html: string, text: string) => [...html.matchAll(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].filter((m) => m[2].replace(/<[^>]+>/g, '').trim() === text).map((m) => m[1]);
const path = (url: string) => new URL(url).pathname;

describe('a published site at its urls.published', () => {
  it('serves the first page at the root, every page at its path, with the sidebar, breadcrumbs, table of contents and previous / next', async () => {
    const { base, site, admin, o } = await readerSite(h);
    const urls = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}`)).urls;
    expect(urls.published).toBe(base);

    const home = await read(h, base);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(home.text).toMatch(/^<!doctype html>/i);
    expect(home.text).toContain('<h1');
    expect(home.text).toContain('Getting started');
    expect(home.text).toContain('<strong>guide</strong>');
    // Sidebar: listed pages, not the hidden one; the child of "Advanced" reachable.
    const basePath = path(base);
    expect(hrefsOf(home.text, 'Advanced')).toContain(`${basePath}/advanced`);
    expect(home.text).not.toContain('Secret notes');
    // Headings with anchors (as search names them), the table of contents, and next.
    expect(home.text).toContain('id="install"');
    expect(hrefsOf(home.text, 'Configure')).toContain('#configure');
    expect(home.text).toMatch(/rel="next"/);

    const nested = await read(h, `${base}/advanced/clusters`);
    expect(nested.status).toBe(200);
    expect(nested.text).toContain('kubernetes');
    expect(hrefsOf(nested.text, 'Advanced')).toContain(`${basePath}/advanced`);
    expect(nested.text).toMatch(/aria-current="page"/);
    // A hidden page is reachable by its URL.
    expect((await read(h, `${base}/secret-notes`)).status).toBe(200);
    // Code is highlighted on the server.
    expect(home.text).toContain('hljs-keyword');
  });

  it('a page that does not exist, an unpublished site, another organization\'s IDs: the same 404 page', async () => {
    const { base, site, admin, o } = await readerSite(h);
    const missing = await read(h, `${base}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('text/html');
    const other = await buildOrganization(h, 'Other');
    expect((await read(h, `${h.config.publishedUrl}/${other.organizationId}/${site.id}/`)).status).toBe(404);
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/unpublish`));
    const unpublished = await read(h, base);
    expect(unpublished.status).toBe(404);
    expect(unpublished.text).not.toContain('Getting started');
    // Its machines' files are the reader's 404 page too, not a bare text answer.
    for (const file of ['sitemap.xml', 'robots.txt', 'llms.txt']) {
      const gone = await read(h, `${base}/${file}`);
      expect(gone.status, file).toBe(404);
      expect(gone.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(gone.headers.get('cache-control')).toBe('no-store');
      expect(gone.text).toContain('Page not found');
    }
  });

  it("an asset the reader does not have: the edge's 404, in the REST error body of the static door", async () => {
    for (const name of ['no-such-asset.css', '%E0%A4%A.css']) {
      const res = await h.app.fetch(`${new URL(h.config.publishedUrl).origin}/_site/assets/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(await res.json()).toEqual({ error: { code: 404, message: expect.any(String) } });
    }
  });

  it('strong ETags (304), shared caching for public pages, brotli and gzip', async () => {
    const { base } = await readerSite(h);
    const first = await read(h, base);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toContain('s-maxage');
    expect((await read(h, base, { 'if-none-match': etag })).status).toBe(304);
    const compressed = await h.app.fetch(base, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await compressed.arrayBuffer())).toString()).toBe(first.text);
  });

  it('a merge takes effect on the next request (new ETag, new content)', async () => {
    const { base, admin, spaces } = await readerSite(h);
    const before = await read(h, base);
    const space = spaces[0];
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' }), 201);
    const pages = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)).pages;
    expectOk(
      await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'update_page', page: pages[0].id, document: { markdown: '# Getting started\n\nRewritten text.\n' } }],
      }),
    );
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
    const after = await read(h, base, { 'if-none-match': before.headers.get('etag')! });
    expect(after.status).toBe(200);
    expect(after.text).toContain('Rewritten text.');
  });

  it('hostile content is inert: script in titles and bodies, javascript: links', async () => {
    const { base } = await readerSite(h, [
      {
        title: '<script>alert(1)</script>',
        pages: [{ title: '<img src=x onerror=alert(1)>', markdown: '# T\n\n<script>alert(2)</script>\n\n[click](javascript:alert(3))\n\n<img src=x onerror=alert(4)>\n' }],
      },
    ]);
    const page = await read(h, base);
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/<script>alert/);
    expect(page.text).not.toMatch(/<img src=x/);
    expect(page.text).not.toMatch(/href="javascript:/i);
    expect(page.text).toContain('&lt;script>alert(2)');
  });

  it('page icons: GitBook icon names drawn as inline SVG in the title and the sidebar; unknown names draw nothing (the API refuses anything but a name)', async () => {
    const { base } = await readerSite(h, [
      {
        title: 'Iconic',
        pages: [
          { title: 'Launch', icon: 'rocket' },
          { title: 'Settings', icon: 'fa-gear' },
          { title: 'Mystery', icon: 'no-such-icon-anywhere' },
          { title: 'Smiling', emoji: '😀', icon: 'rocket' },
        ],
      },
    ]);
    const launch = await read(h, base);
    const titleOf = (html: string) => /<h1 class="page-title">([\s\S]*?)<\/h1>/.exec(html)![1];
    expect(titleOf(launch.text)).toMatch(/^<svg class="page-icon" viewBox="0 0 \d+ \d+"[^>]*aria-hidden="true"[^>]*><path d="M[^"]+" fill="currentColor"><\/path><\/svg>Launch$/);
    // The sidebar: an icon beside each page that has a known one (Launch, Settings), none for the others.
    expect(launch.text.match(/<svg class="tree-icon"/g)).toHaveLength(2);
    expect(titleOf((await read(h, `${base}/settings`)).text)).toMatch(/^<svg class="page-icon"/);
    expect(titleOf((await read(h, `${base}/mystery`)).text)).toBe('Mystery');
    // An emoji wins over an icon, as in GitBook.
    expect(titleOf((await read(h, `${base}/smiling`)).text)).toMatch(/^<span class="page-emoji" aria-hidden="true">😀<\/span>Smiling$/);
  });

  it('the page as markdown at its path + .md; sitemap, robots.txt, llms.txt, llms-full.txt', async () => {
    const { base } = await readerSite(h);
    const md = await read(h, `${base}/advanced/clusters.md`);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toContain('text/markdown');
    expect(md.text).toContain('Run many **kubernetes** nodes.');
    const sitemap = await read(h, `${base}/sitemap.xml`);
    expect(sitemap.text).toContain(`<loc>${base}/advanced/clusters</loc>`);
    expect(sitemap.text).not.toContain('secret-notes');
    expect((await read(h, `${base}/robots.txt`)).text).toContain(`Sitemap: ${base}/sitemap.xml`);
    const llms = await read(h, `${base}/llms.txt`);
    expect(llms.text).toContain(`- [Clusters](${base}/advanced/clusters.md)`);
    const full = await read(h, `${base}/llms-full.txt`);
    expect(full.text).toContain('Run many **kubernetes** nodes.');
    expect(full.text).not.toContain('Hidden but reachable');
  });

  it('an unlisted site: noindex everywhere, an empty sitemap, robots.txt disallows', async () => {
    const { base } = await readerSite(h, undefined, { visibility: 'unlisted' });
    const page = await read(h, base);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<meta name="robots" content="noindex/);
    expect((await read(h, `${base}/sitemap.xml`)).text).not.toContain('<loc>');
    expect((await read(h, `${base}/robots.txt`)).text).toContain('Disallow: /');
  });

  it('search: JSON for the script, grouped by page, links to the heading, matches marked', async () => {
    const { base } = await readerSite(h);
    const res = await h.app.fetch(`${base}/~search?q=scale`);
    expect(res.status).toBe(200);
    const answer = await res.json();
    const clusters = answer.pages.find((p: { title: string }) => p.title === 'Clusters');
    expect(clusters.href).toBe(`${path(base)}/advanced/clusters`);
    const scaling = clusters.sections.find((s: { title: string }) => s.title === 'Scaling');
    expect(scaling.href).toBe(`${path(base)}/advanced/clusters#scaling`);
    expect(scaling.excerpt.some((run: { match: boolean; text: string }) => run.match && /scale/i.test(run.text))).toBe(true);
    // Without JavaScript, the form's submission is a page of results.
    const page = await read(h, `${base}/~search?q=scale`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<mark>');
    // A query too long: the REST error body for the script, never kept; the reader's error page for a browser.
    const tooLong = await h.app.fetch(`${base}/~search?q=${'x'.repeat(300)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.headers.get('cache-control')).toBe('no-store');
    expect(await tooLong.json()).toEqual({ error: { code: 400, message: expect.stringContaining('"q"') } });
    const tooLongPage = await read(h, `${base}/~search?q=${'x'.repeat(300)}`);
    expect(tooLongPage.status).toBe(400);
    expect(tooLongPage.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('sections and variants', () => {
  it('sections as tabs; the variant switcher keeps the page path', async () => {
    const { admin, o, site, base, spaces } = await readerSite(h, [
      { title: 'Guides', pages: GUIDE_PAGES },
      { title: 'API', pages: [{ title: 'Reference', markdown: '# Reference\n' }] },
    ]);
    const sections = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/sections`)).items;
    const home = await read(h, base);
    expect(hrefsOf(home.text, 'API')).toContain(`${path(base)}/${sections[1].path}/`);
    const api = await read(h, `${base}/${sections[1].path}/reference`);
    expect(api.status).toBe(200);
    expect(api.text).toContain('Reference');

    // A second variant of the Guides section (another language), holding the same page path.
    const french = await spaceWithPages(admin, o, 'Guides FR', [{ title: 'Getting started', markdown: '# Bienvenue\n' }]);
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/site-spaces`, { spaceId: french.id, sectionId: sections[0].id }), 201);
    const variants = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/site-spaces`)).items.filter((s: { space: { id: string } }) => s.space.id === french.id);
    const frenchPath = variants[0].path;
    // A variant of the default section lives under the section's path (GitBook's rule); its earlier
    // address, without it, still reads it.
    const frenchBase = `${sections[0].path}/${frenchPath}`;
    const page = await read(h, `${base}/getting-started`);
    expect(hrefsOf(page.text, 'Guides FR')).toContain(`${path(base)}/${frenchBase}/getting-started`);
    const inFrench = await read(h, `${base}/${frenchBase}/getting-started`);
    expect(inFrench.text).toContain('Bienvenue');
    expect((await read(h, `${base}/${frenchPath}/getting-started`)).text).toContain('Bienvenue');
    // A page the other variant does not have: the switcher goes to its home.
    const clusters = await read(h, `${base}/advanced/clusters`);
    expect(hrefsOf(clusters.text, 'Guides FR')).toContain(`${path(base)}/${frenchBase}/`);
    expect(spaces.length).toBe(2);
  });
});

describe('who may read', () => {
  it('a share link: its key in the URL is kept in a cookie and the reader lands on the clean URL; deactivating it closes the door', async () => {
    const { admin, o, site, base } = await readerSite(h, undefined, { visibility: 'share-link' });
    expect((await read(h, base)).status).toBe(404);
    const link = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/share-links`, { name: 'Partners' }), 201);
    const shared = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/share-links`)).items[0];
    const landing = await read(h, shared.urls.published);
    expect(landing.status).toBe(302);
    expect(landing.headers.get('location')).not.toContain('shareKey');
    const cookie = landing.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const jar = cookie.split(';')[0];
    const page = await read(h, `${base}/advanced/clusters`, { cookie: jar });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toContain('private');
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}/share-links/${link.id}`, { active: false }));
    const closed = await read(h, `${base}/advanced/clusters`, { cookie: jar });
    expect(closed.status).toBe(404);
    expect(closed.text).not.toContain('kubernetes');
  });

  it('visitor authentication: sent to the backend, back with a signed token kept in a cookie; an expired or forged token goes back to authenticate', async () => {
    const { admin, o, site, base } = await readerSite(h, undefined, { visibility: 'visitor-auth' });
    const auth = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/publishing/auth`));
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}/publishing/auth`, { fallbackURL: 'https://auth.example.com/login' }));
    const away = await read(h, `${base}/advanced/clusters`);
    expect(away.status).toBe(302);
    expect(away.headers.get('location')).toMatch(/^https:\/\/auth\.example\.com\/login\?location=/);
    const sign = (exp: number, key = auth.privateKey as string) =>
      new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(exp).sign(new TextEncoder().encode(key));
    const now = Math.floor(h.clock.now().getTime() / 1000);
    const back = await read(h, `${base}/advanced/clusters?jwt_token=${await sign(now + 3600)}`);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(`${base}/advanced/clusters`);
    const jar = back.headers.get('set-cookie')!.split(';')[0];
    const page = await read(h, `${base}/advanced/clusters`, { cookie: jar });
    expect(page.status).toBe(200);
    expect(page.text).toContain('kubernetes');
    for (const token of [await sign(now - 10), await sign(now + 3600, 'another-key-that-is-long-enough-1234')]) {
      const refused = await read(h, `${base}/advanced/clusters`, { cookie: `gb_visitor=${token}` });
      expect(refused.status).toBe(302);
      expect(refused.headers.get('location')).toMatch(/^https:\/\/auth\.example\.com/);
    }
  });
});

describe('nothing the API would refuse', () => {
  it('adaptive content: a section whose condition fails is neither a tab nor readable; the claim in the URL opens it, kept in a cookie', async () => {
    const { admin, o, site, base } = await readerSite(h, [
      { title: 'Guides', pages: GUIDE_PAGES },
      { title: 'Beta', pages: [{ title: 'Beta feature', markdown: '# Beta feature\n\nOnly for testers.\n' }] },
    ]);
    const sections = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/sections`)).items;
    expectOk(
      await admin.rest('PUT', `/v1/orgs/${o}/sites/${site.id}/adaptive-schema`, {
        jsonSchema: { type: 'object', properties: { beta: { type: 'boolean', description: 'In the beta' } }, additionalProperties: false },
      }),
    );
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}`, { adaptiveContent: { enabled: true } }));
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}/sections/${sections[1].id}`, { condition: 'visitor.claims.unsigned.beta == true' }));
    const url = `${base}/${sections[1].path}/beta-feature`;
    const hidden = await read(h, url);
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain('Only for testers');
    expect((await read(h, base)).text).not.toContain('>Beta<');
    const opened = await read(h, `${url}?visitor.beta=true`);
    expect(opened.status).toBe(302);
    const jar = opened.headers.get('set-cookie')!.split(';')[0];
    const page = await read(h, url, { cookie: jar });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Only for testers');
    expect(page.headers.get('cache-control')).toContain('private');
  });

  it('what a visitor may not see is the same 404, byte for byte, as what does not exist', async () => {
    // In a site: a page of a section whose condition fails, and a page that was never written.
    const { admin, o, site, base } = await readerSite(h, [
      { title: 'Guides', pages: GUIDE_PAGES },
      { title: 'Beta', pages: [{ title: 'Beta feature', markdown: '# Beta feature\n\nOnly for testers.\n' }] },
    ]);
    const sections = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/sections`)).items;
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}`, { adaptiveContent: { enabled: true } }));
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}/sections/${sections[1].id}`, { condition: 'visitor.claims.beta == true' }));
    const hidden = await read(h, `${base}/${sections[1].path}/beta-feature`);
    const missing = await read(h, `${base}/${sections[1].path}/never-written`);
    expect([hidden.status, missing.status]).toEqual([404, 404]);
    expect(hidden.text).toBe(missing.text);

    // Sites: an unpublished one, one of another organization that is unpublished, and one that never was.
    const other = await readerSite(h);
    expectOk(await other.admin.rest('POST', `/v1/orgs/${other.o}/sites/${other.site.id}/unpublish`));
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/unpublish`));
    const answers = await Promise.all(
      [`${base}/`, `${other.base}/`, `${h.config.publishedUrl}/${o}/noSuchSite0000000001/`, `${h.config.publishedUrl}/noSuchOrg00000000001/${site.id}/`].map((url) => read(h, url)),
    );
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404]);
    for (const answer of answers.slice(1)) expect(answer.text).toBe(answers[0].text);
  });

  it("a share key of another site opens nothing", async () => {
    const one = await readerSite(h, undefined, { visibility: 'share-link' });
    const two = await readerSite(h, undefined, { visibility: 'share-link' });
    expectOk(await one.admin.rest('POST', `/v1/orgs/${one.o}/sites/${one.site.id}/share-links`, { name: 'One' }), 201);
    const key = new URL(expectOk(await one.admin.rest('GET', `/v1/orgs/${one.o}/sites/${one.site.id}/share-links`)).items[0].urls.published).searchParams.get('shareKey');
    expect((await read(h, `${two.base}/?shareKey=${key}`)).status).toBe(404);
    expect((await read(h, `${two.base}/`, { cookie: `gb_share=${key}` })).status).toBe(404);
    expect((await read(h, `${one.base}/`, { cookie: `gb_share=${key}` })).status).toBe(200);
  });

  it('images through signed file URLs, with their width and height', async () => {
    const { admin, o } = await readerSite(h);
    const space = await spaceWithPages(admin, o, 'Pictures', [{ title: 'Home', markdown: '# Home\n' }]);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Image' }), 201);
    const pages = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)).pages;
    expectOk(
      await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        changes: [
          { operation: 'insert_files', files: [{ name: 'dot.png', ref: 'dot', contentType: 'image/png', base64: png.toString('base64') }] },
          { operation: 'update_page', page: pages[0].id, document: { markdown: '# Home\n\n![A dot](./dot)\n' } },
        ],
      }),
    );
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
    const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Pictures', spaces: [space.id] }), 201);
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
    const page = await read(h, `${h.config.publishedUrl}/${o}/${site.id}/`);
    const img = /<img\b[^>]*alt="A dot"[^>]*>/.exec(page.text)?.[0] ?? '';
    expect(img).toMatch(/width="1"/);
    expect(img).toMatch(/height="1"/);
    const src = /src="([^"]+)"/.exec(img)![1].replaceAll('&amp;', '&');
    const file = await h.app.fetch(src);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
  });
});

describe('a site on its own hostname', () => {
  it('serves its pages at / on that host, and nothing of the API there', async () => {
    const { admin, o, site } = await readerSite(h);
    const other = await readerSite(h);
    expect(expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}`, { hostname: 'docs.example.com' })).hostname).toBe('docs.example.com');
    // Unique among all sites; GitBook's pattern; never the server's own host.
    restError(await other.admin.rest('PATCH', `/v1/orgs/${other.o}/sites/${other.site.id}`, { hostname: 'docs.example.com' }), 409, 'hostname');
    restError(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}`, { hostname: 'Not A Host' }), 400, 'hostname');
    restError(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}`, { hostname: new URL(h.config.publicUrl).hostname }), 400, 'hostname');
    // The hostnames are read again when they are a few seconds old.
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    const page = await read(h, 'http://docs.example.com/advanced/clusters');
    expect(page.status, page.text.slice(0, 300)).toBe(200);
    expect(page.text).toContain('kubernetes');
    expect((await read(h, 'http://docs.example.com/v1/user')).status).toBe(404);
    expect((await read(h, 'http://docs.example.com/robots.txt')).text).toContain('Sitemap: http://docs.example.com/sitemap.xml');
  });
});
