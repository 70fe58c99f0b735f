// Site spaces: the variants (languages, versions) of a site's sections — GitBook's listSiteSpaces,
// addSpaceToSite, updateSiteSpaceById and deleteSiteSpaceById, through both doors.
import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData, gqlError, restError } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller } from '../support/harness.ts';

const h = useHarness();

/** A space with one page, "Getting started", merged (so its revision is published content). */
async function spaceWithPage(admin: Caller, o: string, title: string) {
  const space = await buildSpace(admin, o, { title });
  const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' }), 201);
  expectOk(
    await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', ref: 'start', title: 'Getting started', document: { markdown: `# ${title}` } }],
    }),
  );
  const merged = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
  return { ...space, revision: merged.revision as string };
}

/** A site of two sections, "Docs" (the default) and "Guides", each with its one (default) site space; a French space not on it yet. */
async function world() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Variants');
  const docs = await spaceWithPage(admin, o, 'Docs');
  const guides = await spaceWithPage(admin, o, 'Guides');
  const french = await spaceWithPage(admin, o, 'Guides en français');
  const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Product', spaces: [docs.id, guides.id] }), 201);
  const base = `/v1/orgs/${o}/sites/${site.id}`;
  const sections = expectOk(await admin.rest('GET', `${base}/sections`)).items as any[];
  const [docsSection, guidesSection] = sections;
  const [reader, editor, guest] = [await buildMember(h, o, 'read'), await buildMember(h, o, 'edit'), await buildMember(h, o, null)];
  return { admin, o, site, base, docs, guides, french, docsSection, guidesSection, reader, editor, guest };
}

