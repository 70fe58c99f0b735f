// Site redirects (GitBook's SiteRedirect): the rules through both doors, who may read and change them,
// the URL lookup following them for paths that are no page, and old paths of pages a merge moved or
// renamed redirecting by themselves.
import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData, gqlError, restError } from '../support/assertions.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';
import { anonymous, useHarness, type Caller } from '../support/harness.ts';

const h = useHarness();

async function mergeChanges(admin: Caller, spaceId: string, changes: unknown[]) {
  const cr = expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' }), 201);
  expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes }));
  return expectOk(await admin.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).revision as string;
}

/** Pages of a space's content by path: `{ path: id }`, at any depth. */
async function pagesByPath(admin: Caller, spaceId: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = (pages: any[]) => pages.forEach((p) => ((out[p.path] = p.id), walk(p.pages ?? [])));
  walk(expectOk(await admin.rest('GET', `/v1/spaces/${spaceId}/content/pages`)).pages);
  return out;
}

/** A published site of two spaces ("Guides", the default section, and "API"), with pages. */
async function publishedSite() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Redirects');
  const spaces = [];
  for (const title of ['Guides', 'API']) {
    const space = await buildSpace(admin, o, { title });
    await mergeChanges(admin, space.id, [
      { operation: 'insert_page', ref: 'start', title: 'Getting started', document: { markdown: `# ${title}` } },
      { operation: 'insert_page', ref: 'setup', title: 'Setup', document: { markdown: '# Setup' } },
      { operation: 'insert_page', title: 'Install', into: 'setup', document: { markdown: '# Install' } },
    ]);
    spaces.push(space);
  }
  const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs', spaces: spaces.map((s) => s.id) }), 201);
  expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
  const sections = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/sections`)).items;
  const base = `${h.config.publishedUrl}/${o}/${site.id}`;
  return { admin, o, site, spaces, sections, base, path: `/v1/orgs/${o}/sites/${site.id}` };
}

const lookup = async (url: string) => {
  const res = await h.app.fetch('http://localhost/v1/urls/published', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
  return { status: res.status, body: await res.json() };
};

describe('site redirects: the rules', () => {
  it('create, list, find by source, update, delete through REST, in GitBook shapes', async () => {
    const { admin, path, sections, spaces, base } = await publishedSite();
    const siteSpaces = sections[1].siteSpaces;
    const guides = await pagesByPath(admin, spaces[0].id);
    const made = [];
    for (const [source, destination] of [
      ['/old', { kind: 'external', url: 'https://example.com/new' }],
      ['/to-api', { kind: 'site-section', siteSectionId: sections[1].id }],
      ['/to-api-space', { kind: 'site-space', siteSpaceId: siteSpaces[0].id }],
      ['/to-install', { kind: 'path', spaceId: spaces[0].id, path: 'setup/install' }],
    ] as const) {
      const res = await admin.rest('POST', `${path}/redirects`, { source, destination });
      made.push(expectOk(res, 201, 'createSiteRedirect'));
    }
    expect(made[0]).toMatchObject({ object: 'site-redirect', source: '/old', draft: false, captureWildcard: false, permanent: false, destination: { kind: 'external', url: 'https://example.com/new' } });
    expect(made[0].updatedAt).toBeUndefined();
    // A page given by its path is stored as the page (it follows the page when it moves).
    expect(made[3].destination).toEqual({ kind: 'site-page', siteSpaceId: sections[0].siteSpaces[0].id, pageId: guides['setup/install'] });

    const listed = await admin.rest('GET', `${path}/redirects`);
    expectOk(listed, 200, 'listSiteRedirects');
    expect(listed.body.count).toBe(4);
    // Keyset pages, in the order asked for; a search on the source; drafts apart.
    const first = expectOk(await admin.rest('GET', `${path}/redirects?orderBy=source&limit=3`));
    expect(first.items.map((r: any) => r.source)).toEqual(['/old', '/to-api', '/to-api-space']);
    const second = expectOk(await admin.rest('GET', `${path}/redirects?orderBy=source&limit=3&page=${first.next.page}`));
    expect(second.items.map((r: any) => r.source)).toEqual(['/to-install']);
    expect(second.next).toBeUndefined();
    expect(expectOk(await admin.rest('GET', `${path}/redirects?search=api`)).items.map((r: any) => r.source).sort()).toEqual(['/to-api', '/to-api-space']);
    expect(expectOk(await admin.rest('GET', `${path}/redirects?draft=true`)).count).toBe(0);

    const found = await admin.rest('GET', `${path}/redirect?source=${encodeURIComponent('/to-install')}`);
    expectOk(found, 200, 'getSiteRedirectBySource');
    expect(found.body).toMatchObject({ redirect: { id: made[3].id }, target: `${base}/setup/install` });
    expect(expectOk(await admin.rest('GET', `${path}/redirect?source=/to-api`)).target).toBe(`${base}/${sections[1].path}`);
    restError(await admin.rest('GET', `${path}/redirect?source=/nothing`), 404);

    h.clock.advance(1000);
    const updated = await admin.rest('PATCH', `${path}/redirects/${made[0].id}`, { permanent: true, destination: { kind: 'site-page', siteSpaceId: sections[0].siteSpaces[0].id, pageId: guides['getting-started'] } });
    expectOk(updated, 200, 'updateSiteRedirectById');
    expect(updated.body).toMatchObject({ source: '/old', permanent: true, updatedAt: h.clock.now().toISOString() });
    expect(expectOk(await admin.rest('GET', `${path}/redirects?orderBy=updatedAt`)).items[0].id).toBe(made[0].id);

    const deleted = await admin.rest('DELETE', `${path}/redirects/${made[0].id}`);
    expect(deleted.status).toBe(205);
    expect(validateGitBookResponse('deleteSiteRedirectById', 205, deleted.text)).toEqual([]);
    const again = await admin.rest('DELETE', `${path}/redirects/${made[0].id}`);
    expect(again.status).toBe(204);
    expect(validateGitBookResponse('deleteSiteRedirectById', 204, again.text)).toEqual([]);
    restError(await admin.rest('PATCH', `${path}/redirects/${made[0].id}`, { permanent: false }), 404);
  });

  it('the same through GraphQL', async () => {
    const { admin, o, site } = await publishedSite();
    const ids = { o, s: site.id };
    const created = gqlData(
      await admin.gql('mutation($o: String!, $s: String!, $d: JSON!) { createSiteRedirect(organizationId: $o, siteId: $s, source: "/gql*", destination: $d, captureWildcard: true) { id source captureWildcard destination } }', {
        ...ids,
        d: { kind: 'external', url: 'https://example.com/' },
      }),
      'createSiteRedirect',
    );
    expect(created).toMatchObject({ source: '/gql*', captureWildcard: true, destination: { kind: 'external' } });
    const list = gqlData(await admin.gql('query($o: String!, $s: String!) { siteRedirects(organizationId: $o, siteId: $s) { count items { id } } }', ids), 'siteRedirects');
    expect(list).toEqual({ count: 1, items: [{ id: created.id }] });
    const bySource = gqlData(await admin.gql('query($o: String!, $s: String!) { siteRedirectBySource(organizationId: $o, siteId: $s, source: "/gql*") { target redirect { id } } }', ids), 'siteRedirectBySource');
    expect(bySource).toEqual({ target: 'https://example.com/', redirect: { id: created.id } });
    const deleted = await admin.gql(`mutation($o: String!, $s: String!) { deleteSiteRedirect(organizationId: $o, siteId: $s, siteRedirectId: "${created.id}") }`, ids);
    expect(gqlData(deleted, 'deleteSiteRedirect')).toBe(true);
    gqlError(await admin.gql('mutation($o: String!, $s: String!) { createSiteRedirect(organizationId: $o, siteId: $s, source: "no-slash", destination: {kind: "external", url: "https://x.example"}) { id } }', ids), 'BAD_REQUEST', 'source');
  });

  it('bad inputs are a 400 naming the field, before anything is stored; a duplicate source is a 409', async () => {
    const { admin, path, sections } = await publishedSite();
    const external = { kind: 'external', url: 'https://example.com' };
    for (const [body, field] of [
      [{ source: 'old', destination: external }, 'source'],
      [{ source: `/${'a'.repeat(512)}`, destination: external }, 'source'],
      [{ source: '/a*b', destination: external }, 'source'],
      [{ source: '/a b', destination: external }, 'source'],
      [{ source: '/ok', destination: { kind: 'elsewhere' } }, 'destination.kind'],
      [{ source: '/ok', destination: { kind: 'external', url: 'ftp://example.com' } }, 'destination.url'],
      [{ source: '/ok', destination: { kind: 'external', url: `https://example.com/${'a'.repeat(2100)}` } }, 'destination'],
      [{ source: '/ok', destination: { kind: 'site-section', siteSectionId: 'nope' } }, 'destination.siteSectionId'],
      [{ source: '/ok', destination: { kind: 'site-page', siteSpaceId: sections[0].siteSpaces[0].id, pageId: 'nope' } }, 'destination.pageId'],
      [{ source: '/ok', destination: { kind: 'path', spaceId: 'nope', path: 'x' } }, 'destination.spaceId'],
    ] as const) {
      restError(await admin.rest('POST', `${path}/redirects`, body), 400, field);
    }
    expect(expectOk(await admin.rest('GET', `${path}/redirects`)).count).toBe(0);
    expectOk(await admin.rest('POST', `${path}/redirects`, { source: '/ok', destination: external }), 201);
    restError(await admin.rest('POST', `${path}/redirects`, { source: '/ok', destination: external }), 409);
    // A draft of the same source is another rule.
    expectOk(await admin.rest('POST', `${path}/redirects`, { source: '/ok', draft: true, destination: external }), 201);
    restError(await admin.rest('GET', `${path}/redirect?source=${encodeURIComponent('a b')}`), 400, 'source');
    restError(await admin.rest('GET', `${path}/redirects?orderBy=title`), 400, 'orderBy');
  });

  it("members read them, the site's managers change them, guests and outsiders are refused", async () => {
    const { admin, o, path } = await publishedSite();
    const rule = expectOk(await admin.rest('POST', `${path}/redirects`, { source: '/kept', destination: { kind: 'external', url: 'https://example.com' } }), 201);
    const reader = await buildMember(h, o, 'read');
    const guest = await buildMember(h, o, null);
    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    const writes: [string, string, unknown][] = [
      ['POST', `${path}/redirects`, { source: '/x', destination: { kind: 'external', url: 'https://example.com' } }],
      ['PUT', `${path}/redirects`, { redirects: [{ source: '/x', destination: null }] }],
      ['PATCH', `${path}/redirects/${rule.id}`, { permanent: true }],
      ['DELETE', `${path}/redirects/${rule.id}`, undefined],
    ];
    const reads: [string, string][] = [
      ['GET', `${path}/redirects`],
      ['GET', `${path}/redirect?source=/kept`],
    ];
    for (const [method, url] of reads) expectOk(await reader.rest(method, url));
    for (const [method, url, body] of writes) restError(await reader.rest(method, url, body), 403);
    for (const [method, url] of reads) restError(await guest.rest(method, url), 403);
    for (const [method, url, body] of [...reads, ...writes]) {
      restError(await outsider.rest(method, url, body), 404);
      restError(await anonymous(h).rest(method, url, body), 401);
    }
    gqlError(await reader.gql(`mutation { deleteSiteRedirect(organizationId: "${o}", siteId: "${rule.siteId ?? path.split('/').pop()}", siteRedirectId: "${rule.id}") }`), 'FORBIDDEN');
    expect(expectOk(await admin.rest('GET', `${path}/redirects`)).items).toEqual([rule]);
  });

  it('bulk upsert: creates, updates, deletes and publishes in one transaction, each with its status', async () => {
    const { admin, path, sections } = await publishedSite();
    const external = (url: string) => ({ kind: 'external', url });
    const first = await admin.rest('PUT', `${path}/redirects`, {
      redirects: [
        { source: '/a', destination: external('https://example.com/a') },
        { source: '/b', destination: external('https://example.com/b'), permanent: true },
        { source: '/c', intent: 'draft', destination: { kind: 'site-section', siteSectionId: sections[1].id } },
        { source: '/d', destination: { kind: 'site-section', siteSectionId: 'nope' } },
      ],
    });
    expectOk(first, 200, 'bulkUpsertSiteRedirects');
    expect(first.body.results.map((r: any) => [r.status, r.source, r.draft])).toEqual([
      ['created', '/a', false],
      ['created', '/b', false],
      ['created', '/c', true],
      ['error', '/d', false],
    ]);
    expect(first.body.results[3].error).toContain('destination.siteSectionId');
    const second = await admin.rest('PUT', `${path}/redirects`, {
      redirects: [
        { source: '/a', destination: external('https://example.com/a2') },
        { source: '/b', destination: null },
        { source: '/c', intent: 'publish' },
        { source: '/zz', destination: null },
      ],
    });
    expectOk(second, 200, 'bulkUpsertSiteRedirects');
    expect(second.body.results.map((r: any) => r.status)).toEqual(['updated', 'deleted', 'published', 'error']);
    expect(second.body.results[0].id).toBe(first.body.results[0].id);
    const live = expectOk(await admin.rest('GET', `${path}/redirects?orderBy=source`)).items;
    expect(live.map((r: any) => [r.source, r.destination.kind])).toEqual([
      ['/a', 'external'],
      ['/c', 'site-section'],
    ]);
    expect(live[0].destination.url).toBe('https://example.com/a2');
    expect(expectOk(await admin.rest('GET', `${path}/redirects?draft=true`)).count).toBe(0);
    // A malformed item refuses the whole request; so do too many.
    restError(await admin.rest('PUT', `${path}/redirects`, { redirects: [{ source: '/e', destination: null }, { source: 'bad', destination: null }] }), 400, 'redirects[1].source');
    restError(await admin.rest('PUT', `${path}/redirects`, { redirects: [{ source: '/e' }] }), 400, 'redirects[0].destination');
    const many = Array.from({ length: 501 }, (_, i) => ({ source: `/p${i}`, destination: null }));
    restError(await admin.rest('PUT', `${path}/redirects`, { redirects: many }), 400, 'redirects');
    expect(expectOk(await admin.rest('GET', `${path}/redirects`)).count).toBe(2);
  });
});

