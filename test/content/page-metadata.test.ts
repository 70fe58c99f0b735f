// Page fields a renderer draws navigation with (issue 24 §2): icon, cover, noIndex / noRobotsIndex and
// layout, set by a change's fields (GitBook's RevisionPageUpdate) or by the markdown's front matter
// (which wins, as in GitBook), kept by merges, and `noIndex` pages left out of search.
import { describe, expect, it } from 'vitest';
import { buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, restError } from '../support/assertions.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

async function space() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Meta');
  const s = await buildSpace(admin, o, { title: 'Docs' });
  const edit = async (changes: unknown[]) => {
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${s.id}/change-requests`, { subject: 'Edit' }), 201);
    const res = await admin.rest('POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, { changes });
    return { cr, res };
  };
  const merged = async (changes: unknown[]) => {
    const { cr, res } = await edit(changes);
    expectOk(res);
    expectOk(await admin.rest('POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/merge`));
  };
  const page = async (path: string) => expectOk(await admin.rest('GET', `/v1/spaces/${s.id}/content/path/${path}`), 200, 'getPageByPath');
  return { admin, o, space: s, edit, merged, page };
}

const FRONT_MATTER = `---
description: How to begin
icon: rocket
hidden: true
noRobotsIndex: true
cover: https://images.example/cover.png
coverY: 12
layout:
  width: wide
  outline:
    visible: false
---

# Getting started

Body text.
`;

describe('page metadata', () => {
  it('icon and indexing flags from the change, the rest from front matter; GitBook shapes; absent when unset', async () => {
    const { merged, page } = await space();
    await merged([
      { operation: 'insert_page', title: 'Plain', document: { markdown: 'Nothing special' } },
      { operation: 'insert_page', title: 'Fancy', icon: 'book', noIndex: true, document: { markdown: 'Fancy body' } },
      { operation: 'insert_page', document: { markdown: FRONT_MATTER } },
    ]);
    const plain = await page('plain');
    for (const key of ['icon', 'cover', 'noIndex', 'noRobotsIndex']) expect(plain).not.toHaveProperty(key);
    expect(await page('fancy')).toMatchObject({ icon: 'book', noIndex: true });

    const started = await page('getting-started');
    expect(started).toMatchObject({
      title: 'Getting started',
      description: 'How to begin',
      icon: 'rocket',
      hidden: true,
      noRobotsIndex: true,
      cover: { ref: { kind: 'url', url: 'https://images.example/cover.png' }, yPos: 12 },
      layout: { width: 'wide', outline: false, title: true },
    });
    // The front matter is not part of the body.
    expect(JSON.stringify(started.document)).not.toContain('coverY');
  });

  it('front matter wins over the fields; update_page changes them; a merge keeps both sides', async () => {
    const { admin, space: s, edit, merged, page } = await space();
    await merged([{ operation: 'insert_page', title: 'Topic', icon: 'book', document: { markdown: '---\nicon: star\n---\nText' } }]);
    const topic = await page('topic');
    expect(topic.icon).toBe('star');

    // Two change requests from the same base: one sets the icon, the other the indexing flag.
    const one = await edit([{ operation: 'update_page', page: topic.id, icon: 'gear' }]);
    const two = await edit([{ operation: 'update_page', page: topic.id, noIndex: true, title: 'Topic 2' }]);
    expectOk(one.res);
    expectOk(two.res);
    expectOk(await admin.rest('POST', `/v1/spaces/${s.id}/change-requests/${one.cr.id}/merge`));
    expectOk(await admin.rest('POST', `/v1/spaces/${s.id}/change-requests/${two.cr.id}/merge`));
    expect(await page('topic')).toMatchObject({ icon: 'gear', noIndex: true, title: 'Topic 2' });

    // An empty icon removes it; false clears the flag.
    await merged([{ operation: 'update_page', page: topic.id, icon: '', noIndex: false }]);
    const cleared = await page('topic');
    expect(cleared).not.toHaveProperty('icon');
    expect(cleared).not.toHaveProperty('noIndex');
  });

  it('a noIndex page is left out of search until the flag is cleared', async () => {
    const { admin, space: s, merged, page } = await space();
    await merged([
      { operation: 'insert_page', title: 'Visible', document: { markdown: 'the word zeppelin is here' } },
      { operation: 'insert_page', title: 'Secret', noIndex: true, document: { markdown: 'another zeppelin hides here' } },
    ]);
    const titles = async () => (expectOk(await admin.rest('GET', `/v1/spaces/${s.id}/search?query=zeppelin`)).items as any[]).map((p) => p.title).sort();
    expect(await titles()).toEqual(['Visible']);
    await merged([{ operation: 'update_page', page: (await page('secret')).id, noIndex: false }]);
    expect(await titles()).toEqual(['Secret', 'Visible']);
  });

  it('a bad icon or bad front matter is a 400 naming the change', async () => {
    const { edit } = await space();
    restError((await edit([{ operation: 'insert_page', title: 'X', icon: 'Not An Icon', document: { markdown: 'x' } }])).res, 400, 'changes[0].icon');
    for (const markdown of ['---\n: [unclosed\n---\nx', '---\n- a list\n---\nx', '---\nhidden: maybe\n---\nx', '---\ncover: javascript:alert(1)\n---\nx', `---\ndescription: ${'x'.repeat(2000)}\n---\nx`]) {
      restError((await edit([{ operation: 'insert_page', title: 'X', document: { markdown } }])).res, 400, 'changes[0].document.markdown');
    }
    // A block that never closes is body text, not front matter.
    const { res } = await edit([{ operation: 'insert_page', title: 'Open', document: { markdown: '---\nnot closed' } }]);
    expectOk(res);
  });
});
