import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { configureContentCache, ContentSequence, contentCacheOf, pageCodec, rebuildTree, revisionContents, type PageEntry } from '../../src/modules/content/index.ts';
import { sequenceChanges, samePage } from '../../src/modules/content/three-way-merge.ts';
import { addPages, buildOrganization, buildSpace, type PageSeed } from '../factories.ts';
import { expectOk } from '../support/assertions.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();

/** `n` pages: chapters of 25 at the top level, each with 24 pages. */
function chapters(n: number): PageSeed[] {
  return Array.from({ length: n }, (_, i) => {
    const chapter = Math.floor(i / 25) * 25;
    return i === chapter
      ? { id: `p${i}`, title: `Chapter ${i}`, path: `chapter-${i}`, position: String(i).padStart(5, '0') }
      : { id: `p${i}`, title: `Page ${i}`, path: `chapter-${chapter}/page-${i}`, parentId: `p${chapter}`, position: String(i).padStart(5, '0'), markdown: `# Page ${i}` };
  });
}

const nodeCount = () => h.db.contentNode.count();

describe('a revision is a tree of shared nodes: an edit writes what it changes', () => {
  it('a one-page change, its merge and an update from main write a few nodes, at 100 pages as at 1,500', async () => {
    const written = async (pages: number) => {
      const { admin, organizationId } = await buildOrganization(h, `Trees ${pages}`);
      const space = await buildSpace(admin, organizationId);
      await addPages(h.db, space.revision, chapters(pages));
      const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' }), 201);
      const other = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Other' }), 201);
      expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${other.id}/content`, { changes: [{ operation: 'update_page', page: 'p1', document: { markdown: '# Theirs' } }] }));
      const counts: number[] = [];
      const step = async (action: () => Promise<unknown>) => {
        const before = await nodeCount();
        await action();
        counts.push((await nodeCount()) - before);
      };
      await step(async () =>
        expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'update_page', page: `p${pages - 2}`, document: { markdown: '# Mine' } }] })),
      );
      await step(async () => expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)));
      await step(async () => expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${other.id}/update`)));
      const page = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/p${pages - 2}?format=markdown`));
      expect(page.markdown).toContain('Mine');
      return counts;
    };
    const small = await written(100);
    const large = await written(1500);
    // A leaf and the nodes above it (the tree of 1,500 pages is one level deeper than that of 100).
    for (const count of [...small, ...large]) expect(count).toBeLessThanOrEqual(4);
    for (const [i, count] of large.entries()) expect(count).toBeLessThanOrEqual(small[i] + 1);
  });

  it('comparing two trees looks only at the leaves they do not share', () => {
    const entries = (n: number, edited = -1): PageEntry[] =>
      Array.from({ length: n }, (_, i) =>
        Object.freeze({
          id: `p${i}`,
          parentId: null,
          prev: i ? `p${i - 1}` : null,
          type: 'document' as const,
          title: i === edited ? `Edited ${i}` : `Page ${i}`,
          emoji: null,
          icon: null,
          noIndex: false,
          noRobotsIndex: false,
          cover: null,
          slug: `page-${i}`,
          path: `page-${i}`,
          description: null,
          documentHash: null,
          hidden: false,
          layout: null,
          computed: null,
          descendants: 0,
          createdAt: new Date(0),
          updatedAt: new Date(0),
        }),
      );
    const base = rebuildTree(ContentSequence.empty<PageEntry>('pages'), entries(5000).map((entry) => ({ entry })), pageCodec).sequence;
    const edited = rebuildTree(base, [{ span: [0, 2500] }, { entry: entries(5000, 2500)[2500] }, { span: [2501, 5000] }], pageCodec).sequence;
    const differing = edited.leaves.filter((leaf) => !new Set(base.leaves.map((l) => l.hash)).has(leaf.hash));
    expect(differing).toHaveLength(1);
    expect(differing[0].entries.length).toBeLessThanOrEqual(64);
    let compared = 0;
    const changes = sequenceChanges(base, edited, (a, b) => {
      compared++;
      return samePage(a, b);
    });
    expect([...changes.keys()]).toEqual(['p2500']);
    expect(compared).toBeLessThanOrEqual(64);
  });
});

describe('the content cache', () => {
  it('is bounded by the pages and files it holds, least recently used out first', async () => {
    const { admin, organizationId } = await buildOrganization(h, 'Cache');
    const spaces: { revision: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const space = await buildSpace(admin, organizationId, { title: `S${i}` });
      await addPages(h.db, space.revision, chapters(10));
      spaces.push(space);
    }
    const owner = {};
    const read = async (i: number) => revisionContents(h.db, owner, [spaces[i].revision]);
    // Through the cache of `owner`, bounded by 25 entries: two revisions of 10 pages fit, not three.
    configureContentCache(owner, 25);
    await read(0);
    await read(1);
    expect(contentCacheOf(owner).get(spaces[0].revision)).toBeDefined(); // now the most recent
    await read(2);
    expect(contentCacheOf(owner).get(spaces[1].revision)).toBeUndefined();
    expect(contentCacheOf(owner).get(spaces[0].revision)).toBeDefined();
    expect(contentCacheOf(owner).get(spaces[2].revision)).toBeDefined();
    // A bound of 0 keeps nothing: every read reads.
    configureContentCache(owner, 0);
    expect((await read(0)).get(spaces[0].revision)?.pages.length).toBe(10);
    expect(contentCacheOf(owner).get(spaces[0].revision)).toBeUndefined();
  });

  it('concurrent reads of one revision that is not held share one statement', async () => {
    const { admin, organizationId } = await buildOrganization(h, 'Shared read');
    const space = await buildSpace(admin, organizationId);
    await addPages(h.db, space.revision, chapters(30));
    const owner = {};
    await new Promise((r) => setTimeout(r, 20));
    const before = h.store.queries.length;
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => revisionContents(h.db, owner, [space.revision])));
    expect(h.store.queries.length - before).toBe(1);
    expect(a.get(space.revision)).toBe(b.get(space.revision));
    expect(c.get(space.revision)?.pages.length).toBe(30);
  });

  it('CONTENT_CACHE_ENTRIES sets its bound; 0 keeps nothing', () => {
    expect(loadConfig({ CONTENT_CACHE_ENTRIES: '5000' }).contentCacheEntries).toBe(5000);
    expect(loadConfig({ CONTENT_CACHE_ENTRIES: '0' }).contentCacheEntries).toBe(0);
    expect(loadConfig({}).contentCacheEntries).toBeUndefined();
    expect(() => loadConfig({ CONTENT_CACHE_ENTRIES: '-1' })).toThrow(/CONTENT_CACHE_ENTRIES/);
  });
});
