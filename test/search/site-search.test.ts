// Site search (GitBook's searchSiteContent): a site's published content, through both doors, as its
// members and as the holder of its apiToken see it — and nothing more.
import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectGitBookShape, expectOk, gqlData, gqlError, restError } from '../support/assertions.ts';
import { anonymous, callerFor, useHarness, type Caller } from '../support/harness.ts';
import { ROUTE_BUDGETS } from '../support/route-budgets.ts';

const h = useHarness();

/** Merges `changes` into the space's content; the pages' IDs by ref. */
async function publish(caller: Caller, spaceId: string, changes: object[]) {
  const cr = expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests`, {}), 201);
  const edited = expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { changes }));
  expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`));
  return Object.fromEntries(edited.changes.filter((c: any) => c.ref).map((c: any) => [c.ref, c.page.id as string])) as Record<string, string>;
}

/**
 * A published site of two sections — Guides (the default) and API, shown only to beta visitors — and,
 * beside it, content it does not publish: a space of the organization outside the site, and an open
 * change request of Guides. Every one of them mentions "orbital".
 */
async function world() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Publisher');
  const guides = await buildSpace(admin, o, { title: 'Guides' });
  const api = await buildSpace(admin, o, { title: 'API' });
  const outside = await buildSpace(admin, o, { title: 'Internal' });
  const guidePages = await publish(admin, guides.id, [
    { operation: 'insert_page', ref: 'ops', title: 'Operations', document: { markdown: 'Running things.' } },
    { operation: 'insert_page', ref: 'deploy', into: 'ops', title: 'Deploying', description: 'Ship it', document: { markdown: 'Deploy with the orbital launcher.\n\n## Rollback\n\nRoll back an orbital release.' } },
    { operation: 'insert_page', ref: 'faq', title: 'FAQ', document: { markdown: 'Questions about billing.' } },
  ]);
  await publish(admin, api.id, [{ operation: 'insert_page', ref: 'ref', title: 'Orbital API', document: { markdown: 'The orbital endpoints.' } }]);
  await publish(admin, outside.id, [{ operation: 'insert_page', title: 'Secret orbital plans', document: { markdown: 'Internal orbital roadmap.' } }]);
  // Unmerged: written in a change request of a published space.
  const draft = expectOk(await admin.rest('POST', `/v1/spaces/${guides.id}/change-requests`, { subject: 'Draft' }), 201);
  expectOk(
    await admin.rest('POST', `/v1/spaces/${guides.id}/change-requests/${draft.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Unreleased orbital zeppelin', document: { markdown: 'Zeppelin orbital drafts.' } }],
    }),
  );

  const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs', spaces: [guides.id, api.id] }), 201);
  const path = `/v1/orgs/${o}/sites/${site.id}`;
  const sections = expectOk(await admin.rest('GET', `${path}/sections`)).items;
  expectOk(await admin.rest('PUT', `${path}/adaptive-schema`, { jsonSchema: { type: 'object', properties: { beta: { type: 'boolean', description: 'In the beta' } }, additionalProperties: false } }));
  expectOk(await admin.rest('PATCH', `${path}/sections/${sections[1].id}`, { condition: 'visitor.claims.unsigned.beta == true' }));
  expectOk(await admin.rest('POST', `${path}/publish`));
  const base = `${h.config.publishedUrl}/${o}/${site.id}`;
  const readerFor = async (unsignedClaims?: Record<string, boolean>) => {
    const found = await anonymous(h).rest('POST', '/v1/urls/published', { url: `${base}/`, ...(unsignedClaims ? { visitor: { unsignedClaims } } : {}) });
    return callerFor(h, expectOk(found).apiToken);
  };
  return { admin, o, site, path, sections, guides, api, outside, guidePages, readerFor };
}

const search = (caller: Caller, path: string, body: Record<string, unknown>, extra = '') => caller.rest('POST', `${path}/search${extra}`, body);
const GQL = `query($o: String!, $s: String!, $q: String!, $scope: SiteSearchScope, $limit: Int, $page: String) {
  siteSearch(organizationId: $o, siteId: $s, query: $q, scope: $scope, limit: $limit, page: $page) {
    count next { page } items { type id title score pages { id title path rank resultType ancestors { title } sections { id title body } } }
  } }`;
/** [space title, page titles] of an answer. */
const found = (body: any) => body.items.map((space: any) => [space.title, space.pages.map((p: any) => p.title)]);

describe('site search', () => {
  it("members search every site space as published, in GitBook's shape; the GraphQL door answers the same", async () => {
    const w = await world();
    const res = await search(w.admin, w.path, { query: 'orbital' });
    const body = expectOk(res, 200, 'searchSiteContent');
    expect(body.count).toBe(2);
    expect(found(body).sort()).toEqual([
      ['API', ['Orbital API']],
      ['Guides', ['Deploying']],
    ]);
    const guides = body.items.find((s: any) => s.id === w.guides.id);
    expect(guides).toMatchObject({ type: 'space', title: 'Guides' });
    expect(guides.pages[0]).toMatchObject({ id: w.guidePages.deploy, path: 'operations/deploying', description: 'Ship it', ancestors: [{ title: 'Operations' }], resultType: 'section' });
    expect(guides.pages[0].sections.map((s: any) => s.title).sort()).toEqual(['Deploying', 'Rollback']);
    expect(body.items.flatMap((s: any) => s.pages.map((p: any) => p.rank)).sort()).toEqual([1, 2]);

    const graph = gqlData(await w.admin.gql(GQL, { limit: 10, o: w.o, s: w.site.id, q: 'orbital' }), 'siteSearch');
    expect(graph.count).toBe(2);
    expect(found(graph)).toEqual(found(body));
    expect(graph.items[0].pages[0].sections.map((s: any) => s.body)).toEqual(body.items[0].pages[0].sections.map((s: any) => s.body));
  });

  it('finds published content only: neither a change request\'s unmerged pages nor a space outside the site', async () => {
    const w = await world();
    const reader = await w.readerFor({ beta: true });
    for (const caller of [w.admin, reader]) {
      expect(expectOk(await search(caller, w.path, { query: 'zeppelin' })).count).toBe(0);
      expect(expectOk(await search(caller, w.path, { query: 'roadmap' })).count).toBe(0);
      const ids = expectOk(await search(caller, w.path, { query: 'orbital', scope: { mode: 'all' } })).items.map((s: any) => s.id);
      expect(ids).not.toContain(w.outside.id);
    }
    // The organization search, which reads current content too, does find the outside space.
    expect(expectOk(await w.admin.rest('GET', `/v1/orgs/${w.o}/search?query=roadmap`)).count).toBe(1);
  });

  it("the apiToken's holder searches only the sections and site spaces shown to them", async () => {
    const w = await world();
    const visitor = await w.readerFor();
    const res = await search(visitor, w.path, { query: 'orbital' });
    expectGitBookShape('searchSiteContent', res.status, res.body);
    expect(found(res.body)).toEqual([['Guides', ['Deploying']]]);
    // Named explicitly, a hidden site space is as unknown as any other ID.
    const apiSiteSpace = w.sections[1].siteSpaces[0].id;
    expect(expectOk(await search(visitor, w.path, { query: 'orbital', scope: { mode: 'specific', siteSpaceIds: [apiSiteSpace] } })).count).toBe(0);
    // A site space whose own condition fails is hidden too.
    const beta = await w.readerFor({ beta: true });
    expect(found(expectOk(await search(beta, w.path, { query: 'orbital api' })))).toEqual([['API', ['Orbital API']]]);
    await h.db.siteSpace.update({ where: { id: apiSiteSpace }, data: { condition: 'visitor.claims.unsigned.beta == false' } });
    expect(expectOk(await search(beta, w.path, { query: 'orbital api' })).count).toBe(0);
    // Through GraphQL with the token.
    const graph = gqlData(await visitor.gql(GQL, { limit: 10, o: w.o, s: w.site.id, q: 'orbital' }), 'siteSearch');
    expect(found(graph)).toEqual([['Guides', ['Deploying']]]);
  });

  it('scopes: default (each section\'s default, the current site space in its section), restricted, specific, and GitBook\'s deprecated modes', async () => {
    const w = await world();
    const [guidesSiteSpace, apiSiteSpace] = [w.sections[0].siteSpaces[0].id, w.sections[1].siteSpaces[0].id];
    const spaces = async (body: Record<string, unknown>) => expectOk(await search(w.admin, w.path, { query: 'orbital', ...body })).items.map((s: any) => s.title).sort();
    expect(await spaces({ scope: { mode: 'default' } })).toEqual(['API', 'Guides']);
    expect(await spaces({ scope: { mode: 'default', currentSiteSpace: apiSiteSpace, restrictTo: 'currentSiteSpace' } })).toEqual(['API']);
    expect(await spaces({ scope: { mode: 'default', currentSiteSpace: apiSiteSpace, restrictTo: 'otherSiteSpaces' } })).toEqual(['Guides']);
    expect(await spaces({ scope: { mode: 'specific', siteSpaceIds: [guidesSiteSpace] } })).toEqual(['Guides']);
    expect(await spaces({ mode: 'specific', siteSpaceIds: [apiSiteSpace] })).toEqual(['API']);
    expect(await spaces({ mode: 'current', siteSpaceId: guidesSiteSpace })).toEqual(['API', 'Guides']);
    expect(await spaces({ mode: 'all' })).toEqual(['API', 'Guides']);
  });

  it('pages through ranked pages: rank kept across pages, nothing repeated or skipped', async () => {
    const w = await world();
    await publish(w.admin, w.api.id, Array.from({ length: 5 }, (_, i) => ({ operation: 'insert_page', title: `Gadget ${i}`, document: { markdown: `orbital gadget ${'gadget '.repeat(i)}` } })));
    const all = expectOk(await search(w.admin, w.path, { query: 'orbital' }));
    expect(all.count).toBe(7);
    const ranked = all.items.flatMap((s: any) => s.pages.map((p: any) => [p.id, p.rank]));
    const paged: [string, number][] = [];
    let page: string | undefined;
    do {
      const part = expectOk(await search(w.admin, w.path, { query: 'orbital' }, `?limit=3${page ? `&page=${page}` : ''}`), 200, 'searchSiteContent');
      paged.push(...part.items.flatMap((s: any) => s.pages.map((p: any) => [p.id, p.rank] as [string, number])));
      page = part.next?.page;
    } while (page);
    expect(paged.sort((a, b) => a[1] - b[1])).toEqual(ranked.sort((a: any, b: any) => a[1] - b[1]));
    expect(paged.map(([, rank]) => rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("a reader's token opens its own site only; an unpublished site is closed to readers; outsiders and unknown sites get 404; guests 403", async () => {
    const w = await world();
    const visitor = await w.readerFor();
    const other = expectOk(await w.admin.rest('POST', `/v1/orgs/${w.o}/sites`, { title: 'Site B', spaces: [w.outside.id] }), 201);
    expectOk(await w.admin.rest('POST', `/v1/orgs/${w.o}/sites/${other.id}/publish`));
    const otherPath = `/v1/orgs/${w.o}/sites/${other.id}`;
    restError(await search(visitor, otherPath, { query: 'orbital' }), 404);
    gqlError(await visitor.gql(GQL, { limit: 10, o: w.o, s: other.id, q: 'orbital' }), 'NOT_FOUND');
    // Its other reads stay closed.
    expect((await visitor.rest('GET', `/v1/orgs/${w.o}/search?query=orbital`)).status).toBe(403);

    expectOk(await w.admin.rest('POST', `${w.path}/unpublish`));
    restError(await search(visitor, w.path, { query: 'orbital' }), 404);
    // Members still search it (a preview of what publishing it shows).
    expect(expectOk(await search(w.admin, w.path, { query: 'orbital' })).count).toBe(2);

    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    const refused = restError(await search(outsider, w.path, { query: 'orbital' }), 404);
    expect(refused.replace(w.site.id, 'X')).toBe(restError(await search(outsider, `/v1/orgs/${w.o}/sites/nope`, { query: 'orbital' }), 404).replace('nope', 'X'));
    gqlError(await outsider.gql(GQL, { limit: 10, o: w.o, s: w.site.id, q: 'orbital' }), 'NOT_FOUND');
    restError(await search(w.admin, `/v1/orgs/${w.o}/sites/nope`, { query: 'orbital' }), 404);
    const guest = await buildMember(h, w.o, null);
    restError(await search(guest, w.path, { query: 'orbital' }), 403);
    restError(await anonymous(h).rest('POST', `${w.path}/search`, { query: 'orbital' }), 401);
  });

  it('400 naming the field: the query (empty, too long), the scope, the cursor — before anything is read', async () => {
    const w = await world();
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ query: '' }, 'query'],
      [{ query: 'x'.repeat(513) }, 'query'],
      [{}, 'query'],
      [{ query: 'orbital', scope: { mode: 'everything' } }, 'scope.mode'],
      [{ query: 'orbital', scope: { mode: 'default', restrictTo: 'currentSiteSpace' } }, 'scope.currentSiteSpace'],
      [{ query: 'orbital', scope: { mode: 'specific' } }, 'scope.siteSpaceIds'],
      [{ query: 'orbital', scope: { mode: 'specific', siteSpaceIds: Array.from({ length: 101 }, (_, i) => `s${i}`) } }, 'scope.siteSpaceIds'],
      [{ query: 'orbital', mode: 'current' }, 'siteSpaceId'],
      [{ query: 'orbital' }, 'page', '?page=not-a-cursor'],
      [{ query: 'orbital' }, 'limit', '?limit=0'],
    ];
    for (const [body, field, extra] of cases) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const before = h.store.queries.length;
      const res = await search(w.admin, w.path, body, extra);
      restError(res, 400, field);
      // Only the token's lookup ran.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(h.store.queries.length - before, field).toBeLessThanOrEqual(1);
    }
    gqlError(await w.admin.gql(GQL, { limit: 10, o: w.o, s: w.site.id, q: 'x'.repeat(513) }), 'BAD_REQUEST', 'query');
    // Outsiders learn nothing more from a bad query than a 400.
    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    restError(await search(outsider, w.path, { query: '' }), 400, 'query');
  });

  it('costs the same statements for 2 and 40 results, within the route budget (REST and GraphQL)', async () => {
    const statements = async (action: () => Promise<unknown>) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const before = h.store.queries.length;
      await action();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return h.store.queries.length - before;
    };
    const w = await world();
    const visitor = await w.readerFor();
    const few = await statements(() => search(w.admin, w.path, { query: 'orbital' }));
    await publish(w.admin, w.guides.id, Array.from({ length: 38 }, (_, i) => ({ operation: 'insert_page', title: `Gadget ${i}`, document: { markdown: `## Part\n\norbital gadget ${i}` } })));
    await search(w.admin, w.path, { query: 'warm' });
    const many = await statements(() => search(w.admin, w.path, { query: 'orbital' }, '?limit=100'));
    expect(expectOk(await search(w.admin, w.path, { query: 'orbital' }, '?limit=100')).count).toBe(40);
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(ROUTE_BUDGETS['POST /v1/orgs/{o}/sites/{st}/search']);
    // A reader: the site with its site spaces in one statement, and no membership (a member's site
    // statement reads the organization's access record with the site, in one join).
    expect(await statements(() => search(visitor, w.path, { query: 'orbital' }, '?limit=100'))).toBe(many - 1);
    const gql = () =>
      w.admin.gql('query($o: String!, $s: String!) { siteSearch(organizationId: $o, siteId: $s, query: "orbital", limit: 40) { count items { id pages { id sections { id } } } } }', { o: w.o, s: w.site.id });
    expect(gqlData(await gql(), 'siteSearch').count).toBe(40);
    expect(await statements(gql)).toBe(many);
  });
});
