// One module resolves a published URL to what a visitor sees (issue 38 §1): the API's `publishedPage`
// and the reader's HTML are two renderings of the same view, so they show the same page for every URL.
import { describe, expect, it } from 'vitest';
import { putDocuments } from '../../src/modules/content/store/document-store.ts';
import { buildOrganization, buildSpace } from '../factories.ts';
import { expectOk } from '../support/assertions.ts';
import { pageRow, writePageRows } from '../support/content-rows.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

/**
 * A space whose tree has what the two renderings could disagree on: a hidden first page with a visible
 * child, a group (a body-less heading) holding pages, a hidden page inside it, a group holding nothing
 * readable, and pages after them.
 */
async function trickySpace(admin: Awaited<ReturnType<typeof buildOrganization>>['admin'], o: string, title: string, prefix: string) {
  const space = await buildSpace(admin, o, { title });
  const rows: [string, string, string, Partial<Parameters<typeof pageRow>[0]>][] = [
    ['secret', `${prefix} Secret`, 'secret', { hidden: true }],
    ['under', `${prefix} Under the secret`, 'secret/under', { parentId: 'secret' }],
    ['setup', `${prefix} Setup`, 'setup', { type: 'group' }],
    ['install', `${prefix} Install`, 'setup/install', { parentId: 'setup' }],
    ['tucked', `${prefix} Tucked away`, 'setup/tucked', { parentId: 'setup', hidden: true }],
    ['hollow', `${prefix} Hollow group`, 'hollow', { type: 'group' }],
    ['last', `${prefix} Last`, 'last', {}],
  ];
  const hashes = await putDocuments(h.db, rows.map(([, pageTitle]) => `Body of ${pageTitle}.`));
  await writePageRows(
    h.db,
    space.revision,
    rows.map(([id, pageTitle, path, extra], i) =>
      pageRow({ id: `${prefix}-${id}`, title: pageTitle, path, position: String.fromCharCode(97 + i), ...extra, parentId: extra.parentId ? `${prefix}-${extra.parentId}` : null, documentHash: extra.type === 'group' ? null : hashes[i] }),
    ),
  );
  return space;
}

const QUERY = `query($u: String!) { publishedPage(url: $u) { lookup page } }`;

describe('the published view: the API and the reader draw the same page', () => {
  it('for every URL of a site with hidden pages, groups, sections and a variant', { timeout: 120_000 }, async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Views');
    const guides = await trickySpace(admin, o, 'Guides', 'g');
    const api = await trickySpace(admin, o, 'API', 'a');
    const french = await trickySpace(admin, o, 'Guides FR', 'f');
    const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Views', spaces: [guides.id, api.id] }), 201);
    const sections = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/sections`)).items;
    const variant = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/site-spaces`, { spaceId: french.id, sectionId: sections[0].id }), 201);
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
    const base = `${h.config.publishedUrl}/${o}/${site.id}`;

    const variantBases = ['', `${sections[1].path}/`, `${sections[0].path}/${variant.path}/`, `${variant.path}/`, `${sections[0].path}/`];
    const paths = ['', 'secret', 'secret/under', 'setup', 'setup/install', 'setup/tucked', 'hollow', 'last', 'nope', 'setup/nope'];
    let compared = 0;
    for (const variantBase of variantBases) {
      for (const path of paths) {
        const url = `${base}/${variantBase}${path}`;
        const graph = await h.app.fetch('http://localhost/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: QUERY, variables: { u: url } }),
        });
        const view = ((await graph.json()) as { data: { publishedPage: { lookup: { pathname: string; canonicalUrl: string }; page: { title: string } | null } } }).data.publishedPage;
        const html = await h.app.fetch(url, { redirect: 'manual' });
        const body = await html.text();
        if (html.status === 302 || html.status === 301) {
          // A group: the reader goes to its first page; the API answers that page.
          const location = new URL(html.headers.get('location')!, url);
          const landed = await h.app.fetch(location, { redirect: 'manual' });
          expect(landed.status, `${url} → ${location}`).toBe(200);
          expect(view.page, url).not.toBeNull();
          expect(await landed.text(), url).toContain(`<title>${view.page!.title}`);
        } else if (html.status === 200) {
          expect(view.page, url).not.toBeNull();
          expect(body, url).toContain(`<title>${view.page!.title}`);
        } else {
          expect(html.status, url).toBe(404);
          expect(view.page, `${url}: the API shows ${JSON.stringify(view.page?.title)}`).toBeNull();
        }
        compared++;
      }
    }
    expect(compared).toBe(variantBases.length * paths.length);

    // The variant's root opens its first listed page: not one under a hidden page, not a group.
    const home = await h.app.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: QUERY, variables: { u: `${base}/` } }),
    });
    expect(((await home.json()) as { data: { publishedPage: { page: { title: string } } } }).data.publishedPage.page.title).toBe('g Install');
  });
});
