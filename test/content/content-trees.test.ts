import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { buildPageTree, configureContentCache, ContentSequence, contentCacheOf, pageCodec, rebuildTree, RevisionContent, revisionContents, type PageEntry } from '../../src/modules/content/index.ts';
import { pageTreeJson } from '../../src/modules/content/page-json.ts';
import { pageTreeText } from '../../src/modules/content/page-tree-text.ts';
import { sequenceChanges, samePage } from '../../src/modules/content/merge/three-way-merge.ts';
import { addPages, buildOrganization, buildSpace, type PageSeed } from '../factories.ts';
import { expectOk, gqlData } from '../support/assertions.ts';
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
        expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'update_page', page: `p${pages - 2}`, document: { markdown: 'Mine' } }] })),
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

describe('the page tree as text', () => {
  /** A page entry with every optional field set on some pages, so that each fragment shape is compared. */
  const entry = (i: number, parentId: string | null, descendants: number): PageEntry => {
    const type = (['document', 'group', 'link', 'computed'] as const)[i % 7 === 3 ? 1 : i % 11 === 5 ? 2 : i % 13 === 7 ? 3 : 0];
    return Object.freeze({
      id: `p${i}`,
      parentId,
      prev: null,
      type,
      title: i % 5 === 0 ? `Page "${i}" <b>\u2028 ünïcode 📘` : `Page ${i}`,
      emoji: i % 3 === 0 ? '1f4d8' : null,
      icon: i % 4 === 0 ? 'book' : null,
      noIndex: i % 6 === 0,
      noRobotsIndex: i % 9 === 0,
      cover: i % 8 === 0 ? { ref: { kind: 'url', url: `https://example.com/${i}.png` } } : null,
      slug: `page-${i}`,
      path: `page-${i}`,
      description: i % 2 === 0 ? `About ${i}` : null,
      documentHash: null,
      hidden: i % 10 === 0,
      layout: i % 12 === 0 ? { width: 'wide' } : null,
      computed: type === 'computed' ? { integration: 'openapi', source: 'spec' } : null,
      descendants,
      createdAt: new Date(1_700_000_000_000 + (i % 4) * 1000),
      updatedAt: new Date(1_700_000_000_000 + i),
    });
  };

  /** A random tree of `n` pages, depth first, each page's descendants counted (as a revision stores them). */
  function randomTree(n: number, seed: number): PageEntry[] {
    let state = seed;
    const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const parents: (number | null)[] = [];
    const children = new Map<number | null, number[]>();
    for (let i = 0; i < n; i++) {
      const parent = i === 0 || random() < 0.2 ? null : Math.floor(random() * i);
      parents.push(parent);
      children.set(parent, [...(children.get(parent) ?? []), i]);
    }
    const size = (i: number): number => 1 + (children.get(i) ?? []).reduce((sum, c) => sum + size(c), 0);
    const out: PageEntry[] = [];
    const visit = (i: number) => {
      out.push(entry(i, parents[i] === null ? null : `p${parents[i]}`, size(i) - 1));
      for (const child of children.get(i) ?? []) visit(child);
    };
    for (const top of children.get(null) ?? []) visit(top);
    return out;
  }

  it('is byte for byte the JSON of the tree built as objects, whatever the leaves cut', () => {
    const appUrl = 'https://app.example.com';
    for (const [n, seed] of [
      [0, 1],
      [1, 2],
      [40, 3],
      [300, 4],
      [1200, 5],
    ]) {
      const entries = randomTree(n, seed);
      const revision = { id: `r${seed}`, spaceId: 'space1' } as RevisionContent['revision'];
      const expected = JSON.stringify(pageTreeJson(buildPageTree('space1', entries), appUrl));
      // Leaves as a writer cuts them, and leaves of one page each (every boundary inside a subtree).
      const written = rebuildTree(ContentSequence.empty<PageEntry>('pages'), entries.map((e) => ({ entry: e })), pageCodec).sequence;
      const single = new ContentSequence<PageEntry>('pages', null, entries.map((e, i) => ({ hash: `h${seed}-${i}`, entries: [e] })), []);
      for (const pages of [written, single]) {
        const text = pageTreeText(new RevisionContent(revision, pages, ContentSequence.empty('files')), appUrl);
        expect(text).toBe(expected);
      }
    }
  });

  it('answers the same bytes at both doors as the tree built as objects, before and after an edit', async () => {
    const { admin, organizationId } = await buildOrganization(h, 'Tree text');
    const space = await buildSpace(admin, organizationId);
    await addPages(h.db, space.revision, chapters(150));
    const asObjects = async (revisionId: string) => {
      const content = (await revisionContents(h.db, {}, [revisionId])).get(revisionId)!;
      return JSON.stringify({ pages: pageTreeJson(content.tree().pages, h.config.appUrl) });
    };
    const check = async () => {
      const { revision } = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}`));
      const { text } = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)) && (await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`));
      expect(text).toBe(await asObjects(revision));
      expect(text).not.toContain('raw-json:');
      expect((await admin.rest('GET', `/v1/spaces/${space.id}/revisions/${revision}/pages`)).text).toBe(text);
      const gql = await admin.gql(`query($s: String!) { spaceContentPages(spaceId: $s) { pages } }`, { s: space.id });
      expect({ pages: gqlData(gql, 'spaceContentPages').pages }).toEqual(JSON.parse(text));
    };
    await check();
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' }), 201);
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'update_page', page: 'p30', title: 'Renamed "$&" page' }] }));
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
    await check();
  });
});

describe('leaves are kept apart from the revisions that hold them', () => {
  it('a revision written elsewhere decodes only the leaves it does not share with one held', async () => {
    const { admin, organizationId } = await buildOrganization(h, 'Leaf store');
    const space = await buildSpace(admin, organizationId);
    await addPages(h.db, space.revision, chapters(300));
    // `reader` stands for another instance: it read the space before the edit, not the edit.
    const reader = {};
    const before = (await revisionContents(h.db, reader, [space.revision])).get(space.revision)!;
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' }), 201);
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'update_page', page: 'p150', title: 'Edited' }] }));
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
    const { revision } = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}`));
    const after = (await revisionContents(h.db, reader, [revision])).get(revision)!;
    expect(after.page('p150')?.title).toBe('Edited');
    expect(after.pages.length).toBe(300);
    const shared = after.pages.leaves.filter((leaf) => before.pages.leaves.includes(leaf));
    expect(before.pages.leaves.length).toBeGreaterThan(3);
    expect(shared.length).toBe(after.pages.leaves.length - 1);
  });

  it('a read whose new leaves push its held leaves out of a small store still reads them', async () => {
    const { admin, organizationId } = await buildOrganization(h, 'Small store');
    const space = await buildSpace(admin, organizationId);
    await addPages(h.db, space.revision, chapters(200));
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' }), 201);
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'update_page', page: 'p1', title: 'First' }] }));
    const { revision } = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`));
    const owner = {};
    // Room for about one leaf: the base's last leaf stays held (the change request shares it); the
    // change request's other leaves are new to the store, and each one it decodes pushes older ones out.
    configureContentCache(owner, 40);
    await revisionContents(h.db, owner, [space.revision]);
    const content = (await revisionContents(h.db, owner, [revision])).get(revision)!;
    expect(content.pages.length).toBe(200);
    expect(content.page('p1')?.title).toBe('First');
    expect(content.page('p199')?.title).toBe('Page 199');
  });
});
