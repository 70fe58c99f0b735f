// A site space's (variant's) customization overrides (issue 24 §3): shown over the site's own, merged
// key by key, a null resets one, DELETE answers 205 when something was removed and 204 otherwise.
import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, restError } from '../support/assertions.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

async function site() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Variants');
  const spaces = [await buildSpace(admin, o, { title: 'English' }), await buildSpace(admin, o, { title: 'French' })];
  const created = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Product docs', spaces: spaces.map((s) => s.id) }), 201);
  const path = `/v1/orgs/${o}/sites/${created.id}`;
  const sections = expectOk(await admin.rest('GET', `${path}/sections`)).items;
  const [english, french] = sections.map((section: any) => section.siteSpaces[0].id as string);
  return { admin, o, siteId: created.id as string, path, english, french };
}

describe('site space customization', () => {
  it("shows the site's customization until overridden; a PATCH merges, a null resets; GitBook shapes", async () => {
    const { admin, path, english, french } = await site();
    const siteCustomization = expectOk(await admin.rest('GET', `${path}/customization`));
    const initial = await admin.rest('GET', `${path}/site-spaces/${french}/customization`);
    expect(validateGitBookResponse('getSiteSpaceCustomizationById', initial.status, initial.body)).toEqual([]);
    expect(initial.body).toEqual(siteCustomization);

    const first = await admin.rest('PATCH', `${path}/site-spaces/${french}/customization`, {
      title: 'Docs produit',
      styling: { primaryColor: { light: '#ff0000', dark: '#aa0000' } },
      internationalization: { locale: 'fr' },
    });
    expect(validateGitBookResponse('overrideSiteSpaceCustomizationById', first.status, first.body)).toEqual([]);
    expect(first.body).toMatchObject({ title: 'Docs produit', styling: { theme: 'clean', primaryColor: { light: '#ff0000' } }, internationalization: { locale: 'fr' } });

    // A second PATCH keeps what the first set and adds to it; a null removes one override.
    const second = expectOk(await admin.rest('PATCH', `${path}/site-spaces/${french}/customization`, { styling: { theme: 'bold' }, title: null }));
    expect(second).toMatchObject({ title: 'Product docs', styling: { theme: 'bold', primaryColor: { light: '#ff0000' } }, internationalization: { locale: 'fr' } });
    expect(expectOk(await admin.rest('GET', `${path}/site-spaces/${french}/customization`))).toEqual(second);

    // The other variant and the site itself are untouched; the site's later changes show through.
    expect(expectOk(await admin.rest('GET', `${path}/site-spaces/${english}/customization`))).toEqual(siteCustomization);
    const { updatedAt: _u, ...body } = siteCustomization;
    body.announcement = { enabled: true, message: 'Hello', style: 'info' };
    expectOk(await admin.rest('PUT', `${path}/customization`, body));
    expect(expectOk(await admin.rest('GET', `${path}/site-spaces/${french}/customization`))).toMatchObject({ announcement: { message: 'Hello' }, styling: { theme: 'bold' } });

    // The published profile carries the site's and every variant's customization (GitBook's renderer
    // reads the one of the variant it draws): the site's own where the variant overrides nothing.
    const profile = expectOk(await admin.rest('GET', `${path}/published`), 200, 'getPublishedContentSite');
    expect(Object.keys(profile.customizations.siteSpaces).sort()).toEqual([english, french].sort());
    expect(profile.customizations.siteSpaces[english]).toMatchObject({ announcement: { message: 'Hello' } });
    expect(profile.customizations.siteSpaces[french]).toMatchObject({ styling: { theme: 'bold' }, internationalization: { locale: 'fr' } });

    // GraphQL: the same fields.
    const gql = await admin.gql(
      `mutation($o: String!, $s: String!, $ss: String!) { overrideSiteSpaceCustomization(organizationId: $o, siteId: $s, siteSpaceId: $ss, themes: { default: "dark" }) }`,
      { o: path.split('/')[3], s: path.split('/')[5], ss: french },
    );
    expect(gql.body.data.overrideSiteSpaceCustomization).toMatchObject({ themes: { default: 'dark' }, styling: { theme: 'bold' } });
  });

  it('DELETE answers 205 when overrides were removed, 204 when there were none', async () => {
    const { admin, path, french } = await site();
    const none = await admin.rest('DELETE', `${path}/site-spaces/${french}/customization`);
    expect([none.status, none.text]).toEqual([204, '']);
    expectOk(await admin.rest('PATCH', `${path}/site-spaces/${french}/customization`, { themes: { default: 'dark' } }));
    const removed = await admin.rest('DELETE', `${path}/site-spaces/${french}/customization`);
    expect([removed.status, removed.text]).toEqual([205, '']);
    expect(expectOk(await admin.rest('GET', `${path}/site-spaces/${french}/customization`))).toEqual(expectOk(await admin.rest('GET', `${path}/customization`)));
    // Resetting every key by null leaves no override behind either.
    expectOk(await admin.rest('PATCH', `${path}/site-spaces/${french}/customization`, { themes: { default: 'dark' } }));
    expectOk(await admin.rest('PATCH', `${path}/site-spaces/${french}/customization`, { themes: null }));
    expect((await admin.rest('DELETE', `${path}/site-spaces/${french}/customization`)).status).toBe(204);
  });

  it('bad overrides are a 400 naming the field; unknown site spaces 404; readers 403 on writes; outsiders 404', async () => {
    const { admin, o, path, french } = await site();
    const at = `${path}/site-spaces/${french}/customization`;
    restError(await admin.rest('PATCH', at, { styling: { primaryColor: { light: 'red', dark: '#000' } } }), 400, 'styling.primaryColor');
    restError(await admin.rest('PATCH', at, { styling: { theme: 'neon' } }), 400, 'styling.theme');
    restError(await admin.rest('PATCH', at, { themes: { toggeable: 'yes' } }), 400, 'themes.toggeable');
    restError(await admin.rest('PATCH', at, { title: 'x'.repeat(200_000) }), 400);
    restError(await admin.rest('GET', `${path}/site-spaces/nope/customization`), 404);
    restError(await admin.rest('PATCH', `${path}/site-spaces/nope/customization`, { themes: null }), 404);
    restError(await admin.rest('DELETE', `${path}/site-spaces/nope/customization`), 404);

    const reader = await buildMember(h, o, 'read');
    expectOk(await reader.rest('GET', at));
    restError(await reader.rest('PATCH', at, { themes: { default: 'dark' } }), 403);
    restError(await reader.rest('DELETE', at), 403);
    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    restError(await outsider.rest('GET', at), 404);
    restError(await outsider.rest('PATCH', at, { themes: null }), 404);
    restError(await outsider.rest('DELETE', at), 404);
    // A site space of another site of the same organization is not this site's.
    const other = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Other' }), 201);
    restError(await admin.rest('GET', `/v1/orgs/${o}/sites/${other.id}/site-spaces/${french}/customization`), 404);
  });
});
