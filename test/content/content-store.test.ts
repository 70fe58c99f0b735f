import { describe, expect, it } from 'vitest';
import { contentHash } from '../../src/modules/content/store/content-hash.ts';
import { putDocuments } from '../../src/modules/content/store/document-store.ts';
import { databaseFileStore } from '../../src/modules/content/store/file-store.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

describe('content-addressed documents', () => {
  it('a body is stored once, whatever the number of revisions or pages holding it', async () => {
    const marker = `doc-${Date.now()}-${Math.random()}`;
    const bodies = Array.from({ length: 500 }, (_, i) => `# Page ${i}\n\n${marker}`);
    const stored = () => h.db.document.count({ where: { markdown: { contains: marker } } });

    const first = await putDocuments(h.db, bodies);
    expect(first).toEqual(bodies.map((b) => contentHash(b)));
    expect(await stored()).toBe(500);

    // The next revision of the 500-page space changes one page: one new document, not 500.
    const next = [...bodies];
    next[42] = `# Page 42, edited\n\n${marker}`;
    const second = await putDocuments(h.db, next);
    expect(await stored()).toBe(501);
    expect(second.filter((hash, i) => hash !== first[i])).toEqual([contentHash(next[42])]);

    // The same body on two pages of one batch is one row too.
    await putDocuments(h.db, [`same ${marker}`, `same ${marker}`]);
    expect(await stored()).toBe(502);

    const rows = await h.db.document.findMany({ where: { hash: { in: [second[42], first[0]] } } });
    expect(Object.fromEntries(rows.map((r) => [r.hash, r.markdown]))).toEqual({ [second[42]]: next[42], [first[0]]: bodies[0] });
  });

  it('two writers storing the same bodies at once both succeed', async () => {
    const bodies = Array.from({ length: 50 }, (_, i) => `race ${i} ${Math.random()}`);
    const results = await Promise.all([putDocuments(h.db, bodies), putDocuments(h.db, bodies), putDocuments(h.db, bodies)]);
    expect(new Set(results.map((r) => r.join()))).toHaveProperty('size', 1);
    expect(await h.db.document.count({ where: { hash: { in: results[0] } } })).toBe(50);
  });
});

describe('links of documents', () => {
  it('are extracted once, when a document is first stored, one row per distinct target', async () => {
    const marker = `links-${Date.now()}-${Math.random()}`;
    const body = `# ${marker}\n\n[a](/pages/p1) [a again](/pages/p1) [a part](/pages/p1#part) ![f](/files/f1) [x](https://example.com/${marker}) [rel](../x.md) [top](#top)`;
    const [hash] = await putDocuments(h.db, [body]);
    const rows = await h.db.documentLink.findMany({ where: { documentHash: hash }, orderBy: { ordinal: 'asc' } });
    expect(rows.map(({ kind, targetPageId, targetFileId, url, relative, anchor }) => ({ kind, targetPageId, targetFileId, url, relative, anchor }))).toEqual([
      { kind: 'page', targetPageId: 'p1', targetFileId: null, url: null, relative: false, anchor: null },
      { kind: 'page', targetPageId: 'p1', targetFileId: null, url: null, relative: false, anchor: 'part' },
      { kind: 'file', targetPageId: null, targetFileId: 'f1', url: null, relative: false, anchor: null },
      { kind: 'url', targetPageId: null, targetFileId: null, url: `https://example.com/${marker}`, relative: false, anchor: null },
      { kind: 'url', targetPageId: null, targetFileId: null, url: '../x.md', relative: true, anchor: null },
      { kind: 'anchor', targetPageId: null, targetFileId: null, url: null, relative: false, anchor: 'top' },
    ]);
    // Stored again (another revision, another page): nothing is parsed or written again.
    await h.db.documentLink.deleteMany({ where: { documentHash: hash, kind: 'anchor' } });
    await putDocuments(h.db, [body, body]);
    expect(await h.db.documentLink.count({ where: { documentHash: hash } })).toBe(5);
  });

  it("are written in the caller's transaction, and by one of several writers storing the same text at once", async () => {
    const body = `[p](/pages/race-${Math.random()}) [f](/files/f)`;
    await expect(
      h.db.$transaction(async (tx) => {
        await putDocuments(tx, [body]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await h.db.document.count({ where: { markdown: body } })).toBe(0);
    const results = await Promise.all([putDocuments(h.db, [body]), putDocuments(h.db, [body]), putDocuments(h.db, [body])]);
    expect(await h.db.documentLink.count({ where: { documentHash: results[0][0] } })).toBe(2);
  });
});

describe('the database file store', () => {
  it('keeps bytes once by their hash and gives them back', async () => {
    const bytes = new Uint8Array(Buffer.from(`file ${Math.random()}`));
    const one = await databaseFileStore.put(h.db, bytes);
    const two = await databaseFileStore.put(h.db, new Uint8Array(bytes));
    expect(one).toEqual({ hash: contentHash(bytes), size: bytes.byteLength });
    expect(two).toEqual(one);
    expect(await h.db.fileBlob.count({ where: { hash: one.hash } })).toBe(1);
    expect(Buffer.from((await databaseFileStore.get(h.db, one.hash))!)).toEqual(Buffer.from(bytes));
    expect(await databaseFileStore.get(h.db, 'f'.repeat(64))).toBeNull();
  });
});
