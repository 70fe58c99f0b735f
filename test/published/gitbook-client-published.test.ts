// The official client (`GitBookAPI` from @gitbook/api) reading a published site as GitBook's renderer
// does (issue 24), over a real HTTP listener: the URL lookup, then every read with the apiToken it
// returns; and the site's own settings and content-by-URL with a member's token.
import { GitBookAPI } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { expectGitBookShape } from '../support/assertions.ts';
import { expectApiError, useClientServer } from '../support/client-server.ts';

const s = useClientServer();

describe('official GitBookAPI client: published content', () => {
  it('looks a URL up and reads the site, its revision and pages with the apiToken; settings with a token', async () => {
    const ada = await s.newUser('Ada');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Readers' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Guides' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Pages' })).data;
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        { operation: 'insert_page', title: 'Getting started', document: { markdown: '# Getting started\n\nHello readers' } },
        { operation: 'insert_page', title: 'Install', icon: 'download', document: { markdown: 'Run the installer' } },
      ],
    } as never);
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    const site = (await api.orgs.createSite(org.id, { title: 'Portal', spaces: [space.id] })).data;
    await api.orgs.publishSite(org.id, site.id);

    // Site settings with the member's token.
    const customization = (await api.orgs.getSiteCustomizationById(org.id, site.id)).data;
    expect(customization.title).toBe('Portal');
    const sections = (await api.orgs.listSiteSections(org.id, site.id)).data.items;
    const siteSpaceId = sections[0].siteSpaces[0].id;
    const overridden = (await api.orgs.overrideSiteSpaceCustomizationById(org.id, site.id, siteSpaceId, { themes: { default: 'dark' } } as never)).data;
    expect(overridden.themes.default).toBe('dark');
    expect((await api.orgs.getSiteSpaceCustomizationById(org.id, site.id, siteSpaceId)).data.themes.default).toBe('dark');
    expect((await api.orgs.deleteSiteSpaceCustomizationById(org.id, site.id, siteSpaceId)).status).toBe(205);
    expect((await api.orgs.getSiteStructure(org.id, site.id)).data.type).toBe('sections');
    const auth = (await api.orgs.getSitePublishingAuthById(org.id, site.id)).data;
    expect((await api.orgs.regenerateSitePublishingAuthById(org.id, site.id)).data.privateKey).not.toBe(auth.privateKey);
    const byAppUrl = (await api.urls.getContentByUrl({ url: space.urls.app })).data as { space: { id: string } };
    expect(byAppUrl.space.id).toBe(space.id);

    // The lookup takes no token: an anonymous client. (PUBLISHED_URL defaults to PUBLIC_URL/s.)
    const anonymous = new GitBookAPI({ endpoint: s.endpoint });
    const base = `${s.endpoint}/s/${org.id}/${site.id}`;
    const found = (await anonymous.urls.resolvePublishedContentByUrl({ url: `${base}/install` })).data;
    if (!('apiToken' in found)) throw new Error('expected content, got a redirect');
    expect(found).toMatchObject({ site: site.id, space: space.id, pathname: 'install', complete: true });
    await expectApiError(anonymous.urls.resolvePublishedContentByUrl({ url: `${s.endpoint}/s/${org.id}/nope/` }), 404);

    // Every read of the site with the apiToken, as a renderer makes them.
    const reader = new GitBookAPI({ endpoint: s.endpoint, authToken: found.apiToken });
    const revisionId = found.revision as string;
    const profile = (await reader.orgs.getPublishedContentSite(org.id, site.id)).data;
    expect(profile.site.id).toBe(site.id);
    const revision = (await reader.spaces.getRevisionById(space.id, revisionId)).data;
    expect(revision.id).toBe(revisionId);
    const pages = (await reader.spaces.listPagesInRevisionById(space.id, revisionId)).data.pages;
    expect(pages.map((p) => p.title)).toEqual(['Getting started', 'Install']);
    const install = (await reader.spaces.getPageInRevisionByPath(space.id, revisionId, 'install')).data;
    expect(install).toMatchObject({ title: 'Install', icon: 'download' });
    expect((await reader.spaces.getPageInRevisionById(space.id, revisionId, install.id)).data.id).toBe(install.id);
    const document = (await reader.spaces.getPageDocumentInRevisionById(space.id, revisionId, install.id)).data;
    expect(JSON.stringify(document)).toContain('Run the installer');
    expect((await reader.spaces.listFilesInRevisionById(space.id, revisionId)).data.items).toEqual([]);
    expect((await reader.spaces.listRevisionPageMetaLinks(space.id, revisionId, install.id)).data).toEqual({ alternates: [] });
    expect((await reader.orgs.getSiteStructure(org.id, site.id)).data.structure).toHaveLength(1);

    // With a member's token, the current content too.
    expect((await api.spaces.getPageByPath(space.id, 'install')).data.id).toBe(install.id);
    expect((await api.spaces.listSpacePageMetaLinks(space.id, install.id)).data).toEqual({ alternates: [] });

    // The apiToken reads nothing else: no member routes, no writes.
    await expectApiError(reader.orgs.listSites(org.id), 403);
    // What a revision changed is the writers' (deleted pages, replaced files): no reader shows it.
    await expectApiError(reader.spaces.getRevisionSemanticChanges(space.id, revisionId), 403);
    await expectApiError(reader.orgs.updateSiteCustomizationById(org.id, site.id, customization as never), 403);
  });

  it('the GET lookup, page by path, customization and publishing-auth writes, site space overrides removed: GitBook shapes', async () => {
    const ada = await s.newUser('Ada');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Shapes' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Manual' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Pages' })).data;
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        { operation: 'insert_page', title: 'Overview', document: { markdown: '# Overview\n\nWelcome' } },
        { operation: 'insert_page', title: 'Setup', document: { markdown: 'Install it' } },
      ],
    } as never);
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    const site = (await api.orgs.createSite(org.id, { title: 'Manual site', spaces: [space.id] })).data;
    await api.orgs.publishSite(org.id, site.id);

    // getPublishedContentByUrl (GET /urls/published, GitBook's deprecated form of the lookup), no token.
    const anonymous = new GitBookAPI({ endpoint: s.endpoint });
    const lookup = await anonymous.urls.getPublishedContentByUrl({ url: `${s.endpoint}/s/${org.id}/${site.id}/setup` });
    expect(lookup.status).toBe(200);
    expectGitBookShape('getPublishedContentByUrl', 200, lookup.data);
    const found = lookup.data;
    if (!('apiToken' in found)) throw new Error('expected content, got a redirect');
    expect(found).toMatchObject({ site: site.id, space: space.id, organization: org.id, pathname: 'setup', complete: true });
    expect(found.revision).toBe((await api.spaces.getCurrentRevision(space.id)).data.id);
    await expectApiError(anonymous.urls.getPublishedContentByUrl({ url: `${s.endpoint}/s/${org.id}/nope/` }), 404);

    // getPageInRevisionByPath with the apiToken the lookup gave.
    const reader = new GitBookAPI({ endpoint: s.endpoint, authToken: found.apiToken });
    const setup = await reader.spaces.getPageInRevisionByPath(space.id, found.revision as string, found.pathname);
    expect(setup.status).toBe(200);
    expectGitBookShape('getPageInRevisionByPath', 200, setup.data);
    expect(setup.data).toMatchObject({ type: 'document', title: 'Setup', path: 'setup' });

    // updateSiteCustomizationById: the settings object in, the settings object out.
    const customization = (await api.orgs.getSiteCustomizationById(org.id, site.id)).data;
    const updated = await api.orgs.updateSiteCustomizationById(org.id, site.id, {
      ...customization,
      title: 'Manual, revised',
      themes: { ...customization.themes, default: 'dark' },
    } as never);
    expect(updated.status).toBe(200);
    expectGitBookShape('updateSiteCustomizationById', 200, updated.data);
    expect(updated.data).toMatchObject({ title: 'Manual, revised', themes: { default: 'dark' } });
    expect((await api.orgs.getSiteCustomizationById(org.id, site.id)).data).toMatchObject({ title: 'Manual, revised', themes: { default: 'dark' } });

    // updateSitePublishingAuthById, then regenerateSitePublishingAuthById.
    const auth = (await api.orgs.getSitePublishingAuthById(org.id, site.id)).data;
    const changed = await api.orgs.updateSitePublishingAuthById(org.id, site.id, {
      backend: 'custom',
      fallbackURL: 'https://auth.example.com/login',
      logoutURL: 'https://auth.example.com/logout',
    });
    expect(changed.status).toBe(200);
    expectGitBookShape('updateSitePublishingAuthById', 200, changed.data);
    expect(changed.data).toMatchObject({
      object: 'publishing-auth',
      backend: 'custom',
      privateKey: auth.privateKey,
      fallbackURL: 'https://auth.example.com/login',
      logoutURL: 'https://auth.example.com/logout',
    });
    expect((await api.orgs.getSitePublishingAuthById(org.id, site.id)).data).toMatchObject({ fallbackURL: 'https://auth.example.com/login' });
    const regenerated = await api.orgs.regenerateSitePublishingAuthById(org.id, site.id);
    expect(regenerated.status).toBe(200);
    expectGitBookShape('regenerateSitePublishingAuthById', 200, regenerated.data);
    expect(regenerated.data).toMatchObject({ object: 'publishing-auth', fallbackURL: 'https://auth.example.com/login' });
    expect(regenerated.data.privateKey).not.toBe(auth.privateKey);

    // deleteSiteSpaceCustomizationById: 205 when overrides were removed, 204 when there were none; no body either way.
    const siteSpaceId = (await api.orgs.listSiteSections(org.id, site.id)).data.items[0].siteSpaces[0].id;
    await api.orgs.overrideSiteSpaceCustomizationById(org.id, site.id, siteSpaceId, { title: 'Variant' } as never);
    const removed = await api.orgs.deleteSiteSpaceCustomizationById(org.id, site.id, siteSpaceId);
    expect(removed.status).toBe(205);
    const removedBody = await removed.text();
    expect(removedBody).toBe('');
    expectGitBookShape('deleteSiteSpaceCustomizationById', 205, removedBody);
    const none = await api.orgs.deleteSiteSpaceCustomizationById(org.id, site.id, siteSpaceId);
    expect(none.status).toBe(204);
    const noneBody = await none.text();
    expect(noneBody).toBe('');
    expectGitBookShape('deleteSiteSpaceCustomizationById', 204, noneBody);
    expect((await api.orgs.getSiteSpaceCustomizationById(org.id, site.id, siteSpaceId)).data.title).toBe('Manual, revised');
  });
});
