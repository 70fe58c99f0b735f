// The official client (`GitBookAPI` from @gitbook/api) managing sites over a real HTTP listener:
// createSite, listSites, addSectionToSite, createSiteShareLink, then reading what it made.
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

    const link = (await api.orgs.createSiteShareLink(org.id, site.id, { name: 'Partners' })).data;
    expect(link).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
    expect(link.urls.published).toContain('shareKey=');

    const published = (await api.orgs.publishSite(org.id, site.id)).data as { published: boolean };
    expect(published.published).toBe(true);
    await expectApiError(api.orgs.createSite(org.id, { title: 'x' }), 400);
  });
});