const lookup = async (url: string) => {
  const res = await h.app.fetch('http://localhost/v1/urls/published', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
  return { status: res.status, body: await res.json() };
};

const variantsOf = async (caller: Caller, base: string, sectionId: string) =>
  (expectOk(await caller.rest('GET', `${base}/site-spaces?sectionId=${sectionId}`), 200, 'listSiteSpaces').items as any[]).map((s) => [s.space.id, s.path, s.default]);

describe('site spaces (REST)', () => {
  it('adds a space as a variant of a section; path "fr" makes the URL lookup resolve it; GitBook\'s shapes', async () => {
    const { admin, o, base, site, docs, guides, french, docsSection, guidesSection } = await world();
    const all = expectOk(await admin.rest('GET', `${base}/site-spaces`), 200, 'listSiteSpaces');
    expect(all.items.map((s: any) => [s.space.id, s.section, s.default])).toEqual([
      [docs.id, docsSection.id, true],
      [guides.id, guidesSection.id, true],
    ]);

    const added = expectOk(await admin.rest('POST', `${base}/site-spaces`, { spaceId: french.id, sectionId: guidesSection.id }), 201, 'addSpaceToSite');
    expect(added).toMatchObject({ object: 'site-space', section: guidesSection.id, space: { id: french.id }, title: 'Guides en français', path: 'guides-en-francais', default: false, draft: false });
    expect(added).not.toHaveProperty('condition');
    const updated = expectOk(await admin.rest('PATCH', `${base}/site-spaces/${added.id}`, { path: 'fr' }), 200, 'updateSiteSpaceById');
    expect(updated).toMatchObject({ id: added.id, path: 'fr', default: false });

    // The section lists both, the default first; the list filters as GitBook's (`default`) and by section or space.
    expect(expectOk(await admin.rest('GET', `${base}/sections`)).items.find((s: any) => s.id === guidesSection.id).siteSpaces.map((s: any) => s.path)).toEqual(['guides', 'fr']);
    expect(await variantsOf(admin, base, guidesSection.id)).toEqual([
      [guides.id, 'guides', true],
      [french.id, 'fr', false],
    ]);
    expect(expectOk(await admin.rest('GET', `${base}/site-spaces?default=false`)).items.map((s: any) => s.id)).toEqual([added.id]);
    expect(expectOk(await admin.rest('GET', `${base}/site-spaces?default=true`)).count).toBe(2);
    expect(expectOk(await admin.rest('GET', `${base}/site-spaces?spaceId=${french.id}`)).items.map((s: any) => s.id)).toEqual([added.id]);
    // Pages of one: the cursor leads to the next.
    const first = expectOk(await admin.rest('GET', `${base}/site-spaces?limit=2`));
    expect([first.items.length, first.count]).toEqual([2, 3]);
    expect(expectOk(await admin.rest('GET', `${base}/site-spaces?limit=2&page=${first.next.page}`)).items.map((s: any) => s.id)).toEqual([added.id]);

    // Published: the variant is at its section's address and its path.
    expectOk(await admin.rest('POST', `${base}/publish`));
    const published = `${h.config.publishedUrl}/${o}/${site.id}`;
    const variant = expectOk(await admin.rest('GET', `${base}/site-spaces?default=false`)).items[0];
    expect(variant.urls.published).toBe(`${published}/guides/fr`);
    const found = await lookup(`${published}/guides/fr/getting-started`);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body).toMatchObject({ site: site.id, siteSection: guidesSection.id, siteSpace: added.id, space: french.id, revision: french.revision, pathname: 'getting-started' });
    // The section's default variant stays at the section's address.
    expect((await lookup(`${published}/guides/getting-started`)).body).toMatchObject({ siteSpace: guidesSection.siteSpaces[0].id, space: guides.id });
  });

  it('without sectionId: the default section; a site without sections gets one; a second default never appears', async () => {
    const { admin, o, base, french, docs, docsSection } = await world();
    const added = expectOk(await admin.rest('POST', `${base}/site-spaces`, { spaceId: french.id, title: 'Français' }), 201, 'addSpaceToSite');
    expect(added).toMatchObject({ section: docsSection.id, title: 'Français', path: 'francais', default: false });
    // A site without sections: the space becomes its first (default) section and that section's default variant.
    const empty = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Empty' }), 201);
    const emptyBase = `/v1/orgs/${o}/sites/${empty.id}`;
    const first = expectOk(await admin.rest('POST', `${emptyBase}/site-spaces`, { spaceId: docs.id }), 201, 'addSpaceToSite');
    expect(first).toMatchObject({ default: true, space: { id: docs.id } });
    const sections = expectOk(await admin.rest('GET', `${emptyBase}/sections`)).items;
    expect(sections.map((s: any) => [s.id, s.default, s.siteSpaces.map((v: any) => v.id)])).toEqual([[first.section, true, [first.id]]]);
    expect(expectOk(await admin.rest('GET', emptyBase)).siteSpaces).toBe(1);
  });

  it('update: path (unique in the section), condition (set, kept when absent, removed by null), the space it publishes', async () => {
    const { admin, o, base, docs, french, guidesSection } = await world();
    const added = expectOk(await admin.rest('POST', `${base}/site-spaces`, { spaceId: french.id, sectionId: guidesSection.id }), 201);
    const at = `${base}/site-spaces/${added.id}`;
    const condition = 'visitor.claims.unsigned.isFrench == true';
    expect(expectOk(await admin.rest('PATCH', at, { path: 'fr', condition }), 200, 'updateSiteSpaceById')).toMatchObject({ path: 'fr', condition });
    expect(expectOk(await admin.rest('PATCH', at, { path: 'fr-fr' }))).toMatchObject({ path: 'fr-fr', condition });
    expect(expectOk(await admin.rest('PATCH', at, { condition: null }))).not.toHaveProperty('condition');
    // Another space of the organization: the variant now publishes it.
    expect(expectOk(await admin.rest('PATCH', at, { spaceId: docs.id }))).toMatchObject({ space: { id: docs.id }, path: 'fr-fr' });
    // Prefer: return=minimal (GitBook's returnPreference): the change is made, the answer is empty.
    const minimal = await h.app.fetch(`http://localhost:4000${at}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json', prefer: 'return=minimal' },
      body: JSON.stringify({ path: 'fr' }),
    });
    expect(minimal.status).toBe(204);
    expect(await h.db.siteSpace.findUniqueOrThrow({ where: { id: added.id } })).toMatchObject({ path: 'fr', spaceId: docs.id, condition: null });
    void o;
  });

  it('400 at every limit, naming the field; 409 for a path or a space the section already has', async () => {
    const { admin, base, french, guides, guidesSection } = await world();
    const added = expectOk(await admin.rest('POST', `${base}/site-spaces`, { spaceId: french.id, sectionId: guidesSection.id }), 201);
    const at = `${base}/site-spaces/${added.id}`;
    for (const path of ['', 'p'.repeat(101), 'has/slash', '-dash', null]) restError(await admin.rest('PATCH', at, { path }), 400, 'path');
    restError(await admin.rest('PATCH', at, { condition: '' }), 400, 'condition');
    restError(await admin.rest('PATCH', at, { condition: `visitor.claims.a == "${'x'.repeat(1020)}"` }), 400, 'condition');
    expect(restError(await admin.rest('PATCH', at, { condition: 'visitor.claims.plan ==' }), 400, 'condition')).toMatch(/Expected expression/);
    expect(restError(await admin.rest('PATCH', at, { condition: 'visitor.claims.f()' }), 400, 'condition')).toMatch(/function calls/);
    restError(await admin.rest('PATCH', at, { spaceId: null }), 400, 'spaceId');
    restError(await admin.rest('PATCH', at, { spaceId: 's'.repeat(65) }), 400, 'spaceId');
    restError(await admin.rest('PATCH', at, { hidden: true }), 400, 'hidden');
    restError(await admin.rest('PATCH', at, { draft: true }), 400, 'draft');
    restError(await admin.rest('PATCH', at, { pageId: 'page' }), 400, 'pageId');
    // The section's default variant has the path "guides"; its space is already there.
    restError(await admin.rest('PATCH', at, { path: 'guides' }), 409, 'path');
    restError(await admin.rest('PATCH', at, { spaceId: guides.id }), 409, 'spaceId');
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: guides.id, sectionId: guidesSection.id }), 409, 'spaceId');
    // Adding: an existing space only (spaceId: null with or without a template is a new space: not supported).
    restError(await admin.rest('POST', `${base}/site-spaces`, {}), 400, 'spaceId');
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: null }), 400, 'spaceId');
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: null, template: { id: 'blank' } }), 400, 'spaceId');
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: french.id, template: { id: 'blank' } }), 400, 'template');
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: french.id, title: 'x' }), 400, 'title');
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: french.id, title: 't'.repeat(129) }), 400, 'title');
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: french.id, draft: true }), 400, 'draft');
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: french.id, pageId: 'page' }), 400, 'pageId');
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: french.id, sectionId: 'x'.repeat(65) }), 400, 'sectionId');
    restError(await admin.rest('GET', `${base}/site-spaces?limit=0`), 400, 'limit');
    restError(await admin.rest('GET', `${base}/site-spaces?page=nope`), 400, 'page');
    expect(await h.db.siteSpace.findUniqueOrThrow({ where: { id: added.id } })).toMatchObject({ path: 'guides-en-francais', condition: null, spaceId: french.id });
    expect(await h.db.siteSpace.count({ where: { sectionId: guidesSection.id } })).toBe(2);
  });

  it('404 for unknown IDs, a space of another organization or a deleted one, naming it', async () => {
    const { admin, o, base, french, guidesSection } = await world();
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: 'unknownSpace00000001' }), 404, 'spaceId');
    const { admin: a2, organizationId: o2 } = await buildOrganization(h, 'Elsewhere');
    const foreign = await buildSpace(a2, o2, { title: 'Foreign' });
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: foreign.id }), 404, 'spaceId');
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: french.id, sectionId: 'unknownSection000001' }), 404, 'sectionId');
    restError(await admin.rest('PATCH', `${base}/site-spaces/unknownSiteSpace0001`, { path: 'x' }), 404);
    restError(await admin.rest('PATCH', `${base}/site-spaces/${guidesSection.siteSpaces[0].id}`, { spaceId: foreign.id }), 404, 'spaceId');
    // A site space of another site of the organization is not this site's.
    const other = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Other' }), 201);
    restError(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${other.id}/site-spaces/${guidesSection.siteSpaces[0].id}`, { path: 'x' }), 404);
    const none = await admin.rest('DELETE', `/v1/orgs/${o}/sites/${other.id}/site-spaces/${guidesSection.siteSpaces[0].id}`);
    expect([none.status, none.text]).toEqual([204, '']);
    // A deleted space (in the trash) is no space to add (a space the caller cannot read is the same 404).
    const trashed = await buildSpace(admin, o, { title: 'Trashed' });
    await h.db.space.update({ where: { id: trashed.id }, data: { deletedAt: new Date() } });
    restError(await admin.rest('POST', `${base}/site-spaces`, { spaceId: trashed.id }), 404, 'spaceId');
    expect(await h.db.siteSpace.count({ where: { sectionId: guidesSection.id } })).toBe(1);
  });

  it('delete: 205; the default moves to the next variant; the last one takes its section with it; 204 when there was none', async () => {
    const { admin, o, base, docs, french, guides, guidesSection, docsSection } = await world();
    const second = expectOk(await admin.rest('POST', `${base}/site-spaces`, { spaceId: french.id, sectionId: guidesSection.id }), 201);
    const third = expectOk(await admin.rest('POST', `${base}/site-spaces`, { spaceId: docs.id, sectionId: guidesSection.id }), 201);
    const defaultId = guidesSection.siteSpaces[0].id;
    const removed = await admin.rest('DELETE', `${base}/site-spaces/${defaultId}`);
    expect([removed.status, removed.text]).toEqual([205, '']);
    expect(await variantsOf(admin, base, guidesSection.id)).toEqual([
      [french.id, second.path, true],
      [docs.id, third.path, false],
    ]);
    const again = await admin.rest('DELETE', `${base}/site-spaces/${defaultId}`);
    expect([again.status, again.text]).toEqual([204, '']);
    expect((await admin.rest('DELETE', `${base}/site-spaces/${third.id}`)).status).toBe(205);
    expect(await variantsOf(admin, base, guidesSection.id)).toEqual([[french.id, second.path, true]]);
    // The last variant of the default section: the section goes, the next section becomes the default.
    expect((await admin.rest('DELETE', `${base}/site-spaces/${docsSection.siteSpaces[0].id}`)).status).toBe(205);
    const sections = expectOk(await admin.rest('GET', `${base}/sections`)).items;
    expect(sections.map((s: any) => [s.id, s.default])).toEqual([[guidesSection.id, true]]);
    expect(expectOk(await admin.rest('GET', base)).siteSpaces).toBe(1);
    void guides;
    void o;
  });

  it('concurrent adds and deletes keep one default per section and distinct paths', async () => {
    const { admin, o, base, guidesSection } = await world();
    const spaces = [];
    for (let i = 0; i < 4; i++) spaces.push(await buildSpace(admin, o, { title: 'Same title' }));
    const added = await Promise.all(spaces.map((s) => admin.rest('POST', `${base}/site-spaces`, { spaceId: s.id, sectionId: guidesSection.id })));
    for (const res of added) expect(res.status, res.text).toBe(201);
    const rows = await h.db.siteSpace.findMany({ where: { sectionId: guidesSection.id } });
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((r) => r.path)).size).toBe(5);
    expect(rows.filter((r) => r.isDefault)).toHaveLength(1);
    // Deleting the default and its successor at once: still exactly one default.
    const [first] = rows.filter((r) => r.isDefault);
    const deletions = await Promise.all([first.id, added[0].body.id].map((id) => admin.rest('DELETE', `${base}/site-spaces/${id}`)));
    expect(deletions.map((d) => d.status)).toEqual([205, 205]);
    const left = await h.db.siteSpace.findMany({ where: { sectionId: guidesSection.id } });
    expect([left.length, left.filter((r) => r.isDefault).length]).toEqual([3, 1]);
  });
});

