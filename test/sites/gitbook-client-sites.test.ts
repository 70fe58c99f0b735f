// The official client (`GitBookAPI` from @gitbook/api) managing sites over a real HTTP listener:
// createSite, listSites, addSectionToSite, the site spaces (variants) of a section, createSiteShareLink,
// then reading what it made.
import { SiteVisibility } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { expectApiError, useClientServer } from '../support/client-server.ts';

const s = useClientServer();

describe('official GitBookAPI client: sites', () => {
  it('creates a site, lists it, adds a section and a share link', async () => {
    const ada = await s.newUser('Ada');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Publishers' })).data;
    const guides = (await api.orgs.createSpace(org.id, { title: 'Guides' })).data;
    const reference = (await api.orgs.createSpace(org.id, { title: 'Reference' })).data;

    const created = await api.orgs.createSite(org.id, { title: 'Developer portal', visibility: SiteVisibility.ShareLink, spaces: [guides.id] });
    expect(created.status).toBe(201);
    const site = created.data;
    expect(site).toMatchObject({ object: 'site', title: 'Developer portal', visibility: 'share-link', published: false, siteSpaces: 1 });

    const listed = (await api.orgs.listSites(org.id, { published: false })).data;
    expect(listed.items.map((item) => item.id)).toEqual([site.id]);

    const section = (await api.orgs.addSectionToSite(org.id, site.id, { spaceId: reference.id, title: 'API reference' })).data;
    expect(section).toMatchObject({ object: 'site-section', title: 'API reference', path: 'api-reference', default: false });
    const sections = (await api.orgs.listSiteSections(org.id, site.id)).data;
    expect(sections.items.map((item) => [item.title, item.default])).toEqual([
      ['Guides', true],
      ['API reference', false],
    ]);

    // A variant of the first section (GitBook's site spaces): added, listed, given a path, deleted.
    const french = (await api.orgs.createSpace(org.id, { title: 'Guides (fr)' })).data;
    const variant = await api.orgs.addSpaceToSite(org.id, site.id, { spaceId: french.id, sectionId: sections.items[0].id });
    expect(variant.status).toBe(201);
    expect(variant.data).toMatchObject({ object: 'site-space', section: sections.items[0].id, space: { id: french.id }, default: false });
    const variants = (await api.orgs.listSiteSpaces(org.id, site.id, { default: false })).data;
    expect(variants.items.map((item) => item.id)).toEqual([variant.data.id]);
    expect((await api.orgs.updateSiteSpaceById(org.id, site.id, variant.data.id, { path: 'fr' })).data).toMatchObject({ path: 'fr' });
    await expectApiError(api.orgs.updateSiteSpaceById(org.id, site.id, variant.data.id, { path: 'has/slash' }), 400);
    expect((await api.orgs.deleteSiteSpaceById(org.id, site.id, variant.data.id)).status).toBe(205);
    expect((await api.orgs.listSiteSpaces(org.id, site.id)).data.items).toHaveLength(2);

    const link = (await api.orgs.createSiteShareLink(org.id, site.id, { name: 'Partners' })).data;
    expect(link).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
    expect(link.urls.published).toContain('shareKey=');

    const published = (await api.orgs.publishSite(org.id, site.id)).data as { published: boolean };
    expect(published.published).toBe(true);
    await expectApiError(api.orgs.createSite(org.id, { title: 'x' }), 400);
  });

  it('manages site redirects: create, list, find by source, update, bulk upsert, delete', async () => {
    const ada = await s.newUser('Grace');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Redirectors' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Guides' })).data;
    const site = (await api.orgs.createSite(org.id, { title: 'Portal', spaces: [space.id] })).data;
    const section = (await api.orgs.listSiteSections(org.id, site.id)).data.items[0];

    const created = await api.orgs.createSiteRedirect(org.id, site.id, { source: '/old', destination: { kind: 'external', url: 'https://example.com/new' } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ object: 'site-redirect', source: '/old', draft: false });
    const listed = (await api.orgs.listSiteRedirects(org.id, site.id, { orderBy: 'source' as never })).data;
    expect(listed.items.map((r) => r.id)).toEqual([created.data.id]);
    const found = (await api.orgs.getSiteRedirectBySource(org.id, site.id, { source: '/old' })).data;
    expect(found.target).toBe('https://example.com/new');
    const updated = (await api.orgs.updateSiteRedirectById(org.id, site.id, created.data.id, { destination: { kind: 'site-section', siteSectionId: section.id } })).data;
    expect(updated.destination).toEqual({ kind: 'site-section', siteSectionId: section.id });
    const bulk = (await api.orgs.bulkUpsertSiteRedirects(org.id, site.id, { redirects: [{ source: '/a', destination: { kind: 'external', url: 'https://example.com/a' } }] })).data;
    expect(bulk.results.map((r) => r.status)).toEqual(['created']);
    expect((await api.orgs.deleteSiteRedirectById(org.id, site.id, created.data.id)).status).toBe(205);
    await expectApiError(api.orgs.getSiteRedirectBySource(org.id, site.id, { source: '/old' }), 404);
  });
});
