// Issue 39 §2: `type: "group"` was refused. GitBook's RevisionPageGroup is a titled, body-less node of
// the top level holding pages, drawn by readers as a sidebar heading. Written through content changes,
// kept by merges, left out of search as a page of its own, read by the reader, `.md` and llms files.
import { describe, expect, it } from 'vitest';
import { buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, restError } from '../support/assertions.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

async function spaceWithGroup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  const crs = `/v1/spaces/${space.id}/change-requests`;
  const cr = expectOk(await admin.rest('POST', crs, { subject: 'Groups' }), 201);
  const path = `${crs}/${cr.id}`;
  const made = expectOk(
    await admin.rest('POST', `${path}/content?compat=false`, {
      changes: [
        { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.' } },
        { operation: 'insert_page', ref: 'start', type: 'group', title: 'Getting started' },
        { operation: 'insert_page', into: 'start', title: 'Install', document: { markdown: 'Run the zeppelin installer.' } },
        { operation: 'insert_page', into: 'start', title: 'Configure', document: { markdown: 'Edit the file.' } },
      ],
    }),
  );
  const [welcome, group, install, configure] = made.changes.map((c: any) => c.page.id);
  return { admin, o, space, crs, cr, path, welcome, group, install, configure };
}

describe('page groups', () => {
  it("are written with insert_page type group: a titled node without a body, holding pages; GitBook's shapes", async () => {
    const { admin, space, path, group } = await spaceWithGroup();
    const res = await admin.rest('GET', `${path}/content/pages`);
    const [, start] = res.body.pages;
    expect(start).toMatchObject({ id: group, type: 'group', kind: 'group', title: 'Getting started', slug: 'getting-started' });
    expect(start.pages.map((p: any) => p.title)).toEqual(['Install', 'Configure']);
    expect(start.urls).toBeUndefined();
    expect(start.documentId).toBeUndefined();
    expectOk(await admin.rest('POST', `${path}/merge`));
    const merged = await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`);
    expect(validateGitBookResponse('listPages', merged.status, merged.body, { ignoreMissing: ['MarkdownDocument.markdown'] })).toEqual([]);
    expect(merged.body.pages[1].type).toBe('group');
  });

  it('refusals: a body, no title, inside a page, moved into a page; a group takes no document', async () => {
    const { admin, path, group, welcome } = await spaceWithGroup();
    const write = (change: object) => admin.rest('POST', `${path}/content`, { changes: [change] });
    restError(await write({ operation: 'insert_page', type: 'group', title: 'G', document: { markdown: 'x' } }), 400, 'changes[0].document');
    restError(await write({ operation: 'insert_page', type: 'group' }), 400, 'changes[0].title');
    restError(await write({ operation: 'insert_page', type: 'group', title: 'Nested', into: welcome }), 400, 'changes[0].into');
    restError(await write({ operation: 'update_page', page: group, into: welcome }), 400, 'changes[0].into');
    restError(await write({ operation: 'update_page', page: group, document: { markdown: 'x' } }), 400, 'changes[0].document');
    // Renamed and moved among the top level, it stays a group.
    expectOk(await write({ operation: 'update_page', page: group, title: 'Start here', at: 0 }));
    const pages = expectOk(await admin.rest('GET', `${path}/content/pages`)).pages;
    expect(pages.map((p: any) => [p.title, p.type])).toEqual([
      ['Start here', 'group'],
      ['Welcome', 'document'],
    ]);
  });

  it('search finds the pages in a group; the reader draws the group as a sidebar heading; .md and llms.txt list its pages', async () => {
    const { admin, o, space, path } = await spaceWithGroup();
    expectOk(await admin.rest('POST', `${path}/merge`));
    const found = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/search?query=zeppelin`));
    expect(found.items.map((item: any) => item.title)).toEqual(['Install']);
    const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs site' }), 201);
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/site-spaces`, { spaceId: space.id }), 201);
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
    const base = (expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}`)).urls.published as string).replace(/\/$/, '');
    const pages = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)).pages;
    const installPath = pages[1].pages[0].path as string;
    const html = await (await h.app.fetch(`${base}/${installPath}`)).text();
    expect(html).toContain('Getting started');
    // In the sidebar a heading, not a link (breadcrumbs link a group to its first page).
    expect(html).toContain('<li class="tree-group"><h2 class="tree-heading">Getting started</h2><ul>');
    expect(html).toContain('Run the zeppelin installer.');
    expect(await (await h.app.fetch(`${base}/${installPath}.md`)).text()).toBe('# Install\n\nRun the zeppelin installer.');
    const llms = await (await h.app.fetch(`${base}/llms.txt`)).text();
    expect(llms).toContain(`[Install](${base}/${installPath}.md)`);
    expect(llms).not.toContain('[Getting started]');
  });
});