describe('site spaces (GraphQL)', () => {
  it('lists, adds, updates and deletes through the GraphQL door, with the same rules', async () => {
    const { admin, o, site, french, guidesSection } = await world();
    const q = async (field: string, query: string, variables: Record<string, unknown> = {}) => gqlData(await admin.gql(query, { o, s: site.id, ...variables }), field);
    const listed = await q('siteSpaces', 'query($o: String!, $s: String!) { siteSpaces(organizationId: $o, siteId: $s, default: true) { count items { id path default section space { id } } } }');
    expect(listed.count).toBe(2);
    const added = await q(
      'addSiteSpace',
      'mutation($o: String!, $s: String!, $sp: String!, $sec: String!) { addSiteSpace(organizationId: $o, siteId: $s, spaceId: $sp, sectionId: $sec) { id path default section space { id } urls { published } } }',
      { sp: french.id, sec: guidesSection.id },
    );
    expect(added).toMatchObject({ default: false, section: guidesSection.id, space: { id: french.id }, urls: { published: null } });
    const updated = await q(
      'updateSiteSpace',
      'mutation($o: String!, $s: String!, $x: String!) { updateSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $x, path: "fr", condition: "visitor.claims.fr") { path condition } }',
      { x: added.id },
    );
    expect(updated).toEqual({ path: 'fr', condition: 'visitor.claims.fr' });
    gqlError(
      await admin.gql('mutation($o: String!, $s: String!, $x: String!) { updateSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $x, path: "guides") { path } }', { o, s: site.id, x: added.id }),
      'CONFLICT',
      'path',
    );
    gqlError(await admin.gql('mutation($o: String!, $s: String!) { addSiteSpace(organizationId: $o, siteId: $s) { id } }', { o, s: site.id }), 'BAD_REQUEST', 'spaceId');
    expect(await q('deleteSiteSpace', 'mutation($o: String!, $s: String!, $x: String!) { deleteSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $x) }', { x: added.id })).toBe(true);
    expect(await q('deleteSiteSpace', 'mutation($o: String!, $s: String!, $x: String!) { deleteSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $x) }', { x: added.id })).toBe(false);
  });
});