describe('the URL lookup follows them', () => {
  it('a path that is no page: the rule, exact or by prefix; a page wins over a rule; drafts do not count', async () => {
    const { admin, path, base, sections } = await publishedSite();
    const make = (body: object) => admin.rest('POST', `${path}/redirects`, body);
    expectOk(await make({ source: '/gone', destination: { kind: 'external', url: 'https://example.com/elsewhere' } }), 201);
    expectOk(await make({ source: '/legacy/*', captureWildcard: true, destination: { kind: 'site-section', siteSectionId: sections[1].id } }), 201);
    expectOk(await make({ source: '/setup', destination: { kind: 'external', url: 'https://example.com/never' } }), 201);
    expectOk(await make({ source: '/drafted', draft: true, destination: { kind: 'external', url: 'https://example.com/draft' } }), 201);
    const site = (await lookup(`${base}/`)).body.site;

    const external = await lookup(`${base}/gone`);
    expect(external.body).toEqual({ target: 'external', site, redirect: 'https://example.com/elsewhere' });
    expect(validateGitBookResponse('resolvePublishedContentByUrl', 200, external.body)).toEqual([]);
    const prefixed = await lookup(`${base}/legacy/setup/install`);
    expect(prefixed.body).toEqual({ target: 'content', redirect: `${base}/${sections[1].path}/setup/install` });
    expect(validateGitBookResponse('resolvePublishedContentByUrl', 200, prefixed.body)).toEqual([]);
    // `/setup` is a page: content wins. A draft rule is not applied.
    expect((await lookup(`${base}/setup`)).body).toMatchObject({ pathname: 'setup' });
    expect((await lookup(`${base}/drafted`)).body).toMatchObject({ pathname: 'drafted' });
  });

  it('a redirect costs at most 3 statements', async () => {
    const { admin, path, base, sections } = await publishedSite();
    expectOk(await admin.rest('POST', `${path}/redirects`, { source: '/old-install', destination: { kind: 'path', spaceId: sections[1].siteSpaces[0].space.id, path: 'setup/install' } }), 201);
    await lookup(`${base}/`);
    await new Promise((r) => setTimeout(r, 50));
    const before = h.store.queries.length;
    expect((await lookup(`${base}/old-install`)).body).toEqual({ target: 'content', redirect: `${base}/${sections[1].path}/setup/install` });
    await new Promise((r) => setTimeout(r, 50));
    expect(h.store.queries.length - before).toBeLessThanOrEqual(3);
  });
});

