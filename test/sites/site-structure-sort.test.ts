// GitBook's sortSiteStructure (PATCH /orgs/{o}/sites/{s}/structure/sort): a section or a section group
// before or after a sibling at its level, or at the end of it; the level itself never changes.
import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { useHarness, type Caller } from '../support/harness.ts';

const h = useHarness();

/** Sections Alpha and Gamma at the top level, then a group G holding Beta. */
async function world() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const spaces = [await buildSpace(admin, o, { title: 'Alpha' }), await buildSpace(admin, o, { title: 'Beta' }), await buildSpace(admin, o, { title: 'Gamma' })];
  const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs', spaces: spaces.map((s) => s.id) }), 201);
  const base = `/v1/orgs/${o}/sites/${site.id}`;
  const sections = expectOk(await admin.rest('GET', `${base}/sections`)).items as any[];
  const ids = Object.fromEntries(sections.map((s) => [s.title, s.id])) as Record<string, string>;
  const group = expectOk(await admin.rest('POST', `${base}/section-groups`, { title: 'G', sections: [ids.Beta] }), 201);
  return { admin, o, site, base, ids, group: group.id as string };
}

/** The navigation as getSiteStructure answers it: top-level titles, a group as `G[…its sections]`. */
async function structure(caller: Caller, base: string): Promise<string[]> {
  const items = expectOk(await caller.rest('GET', `${base}/structure`)).structure as any[];
  return items.map((item) => (item.object === 'site-section-group' ? `${item.title}[${item.sections.map((s: any) => s.title).join(',')}]` : item.title));
}

const section = (id: string) => ({ type: 'site-section', id });
const group = (id: string) => ({ type: 'site-section-group', id });

describe('PATCH …/structure/sort (sortSiteStructure)', () => {
  it('sections and groups among their siblings, the end of the level by default; the moved item answered; GraphQL alike', async () => {
    const { admin, base, ids, group: g } = await world();
    const sort = (body: object) => admin.rest('PATCH', `${base}/structure/sort`, body);
    expect(await structure(admin, base)).toEqual(['Alpha', 'Gamma', 'G[Beta]']);

    const moved = expectOk(await sort({ item: section(ids.Gamma), position: { before: section(ids.Alpha) } }), 200, 'sortSiteStructure');
    expect(moved).toMatchObject({ object: 'site-section', id: ids.Gamma, title: 'Gamma' });
    expect(await structure(admin, base)).toEqual(['Gamma', 'Alpha', 'G[Beta]']);

    const movedGroup = expectOk(await sort({ item: group(g), position: { before: section(ids.Gamma) } }), 200, 'sortSiteStructure');
    expect(movedGroup).toMatchObject({ object: 'site-section-group', id: g });
    expect(await structure(admin, base)).toEqual(['G[Beta]', 'Gamma', 'Alpha']);
    // A section beside a group: both are top-level siblings.
    expectOk(await sort({ item: section(ids.Alpha), position: { after: group(g) } }));
    expect(await structure(admin, base)).toEqual(['G[Beta]', 'Alpha', 'Gamma']);
    // No position: the end of its level.
    expectOk(await sort({ item: group(g) }));
    expect(await structure(admin, base)).toEqual(['Alpha', 'Gamma', 'G[Beta]']);

    // Inside a group: among its sections.
    expectOk(await admin.rest('POST', `${base}/section-groups/${g}/sections`, { sectionId: ids.Alpha }));
    expect(await structure(admin, base)).toEqual(['Gamma', 'G[Beta,Alpha]']);
    expectOk(await sort({ item: section(ids.Alpha), position: { before: section(ids.Beta) } }));
    expect(await structure(admin, base)).toEqual(['Gamma', 'G[Alpha,Beta]']);
    expectOk(await sort({ item: section(ids.Alpha) }));
    expect(await structure(admin, base)).toEqual(['Gamma', 'G[Beta,Alpha]']);
    // The sections list (one ORDER BY over the keys) agrees.
    expect((expectOk(await admin.rest('GET', `${base}/sections`)).items as any[]).map((s) => s.title)).toEqual(['Gamma', 'Beta', 'Alpha']);

    const graph = gqlData(
      await admin.gql(
        'mutation($o: String!, $s: String!, $g: String!, $t: String!) { sortSiteStructure(organizationId: $o, siteId: $s, item: { type: "site-section-group", id: $g }, position: { before: { type: "site-section", id: $t } }) { __typename ... on SiteSectionGroup { id } } }',
        { o: base.split('/')[3], s: base.split('/')[5], g, t: ids.Gamma },
      ),
      'sortSiteStructure',
    );
    expect(graph).toEqual({ __typename: 'SiteSectionGroup', id: g });
    expect(await structure(admin, base)).toEqual(['G[Beta,Alpha]', 'Gamma']);

    // Prefer: return=minimal (GitBook's returnPreference): moved, nothing answered.
    const minimal = await h.app.fetch(`http://localhost:4000${base}/structure/sort`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json', prefer: 'return=minimal' },
      body: JSON.stringify({ item: section(ids.Gamma), position: { before: group(g) } }),
    });
    expect(minimal.status).toBe(204);
    expect(await structure(admin, base)).toEqual(['Gamma', 'G[Beta,Alpha]']);
  });

  it('refusals: another level, itself, both sides, site spaces (400 naming the field); unknown items and external links (404); readers 403, outsiders 404', async () => {
    const { admin, o, base, ids, group: g } = await world();
    const sort = (caller: Caller, body: object) => caller.rest('PATCH', `${base}/structure/sort`, body);
    restError(await sort(admin, { item: section(ids.Beta), position: { before: section(ids.Alpha) } }), 400, 'position.before');
    restError(await sort(admin, { item: section(ids.Alpha), position: { after: section(ids.Beta) } }), 400, 'position.after');
    restError(await sort(admin, { item: section(ids.Alpha), position: { before: group(ids.Gamma) } }), 400, 'position.before');
    restError(await sort(admin, { item: group(g), position: { before: group(g) } }), 400, 'position.before');
    restError(await sort(admin, { item: section(ids.Alpha), position: { before: section(ids.Gamma), after: section(ids.Gamma) } }), 400, 'position');
    restError(await sort(admin, { item: { type: 'site-space', id: 'any' } }), 400, 'item.type');
    restError(await sort(admin, { item: { type: 'page', id: 'any' } }), 400, 'item.type');
    restError(await sort(admin, { item: section('x'.repeat(65)) }), 400, 'item.id');
    restError(await sort(admin, {}), 400, 'item');
    restError(await sort(admin, { item: section('unknownSection') }), 404);
    restError(await sort(admin, { item: group('unknownGroup') }), 404);
    restError(await sort(admin, { item: { type: 'site-external-link', id: 'link' } }), 404);
    expect(await structure(admin, base)).toEqual(['Alpha', 'Gamma', 'G[Beta]']);

    const reader = await buildMember(h, o, 'read');
    restError(await sort(reader, { item: section(ids.Alpha) }), 403);
    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    restError(await sort(outsider, { item: section(ids.Alpha) }), 404);
    expect(await structure(admin, base)).toEqual(['Alpha', 'Gamma', 'G[Beta]']);
  });
});
