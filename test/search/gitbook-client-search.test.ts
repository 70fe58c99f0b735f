// The official client (`GitBookAPI` from @gitbook/api) searching a space, an organization and a site over a
// real HTTP listener, after writing content through change requests.
import { describe, expect, it } from 'vitest';
import { expectApiError, useClientServer } from '../support/client-server.ts';

const s = useClientServer();

describe('official GitBookAPI client: search', () => {
  it('searchSpaceContent, searchOrganizationContent and searchSiteContent, with paging, and a 400 for an empty query', async () => {
    const ada = await s.newUser('Ada');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Searchers' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Content' })).data;
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        { operation: 'insert_page', title: 'Deploying', document: { markdown: 'Deploy with the **orbital** launcher.\n\n## Rollback\n\nRoll back an orbital release.' } },
        { operation: 'insert_page', title: 'Orbital mechanics', document: { markdown: 'Why orbits hold.' } },
      ],
    } as any);
    await api.spaces.mergeChangeRequest(space.id, cr.id);

    const found = (await api.spaces.searchSpaceContent(space.id, { query: 'orbital' })).data;
    expect(found.count).toBe(2);
    expect(found.items.map((p) => p.title)).toEqual(['Orbital mechanics', 'Deploying']);
    // Both sections of Deploying hold the word: its own text, and Rollback's.
    expect(found.items[1].sections?.map((section) => section.title).sort()).toEqual(['Deploying', 'Rollback']);

    const first = (await api.spaces.searchSpaceContent(space.id, { query: 'orbital', limit: 1 })).data;
    expect(first.items).toHaveLength(1);
    const second = (await api.spaces.searchSpaceContent(space.id, { query: 'orbital', limit: 1, page: first.next!.page })).data;
    expect(second.items.map((p) => [p.title, p.rank])).toEqual([['Deploying', 2]]);

    const org_ = (await api.orgs.searchOrganizationContent(org.id, { query: 'rollback' })).data;
    expect(org_.items).toMatchObject([{ type: 'space', id: space.id, title: 'Handbook', pages: [{ title: 'Deploying', sections: [{ title: 'Rollback' }] }] }]);

    await expectApiError(api.spaces.searchSpaceContent(space.id, { query: '' }), 400);

    // searchSiteContent: the site's published spaces, grouped by space, paged by pages.
    const site = (await api.orgs.createSite(org.id, { title: 'Handbook site', spaces: [space.id] })).data;
    const siteFound = (await api.orgs.searchSiteContent(org.id, site.id, { query: 'orbital', scope: { mode: 'all' } })).data;
    expect(siteFound.count).toBe(2);
    expect(siteFound.items).toMatchObject([{ type: 'space', id: space.id, title: 'Handbook', pages: [{ title: 'Orbital mechanics', rank: 1 }, { title: 'Deploying', rank: 2 }] }]);
    const firstOfSite = (await api.orgs.searchSiteContent(org.id, site.id, { query: 'orbital', mode: 'all' }, { limit: 1 })).data;
    const secondOfSite = (await api.orgs.searchSiteContent(org.id, site.id, { query: 'orbital', mode: 'all' }, { limit: 1, page: firstOfSite.next!.page })).data;
    expect(secondOfSite.items).toMatchObject([{ id: space.id, pages: [{ title: 'Deploying', rank: 2 }] }]);
    await expectApiError(api.orgs.searchSiteContent(org.id, site.id, { query: 'x'.repeat(513), scope: { mode: 'all' } }), 400);
    await expectApiError(api.orgs.searchSiteContent(org.id, 'no-such-site', { query: 'orbital', scope: { mode: 'all' } }), 404);
  });
});
