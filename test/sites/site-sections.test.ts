import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { anonymous, callerFor, useHarness, type Caller } from '../support/harness.ts';

const h = useHarness();

/** A site with three sections (A, B, C: spaces of the organization), and a reader and an editor. */
async function world() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const spaces = [await buildSpace(admin, o, { title: 'Alpha' }), await buildSpace(admin, o, { title: 'Beta' }), await buildSpace(admin, o, { title: 'Gamma' })];
  const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs', spaces: spaces.map((s) => s.id) }), 201);
  const base = `/v1/orgs/${o}/sites/${site.id}`;
  const sections = expectOk(await admin.rest('GET', `${base}/sections`)).items as any[];
  const [reader, editor, guest] = [await buildMember(h, o, 'read'), await buildMember(h, o, 'edit'), await buildMember(h, o, null)];
  return { admin, o, spaces, site, base, ids: Object.fromEntries(sections.map((s) => [s.title, s.id])) as Record<string, string>, reader, editor, guest };
}

const titles = async (caller: Caller, base: string) => (expectOk(await caller.rest('GET', `${base}/sections`), 200, 'listSiteSections').items as any[]).map((s) => s.title);

describe('site sections', () => {
  it('add: at the end, its space its one default site space, a path from the title unique in the site; GitBook\'s shape', async () => {
    const { admin, o, base, spaces } = await world();
    const added = expectOk(await admin.rest('POST', `${base}/sections`, { spaceId: spaces[0].id, title: 'Alpha' }), 201, 'addSectionToSite');
    expect(added).toMatchObject({ object: 'site-section', title: 'Alpha', path: 'alpha-2', default: false, draft: false, siteSpaces: [{ object: 'site-space', default: true, space: { id: spaces[0].id } }] });
    expect(await titles(admin, base)).toEqual(['Alpha', 'Beta', 'Gamma', 'Alpha']);
    const untitled = expectOk(await admin.rest('POST', `${base}/sections`, { spaceId: spaces[1].id }), 201);
    expect(untitled).toMatchObject({ title: 'Beta', path: 'beta-2' });
    // 400s: the title at creation is at most 64; the space must be one of the organization the caller reads.
    restError(await admin.rest('POST', `${base}/sections`, { spaceId: spaces[0].id, title: 'x'.repeat(65) }), 400, 'title');
    restError(await admin.rest('POST', `${base}/sections`, { spaceId: spaces[0].id, title: 'x' }), 400, 'title');
    restError(await admin.rest('POST', `${base}/sections`, {}), 400, 'spaceId');
    restError(await admin.rest('POST', `${base}/sections`, { spaceId: 'nope' }), 400, 'spaceId');
    const { admin: a2, organizationId: o2 } = await buildOrganization(h);
    restError(await admin.rest('POST', `${base}/sections`, { spaceId: (await buildSpace(a2, o2)).id }), 400, 'spaceId');
    expect(await titles(admin, base)).toHaveLength(5);
    void o;
  });

  it('update: title, path (unique), description, icon, condition (set, kept when absent, removed by null), default site space', async () => {
    const { admin, base, ids } = await world();
    const path = `${base}/sections/${ids.Beta}`;
    const updated = expectOk(
      await admin.rest('PATCH', path, { title: 'Beta guide', path: 'beta-guide', description: 'All about beta', icon: 'book', condition: 'visitor.claims.unsigned.isBeta == true' }),
      200,
      'updateSiteSectionById',
    );
    expect(updated).toMatchObject({ title: 'Beta guide', path: 'beta-guide', description: 'All about beta', icon: 'book', condition: 'visitor.claims.unsigned.isBeta == true' });
    expect(expectOk(await admin.rest('PATCH', path, { title: 'Beta docs' }))).toMatchObject({ title: 'Beta docs', condition: 'visitor.claims.unsigned.isBeta == true' });
    const removed = expectOk(await admin.rest('PATCH', path, { condition: null, description: null, icon: null }));
    for (const field of ['condition', 'description', 'icon']) expect(removed).not.toHaveProperty(field);
    expectOk(await admin.rest('PATCH', path, { defaultSiteSpace: updated.siteSpaces[0].id }));
    restError(await admin.rest('PATCH', path, { path: 'alpha' }), 409, 'path');
    // Prefer: return=minimal (GitBook's returnPreference): the change is made, the answer is empty.
    const minimal = await h.app.fetch(`http://localhost:4000${path}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json', prefer: 'return=minimal' },
      body: JSON.stringify({ icon: 'rocket' }),
    });
    expect(minimal.status).toBe(204);
    expect(expectOk(await admin.rest('GET', `${base}/sections`)).items.find((s: any) => s.id === ids.Beta).icon).toBe('rocket');
  });

  it('400 at every documented limit of a section, and for a condition that does not parse or does more than compare claims', async () => {
    const { admin, base, ids } = await world();
    const path = `${base}/sections/${ids.Beta}`;
    restError(await admin.rest('PATCH', path, { title: 'x' }), 400, 'title');
    restError(await admin.rest('PATCH', path, { title: 'x'.repeat(129) }), 400, 'title');
    restError(await admin.rest('PATCH', path, { path: '' }), 400, 'path');
    restError(await admin.rest('PATCH', path, { path: 'p'.repeat(101) }), 400, 'path');
    restError(await admin.rest('PATCH', path, { path: 'has/slash' }), 400, 'path');
    restError(await admin.rest('PATCH', path, { description: 'd'.repeat(257) }), 400, 'description');
    restError(await admin.rest('PATCH', path, { icon: 'i'.repeat(51) }), 400, 'icon');
    restError(await admin.rest('PATCH', path, { condition: '' }), 400, 'condition');
    restError(await admin.rest('PATCH', path, { condition: `visitor.claims.a == "${'x'.repeat(1020)}"` }), 400, 'condition');
    const unparsable = restError(await admin.rest('PATCH', path, { condition: 'visitor.claims.plan ==' }), 400, 'condition');
    expect(unparsable).toMatch(/Expected expression/);
    expect(restError(await admin.rest('PATCH', path, { condition: 'process.exit(1)' }), 400, 'condition')).toMatch(/process|call/);
    expect(restError(await admin.rest('PATCH', path, { condition: 'visitor.claims.f()' }), 400, 'condition')).toMatch(/function calls/);
    expect(restError(await admin.rest('PATCH', path, { condition: 'this.x' }), 400, 'condition')).toMatch(/not allowed/);
    restError(await admin.rest('PATCH', path, { condition: 'a; b' }), 400, 'condition');
    restError(await admin.rest('PATCH', path, { defaultSiteSpace: 'nope' }), 400, 'defaultSiteSpace');
    expect(await h.db.siteSection.findUniqueOrThrow({ where: { id: ids.Beta } })).toMatchObject({ title: 'Beta', condition: null, path: 'beta' });
  });

  it('delete: 204; deleting the default makes the next one the default; exactly one default while any is left', async () => {
    const { admin, base, ids } = await world();
    expectOk(await admin.rest('DELETE', `${base}/sections/${ids.Alpha}`), 204);
    const left = expectOk(await admin.rest('GET', `${base}/sections`)).items;
    expect(left.map((s: any) => [s.title, s.default])).toEqual([['Beta', true], ['Gamma', false]]);
    restError(await admin.rest('DELETE', `${base}/sections/${ids.Alpha}`), 404);
    expectOk(await admin.rest('DELETE', `${base}/sections/${ids.Gamma}`), 204);
    expectOk(await admin.rest('DELETE', `${base}/sections/${ids.Beta}`), 204);
    expect(expectOk(await admin.rest('GET', `${base}/sections`)).items).toEqual([]);
    expect(expectOk(await admin.rest('GET', base)).siteSpaces).toBe(0);
  });

  it('move: before or after another section, default the end of the site; 400 for a bad position', async () => {
    const { admin, base, ids } = await world();
    const move = (id: string, body?: object) => admin.rest('POST', `${base}/sections/${id}/move`, body);
    expectOk(await move(ids.Gamma, { position: { before: { type: 'site-section', siteSection: ids.Alpha } } }), 200, 'moveSiteSection');
    expect(await titles(admin, base)).toEqual(['Gamma', 'Alpha', 'Beta']);
    expectOk(await move(ids.Gamma, { position: { after: { type: 'site-section', siteSection: ids.Alpha } } }));
    expect(await titles(admin, base)).toEqual(['Alpha', 'Gamma', 'Beta']);
    expectOk(await move(ids.Alpha));
    expect(await titles(admin, base)).toEqual(['Gamma', 'Beta', 'Alpha']);
    expectOk(await move(ids.Beta, {}));
    expect(await titles(admin, base)).toEqual(['Gamma', 'Alpha', 'Beta']);
    restError(await move(ids.Beta, { position: { before: { type: 'site-section', siteSection: 'nope' } } }), 400, 'position.before');
    restError(await move(ids.Beta, { position: { before: { type: 'space', siteSection: ids.Alpha } } }), 400, 'position.before');
    restError(await move(ids.Beta, { position: { after: { type: 'site-section', siteSection: ids.Beta } } }), 400, 'position.after');
    restError(await move(ids.Beta, { position: { before: { type: 'site-section', siteSection: ids.Alpha }, after: { type: 'site-section', siteSection: ids.Gamma } } }), 400, 'position');
    restError(await move('nope', {}), 404);
  });
});

describe('statements', () => {
  it('a page of 20 sections (with their site spaces and spaces) costs what a page of 2 costs, in both doors', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const spaces = [];
    for (let i = 0; i < 20; i++) spaces.push(await buildSpace(admin, o, { title: `Space ${i}` }));
    const small = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Small', spaces: spaces.slice(0, 2).map((s) => s.id) }), 201);
    const large = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Large', spaces: spaces.map((s) => s.id) }), 201);
    const count = async (request: () => Promise<unknown>) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const before = h.store.queries.length;
      await request();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return h.store.queries.length - before;
    };
    const rest = (id: string) => () => admin.rest('GET', `/v1/orgs/${o}/sites/${id}/sections`);
    expect(await count(rest(large.id))).toBe(await count(rest(small.id)));
    const gql = (id: string) => () =>
      admin.gql('query($o: String!, $s: String!) { siteSections(organizationId: $o, siteId: $s) { items { title urls { published } siteSpaces { space { title permissions { edit } } } } } }', { o, s: id });
    expect(await count(gql(large.id))).toBe(await count(gql(small.id)));
  });
});

describe('section groups', () => {
  it('sections and groups share one order; a group holds sections in its own; add, remove, move, delete', async () => {
    const { admin, base, ids, spaces } = await world();
    const groups = `${base}/section-groups`;
    const group = expectOk(await admin.rest('POST', groups, { title: 'Reference', icon: 'book', sections: [ids.Gamma, ids.Alpha] }), 201, 'addSectionGroupToSite');
    expect(group).toMatchObject({ object: 'site-section-group', title: 'Reference', icon: 'book', sections: [{ id: ids.Gamma }, { id: ids.Alpha }], children: [{ id: ids.Gamma }, { id: ids.Alpha }] });
    // Navigation: Beta, then the group (Gamma, Alpha).
    expect(await titles(admin, base)).toEqual(['Beta', 'Gamma', 'Alpha']);
    const grouped = expectOk(await admin.rest('GET', `${base}/sections`)).items;
    expect(grouped.map((s: any) => s.sectionGroup ?? null)).toEqual([null, group.id, group.id]);

    // A section is in one group at most: adding it to another moves it.
    const other = expectOk(await admin.rest('POST', groups, { title: 'Other' }), 201);
    expect(expectOk(await admin.rest('POST', `${groups}/${other.id}/sections`, { sectionId: ids.Alpha })).sections.map((s: any) => s.id)).toEqual([ids.Alpha]);
    expect(expectOk(await admin.rest('GET', groups), 200, 'listSiteSectionGroups').items.map((g: any) => [g.title, g.sections.map((s: any) => s.title)])).toEqual([
      ['Reference', ['Gamma']],
      ['Other', ['Alpha']],
    ]);
    expect(await titles(admin, base)).toEqual(['Beta', 'Gamma', 'Alpha']);

    // A new section lands at the end, after the groups; moving a group moves its sections.
    expectOk(await admin.rest('POST', `${base}/sections`, { spaceId: spaces[0].id, title: 'Delta' }), 201);
    expect(await titles(admin, base)).toEqual(['Beta', 'Gamma', 'Alpha', 'Delta']);
    expectOk(await admin.rest('POST', `${groups}/${other.id}/move`, { position: { before: { type: 'site-section', id: ids.Beta } } }), 200, 'moveSiteSectionGroup');
    expect(await titles(admin, base)).toEqual(['Alpha', 'Beta', 'Gamma', 'Delta']);
    // Beside a grouped section: beside its group.
    expectOk(await admin.rest('POST', `${groups}/${other.id}/move`, { position: { after: { type: 'site-section', id: ids.Gamma } } }));
    expect(await titles(admin, base)).toEqual(['Beta', 'Gamma', 'Alpha', 'Delta']);
    expectOk(await admin.rest('POST', `${groups}/${group.id}/move`, {}));
    expect(await titles(admin, base)).toEqual(['Beta', 'Alpha', 'Delta', 'Gamma']);
    // A section moved beside a grouped one joins its group; beside a top-level one, leaves it.
    expectOk(await admin.rest('POST', `${base}/sections/${ids.Beta}/move`, { position: { after: { type: 'site-section', siteSection: ids.Gamma } } }));
    expect(expectOk(await admin.rest('GET', groups)).items.find((g: any) => g.id === group.id).sections.map((s: any) => s.title)).toEqual(['Gamma', 'Beta']);

    // Removing a section from a group: 204, right after the group.
    expectOk(await admin.rest('DELETE', `${groups}/${group.id}/sections/${ids.Gamma}`), 204);
    expect(await titles(admin, base)).toEqual(['Alpha', 'Delta', 'Beta', 'Gamma']);
    restError(await admin.rest('DELETE', `${groups}/${group.id}/sections/${ids.Gamma}`), 400, 'siteSectionId');
    // Deleting a group keeps its sections where it was.
    expectOk(await admin.rest('DELETE', `${groups}/${other.id}`), 204);
    expect(await titles(admin, base)).toEqual(['Alpha', 'Delta', 'Beta', 'Gamma']);
    expect(expectOk(await admin.rest('GET', groups)).items.map((g: any) => g.title)).toEqual(['Reference']);
    expect(expectOk(await admin.rest('PATCH', `${groups}/${group.id}`, { title: 'Ref', icon: null }), 200, 'updateSiteSectionGroupById')).toMatchObject({ title: 'Ref' });
  });

  it('400 at the limits of groups, 404 for unknown ones', async () => {
    const { admin, base, ids } = await world();
    const groups = `${base}/section-groups`;
    restError(await admin.rest('POST', groups, {}), 400, 'title');
    restError(await admin.rest('POST', groups, { title: '' }), 400, 'title');
    restError(await admin.rest('POST', groups, { title: 't'.repeat(101) }), 400, 'title');
    restError(await admin.rest('POST', groups, { title: 'G', icon: 'i'.repeat(51) }), 400, 'icon');
    restError(await admin.rest('POST', groups, { title: 'G', sections: ['nope'] }), 400, 'sections');
    restError(await admin.rest('POST', groups, { title: 'G', sections: [ids.Alpha, ids.Alpha] }), 400, 'sections');
    expect(expectOk(await admin.rest('GET', groups)).count).toBe(0);
    const group = expectOk(await admin.rest('POST', groups, { title: 'G' }), 201);
    restError(await admin.rest('PATCH', `${groups}/${group.id}`, { title: '' }), 400, 'title');
    restError(await admin.rest('PATCH', `${groups}/${group.id}`, { title: null }), 400, 'title');
    restError(await admin.rest('POST', `${groups}/${group.id}/sections`, {}), 400, 'sectionId');
    restError(await admin.rest('POST', `${groups}/${group.id}/sections`, { sectionId: 'nope' }), 400, 'sectionId');
    restError(await admin.rest('POST', `${groups}/${group.id}/move`, { position: { before: { type: 'site-section-group', id: group.id } } }), 400, 'position.before');
    restError(await admin.rest('POST', `${groups}/${group.id}/move`, { position: { before: { type: 'page', id: ids.Alpha } } }), 400, 'position.before');
    restError(await admin.rest('PATCH', `${groups}/nope`, { title: 'X' }), 404);
    restError(await admin.rest('DELETE', `${groups}/nope`), 404);
  });
});

describe('share links and who reads a published site', () => {
  it('create, list, deactivate, rename, delete; urls.published carries a 256-bit key', async () => {
    const { admin, base } = await world();
    const links = `${base}/share-links`;
    const link = expectOk(await admin.rest('POST', links, { name: 'Partners' }), 201, 'createSiteShareLink');
    expect(link).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
    const key = new URL(link.urls.published).searchParams.get('shareKey')!;
    expect(Buffer.from(key, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(expectOk(await admin.rest('GET', links), 200, 'listSiteShareLinks').items.map((l: any) => l.id)).toEqual([link.id]);
    expect(expectOk(await admin.rest('PATCH', `${links}/${link.id}`, { active: false, name: 'Old partners' }), 200, 'updateSiteShareLinkById')).toMatchObject({ active: false, name: 'Old partners' });
    restError(await admin.rest('POST', links, {}), 400, 'name');
    restError(await admin.rest('POST', links, { name: 'n'.repeat(51) }), 400, 'name');
    restError(await admin.rest('PATCH', `${links}/${link.id}`, {}), 400);
    restError(await admin.rest('PATCH', `${links}/${link.id}`, { name: 'n'.repeat(51) }), 400, 'name');
    restError(await admin.rest('PATCH', `${links}/${link.id}`, { active: null }), 400, 'active');
    expectOk(await admin.rest('DELETE', `${links}/${link.id}`), 204);
    restError(await admin.rest('PATCH', `${links}/${link.id}`, { active: true }), 404);
    expect(expectOk(await admin.rest('GET', links)).items).toEqual([]);
  });

  it("a site's published profile and sections are its organization's; strangers read a published site through the URL lookup, a share-link site with an active link's key", async () => {
    const { admin, o, base, site } = await world();
    const stranger = (await buildOrganization(h, 'Strangers')).admin;
    const read = (caller: Caller, suffix: string) => caller.rest('GET', `${base}/${suffix}`);
    expectOk(await admin.rest('PATCH', base, { visibility: 'share-link' }));
    const link = expectOk(await admin.rest('POST', `${base}/share-links`, { name: 'Partners' }), 201);
    const key = new URL(link.urls.published).searchParams.get('shareKey')!;
    const siteUrl = `${h.config.publishedUrl}/${o}/${site.id}/`;
    const lookup = (url: string) => anonymous(h).rest('POST', '/v1/urls/published', { url });
    // Unpublished: closed even with the key.
    restError(await read(stranger, `published?shareKey=${key}`), 404);
    restError(await lookup(`${siteUrl}?shareKey=${key}`), 404);
    expectOk(await admin.rest('POST', `${base}/publish`));
    // The management routes stay the organization's, key or not, published or not (issue 36 §2).
    for (const suffix of ['published', 'sections', 'structure', 'site-spaces', `published?shareKey=${key}`, `sections?shareKey=${key}`]) restError(await read(stranger, suffix), 404);
    restError(await stranger.rest('GET', base), 404);
    restError(await stranger.rest('GET', `${base}/share-links`), 404);
    // The published API opens it with the key: the apiToken reads the profile, with the key in it.
    restError(await lookup(siteUrl), 404);
    const found = expectOk(await lookup(`${siteUrl}?shareKey=${key}`));
    const visitor = callerFor(h, found.apiToken);
    const profile = expectOk(await read(visitor, 'published'), 200, 'getPublishedContentSite');
    expect(profile).toMatchObject({ object: 'published-content-site', site: { id: site.id, title: 'Docs' }, structure: { type: 'sections' } });
    expect(profile.structure.structure.map((s: any) => s.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
    // An inactive link closes the lookup and the token at once.
    expectOk(await admin.rest('PATCH', `${base}/share-links/${link.id}`, { active: false }));
    restError(await read(visitor, 'published'), 404);
    restError(await lookup(`${siteUrl}?shareKey=${key}`), 404);
    // A key of another site opens nothing here.
    const other = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Other', visibility: 'share-link' }), 201);
    const otherLink = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${other.id}/share-links`, { name: 'x' }), 201);
    restError(await lookup(`${siteUrl}?shareKey=${new URL(otherLink.urls.published).searchParams.get('shareKey')}`), 404);
    // Public and unlisted published sites: anyone through the lookup; still members only through these routes.
    for (const visibility of ['public', 'unlisted']) {
      expectOk(await admin.rest('PATCH', base, { visibility }));
      expectOk(await lookup(siteUrl));
      restError(await read(stranger, 'published'), 404);
    }
    expectOk(await admin.rest('PATCH', base, { visibility: 'visitor-auth' }));
    restError(await read(stranger, 'published'), 404);
    expectOk(await read(admin, 'published'));
    restError(await read(stranger, `published?shareKey=${'k'.repeat(257)}`), 400, 'shareKey');
  });

  it('the published profile: the site, its sections in navigation order, customizations with its title', async () => {
    const { admin, o, base, site } = await world();
    expectOk(await admin.rest('POST', `${base}/section-groups`, { title: 'Group', sections: [] }), 201);
    expectOk(await admin.rest('POST', `${base}/publish`));
    const profile = expectOk(await admin.rest('GET', `${base}/published`), 200, 'getPublishedContentSite');
    expect(profile.site).toMatchObject({ id: site.id, published: true, urls: { published: expect.any(String) } });
    expect(profile.structure.structure.map((s: any) => s.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(profile.customizations.site).toMatchObject({ title: 'Docs', styling: { theme: 'clean' }, internationalization: { locale: 'en' }, themes: { default: 'system' } });
    for (const key of ['title', 'styling', 'internationalization', 'favicon', 'header', 'footer', 'announcement', 'themes', 'pdf', 'feedback', 'aiSearch', 'ai', 'advancedCustomization']) {
      expect(profile.customizations.site, key).toHaveProperty(key);
    }
    expect(profile.scripts).toEqual([]);
    const viaGraphql = gqlData(
      await admin.gql('query($o: String!, $s: String!) { publishedSite(organizationId: $o, siteId: $s) { object site { id siteSpaces } structure { type structure { title siteSpaces { space { title } } } } } }', { o, s: site.id }),
      'publishedSite',
    );
    expect(viaGraphql).toMatchObject({ object: 'published-content-site', site: { id: site.id, siteSpaces: 3 }, structure: { type: 'sections' } });
    expect(viaGraphql.structure.structure.map((s: any) => s.siteSpaces[0].space.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
  });
});

describe('adaptive schema', () => {
  it('404 until set; PUT creates or replaces it (JSON Schema draft-07 of described boolean claims), 400 with Ajv\'s message otherwise', async () => {
    const { admin, base, reader } = await world();
    const path = `${base}/adaptive-schema`;
    restError(await admin.rest('GET', path), 404);
    const jsonSchema = {
      type: 'object',
      properties: { isBetaUser: { type: 'boolean', description: 'Beta programme member' }, isAdmin: { type: 'boolean', description: 'Administrator' } },
      additionalProperties: false,
    };
    const set = expectOk(await admin.rest('PUT', path, { jsonSchema }), 200, 'updateSiteAdaptiveSchema');
    expect(set).toEqual({ object: 'site-adaptive-schema', jsonSchema, updatedAt: expect.any(String) });
    expect(expectOk(await reader.rest('GET', path), 200, 'getSiteAdaptiveSchema')).toEqual(set);
    const replaced = { ...jsonSchema, properties: { isPartner: { type: 'boolean', description: 'Partner' } } };
    expect(expectOk(await admin.rest('PUT', path, { jsonSchema: replaced })).jsonSchema).toEqual(replaced);
    const refused = [
      [{}, 'jsonSchema'],
      [{ jsonSchema: 'object' }, 'jsonSchema'],
      [{ jsonSchema: { ...jsonSchema, additionalProperties: true } }, 'additionalProperties'],
      [{ jsonSchema: { ...jsonSchema, properties: { plan: { type: 'string', description: 'Plan' } } } }, 'properties/plan/type'],
      [{ jsonSchema: { ...jsonSchema, properties: { isBeta: { type: 'boolean' } } } }, 'description'],
      [{ jsonSchema: { ...jsonSchema, type: 'array' } }, 'type'],
      [{ jsonSchema: { ...jsonSchema, properties: { isBeta: { type: 'boolean', description: 'x', minimum: 'a' } } } }, 'minimum'],
    ] as const;
    for (const [body, mention] of refused) {
      const message = restError(await admin.rest('PUT', path, body), 400, 'jsonSchema');
      expect(message, JSON.stringify(body)).toContain(mention);
    }
    expect(expectOk(await admin.rest('GET', path)).jsonSchema).toEqual(replaced);
    restError(await reader.rest('PUT', path, { jsonSchema }), 403);
  });
});

type Ids = { o: string; s: string; sec: string; g: string; l: string };
const at = ({ o, s }: Ids) => `/v1/orgs/${o}/sites/${s}`;
const OPS: RefusalOp<Ids>[] = [
  {
    name: 'list sections',
    rest: (i) => ['GET', `${at(i)}/sections`],
    gql: ({ o, s }) => ['query($o: String!, $s: String!) { siteSections(organizationId: $o, siteId: $s) { count } }', { o, s }],
    refuse: 'guest',
  },
  {
    name: 'add a section',
    rest: (i) => ['POST', `${at(i)}/sections`, { spaceId: 'whatever' }],
    gql: ({ o, s }) => ['mutation($o: String!, $s: String!) { addSiteSection(organizationId: $o, siteId: $s, spaceId: "whatever") { id } }', { o, s }],
    refuse: 'reader',
  },
  {
    name: 'update a section',
    rest: (i) => ['PATCH', `${at(i)}/sections/${i.sec}`, { title: 'Changed' }],
    gql: ({ o, s, sec }) => ['mutation($o: String!, $s: String!, $x: String!) { updateSiteSection(organizationId: $o, siteId: $s, siteSectionId: $x, title: "Changed") { id } }', { o, s, x: sec }],
    refuse: 'reader',
  },
  {
    name: 'delete a section',
    rest: (i) => ['DELETE', `${at(i)}/sections/${i.sec}`],
    gql: ({ o, s, sec }) => ['mutation($o: String!, $s: String!, $x: String!) { deleteSiteSection(organizationId: $o, siteId: $s, siteSectionId: $x) }', { o, s, x: sec }],
    refuse: 'reader',
  },
  {
    name: 'move a section',
    rest: (i) => ['POST', `${at(i)}/sections/${i.sec}/move`, {}],
    gql: ({ o, s, sec }) => ['mutation($o: String!, $s: String!, $x: String!) { moveSiteSection(organizationId: $o, siteId: $s, siteSectionId: $x) { id } }', { o, s, x: sec }],
    refuse: 'reader',
  },
  {
    name: 'list groups',
    rest: (i) => ['GET', `${at(i)}/section-groups`],
    gql: ({ o, s }) => ['query($o: String!, $s: String!) { siteSectionGroups(organizationId: $o, siteId: $s) { count } }', { o, s }],
    refuse: 'guest',
  },
  {
    name: 'create a group',
    rest: (i) => ['POST', `${at(i)}/section-groups`, { title: 'New' }],
    gql: ({ o, s }) => ['mutation($o: String!, $s: String!) { createSiteSectionGroup(organizationId: $o, siteId: $s, title: "New") { id } }', { o, s }],
    refuse: 'reader',
  },
  {
    name: 'update a group',
    rest: (i) => ['PATCH', `${at(i)}/section-groups/${i.g}`, { title: 'Changed' }],
    gql: ({ o, s, g }) => ['mutation($o: String!, $s: String!, $g: String!) { updateSiteSectionGroup(organizationId: $o, siteId: $s, siteSectionGroupId: $g, title: "Changed") { id } }', { o, s, g }],
    refuse: 'reader',
  },
  {
    name: 'delete a group',
    rest: (i) => ['DELETE', `${at(i)}/section-groups/${i.g}`],
    gql: ({ o, s, g }) => ['mutation($o: String!, $s: String!, $g: String!) { deleteSiteSectionGroup(organizationId: $o, siteId: $s, siteSectionGroupId: $g) }', { o, s, g }],
    refuse: 'reader',
  },
  {
    name: 'add a section to a group',
    rest: (i) => ['POST', `${at(i)}/section-groups/${i.g}/sections`, { sectionId: i.sec }],
    gql: ({ o, s, g, sec }) => [
      'mutation($o: String!, $s: String!, $g: String!, $x: String!) { addSiteSectionToGroup(organizationId: $o, siteId: $s, siteSectionGroupId: $g, sectionId: $x) { id } }',
      { o, s, g, x: sec },
    ],
    refuse: 'reader',
  },
  {
    name: 'remove a section from a group',
    rest: (i) => ['DELETE', `${at(i)}/section-groups/${i.g}/sections/${i.sec}`],
    gql: ({ o, s, g, sec }) => [
      'mutation($o: String!, $s: String!, $g: String!, $x: String!) { removeSiteSectionFromGroup(organizationId: $o, siteId: $s, siteSectionGroupId: $g, siteSectionId: $x) }',
      { o, s, g, x: sec },
    ],
    refuse: 'reader',
  },
  {
    name: 'move a group',
    rest: (i) => ['POST', `${at(i)}/section-groups/${i.g}/move`, {}],
    gql: ({ o, s, g }) => ['mutation($o: String!, $s: String!, $g: String!) { moveSiteSectionGroup(organizationId: $o, siteId: $s, siteSectionGroupId: $g) { id } }', { o, s, g }],
    refuse: 'reader',
  },
  {
    // A key is a credential: only the site's managers see them.
    name: 'list share links',
    rest: (i) => ['GET', `${at(i)}/share-links`],
    gql: ({ o, s }) => ['query($o: String!, $s: String!) { siteShareLinks(organizationId: $o, siteId: $s) { count } }', { o, s }],
    refuse: 'reader',
  },
  {
    name: 'create a share link',
    rest: (i) => ['POST', `${at(i)}/share-links`, { name: 'New' }],
    gql: ({ o, s }) => ['mutation($o: String!, $s: String!) { createSiteShareLink(organizationId: $o, siteId: $s, name: "New") { id } }', { o, s }],
    refuse: 'reader',
  },
  {
    name: 'update a share link',
    rest: (i) => ['PATCH', `${at(i)}/share-links/${i.l}`, { active: false }],
    gql: ({ o, s, l }) => ['mutation($o: String!, $s: String!, $l: String!) { updateSiteShareLink(organizationId: $o, siteId: $s, shareLinkId: $l, active: false) { id } }', { o, s, l }],
    refuse: 'reader',
  },
  {
    name: 'delete a share link',
    rest: (i) => ['DELETE', `${at(i)}/share-links/${i.l}`],
    gql: ({ o, s, l }) => ['mutation($o: String!, $s: String!, $l: String!) { deleteSiteShareLink(organizationId: $o, siteId: $s, shareLinkId: $l) }', { o, s, l }],
    refuse: 'reader',
  },
  {
    name: 'get the adaptive schema',
    rest: (i) => ['GET', `${at(i)}/adaptive-schema`],
    gql: ({ o, s }) => ['query($o: String!, $s: String!) { siteAdaptiveSchema(organizationId: $o, siteId: $s) { object } }', { o, s }],
    refuse: 'guest',
  },
  {
    name: 'set the adaptive schema',
    rest: (i) => ['PUT', `${at(i)}/adaptive-schema`, { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } }],
    gql: ({ o, s }) => [
      'mutation($o: String!, $s: String!, $j: JSON!) { updateSiteAdaptiveSchema(organizationId: $o, siteId: $s, jsonSchema: $j) { object } }',
      { o, s, j: { type: 'object', properties: {}, additionalProperties: false } },
    ],
    refuse: 'reader',
  },
  {
    name: 'get the published profile',
    rest: (i) => ['GET', `${at(i)}/published`],
    gql: ({ o, s }) => ['query($o: String!, $s: String!) { publishedSite(organizationId: $o, siteId: $s) { object } }', { o, s }],
    refuse: 'guest',
  },
];

refusalMatrix(OPS, {
  h,
  setup: async () => {
    const w = await world();
    const group = expectOk(await w.admin.rest('POST', `${w.base}/section-groups`, { title: 'Kept', sections: [w.ids.Alpha] }), 201);
    const link = expectOk(await w.admin.rest('POST', `${w.base}/share-links`, { name: 'Kept' }), 201);
    await w.admin.rest('PUT', `${w.base}/adaptive-schema`, { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } });
    return { ...w, group, link };
  },
  ids: (w) => ({ o: w.o, s: w.site.id, sec: w.ids.Alpha, g: w.group.id, l: w.link.id }),
  unknown: { o: 'unknownOrganization1', s: 'unknownSite000000001' },
  // Guests see only what was shared with them: no site structure; readers and editors do not manage.
  forbidden: async (w, refuse) => ({ callers: refuse === 'guest' ? [w.guest] : [w.reader, w.editor, w.guest] }),
  unchanged: async (w) => {
    const sections = await h.db.siteSection.findMany({ where: { siteId: w.site.id }, orderBy: { position: 'asc' } });
    expect(sections.map((s) => [s.title, s.sectionGroupId])).toEqual([['Beta', null], ['Gamma', null], ['Alpha', w.group.id]]);
    expect(await h.db.shareLink.findUniqueOrThrow({ where: { id: w.link.id } })).toMatchObject({ active: true, name: 'Kept' });
    expect(await h.db.siteSectionGroup.count({ where: { siteId: w.site.id } })).toBe(1);
  },
});

describe('the GraphQL door, every site operation', () => {
  it('walks sites, sections, groups, share links, the adaptive schema and the published profile', async () => {
    const { admin, o, spaces } = await world();
    const q = async (field: string, query: string, variables: Record<string, unknown> = {}) => gqlData(await admin.gql(query, { o, ...variables }), field);
    const site = await q('createSite', 'mutation($o: String!, $s: [String!]) { createSite(organizationId: $o, title: "Walk", spaces: $s) { id siteSpaces } }', {
      s: [spaces[0].id],
    });
    const s = site.id;
    expect((await q('organizationSites', 'query($o: String!) { organizationSites(organizationId: $o, title: "walk") { items { id } } }')).items).toEqual([{ id: s }]);
    expect(await q('site', 'query($o: String!, $s: String!) { site(organizationId: $o, siteId: $s) { title permissions { admin } } }', { s })).toEqual({ title: 'Walk', permissions: { admin: true } });
    expect(await q('updateSite', 'mutation($o: String!, $s: String!) { updateSite(organizationId: $o, siteId: $s, basename: "walk", visibility: "share-link") { basename visibility } }', { s })).toEqual({
      basename: 'walk',
      visibility: 'share-link',
    });
    expect((await q('publishSite', 'mutation($o: String!, $s: String!) { publishSite(organizationId: $o, siteId: $s) { published } }', { s })).published).toBe(true);
    const added = await q('addSiteSection', 'mutation($o: String!, $s: String!, $sp: String!) { addSiteSection(organizationId: $o, siteId: $s, spaceId: $sp, title: "Second") { id path } }', {
      s,
      sp: spaces[1].id,
    });
    expect(added.path).toBe('second');
    expect(
      await q('updateSiteSection', 'mutation($o: String!, $s: String!, $x: String!) { updateSiteSection(organizationId: $o, siteId: $s, siteSectionId: $x, condition: "visitor.claims.beta") { condition } }', {
        s,
        x: added.id,
      }),
    ).toEqual({ condition: 'visitor.claims.beta' });
    const sections = (await q('siteSections', 'query($o: String!, $s: String!) { siteSections(organizationId: $o, siteId: $s) { items { id title } } }', { s })).items;
    expect(
      (await q('moveSiteSection', 'mutation($o: String!, $s: String!, $x: String!, $p: SiteSectionPositionInput) { moveSiteSection(organizationId: $o, siteId: $s, siteSectionId: $x, position: $p) { id } }', {
        s,
        x: added.id,
        p: { before: { type: 'site-section', siteSection: sections[0].id } },
      })).id,
    ).toBe(added.id);
    const group = await q('createSiteSectionGroup', 'mutation($o: String!, $s: String!) { createSiteSectionGroup(organizationId: $o, siteId: $s, title: "G") { id } }', { s });
    const g = group.id;
    expect(
      (await q('addSiteSectionToGroup', 'mutation($o: String!, $s: String!, $g: String!, $x: String!) { addSiteSectionToGroup(organizationId: $o, siteId: $s, siteSectionGroupId: $g, sectionId: $x) { sections { id } } }', {
        s,
        g,
        x: added.id,
      })).sections,
    ).toEqual([{ id: added.id }]);
    expect((await q('siteSectionGroups', 'query($o: String!, $s: String!) { siteSectionGroups(organizationId: $o, siteId: $s) { count } }', { s })).count).toBe(1);
    expect(await q('updateSiteSectionGroup', 'mutation($o: String!, $s: String!, $g: String!) { updateSiteSectionGroup(organizationId: $o, siteId: $s, siteSectionGroupId: $g, title: "H") { title } }', { s, g })).toEqual({ title: 'H' });
    expect(
      (await q('moveSiteSectionGroup', 'mutation($o: String!, $s: String!, $g: String!) { moveSiteSectionGroup(organizationId: $o, siteId: $s, siteSectionGroupId: $g) { id } }', { s, g })).id,
    ).toBe(g);
    expect(
      await q('removeSiteSectionFromGroup', 'mutation($o: String!, $s: String!, $g: String!, $x: String!) { removeSiteSectionFromGroup(organizationId: $o, siteId: $s, siteSectionGroupId: $g, siteSectionId: $x) }', {
        s,
        g,
        x: added.id,
      }),
    ).toBe(true);
    expect(await q('deleteSiteSectionGroup', 'mutation($o: String!, $s: String!, $g: String!) { deleteSiteSectionGroup(organizationId: $o, siteId: $s, siteSectionGroupId: $g) }', { s, g })).toBe(true);
    const link = await q('createSiteShareLink', 'mutation($o: String!, $s: String!) { createSiteShareLink(organizationId: $o, siteId: $s, name: "L") { id urls { published } } }', { s });
    expect((await q('siteShareLinks', 'query($o: String!, $s: String!) { siteShareLinks(organizationId: $o, siteId: $s) { count } }', { s })).count).toBe(1);
    expect(await q('updateSiteShareLink', 'mutation($o: String!, $s: String!, $l: String!) { updateSiteShareLink(organizationId: $o, siteId: $s, shareLinkId: $l, name: "M") { name active } }', { s, l: link.id })).toEqual({
      name: 'M',
      active: true,
    });
    const stranger = (await buildOrganization(h, 'Visitors')).admin;
    const key = new URL(link.urls.published).searchParams.get('shareKey');
    // A stranger reads no site through its management fields, key or not (the published API is theirs).
    const refused = await stranger.gql('query($o: String!, $s: String!, $k: String) { publishedSite(organizationId: $o, siteId: $s, shareKey: $k) { site { title } } }', { o, s, k: key });
    expect(refused.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(gqlData(await admin.gql('query($o: String!, $s: String!) { publishedSite(organizationId: $o, siteId: $s) { site { title } } }', { o, s }), 'publishedSite')).toEqual({ site: { title: 'Walk' } });
    expect(await q('deleteSiteShareLink', 'mutation($o: String!, $s: String!, $l: String!) { deleteSiteShareLink(organizationId: $o, siteId: $s, shareLinkId: $l) }', { s, l: link.id })).toBe(true);
    const schema = { type: 'object', properties: { beta: { type: 'boolean', description: 'Beta' } }, additionalProperties: false };
    expect((await q('updateSiteAdaptiveSchema', 'mutation($o: String!, $s: String!, $j: JSON!) { updateSiteAdaptiveSchema(organizationId: $o, siteId: $s, jsonSchema: $j) { jsonSchema } }', { s, j: schema })).jsonSchema).toEqual(schema);
    expect((await q('siteAdaptiveSchema', 'query($o: String!, $s: String!) { siteAdaptiveSchema(organizationId: $o, siteId: $s) { object } }', { s })).object).toBe('site-adaptive-schema');
    expect(await q('deleteSiteSection', 'mutation($o: String!, $s: String!, $x: String!) { deleteSiteSection(organizationId: $o, siteId: $s, siteSectionId: $x) }', { s, x: added.id })).toBe(true);
    expect((await q('unpublishSite', 'mutation($o: String!, $s: String!) { unpublishSite(organizationId: $o, siteId: $s) { published } }', { s })).published).toBe(false);
    expect(await q('deleteSite', 'mutation($o: String!, $s: String!) { deleteSite(organizationId: $o, siteId: $s) }', { s })).toBe(true);
  });
});
