import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller } from '../support/harness.ts';

const h = useHarness({ publishedUrl: 'https://docs.example.com' });

const sites = (o: string) => `/v1/orgs/${o}/sites`;

/** An organization with two spaces, a site publishing both, and members of each role that matters. */
async function world() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const guides = await buildSpace(admin, o, { title: 'Guides' });
  const api = await buildSpace(admin, o, { title: 'API reference' });
  const site = expectOk(await admin.rest('POST', sites(o), { title: 'Developer docs', spaces: [guides.id, api.id] }), 201, 'createSite');
  const [creator, editor, reader, guest] = [await buildMember(h, o, 'create'), await buildMember(h, o, 'edit'), await buildMember(h, o, 'read'), await buildMember(h, o, null)];
  return { admin, o, guides, api, site, creator, editor, reader, guest, base: `${sites(o)}/${site.id}` };
}

const sectionsOf = async (caller: Caller, base: string) => expectOk(await caller.rest('GET', `${base}/sections`)).items as any[];

describe('sites', () => {
  it('create: unpublished, each space a section (the first the default), GitBook\'s shape', async () => {
    const { site, guides, api, admin, base } = await world();
    expect(site).toMatchObject({
      object: 'site',
      type: 'basic',
      appliedType: 'basic',
      title: 'Developer docs',
      visibility: 'public',
      published: false,
      siteSpaces: 2,
      defaultLevel: 'inherit',
      adaptiveContent: { enabled: false },
      features: expect.arrayContaining([{ id: 'sites-sections', plan: 'basic', frozen: false }]),
      permissions: { view: true, admin: true, edit: true, editAdaptiveSchema: true },
      urls: { location: `${h.config.apiUrl}${base.slice(3)}`, app: expect.stringContaining(site.id), preview: expect.any(String) },
    });
    expect(site.urls.published).toBeUndefined();
    const sections = await sectionsOf(admin, base);
    expect(sections.map((s) => [s.title, s.path, s.default, s.siteSpaces.map((ss: any) => [ss.space.id, ss.default, ss.path])])).toEqual([
      ['Guides', 'guides', true, [[guides.id, true, 'guides']]],
      ['API reference', 'api-reference', false, [[api.id, true, 'api-reference']]],
    ]);
    // Defaults.
    const { admin: a2, organizationId: o2 } = await buildOrganization(h);
    const bare = expectOk(await a2.rest('POST', sites(o2), {}), 201, 'createSite');
    expect(bare).toMatchObject({ title: 'Untitled site', siteSpaces: 0, type: 'basic', visibility: 'public' });
  });

  it('list: paged, filtered by space, title (any case), published and type', async () => {
    const { admin, o, guides, api, site } = await world();
    const other = expectOk(await admin.rest('POST', sites(o), { title: 'Internal handbook', spaces: [api.id], type: 'premium', visibility: 'unlisted' }), 201);
    expectOk(await admin.rest('POST', `${sites(o)}/${other.id}/publish`));
    const ids = async (query: string) => expectOk(await admin.rest('GET', `${sites(o)}${query}`), 200, 'listSites').items.map((s: any) => s.id);
    expect(await ids('')).toEqual([site.id, other.id]);
    expect(await ids(`?space=${guides.id}`)).toEqual([site.id]);
    expect(await ids(`?space=${api.id}`)).toEqual([site.id, other.id]);
    expect(await ids('?title=HANDBOOK')).toEqual([other.id]);
    expect(await ids('?published=true')).toEqual([other.id]);
    expect(await ids('?published=false')).toEqual([site.id]);
    expect(await ids('?type=premium')).toEqual([other.id]);
    expect(await ids('?type=basic&type=premium')).toEqual([site.id, other.id]);
    const first = expectOk(await admin.rest('GET', `${sites(o)}?limit=1`));
    expect(first).toMatchObject({ count: 2, items: [{ id: site.id }], next: { page: expect.any(String) } });
    expect(expectOk(await admin.rest('GET', `${sites(o)}?limit=1&page=${first.next.page}`)).items.map((s: any) => s.id)).toEqual([other.id]);
    restError(await admin.rest('GET', `${sites(o)}?type=gold`), 400, 'type');
    restError(await admin.rest('GET', `${sites(o)}?limit=1001`), 400, 'limit');
    restError(await admin.rest('GET', `${sites(o)}?published=maybe`), 400, 'published');
  });

  it('update: title, visibility, basename (unique in the organization), adaptive content, proxy, defaults; publish and unpublish', async () => {
    const { admin, o, base, site } = await world();
    const patch = (body: object) => admin.rest('PATCH', base, body);
    const updated = expectOk(await patch({ title: 'Docs', visibility: 'share-link', basename: 'developers', adaptiveContent: { enabled: true }, proxy: 'example.com/docs' }), 200, 'updateSiteById');
    expect(updated).toMatchObject({ title: 'Docs', visibility: 'share-link', basename: 'developers', adaptiveContent: { enabled: true }, proxy: { origin: 'example.com/docs' } });
    for (const visibility of ['public', 'unlisted', 'visitor-auth', 'share-link']) expect(expectOk(await patch({ visibility })).visibility).toBe(visibility);

    const published = expectOk(await admin.rest('POST', `${base}/publish`), 200, 'publishSite');
    expect(published).toMatchObject({ published: true, urls: { published: `https://docs.example.com/${o}/developers` } });
    const sections = await sectionsOf(admin, base);
    expect(sections.map((s) => s.urls.published)).toEqual([`https://docs.example.com/${o}/developers`, `https://docs.example.com/${o}/developers/api-reference`]);
    expect(sections[1].siteSpaces[0].urls.published).toBe(`https://docs.example.com/${o}/developers/api-reference`);
    expect(expectOk(await admin.rest('POST', `${base}/unpublish`), 200, 'unpublishSite')).toMatchObject({ published: false });

    // basename: unique in the organization (409), free again once removed.
    const second = expectOk(await admin.rest('POST', sites(o), { title: 'Second' }), 201);
    restError(await admin.rest('PATCH', `${sites(o)}/${second.id}`, { basename: 'developers' }), 409, 'basename');
    expect(expectOk(await patch({ basename: null, proxy: null }))).not.toHaveProperty('basename');
    expect(expectOk(await admin.rest('GET', base))).not.toHaveProperty('proxy');
    expect(expectOk(await admin.rest('PATCH', `${sites(o)}/${second.id}`, { basename: 'developers' })).basename).toBe('developers');
    // The same basename in another organization is fine.
    const { admin: a2, organizationId: o2 } = await buildOrganization(h);
    const elsewhere = expectOk(await a2.rest('POST', sites(o2), { title: 'Elsewhere' }), 201);
    expect(expectOk(await a2.rest('PATCH', `${sites(o2)}/${elsewhere.id}`, { basename: 'developers' })).basename).toBe('developers');

    // Default section and site space.
    expect(expectOk(await patch({ defaultSiteSection: sections[1].id }))).toBeDefined();
    expect((await sectionsOf(admin, base)).map((s) => s.default)).toEqual([false, true]);
    expectOk(await patch({ defaultSiteSpace: sections[0].siteSpaces[0].id }));
    expect((await sectionsOf(admin, base)).map((s) => s.default)).toEqual([true, false]);
    const secondSection = expectOk(await admin.rest('POST', `${sites(o)}/${second.id}/sections`, { spaceId: sections[0].siteSpaces[0].space.id }), 201);
    restError(await patch({ defaultSiteSection: secondSection.id }), 400, 'defaultSiteSection');
    restError(await patch({ defaultSiteSpace: secondSection.siteSpaces[0].id }), 400, 'defaultSiteSpace');
  });

  it('400 at every documented limit of sites, nothing written', async () => {
    const { admin, o, base, api } = await world();
    const before = await h.db.site.count({ where: { organizationId: o } });
    restError(await admin.rest('POST', sites(o), { title: 'A' }), 400, 'title');
    restError(await admin.rest('POST', sites(o), { title: 'x'.repeat(129) }), 400, 'title');
    restError(await admin.rest('POST', sites(o), { title: 'Fine', visibility: 'share_link' }), 400, 'visibility');
    restError(await admin.rest('POST', sites(o), { title: 'Fine', visibility: 'private' }), 400, 'visibility');
    restError(await admin.rest('POST', sites(o), { title: 'Fine', type: 'gold' }), 400, 'type');
    restError(await admin.rest('POST', sites(o), { title: 'Fine', spaces: ['nope'] }), 400, 'spaces');
    restError(await admin.rest('POST', sites(o), { title: 'Fine', spaces: [api.id, api.id] }), 400, 'spaces');
    restError(await admin.rest('POST', sites(o), { title: 'Fine', spaces: api.id }), 400, 'spaces');
    const { admin: a2, organizationId: o2 } = await buildOrganization(h);
    const foreign = await buildSpace(a2, o2);
    restError(await admin.rest('POST', sites(o), { title: 'Fine', spaces: [foreign.id] }), 400, 'spaces');
    expect(await h.db.site.count({ where: { organizationId: o } })).toBe(before);

    restError(await admin.rest('PATCH', base, { title: 'x' }), 400, 'title');
    restError(await admin.rest('PATCH', base, { title: null }), 400, 'title');
    restError(await admin.rest('PATCH', base, { basename: '' }), 400, 'basename');
    restError(await admin.rest('PATCH', base, { basename: 'b'.repeat(101) }), 400, 'basename');
    restError(await admin.rest('PATCH', base, { basename: 'has space' }), 400, 'basename');
    restError(await admin.rest('PATCH', base, { proxy: 'https://example.com/docs' }), 400, 'proxy');
    restError(await admin.rest('PATCH', base, { proxy: 'example.com' }), 400, 'proxy');
    restError(await admin.rest('PATCH', base, { visibility: null }), 400, 'visibility');
    restError(await admin.rest('PATCH', base, { adaptiveContent: { enabled: 'yes' } }), 400, 'adaptiveContent');
    restError(await admin.rest('PATCH', base, { defaultSiteSection: 'nope' }), 400, 'defaultSiteSection');
    restError(await admin.rest('PATCH', base, { defaultSiteSpace: 'nope' }), 400, 'defaultSiteSpace');
    expect(expectOk(await admin.rest('GET', base)).title).toBe('Developer docs');
  });

  it("who may: members with a role read; guests what is granted to them; the create role creates; the organization's admins and the site's creator manage (403 for others)", async () => {
    const { o, base, creator, editor, reader, guest, guides } = await world();
    // A guest lists only the sites granted to them: none here.
    expect(expectOk(await guest.rest('GET', sites(o)))).toMatchObject({ count: 0, items: [] });
    for (const path of [base, `${base}/sections`, `${base}/section-groups`, `${base}/published`, `${base}/share-links`, `${base}/adaptive-schema`, `${base}/site-spaces`]) {
      restError(await guest.rest('GET', path), 403);
    }
    for (const member of [creator, editor, reader]) {
      expect(expectOk(await member.rest('GET', base)).permissions).toMatchObject({ view: true, admin: false, edit: false });
      restError(await member.rest('PATCH', base, { title: 'Mine' }), 403);
      restError(await member.rest('POST', `${base}/publish`), 403);
      restError(await member.rest('DELETE', base), 403);
    }
    for (const member of [editor, reader, guest]) restError(await member.rest('POST', sites(o), { title: 'Mine' }), 403);
    // A creator manages their own site, not others'.
    const own = expectOk(await creator.rest('POST', sites(o), { title: 'Mine' }), 201);
    expect(own.permissions).toMatchObject({ admin: true, edit: true });
    expectOk(await creator.rest('PATCH', `${sites(o)}/${own.id}`, { title: 'Still mine' }));
    expectOk(await creator.rest('POST', `${sites(o)}/${own.id}/sections`, { spaceId: guides.id }), 201);
    expectOk(await creator.rest('DELETE', `${sites(o)}/${own.id}`), 204);
  });

  it('delete: 204, then 404; its sections, groups and share links go with it', async () => {
    const { admin, base, site } = await world();
    expectOk(await admin.rest('POST', `${base}/share-links`, { name: 'Partners' }), 201);
    expectOk(await admin.rest('DELETE', base), 204);
    restError(await admin.rest('GET', base), 404);
    restError(await admin.rest('DELETE', base), 404);
    expect(await h.db.siteSection.count({ where: { siteId: site.id } })).toBe(0);
    expect(await h.db.shareLink.count({ where: { siteId: site.id } })).toBe(0);
  });

  it('deleting a space removes it from sites (a section left with none goes; the next becomes the default); a transfer too', async () => {
    const { admin, o, base, guides, api } = await world();
    expectOk(await admin.rest('DELETE', `/v1/spaces/${guides.id}`), 204);
    const left = await sectionsOf(admin, base);
    expect(left.map((s) => [s.title, s.default])).toEqual([['API reference', true]]);
    expect(expectOk(await admin.rest('GET', base)).siteSpaces).toBe(1);
    // Restoring the space does not put it back.
    expectOk(await admin.rest('POST', `/v1/spaces/${guides.id}/restore`));
    expect((await sectionsOf(admin, base)).length).toBe(1);
    const other = expectOk(await admin.rest('POST', '/v1/orgs', { title: 'Other' }), 201);
    expectOk(await admin.rest('POST', `/v1/spaces/${api.id}/transfer`, { organization: other.id }));
    expect(await sectionsOf(admin, base)).toEqual([]);
    expect(expectOk(await admin.rest('GET', base)).siteSpaces).toBe(0);
    // A collection deleted with its spaces, too.
    const collection = expectOk(await admin.rest('POST', `/v1/orgs/${o}/collections`, { title: 'C' }), 201);
    const inside = await buildSpace(admin, o, { title: 'Inside', parent: collection.id });
    expectOk(await admin.rest('POST', `${base}/sections`, { spaceId: inside.id }), 201);
    expectOk(await admin.rest('DELETE', `/v1/collections/${collection.id}`), 204);
    expect(await sectionsOf(admin, base)).toEqual([]);
  });

  it('the GraphQL door: create, read with nested sections and spaces, update', async () => {
    const { admin, o, guides } = await world();
    const created = gqlData(
      await admin.gql('mutation($o: String!, $s: [String!]) { createSite(organizationId: $o, title: "Via GraphQL", visibility: "unlisted", spaces: $s) { id title visibility siteSpaces published } }', {
        o,
        s: [guides.id],
      }),
      'createSite',
    );
    expect(created).toMatchObject({ title: 'Via GraphQL', visibility: 'unlisted', siteSpaces: 1, published: false });
    const sections = gqlData(
      await admin.gql('query($o: String!, $site: String!) { siteSections(organizationId: $o, siteId: $site) { count items { title default siteSpaces { space { id title } } } } }', {
        o,
        site: created.id,
      }),
      'siteSections',
    );
    expect(sections).toEqual({ count: 1, items: [{ title: 'Guides', default: true, siteSpaces: [{ space: { id: guides.id, title: 'Guides' } }] }] });
    const bad = await admin.gql(`mutation { updateSite(organizationId: "${o}", siteId: "${created.id}", visibility: "private") { id } }`);
    expect(bad.body.errors[0].message).toContain('SiteVisibility');
  });
});

