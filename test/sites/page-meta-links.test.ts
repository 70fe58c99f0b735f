// A page's meta links (GitBook's listSpacePageMetaLinks / listRevisionPageMetaLinks, issue 24 §2): the
// same page in the other variants of the site sections its space is in, for `<link rel="alternate">`.
import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, restError } from '../support/assertions.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

async function withPages(admin: any, spaceId: string, titles: string[]) {
  const cr = expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Pages' }), 201);
  expectOk(
    await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      changes: titles.map((title) => ({ operation: 'insert_page', title, document: { markdown: `About ${title}` } })),
    }),
  );
  const merged = expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`));
  const pages = expectOk(await admin.rest('GET', `/v1/spaces/${spaceId}/content/pages`)).pages as any[];
  return { revision: merged.revision as string, ids: Object.fromEntries(pages.map((p) => [p.slug, p.id])) };
}

async function bilingualSite() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Languages');
  const english = await buildSpace(admin, o, { title: 'English' });
  const french = await buildSpace(admin, o, { title: 'French' });
  const en = await withPages(admin, english.id, ['Install', 'Only in English']);
  const fr = await withPages(admin, french.id, ['Install']);
  const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs', spaces: [english.id] }), 201);
  const sections = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/sections`)).items;
  const variant = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/site-spaces`, { spaceId: french.id, sectionId: sections[0].id }), 201);
  expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}/site-spaces/${variant.id}`, { path: 'fr' }));
  expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
  return { admin, o, site, english, french, en, fr };
}

describe('page meta links', () => {
  it("the page at the same path in the section's other variants, both ways; GitBook shapes", async () => {
    const { admin, english, french, en, fr } = await bilingualSite();
    const links = expectOk(await admin.rest('GET', `/v1/spaces/${english.id}/content/page/${en.ids.install}/meta-links`), 200, 'listSpacePageMetaLinks');
    expect(links).toEqual({ alternates: [{ kind: 'page', page: fr.ids.install, space: french.id }] });
    const back = expectOk(await admin.rest('GET', `/v1/spaces/${french.id}/revisions/${fr.revision}/page/${fr.ids.install}/meta-links`), 200, 'listRevisionPageMetaLinks');
    expect(back).toEqual({ alternates: [{ kind: 'page', page: en.ids.install, space: english.id }] });
    // A page the other variant lacks has none; an unknown page is a 404.
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${english.id}/content/page/${en.ids['only-in-english']}/meta-links`))).toEqual({ alternates: [] });
    restError(await admin.rest('GET', `/v1/spaces/${english.id}/content/page/nope/meta-links`), 404);

    const gql = await admin.gql(`query($s: String!, $p: String!) { spacePageMetaLinks(spaceId: $s, pageId: $p) }`, { s: english.id, p: en.ids.install });
    expect(gql.body.data.spacePageMetaLinks).toEqual(links);
  });

  it("a change request's pages: their alternates (listChangeRequestPageMetaLinks) and a page by path (getPageInChangeRequestByPath)", async () => {
    const { admin, english, french, en, fr } = await bilingualSite();
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${english.id}/change-requests`, { subject: 'More' }), 201);
    expectOk(
      await admin.rest('POST', `/v1/spaces/${english.id}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'insert_page', title: 'Upgrade', document: { markdown: 'Upgrading' } }],
      }),
    );
    const base = `/v1/spaces/${english.id}/change-requests/${cr.id}/content`;
    // The change request's revision: the page the French variant also has, and the one only it has.
    const links = expectOk(await admin.rest('GET', `${base}/page/${en.ids.install}/meta-links`), 200, 'listChangeRequestPageMetaLinks');
    expect(links).toEqual({ alternates: [{ kind: 'page', page: fr.ids.install, space: french.id }] });
    const byPath = expectOk(await admin.rest('GET', `${base}/path/upgrade?format=markdown`), 200, 'getPageInChangeRequestByPath');
    expect(byPath).toMatchObject({ title: 'Upgrade', path: 'upgrade', markdown: expect.stringContaining('Upgrading') });
    const upgradeId = byPath.id as string;
    expect(expectOk(await admin.rest('GET', `${base}/page/${upgradeId}/meta-links`), 200, 'listChangeRequestPageMetaLinks')).toEqual({ alternates: [] });
    restError(await admin.rest('GET', `${base}/page/nope/meta-links`), 404);

    // Not in the space's current content until merged; an unknown path is a 404.
    restError(await admin.rest('GET', `/v1/spaces/${english.id}/content/path/upgrade`), 404);
    restError(await admin.rest('GET', `${base}/path/no/such/page`), 404);
    const gql = await admin.gql(
      `query($s: String!, $c: String!, $p: String!) { changeRequestPageByPath(spaceId: $s, changeRequestId: $c, pagePath: $p) changeRequestPageMetaLinks(spaceId: $s, changeRequestId: $c, pageId: "${en.ids.install}") }`,
      { s: english.id, c: cr.id, p: 'upgrade' },
    );
    expect(gql.body.data.changeRequestPageByPath).toMatchObject({ id: upgradeId });
    expect(gql.body.data.changeRequestPageMetaLinks).toEqual(links);

    // Whoever cannot read the space gets the 404 of an unknown change request's space.
    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    restError(await outsider.rest('GET', `${base}/path/upgrade`), 404);
    restError(await outsider.rest('GET', `${base}/page/${en.ids.install}/meta-links`), 404);
  });

  it("a site's reader reads them with the apiToken; a variant hidden from them by its condition is not listed; outsiders 404", async () => {
    const { admin, o, site, english, en } = await bilingualSite();
    const lookup = await h.app.fetch('http://localhost/v1/urls/published', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${h.config.publishedUrl}/${o}/${site.id}/install` }),
    });
    const { apiToken, revision } = (await lookup.json()) as { apiToken: string; revision: string };
    const asReader = async (path: string) => {
      const res = await h.app.fetch(`http://localhost${path}`, { headers: { authorization: `Bearer ${apiToken}` } });
      return { status: res.status, body: await res.json() };
    };
    const read = await asReader(`/v1/spaces/${english.id}/revisions/${revision}/page/${en.ids.install}/meta-links`);
    expect([read.status, read.body.alternates.length]).toEqual([200, 1]);

    // Hide the French variant from visitors without a claim: it leaves the reader's alternates.
    const variants = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/site-spaces`)).items as any[];
    const frenchVariant = variants.find((v) => v.path === 'fr');
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}/site-spaces/${frenchVariant.id}`, { condition: 'visitor.claims.beta === true' }));
    const hidden = await asReader(`/v1/spaces/${english.id}/revisions/${revision}/page/${en.ids.install}/meta-links`);
    expect([hidden.status, hidden.body]).toEqual([200, { alternates: [] }]);

    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    restError(await outsider.rest('GET', `/v1/spaces/${english.id}/content/page/${en.ids.install}/meta-links`), 404);
    // A member who cannot read the other variant's space does not see it listed.
    const guest = await buildMember(h, o, null);
    restError(await guest.rest('GET', `/v1/spaces/${english.id}/content/page/${en.ids.install}/meta-links`), 404);
  });
});
