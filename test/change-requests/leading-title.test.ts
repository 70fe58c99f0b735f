// Issue 39 §2: a page whose markdown starts with `# Title` showed its title twice. A leading H1 is the
// page's title, as GitBook reads markdown: it names the page when no title is given and stays out of
// the body; the page's `.md` puts it back on top.
import { describe, expect, it } from 'vitest';
import { leadingTitleOf, withLeadingTitle } from '../../src/modules/content/index.ts';
import { buildOrganization, buildSpace } from '../factories.ts';
import { expectOk } from '../support/assertions.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

describe('leadingTitleOf', () => {
  it('reads an ATX level-1 heading on the first written line, and nothing else', () => {
    expect(leadingTitleOf('# Intro\n\nHello.')).toEqual({ title: 'Intro', body: 'Hello.' });
    expect(leadingTitleOf('\n\n  # Intro #\n\n\nHello.\n')).toEqual({ title: 'Intro', body: 'Hello.\n' });
    expect(leadingTitleOf('# C#\nText')).toEqual({ title: 'C#', body: 'Text' });
    expect(leadingTitleOf('# Only')).toEqual({ title: 'Only', body: '' });
    for (const none of ['## Two', '#Tag', 'Text\n# Later', '    # code', '# ', '']) expect(leadingTitleOf(none), none).toBeNull();
  });

  it('stays linear on hostile lines (the regex it replaced took 49 s on 4,000 spaces)', () => {
    const started = performance.now();
    leadingTitleOf(`#${' '.repeat(200_000)}x${'#'.repeat(200_000)}`);
    leadingTitleOf(`${' \n'.repeat(200_000)}# x`);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('withLeadingTitle puts the title back on top of a body', () => {
    expect(withLeadingTitle('Intro', 'Hello.')).toBe('# Intro\n\nHello.');
    expect(withLeadingTitle('Empty', '')).toBe('# Empty\n');
  });
});

describe('writing markdown that starts with its title', () => {
  async function setup() {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await buildSpace(admin, o, { title: 'Docs' });
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Write' }), 201);
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    const write = async (changes: unknown[]) => expectOk(await admin.rest('POST', `${path}/content?compat=false`, { changes }));
    const pages = async () => expectOk(await admin.rest('GET', `${path}/content/pages`)).pages as any[];
    const markdownOf = async (id: string) => expectOk(await admin.rest('GET', `${path}/content/page/${id}?format=markdown`)).markdown as string;
    return { admin, o, space, cr, path, write, pages, markdownOf };
  }

  it('insert: the heading names the page (or matches the given title) and leaves the body; a different given title keeps both', async () => {
    const { write, pages, markdownOf } = await setup();
    await write([
      { operation: 'insert_page', document: { markdown: '# Getting started\n\nInstall it.' } },
      { operation: 'insert_page', title: 'Usage', document: { markdown: '# Usage\n\nRun it.' } },
      { operation: 'insert_page', title: 'FAQ', document: { markdown: '# Questions people ask\n\nAsk.' } },
      { operation: 'insert_page', document: { markdown: '---\ndescription: With front matter\n---\n# Front\n\nBody.' } },
    ]);
    const [started, usage, faq, front] = await pages();
    expect([started.title, usage.title, faq.title, front.title]).toEqual(['Getting started', 'Usage', 'FAQ', 'Front']);
    expect(started.slug).toBe('getting-started');
    expect(await markdownOf(started.id)).toBe('Install it.');
    expect(await markdownOf(usage.id)).toBe('Run it.');
    expect(await markdownOf(faq.id)).toBe('# Questions people ask\n\nAsk.');
    expect(await markdownOf(front.id)).toBe('Body.');
    expect(front.description).toBe('With front matter');
  });

  it('update: a new leading heading renames the page; the body keeps no heading', async () => {
    const { write, pages, markdownOf } = await setup();
    await write([{ operation: 'insert_page', document: { markdown: '# Old\n\nText.' } }]);
    const [page] = await pages();
    await write([{ operation: 'update_page', page: page.id, document: { markdown: '# New name\n\nText, edited.' } }]);
    const [renamed] = await pages();
    expect(renamed.title).toBe('New name');
    expect(await markdownOf(page.id)).toBe('Text, edited.');
  });

  it("the reader shows the title once; the page's .md has it back on top", async () => {
    const { admin, o, space, cr, write } = await setup();
    await write([{ operation: 'insert_page', document: { markdown: '# Getting started\n\nInstall it.' } }]);
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
    const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs site' }), 201);
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/site-spaces`, { spaceId: space.id }), 201);
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
    const published = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}`)).urls.published as string;
    const html = await (await h.app.fetch(`${published.replace(/\/$/, '')}/getting-started`)).text();
    expect(html.match(/Getting started<\/h1>/g) ?? []).toHaveLength(1);
    const markdown = await (await h.app.fetch(`${published.replace(/\/$/, '')}/getting-started.md`)).text();
    expect(markdown).toBe('# Getting started\n\nInstall it.');
  });
});
