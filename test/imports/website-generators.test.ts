// Issue 39 §2: the website import followed links in the main content only (6 of 12 pages of a site
// whose pages are linked from its sidebar), kept only the first tab of a tab set, flattened hints and
// carried page chrome into the markdown ("On this page", "Last updated", heading anchors). Tested on
// pages shaped like Docusaurus, MkDocs Material and GitBook output, and on this server's own reader.
import { describe, expect, it } from 'vitest';
import { buildOrganization, buildSpace } from '../factories.ts';
import { expectOk } from '../support/assertions.ts';
import { PAGES, SECTIONS, useGeneratorSite, type Generator } from '../support/generator-sites.ts';
import { useHarness, type Caller } from '../support/harness.ts';
import { listen } from '../support/listener.ts';

const h = useHarness({ fetch: { allowPrivate: true, timeoutMs: 2000 }, imports: { maxPages: 50 } });
const sites = { docusaurus: useGeneratorSite('docusaurus'), mkdocs: useGeneratorSite('mkdocs'), gitbook: useGeneratorSite('gitbook') };

function flatten(pages: any[]): any[] {
  return pages.flatMap((p) => [p, ...flatten(p.pages)]);
}

async function importInto(url: string) {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Imported' });
  const result = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/content/import`, { url, source: 'website' }));
  const top = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)).pages;
  const pages = flatten(top);
  const markdownOf = async (title: string) => {
    const page = pages.find((p) => p.title === title);
    if (!page) throw new Error(`no page "${title}" among ${pages.map((p) => p.title).join(', ')}`);
    return expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/${page.id}?format=markdown`)).markdown as string;
  };
  return { admin, o, result, pages, markdownOf, top };
}

/** The blocks and the chrome, whatever made the page. */
function expectBlocksWithoutChrome(markdown: string) {
  expect(markdown).toMatch(/\{% tabs %\}\n\{% tab title="macOS" %\}\nUse brew\.\n\{% endtab %\}\n\n\{% tab title="Linux" %\}\nUse apt\.\n\{% endtab %\}\n\{% endtabs %\}/);
  expect(markdown).toContain('{% hint style="warning" %}\nBack up first.\n{% endhint %}');
  expect(markdown).toContain('<details>\n\n<summary>Advanced options</summary>\n\nHidden until opened.\n\n</details>');
  expect(markdown).toMatch(/^##{1,2} Requirements$/m); // the reader draws a heading-2 as h3
  for (const chrome of ['On this page', 'Last update', 'Edit this page', '¶', '](#requirements)', '[#]', 'Direct link']) expect(markdown, chrome).not.toContain(chrome);
}

describe('website import of sites made by the usual generators', () => {
  for (const kind of ['docusaurus', 'mkdocs', 'gitbook'] as Generator[]) {
    it(`${kind}: every page the sidebar links, its sections as page groups, tabs, hints and expandables as GitBook blocks, no chrome`, async () => {
      const { result, pages, markdownOf, top } = await importInto(`${sites[kind].origin}/docs/`);
      expect(result.importedResources).toBe(PAGES.length);
      const documents = pages.filter((p) => p.type === 'document');
      expect(documents.map((p) => p.title).sort()).toEqual(PAGES.map((slug) => slug[0].toUpperCase() + slug.slice(1)).sort());
      if (kind === 'gitbook') expect(top.every((p: any) => p.type === 'document')).toBe(true);
      else {
        expect(top.map((p: any) => [p.type, p.title])).toEqual(Object.keys(SECTIONS).map((name) => ['group', name]));
        expect(top[0].pages.map((p: any) => p.title).sort()).toEqual(SECTIONS['Getting started'].map((slug) => slug[0].toUpperCase() + slug.slice(1)).sort());
      }
      expectBlocksWithoutChrome(await markdownOf('Install'));
      const faq = await markdownOf('Faq');
      expect(faq).toBe('## Overview\n\nAbout faq: the zeppelin faq guide.');
    });
  }

  it("this server's own reader: the sidebar's pages, its blocks back as they were written, no chrome", async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await buildSpace(admin, o, { title: 'Source' });
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' }), 201);
    const install = [
      '## Requirements',
      '',
      'Node.js and a database.',
      '',
      '{% tabs %}',
      '{% tab title="macOS" %}',
      'Use brew.',
      '{% endtab %}',
      '',
      '{% tab title="Linux" %}',
      'Use apt.',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '{% hint style="warning" %}',
      'Back up first.',
      '{% endhint %}',
      '',
      '<details>',
      '',
      '<summary>Advanced options</summary>',
      '',
      'Hidden until opened.',
      '',
      '</details>',
    ].join('\n');
    const changes = [
      { operation: 'insert_page', type: 'group', ref: 'start', title: 'Getting started' },
      ...PAGES.map((slug) => ({
        operation: 'insert_page',
        ...(slug === 'install' || slug === 'configure' ? { into: 'start' } : {}),
        title: slug[0].toUpperCase() + slug.slice(1),
        document: { markdown: slug === 'install' ? install : `## Overview\n\nAbout ${slug}.` },
      })),
    ];
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes }));
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
    const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Source site' }), 201);
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/site-spaces`, { spaceId: space.id }), 201);
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
    const published = new URL(expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}`)).urls.published as string);
    const server = await listen(h);
    try {
      // The reader answers on 127.0.0.1 too (path-addressed sites answer on any host).
      const { result, pages, markdownOf, top } = await importInto(`http://127.0.0.1:${server.port}${published.pathname}`);
      expect(result.importedResources).toBe(PAGES.length);
      expect(pages.filter((p) => p.type === 'document')).toHaveLength(PAGES.length);
      // The sidebar's group is a group again, holding the same pages.
      const group = top.find((p: any) => p.type === 'group');
      expect(group).toMatchObject({ title: 'Getting started' });
      expect(group.pages.map((p: any) => p.title)).toEqual(['Install', 'Configure']);
      expectBlocksWithoutChrome(await markdownOf('Install'));
    } finally {
      await server.close();
    }
  });
});
