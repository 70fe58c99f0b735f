// The official client (`GitBookAPI` from @gitbook/api) writing content the way GitBook's users do: open
// a change request, put pages and files into it, pull in what was merged meanwhile, merge — over a real
// HTTP listener, with the client's own URL building, bodies and parsing.
import { describe, expect, it } from 'vitest';
import { expectGitBookShape } from '../support/assertions.ts';
import { expectApiError, useClientServer } from '../support/client-server.ts';

const s = useClientServer();

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('official GitBookAPI client: content and change requests', () => {
  it('drives create → content → update → merge, and reads both revisions', async () => {
    const { api } = await s.newUser('Ada');
    const org = (await api.orgs.createOrganization({ title: 'Writers' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;

    // createChangeRequest + updateChangeRequestContent (compat=false: the affected pages)
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'First pages' })).data;
    expect(cr).toMatchObject({ object: 'change-request', number: 1, status: 'draft', subject: 'First pages' });
    const content = await api.spaces.updateChangeRequestContent(
      space.id,
      cr.id,
      {
        changes: [
          { operation: 'insert_page', ref: 'intro', title: 'Introduction', document: { markdown: '# Introduction\n\nSee [setup](./setup.md).\n\n![logo](./logo)' } },
          { operation: 'insert_page', ref: 'setup', title: 'Setup', document: { markdown: 'one\ntwo\nthree' } },
          { operation: 'insert_files', files: [{ name: 'logo.png', ref: 'logo', contentType: 'image/png', base64: PNG }] },
        ],
      } as any,
      { compat: false },
    );
    expect(content.status).toBe(200);
    const update = content.data as any;
    expect(update.changes.map((c: any) => [c.object, c.ref])).toEqual([
      ['created_page', 'intro'],
      ['created_page', 'setup'],
    ]);
    const [introId, setupId] = update.changes.map((c: any) => c.page.id);
    expect(update.insertedFiles[0]).toMatchObject({ name: 'logo.png', dimensions: { width: 1, height: 1 } });

    // The change request's revision, pages, page and files
    const pages = (await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages;
    expect(pages.map((p: any) => p.title)).toEqual(['Introduction', 'Setup']);
    const intro = (await api.spaces.getPageInChangeRequestById(space.id, cr.id, introId, { format: 'markdown' } as any)).data as any;
    expect(intro.markdown).toContain(`(/pages/${setupId})`);
    const revision = (await api.spaces.getRevisionOfChangeRequestById(space.id, cr.id)).data;
    expect(revision.files.map((f: any) => f.name)).toEqual(['logo.png']);
    const file = (await api.spaces.getFileInChangeRequestById(space.id, cr.id, update.insertedFiles[0].id)).data;
    expect((await fetch(file.downloadURL)).status).toBe(200);
    expect((await api.spaces.listFilesInChangeRequestById(space.id, cr.id)).data.items).toHaveLength(1);

    // Merge the first; a second change request made before it is outdated, updated, then merged.
    const other = (await api.spaces.createChangeRequest(space.id, {})).data;
    const merged = (await api.spaces.mergeChangeRequest(space.id, cr.id)).data;
    expect(merged.result).toBe('merge');
    expect((await api.spaces.getChangeRequestById(space.id, other.id)).data.outdated).toBe(true);
    const synced = (await api.spaces.updateChangeRequest(space.id, other.id)).data;
    expect(synced.result).toBe('update');
    await api.spaces.updateChangeRequestContent(space.id, other.id, {
      changes: [{ operation: 'update_page', page: setupId, document: { markdown: 'one\ntwo\nthree\nfour' } }],
    } as any);
    const edited = (await api.spaces.getChangeRequestById(space.id, other.id)).data;
    expect(edited.revisionMergedAncestor).toBe(merged.revision);
    expect((await api.spaces.mergeChangeRequest(space.id, other.id)).data.result).toBe('merge');

    // The space's content now
    const current = (await api.spaces.getCurrentRevision(space.id)).data;
    expect(current).toMatchObject({ type: 'merge', parents: [merged.revision, edited.revision] });
    expect(synced.revision).not.toBe(edited.revision);
    const setup = (await api.spaces.getPageById(space.id, setupId, { format: 'markdown' } as any)).data as any;
    expect(setup.markdown).toBe('one\ntwo\nthree\nfour');
    expect((await api.spaces.listPages(space.id)).data.pages).toHaveLength(2);
    expect((await api.spaces.listFiles(space.id)).data.items).toHaveLength(1);
    expect((await api.spaces.listChangeRequestsForSpace(space.id, { status: 'merged' } as any)).data.items).toHaveLength(2);
    // Across the organization (listChangeRequestsForOrganization: `status` as an array, sent as repeated keys).
    const acrossOrg = await api.orgs.listChangeRequestsForOrganization(org.id, { status: ['merged', 'draft'] } as any);
    expectGitBookShape('listChangeRequestsForOrganization', acrossOrg.status, acrossOrg.data);
    expect(acrossOrg.data.items.map((c: any) => c.id).sort()).toEqual([cr.id, other.id].sort());
    expect(acrossOrg.data.items.every((c: any) => c.outdated === false && c.space === space.id)).toBe(true);

    // Errors come back as the client's errors
    await expectApiError(api.spaces.mergeChangeRequest(space.id, cr.id), 409);
    await expectApiError(api.spaces.updateChangeRequestContent(space.id, other.id, { changes: [{ operation: 'delete_page', page: setupId }] } as any), 409);
    const third = (await api.spaces.createChangeRequest(space.id, {})).data;
    await expectApiError(api.spaces.updateChangeRequestContent(space.id, third.id, { changes: [] } as any), 400);
  });

  it('reads a file of a revision (getFileInRevisionById) and a document by its ID (getDocumentById)', async () => {
    const { api } = await s.newUser('Ada');
    const org = (await api.orgs.createOrganization({ title: 'Archivists' })).data;
    const space = (await api.orgs.createSpace(org.id, { title: 'Archive' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'First' })).data;
    const update = (
      await api.spaces.updateChangeRequestContent(
        space.id,
        cr.id,
        {
          changes: [
            { operation: 'insert_page', ref: 'notes', title: 'Notes', document: { markdown: '# Notes\n\nFirst draft' } },
            { operation: 'insert_files', files: [{ name: 'pixel.png', ref: 'pixel', contentType: 'image/png', base64: PNG }] },
          ],
        } as any,
        { compat: false },
      )
    ).data as any;
    const pageId = update.changes[0].page.id;
    const fileId = update.insertedFiles[0].id;
    const first = (await api.spaces.mergeChangeRequest(space.id, cr.id)).data;

    // getFileInRevisionById: the file as that revision holds it.
    const file = await api.spaces.getFileInRevisionById(space.id, first.revision, fileId);
    expect(file.status).toBe(200);
    expectGitBookShape('getFileInRevisionById', 200, file.data);
    expect(file.data).toMatchObject({ id: fileId, name: 'pixel.png', contentType: 'image/png', dimensions: { width: 1, height: 1 } });
    expect(file.data.size).toBeGreaterThan(0);
    const download = await fetch(file.data.downloadURL);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).toString('base64')).toBe(PNG);
    await expectApiError(api.spaces.getFileInRevisionById(space.id, first.revision, 'noSuchFile'), 404);

    // getDocumentById: the IDs of a page's documents before and after an edit are in the revision's changes.
    const edit = (await api.spaces.createChangeRequest(space.id, { subject: 'Second' })).data;
    await api.spaces.updateChangeRequestContent(space.id, edit.id, {
      changes: [{ operation: 'update_page', page: pageId, document: { markdown: 'Notes\n\n## Second draft' } }],
    } as any);
    const second = (await api.spaces.mergeChangeRequest(space.id, edit.id)).data;
    const changes = (await api.spaces.getRevisionSemanticChanges(space.id, second.revision)).data.changes as any[];
    const edited = changes.find((c) => c.type === 'page_edited' && c.page.id === pageId);
    const documentId = edited.attributes.document.after as string;
    const document = await api.spaces.getDocumentById(space.id, documentId);
    expect(document.status).toBe(200);
    expectGitBookShape('getDocumentById', 200, document.data);
    expect(document.data).toMatchObject({ object: 'document', nodes: [expect.objectContaining({ type: 'paragraph' }), expect.objectContaining({ type: 'heading-2' })] });
    expect(JSON.stringify(document.data)).toContain('Second draft');
    expect(JSON.stringify(document.data)).not.toContain('First draft');
    // The first body is no longer the space's: a 404.
    await expectApiError(api.spaces.getDocumentById(space.id, edited.attributes.document.before), 404);
  });
});
