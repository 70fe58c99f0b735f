// A site's customization (issue 24 §3): GitBook's defaults until set, replaced whole by a PUT checked
// key by key, shown by the published profile.
import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectGitBookShape, expectOk, restError } from '../support/assertions.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

async function site() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Custom');
  const space = await buildSpace(admin, o, { title: 'Docs space' });
  const created = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Product docs', spaces: [space.id] }), 201);
  return { admin, o, path: `/v1/orgs/${o}/sites/${created.id}` };
}

describe('site customization', () => {
  it("GitBook's defaults with the site's title; a PUT replaces it whole; the published profile shows it", async () => {
    const { admin, path } = await site();
    const defaults = await admin.rest('GET', `${path}/customization`);
    expect(defaults.body).toMatchObject({ title: 'Product docs', styling: { theme: 'clean', primaryColor: { light: '#346DDB' } } });
    expect(validateGitBookResponse('getSiteCustomizationById', defaults.status, defaults.body)).toEqual([]);

    const body = structuredClone(defaults.body);
    body.styling.theme = 'bold';
    body.styling.primaryColor = { light: '#ff0000', dark: '#00ff00' };
    body.announcement = { enabled: true, message: 'Version 2 is out', style: 'info' };
    const updated = await admin.rest('PUT', `${path}/customization`, body);
    expect(updated.status).toBe(200);
    expect(validateGitBookResponse('updateSiteCustomizationById', updated.status, updated.body)).toEqual([]);
    expect(updated.body).toMatchObject({ styling: { theme: 'bold', primaryColor: { light: '#ff0000' } }, announcement: { enabled: true, message: 'Version 2 is out' } });
    expect(updated.body.updatedAt).toBe(h.clock.now().toISOString());
    expect(expectOk(await admin.rest('GET', `${path}/customization`))).toEqual(updated.body);
    expect(expectOk(await admin.rest('GET', `${path}/published`)).customizations.site).toMatchObject({ styling: { theme: 'bold' } });
  });

  it('a PUT missing a required key, with a bad colour or a bad choice is a 400 naming it; nothing is stored', async () => {
    const { admin, path } = await site();
    const defaults = expectOk(await admin.rest('GET', `${path}/customization`));
    const { updatedAt: _updatedAt, ...base } = defaults;
    const variants: [string, (body: any) => void][] = [
      ['footer', (b) => delete b.footer],
      ['styling.primaryColor.light', (b) => (b.styling.primaryColor.light = 'red')],
      ['styling.theme', (b) => (b.styling.theme = 'neon')],
      ['styling.sidebar', (b) => delete b.styling.sidebar],
    ];
    for (const [field, change] of variants) {
      const body = structuredClone(base);
      change(body);
      restError(await admin.rest('PUT', `${path}/customization`, body), 400, field);
    }
    restError(await admin.rest('PUT', `${path}/customization`, { ...base, title: 'x' }), 400, 'title');
    expect(expectOk(await admin.rest('GET', `${path}/customization`))).toEqual(defaults);
  });

  it('members read it, its managers change it, outsiders learn nothing', async () => {
    const { admin, o, path } = await site();
    const reader = await buildMember(h, o, 'read');
    const body = expectOk(await admin.rest('GET', `${path}/customization`));
    expectOk(await reader.rest('GET', `${path}/customization`));
    restError(await reader.rest('PUT', `${path}/customization`, body), 403);
    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    restError(await outsider.rest('GET', `${path}/customization`), 404);
    restError(await outsider.rest('PUT', `${path}/customization`, body), 404);
  });
});

describe('site structure', () => {
  it('top-level sections and groups in navigation order, each group with its sections; GitBook shape', async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Structure');
    const spaces = [];
    for (const title of ['One', 'Two', 'Three']) spaces.push(await buildSpace(admin, o, { title }));
    const created = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Nav', spaces: spaces.map((s) => s.id) }), 201);
    const path = `/v1/orgs/${o}/sites/${created.id}`;
    const sections = expectOk(await admin.rest('GET', `${path}/sections`)).items;
    const group = expectOk(await admin.rest('POST', `${path}/section-groups`, { title: 'More', sections: [sections[1].id, sections[2].id] }), 201);
    const res = await admin.rest('GET', `${path}/structure`);
    expect(res.body.type).toBe('sections');
    expect(res.body.structure.map((item: any) => [item.object, item.id])).toEqual([
      ['site-section', sections[0].id],
      ['site-section-group', group.id],
    ]);
    expect(res.body.structure[1].children.map((s: any) => s.id)).toEqual([sections[1].id, sections[2].id]);
    expect(res.body.structure[0].siteSpaces[0].space.id).toBe(spaces[0].id);
    expectGitBookShape('getSiteStructure', res.status, res.body);
  });
});
