// GET /urls/content (GitBook's getContentByUrl, issue 24 §1): the application URLs the API hands out,
// resolved for a caller who may read them; anything else is a 404.
import { describe, expect, it } from 'vitest';
import { buildCollection, buildMember, buildOrganization, buildSpace, buildSpaceWithLevel } from '../factories.ts';
import { expectOk, restError } from '../support/assertions.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

async function content() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Urls');
  const collection = await buildCollection(admin, o, { title: 'Handbook' });
  const space = await buildSpace(admin, o, { title: 'Guides' });
  const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' }), 201);
  expectOk(
    await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', ref: 'start', title: 'Getting started', document: { markdown: '# Start\n\nHello' } }],
    }),
  );
  return { admin, o, collection, space, cr };
}

const byUrl = (caller: { rest: (m: string, p: string) => Promise<any> }, url: string) => caller.rest('GET', `/v1/urls/content?url=${encodeURIComponent(url)}`);

describe('GET /urls/content', () => {
  it('resolves the urls.app of a collection, a space, a change request and a page in either; GitBook shapes', async () => {
    const { admin, collection, space, cr } = await content();
    const ofCollection = expectOk(await byUrl(admin, collection.urls.app), 200, 'getContentByUrl');
    expect(Object.keys(ofCollection)).toEqual(['collection']);
    expect(ofCollection.collection.id).toBe(collection.id);

    const ofSpace = expectOk(await byUrl(admin, space.urls.app), 200, 'getContentByUrl');
    expect(Object.keys(ofSpace)).toEqual(['space']);
    expect(ofSpace.space.id).toBe(space.id);

    const crUrl = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).urls.app;
    const ofChangeRequest = expectOk(await byUrl(admin, crUrl), 200, 'getContentByUrl');
    expect([ofChangeRequest.space.id, ofChangeRequest.changeRequest.id, ofChangeRequest.page]).toEqual([space.id, cr.id, undefined]);

    // The page exists in the change request only: by its URL there; not in the space until merged.
    const inChangeRequest = expectOk(await byUrl(admin, `${crUrl}getting-started`), 200, 'getContentByUrl');
    expect(inChangeRequest.page).toMatchObject({ title: 'Getting started', path: 'getting-started', type: 'document' });
    expect(inChangeRequest.page.document.nodes.length).toBeGreaterThan(0);
    restError(await byUrl(admin, `${space.urls.app}getting-started`), 404);
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
    const pageUrl = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/path/getting-started`)).urls.app;
    const ofPage = expectOk(await byUrl(admin, pageUrl), 200, 'getContentByUrl');
    expect([ofPage.space.id, ofPage.page.path, ofPage.changeRequest]).toEqual([space.id, 'getting-started', undefined]);

    const gql = await admin.gql(`query($url: String!) { contentByUrl(url: $url) { space { id } changeRequest { id } page } }`, { url: pageUrl });
    expect(gql.body.data.contentByUrl).toMatchObject({ space: { id: space.id }, changeRequest: null, page: { path: 'getting-started' } });
  });

  it('other URLs are a 404, malformed ones a 400 naming url; callers who may not read learn nothing', async () => {
    const { admin, o, collection, space } = await content();
    for (const url of [
      `${h.config.appUrl}/`,
      `${h.config.appUrl}/s/`,
      `${h.config.appUrl}/s/nope/`,
      `${h.config.appUrl}/s/${space.id}/~/changes/999/`,
      `${h.config.appUrl}/s/${space.id}/~/revisions/x/`,
      `${h.config.appUrl}/o/${o}/c/nope/`,
      `${h.config.appUrl}/o/someone-else/c/${collection.id}/`,
      `https://elsewhere.example/s/${space.id}/`,
    ]) {
      restError(await byUrl(admin, url), 404);
    }
    restError(await byUrl(admin, 'not a url'), 400, 'url');
    restError(await byUrl(admin, `${h.config.appUrl}/s/%E0%A4%A/`), 400, 'url');
    restError(await byUrl(admin, `${h.config.appUrl}/s/${'x'.repeat(5000)}`), 400, 'url');
    restError(await admin.rest('GET', '/v1/urls/content'), 400, 'url');

    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    restError(await byUrl(outsider, space.urls.app), 404);
    restError(await byUrl(outsider, collection.urls.app), 404);
    const guest = await buildMember(h, o, null);
    restError(await byUrl(guest, space.urls.app), 404);
    // A member who may read a space reads it by URL; a private space of theirs only by those who may.
    const member = await buildMember(h, o, 'read');
    expectOk(await byUrl(member, space.urls.app));
    const unseen = await buildSpaceWithLevel(admin, o, 'read', { title: 'Private' });
    expect((await byUrl(member, unseen.urls.app)).status).toBe((await member.rest('GET', `/v1/spaces/${unseen.id}`)).status);
  });
});