type Ids = { o: string; s: string };
const OPS: RefusalOp<Ids>[] = [
  { name: 'list sites', rest: ({ o }) => ['GET', sites(o)], gql: ({ o }) => ['query($o: String!) { organizationSites(organizationId: $o) { count } }', { o }] },
  { name: 'create a site', rest: ({ o }) => ['POST', sites(o), { title: 'New' }], gql: ({ o }) => ['mutation($o: String!) { createSite(organizationId: $o, title: "New") { id } }', { o }], refuse: 'reader' },
  {
    name: 'get a site',
    rest: ({ o, s }) => ['GET', `${sites(o)}/${s}`],
    gql: ({ o, s }) => ['query($o: String!, $s: String!) { site(organizationId: $o, siteId: $s) { id } }', { o, s }],
    refuse: 'guest',
  },
  {
    name: 'update a site',
    rest: ({ o, s }) => ['PATCH', `${sites(o)}/${s}`, { title: 'Changed' }],
    gql: ({ o, s }) => ['mutation($o: String!, $s: String!) { updateSite(organizationId: $o, siteId: $s, title: "Changed") { id } }', { o, s }],
    refuse: 'reader',
  },
  {
    name: 'delete a site',
    rest: ({ o, s }) => ['DELETE', `${sites(o)}/${s}`],
    gql: ({ o, s }) => ['mutation($o: String!, $s: String!) { deleteSite(organizationId: $o, siteId: $s) }', { o, s }],
    refuse: 'reader',
  },
  {
    name: 'publish a site',
    rest: ({ o, s }) => ['POST', `${sites(o)}/${s}/publish`],
    gql: ({ o, s }) => ['mutation($o: String!, $s: String!) { publishSite(organizationId: $o, siteId: $s) { id } }', { o, s }],
    refuse: 'reader',
  },
  {
    name: 'unpublish a site',
    rest: ({ o, s }) => ['POST', `${sites(o)}/${s}/unpublish`],
    gql: ({ o, s }) => ['mutation($o: String!, $s: String!) { unpublishSite(organizationId: $o, siteId: $s) { id } }', { o, s }],
    refuse: 'reader',
  },
];

refusalMatrix(OPS, {
  h,
  setup: world,
  ids: (w) => ({ o: w.o, s: w.site.id }),
  unknown: { o: 'unknownOrganization1', s: 'unknownSite000000001' },
  // Guests see no site (only what was shared with them); readers and editors do not manage sites.
  forbidden: async (w, refuse) => ({ callers: refuse === 'guest' ? [w.guest] : [w.reader, w.editor, w.guest] }),
  unchanged: async (w) => {
    const site = await h.db.site.findUniqueOrThrow({ where: { id: w.site.id } });
    expect(site).toMatchObject({ title: 'Developer docs', published: false });
    expect(await h.db.site.count({ where: { organizationId: w.o } })).toBe(1);
  },
});