describe('automatic redirects: old paths of moved and renamed pages', () => {
  it('after a merge that renames a page, its old path (and its children\'s) lead to the new ones', async () => {
    const { admin, spaces, base, sections } = await publishedSite();
    const pages = await pagesByPath(admin, spaces[0].id);
    await mergeChanges(admin, spaces[0].id, [{ operation: 'update_page', page: pages.setup, slug: 'configuration' }]);
    expect((await lookup(`${base}/setup`)).body).toEqual({ target: 'content', redirect: `${base}/configuration` });
    expect((await lookup(`${base}/setup/install`)).body).toEqual({ target: 'content', redirect: `${base}/configuration/install` });
    expect((await lookup(`${base}/configuration/install`)).body).toMatchObject({ pathname: 'configuration/install' });
    // In another section: relative to its base path.
    const api = await pagesByPath(admin, spaces[1].id);
    await mergeChanges(admin, spaces[1].id, [{ operation: 'update_page', page: api['getting-started'], slug: 'quickstart' }]);
    expect((await lookup(`${base}/${sections[1].path}/getting-started`)).body).toEqual({ target: 'content', redirect: `${base}/${sections[1].path}/quickstart` });
    // Renamed again: the first path follows it to where it is now.
    await mergeChanges(admin, spaces[0].id, [{ operation: 'update_page', page: pages.setup, slug: 'settings' }]);
    expect((await lookup(`${base}/setup/install`)).body).toEqual({ target: 'content', redirect: `${base}/settings/install` });
    expect((await lookup(`${base}/configuration`)).body).toEqual({ target: 'content', redirect: `${base}/settings` });
  });

  it('after a merge that moves a page; a new page at the old path wins; a deleted page leaves nothing', async () => {
    const { admin, spaces, base } = await publishedSite();
    const pages = await pagesByPath(admin, spaces[0].id);
    await mergeChanges(admin, spaces[0].id, [{ operation: 'update_page', page: pages['setup/install'], into: pages['getting-started'] }]);
    const moved = await lookup(`${base}/setup/install`);
    expect(moved.body).toEqual({ target: 'content', redirect: `${base}/getting-started/install` });
    expect(validateGitBookResponse('resolvePublishedContentByUrl', 200, moved.body)).toEqual([]);
    // One row per changed path, nothing for the pages that stayed.
    expect(await h.db.pagePathRedirect.findMany({ where: { spaceId: spaces[0].id }, select: { path: true } })).toEqual([{ path: 'setup/install' }]);

    await mergeChanges(admin, spaces[0].id, [{ operation: 'insert_page', title: 'Install', into: pages.setup, document: { markdown: '# New install' } }]);
    expect((await lookup(`${base}/setup/install`)).body).toMatchObject({ pathname: 'setup/install' });
    expect(await h.db.pagePathRedirect.count({ where: { spaceId: spaces[0].id } })).toBe(0);

    await mergeChanges(admin, spaces[0].id, [{ operation: 'update_page', page: pages['getting-started'], slug: 'intro' }]);
    await mergeChanges(admin, spaces[0].id, [{ operation: 'delete_page', page: pages['getting-started'] }]);
    expect((await lookup(`${base}/getting-started`)).body).toMatchObject({ pathname: 'getting-started' });
  });
});
