// docs/api/content.md shows a batch with one change of each type ("Writing content: every change, by
// example"): this sends that block as written, with IDs put in for its placeholders, so the
// documentation stays true.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOrganization, buildSpace } from '../factories.ts';
import { expectOk } from '../support/assertions.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();
const DOC = readFileSync(path.join(import.meta.dirname, '../../docs/api/content.md'), 'utf8');

function exampleBlock(): string {
  const section = DOC.slice(DOC.indexOf('## Writing content: every change, by example'));
  const block = /```json\n([\s\S]*?)\n```/.exec(section);
  if (!block) throw new Error('docs/api/content.md: no json block in "Writing content: every change, by example"');
  return block[1];
}

describe('the documented example of every change type', () => {
  it('is accepted as written and does what the page says', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await buildSpace(admin, o, { title: 'Docs' });
    expectOk(await admin.rest('PUT', `/v1/orgs/${o}/openapi/petstore`, { source: { text: JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: {} }) } }));
    const crs = `/v1/spaces/${space.id}/change-requests`;
    const first = expectOk(await admin.rest('POST', crs, { subject: 'Start' }), 201);
    const made = expectOk(
      await admin.rest('POST', `${crs}/${first.id}/content?compat=false`, {
        changes: ['Page', 'Other', 'Old'].map((title) => ({ operation: 'insert_page', title, document: { markdown: `${title} body` } })),
      }),
    );
    const [pageId, otherPageId, oldPageId] = made.changes.map((c: any) => c.page.id);
    const merged = expectOk(await admin.rest('POST', `${crs}/${first.id}/merge`));
    const cr = expectOk(await admin.rest('POST', crs, { subject: 'Every change' }), 201);
    expectOk(await admin.rest('POST', `${crs}/${cr.id}/content`, { changes: [{ operation: 'update_page', page: otherPageId, document: { markdown: 'edited, to be reverted' } }] }));

    const body = JSON.parse(
      exampleBlock().replaceAll('<pageId>', pageId).replaceAll('<otherPageId>', otherPageId).replaceAll('<oldPageId>', oldPageId).replaceAll('<revisionId>', merged.revision),
    );
    const update = expectOk(await admin.rest('POST', `${crs}/${cr.id}/content?compat=false`, body), 200, 'updateChangeRequestContent');
    expect(update.insertedFiles.map((f: any) => f.name)).toEqual(['logo.png']);
    const pages = expectOk(await admin.rest('GET', `${crs}/${cr.id}/content/pages`)).pages as any[];
    expect(pages.map((p) => [p.title, p.type])).toEqual([
      ['Overview', 'document'],
      ['Other', 'document'],
      ['Guide', 'document'],
      ['API', 'computed'],
    ]);
    expect(pages[2].pages.map((p: any) => p.title)).toEqual(['Install']);
    const markdownOf = async (id: string) => expectOk(await admin.rest('GET', `${crs}/${cr.id}/content/page/${id}?format=markdown`)).markdown;
    expect(await markdownOf(pageId)).toBe('The new body.');
    expect(await markdownOf(otherPageId)).toBe('Other body');
    expect(await markdownOf(pages[2].id)).toBe('What this product does.');
  });
});
