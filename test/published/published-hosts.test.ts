// Issue 39 §3: a public site answered 404 on any host but PUBLISHED_URL's (a LAN address, 127.0.0.1 for
// localhost). Path-addressed sites answer on every host that is no site's own hostname; links and
// canonical URLs still say PUBLISHED_URL, so every host gets the same page.
import { describe, expect, it } from 'vitest';
import { buildOrganization, buildSpace } from '../factories.ts';
import { expectOk } from '../support/assertions.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

async function publishedSite() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Write' }), 201);
  expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'insert_page', title: 'Install', document: { markdown: 'Run it.' } }] }));
  expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
  const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs site' }), 201);
  expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/site-spaces`, { spaceId: space.id }), 201);
  expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
  const published = new URL(expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}`)).urls.published as string);
  return { admin, o, site, published };
}

describe('a path-addressed site on the address a person uses', () => {
  it('answers on 127.0.0.1 and a LAN address as on PUBLISHED_URL: the same page and links', async () => {
    const { admin, published } = await publishedSite();
    const page = (host: string) => h.app.fetch(`http://${host}${published.pathname.replace(/\/$/, '')}/install`);
    const canonical = await page(published.host);
    expect(canonical.status).toBe(200);
    const html = await canonical.text();
    for (const host of ['127.0.0.1:4000', '192.168.1.20:4000', 'docs-server.lan']) {
      const other = await page(host);
      expect(other.status, host).toBe(200);
      // Pages kept in memory and their ETags stay per host: one host's answer never serves another's.
      expect(other.headers.get('etag'), host).toBeTruthy();
      const text = await other.text();
      expect(text, host).toBe(html);
      expect(text).toContain(`<link rel="canonical" href="${published.origin}`);
    }
    // The URL lookup (GitBook's renderer's entry point) reads such URLs too.
    const lookup = expectOk(await admin.rest('POST', '/v1/urls/published', { url: `http://127.0.0.1:4000${published.pathname.replace(/\/$/, '')}/install` }));
    expect(lookup).toMatchObject({ pathname: 'install' });
  });

  it("a site's own hostname stays its own: path-addressed URLs are not read there", async () => {
    const { admin, o, site, published } = await publishedSite();
    const other = await publishedSite();
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}`, { hostname: 'docs.example.org' }));
    expect(expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}`)).urls.published).toBe(`${published.protocol}//docs.example.org`);
    // The server reads the sites' hostnames again when they are a few seconds old.
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    // On docs.example.org, the other site's path is a page path of this site: none, a 404.
    expect((await h.app.fetch(`http://docs.example.org${other.published.pathname.replace(/\/$/, '')}/install`)).status).toBe(404);
    expect((await h.app.fetch('http://docs.example.org/install')).status).toBe(200);
  });
});