describe('statements', () => {
  it('a page of 20 site spaces (with their spaces) costs what a page of 2 costs', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const spaces = [];
    for (let i = 0; i < 20; i++) spaces.push(await buildSpace(admin, o, { title: `Space ${i}` }));
    const small = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Small', spaces: spaces.slice(0, 2).map((s) => s.id) }), 201);
    const large = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Large', spaces: spaces.slice(0, 1).map((s) => s.id) }), 201);
    for (const space of spaces.slice(1)) expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${large.id}/site-spaces`, { spaceId: space.id }), 201);
    const count = async (id: string) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const before = h.store.queries.length;
      const res = await admin.rest('GET', `/v1/orgs/${o}/sites/${id}/site-spaces`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(res.body.items.length).toBe(id === large.id ? 20 : 2);
      return h.store.queries.length - before;
    };
    expect(await count(large.id)).toBe(await count(small.id));
  });
});

type Ids = { o: string; s: string; ss: string; sp: string };
const at = ({ o, s }: Ids) => `/v1/orgs/${o}/sites/${s}`;
const OPS: RefusalOp<Ids>[] = [
  {
    name: 'list site spaces',
    rest: (i) => ['GET', `${at(i)}/site-spaces`],
    gql: ({ o, s }) => ['query($o: String!, $s: String!) { siteSpaces(organizationId: $o, siteId: $s) { count } }', { o, s }],
    refuse: 'guest',
  },
  {
    name: 'add a site space',
    rest: (i) => ['POST', `${at(i)}/site-spaces`, { spaceId: i.sp }],
    gql: ({ o, s, sp }) => ['mutation($o: String!, $s: String!, $sp: String!) { addSiteSpace(organizationId: $o, siteId: $s, spaceId: $sp) { id } }', { o, s, sp }],
    refuse: 'reader',
  },
  {
    name: 'update a site space',
    rest: (i) => ['PATCH', `${at(i)}/site-spaces/${i.ss}`, { path: 'changed' }],
    gql: ({ o, s, ss }) => ['mutation($o: String!, $s: String!, $x: String!) { updateSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $x, path: "changed") { id } }', { o, s, x: ss }],
    refuse: 'reader',
  },
  {
    name: 'delete a site space',
    rest: (i) => ['DELETE', `${at(i)}/site-spaces/${i.ss}`],
    gql: ({ o, s, ss }) => ['mutation($o: String!, $s: String!, $x: String!) { deleteSiteSpace(organizationId: $o, siteId: $s, siteSpaceId: $x) }', { o, s, x: ss }],
    refuse: 'reader',
  },
];

refusalMatrix(OPS, {
  h,
  setup: async () => {
    const w = await world();
    const variant = expectOk(await w.admin.rest('POST', `${w.base}/site-spaces`, { spaceId: w.french.id, sectionId: w.guidesSection.id }), 201);
    return { ...w, variant };
  },
  ids: (w) => ({ o: w.o, s: w.site.id, ss: w.variant.id, sp: w.docs.id }),
  unknown: { o: 'unknownOrganization1', s: 'unknownSite000000001' },
  // Guests see only what was shared with them; readers and editors do not manage the site.
  forbidden: async (w, refuse) => ({ callers: refuse === 'guest' ? [w.guest] : [w.reader, w.editor, w.guest] }),
  unchanged: async (w) => {
    const rows = await h.db.siteSpace.findMany({ where: { siteId: w.site.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    expect(rows.map((r) => [r.spaceId, r.path, r.isDefault])).toEqual([
      [w.docs.id, 'docs', true],
      [w.guides.id, 'guides', true],
      [w.french.id, 'guides-en-francais', false],
    ]);
  },
});
