import { describe, expect, it } from 'vitest';
import { addPages, addRevision, buildMember, buildOrganization, buildSpace, buildTeam } from '../factories.ts';
import { expectGitBookShape, expectOk, gqlData, restError } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller } from '../support/harness.ts';
import { ROUTE_BUDGETS } from '../support/route-budgets.ts';

const h = useHarness();

/** Puts `changes` into the space's content: a change request, its content, its merge. */
async function publish(caller: Caller, spaceId: string, changes: object[]) {
  const cr = expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests`, {}), 201);
  const edited = expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { changes }));
  expectOk(await caller.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`));
  return Object.fromEntries(edited.changes.filter((c: any) => c.ref).map((c: any) => [c.ref, c.page.id as string])) as Record<string, string>;
}

const KUBERNETES = [
  'Run workloads on a cluster of nodes.',
  '',
  '## Installation',
  '',
  'Install the **control plane** with `kubeadm init`, then join each worker node.',
  '',
  '## Troubleshooting',
  '',
  'When a node fails its health check, drain it and restart the kubelet.',
].join('\n');

/** A space with a small documentation tree, its admin and organization. */
async function docsSpace() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Platform docs' });
  const pages = await publish(admin, space.id, [
    { operation: 'insert_page', ref: 'ops', title: 'Operations', document: { markdown: 'How we run things in production.' } },
    { operation: 'insert_page', ref: 'k8s', into: 'ops', title: 'Kubernetes', description: 'Container orchestration', document: { markdown: KUBERNETES } },
    { operation: 'insert_page', ref: 'helm', into: 'k8s', title: 'Helm charts', document: { markdown: 'Package applications for Kubernetes as charts.' } },
    { operation: 'insert_page', ref: 'billing', title: 'Billing', document: { markdown: 'Invoices are sent monthly. The control of spending is up to each team, a plane ticket included.' } },
    { operation: 'insert_page', ref: 'faq', title: 'FAQ', document: { markdown: '## Can I restart a node?\n\nYes: drain the node first.' } },
  ]);
  return { admin, o, space, pages };
}

const search = (caller: Caller, spaceId: string, query: string, extra = '') =>
  caller.rest('GET', `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}${extra}`);
const titles = (body: any) => body.items.map((p: any) => p.title);

describe('space search', () => {
  it('finds pages by their sections, best first, in GitBook\'s shape, with plain-text excerpts and links into the app', async () => {
    const { admin, space, pages } = await docsSpace();
    const found = expectOk(await search(admin, space.id, 'restart node'), 200, 'searchSpaceContent');
    expect(found.count).toBe(2);
    expect(titles(found).sort()).toEqual(['FAQ', 'Kubernetes']);
    const k8s = found.items.find((p: any) => p.id === pages.k8s);
    expect(k8s).toMatchObject({
      title: 'Kubernetes',
      description: 'Container orchestration',
      path: 'operations/kubernetes',
      resultType: 'section',
      ancestors: [{ title: 'Operations' }],
      urls: { app: `${h.config.appUrl}/s/${space.id}/operations/kubernetes` },
    });
    // Every section holding a term of the query, the one holding both first.
    expect(k8s.sections.map((s: any) => s.title)).toEqual(['Troubleshooting', expect.any(String), expect.any(String)]);
    expect(k8s.sections.map((s: any) => s.title).sort()).toEqual(['Installation', 'Kubernetes', 'Troubleshooting']);
    expect(k8s.sections[0]).toEqual(
      {
        id: `${pages.k8s}#troubleshooting`,
        title: 'Troubleshooting',
        path: 'operations/kubernetes#troubleshooting',
        score: expect.any(Number),
        resultType: 'section',
        body: 'When a node fails its health check, drain it and restart the kubelet.',
        urls: { app: `${h.config.appUrl}/s/${space.id}/operations/kubernetes#troubleshooting` },
      },
    );
    expect(k8s.sections.find((s: any) => s.title === 'Kubernetes')).toMatchObject({ id: pages.k8s, path: 'operations/kubernetes', resultType: 'section', body: 'Run workloads on a cluster of nodes.' });
    expect(found.items.map((p: any) => p.rank)).toEqual([1, 2]);
    expect(found.items[0].score).toBeGreaterThanOrEqual(found.items[1].score);

    // Markup is gone from excerpts: emphasis, code marks, headings.
    const install = expectOk(await search(admin, space.id, 'kubeadm'));
    expect(install.items[0].sections[0]).toMatchObject({ title: 'Installation', body: 'Install the control plane with kubeadm init, then join each worker node.' });
    // A heading matches its own section.
    const heading = expectOk(await search(admin, space.id, 'troubleshooting'));
    expect(heading.items[0].sections.map((s: any) => s.title)).toEqual(['Troubleshooting']);
  });

  it('ranks a title above a mention in a body; a title-only match answers the page\'s own section', async () => {
    const { admin, space, pages } = await docsSpace();
    const found = expectOk(await search(admin, space.id, 'kubernetes'));
    expect(titles(found)).toEqual(['Kubernetes', 'Helm charts']);
    expect(found.items[0]).toMatchObject({ id: pages.k8s, resultType: 'page' });
    expect(found.items[0].sections).toEqual([expect.objectContaining({ id: pages.k8s, title: 'Kubernetes', resultType: 'page', path: 'operations/kubernetes' })]);
    expect(found.items[1]).toMatchObject({ id: pages.helm, resultType: 'section', ancestors: [{ title: 'Operations' }, { title: 'Kubernetes' }] });
    // The description is the page's own too.
    expect(titles(expectOk(await search(admin, space.id, 'orchestration')))).toEqual(['Kubernetes']);
  });

  it('web search syntax: phrases, exclusions, or; the last word as a prefix, then typo tolerance', async () => {
    const { admin, space } = await docsSpace();
    // "control plane" is a phrase on the Kubernetes page; Billing has both words apart.
    expect(titles(expectOk(await search(admin, space.id, 'control plane'))).sort()).toEqual(['Billing', 'Kubernetes']);
    expect(titles(expectOk(await search(admin, space.id, '"control plane"')))).toEqual(['Kubernetes']);
    expect(titles(expectOk(await search(admin, space.id, 'node -kubelet')))).toEqual(['FAQ']);
    expect(titles(expectOk(await search(admin, space.id, 'invoices or kubeadm'))).sort()).toEqual(['Billing', 'Kubernetes']);
    // The last word is being typed: a prefix. Earlier words are whole words.
    expect(titles(expectOk(await search(admin, space.id, 'kubern')))).toEqual(['Kubernetes', 'Helm charts']);
    expect(expectOk(await search(admin, space.id, 'kubern charts')).count).toBe(0);
    expect(titles(expectOk(await search(admin, space.id, 'package kubern')))).toEqual(['Helm charts']);
    // A misspelt last word finds the words closest to it when nothing else matched.
    expect(titles(expectOk(await search(admin, space.id, 'kubernets')))).toEqual(['Kubernetes', 'Helm charts']);
    expect(titles(expectOk(await search(admin, space.id, 'drain nodde')))).toEqual(expect.arrayContaining(['FAQ', 'Kubernetes']));
    // Nothing close: nothing found. A quoted or excluded last word is taken as written.
    expect(expectOk(await search(admin, space.id, 'zebra')).count).toBe(0);
    expect(expectOk(await search(admin, space.id, '"kubern"')).count).toBe(0);
    // Punctuation alone is a valid query that matches nothing.
    expect(expectOk(await search(admin, space.id, '!!!'))).toEqual({ items: [], count: 0 });
  });

  it('pages through ranked results with stable cursors; ranks continue across pages', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await buildSpace(admin, o);
    const changes = Array.from({ length: 7 }, (_, i) => ({
      operation: 'insert_page',
      title: `Page ${i}`,
      // More mentions, higher rank: page 6 first.
      document: { markdown: `${'widget '.repeat(i + 1)}text` },
    }));
    await publish(admin, space.id, changes);
    const seen: any[] = [];
    let next: string | undefined;
    do {
      const page = expectOk(await search(admin, space.id, 'widget', `&limit=3${next ? `&page=${next}` : ''}`));
      expect(page.count).toBe(7);
      seen.push(...page.items);
      next = page.next?.page;
    } while (next);
    expect(seen.map((p) => p.title)).toEqual(['Page 6', 'Page 5', 'Page 4', 'Page 3', 'Page 2', 'Page 1', 'Page 0']);
    expect(seen.map((p) => p.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // The same cursor gives the same page.
    const first = expectOk(await search(admin, space.id, 'widget', '&limit=3'));
    const again = [await search(admin, space.id, 'widget', `&limit=3&page=${first.next.page}`), await search(admin, space.id, 'widget', `&limit=3&page=${first.next.page}`)];
    expect(again[0].body).toEqual(again[1].body);
  });

  it('400 for a missing, empty or too long query, a bad limit or a forged cursor; the 512-character query is fine', async () => {
    const { admin, space } = await docsSpace();
    restError(await admin.rest('GET', `/v1/spaces/${space.id}/search`), 400, 'query');
    restError(await search(admin, space.id, ''), 400, 'query');
    restError(await search(admin, space.id, 'a'.repeat(513)), 400, 'query');
    expect(expectOk(await search(admin, space.id, `${'node '.repeat(102)}ab`)).count).toBe(0);
    restError(await search(admin, space.id, 'node', '&limit=0'), 400, 'limit');
    restError(await search(admin, space.id, 'node', '&limit=1001'), 400, 'limit');
    restError(await search(admin, space.id, 'node', '&limit=abc'), 400, 'limit');
    restError(await search(admin, space.id, 'node', '&page=nonsense'), 400, 'page');
    const forged = Buffer.from(JSON.stringify(['1; DROP TABLE x', 'a'])).toString('base64url');
    restError(await search(admin, space.id, 'node', `&page=${forged}`), 400, 'page');
  });

  it('follows the space: edited, renamed, moved and deleted pages; only changed pages are written again', async () => {
    const { admin, space, pages } = await docsSpace();
    const rowVersions = async () =>
      new Map(
        (await h.db.$queryRaw<{ pageId: string; ordinal: number; xmin: string }[]>`
          SELECT "pageId", "ordinal", xmin::text AS xmin FROM "SearchSection" WHERE "spaceId" = ${space.id}`).map((r) => [`${r.pageId}/${r.ordinal}`, r.xmin]),
      );
    const before = await rowVersions();
    expect(before.size).toBe(1 + 3 + 1 + 1 + 2); // Operations, Kubernetes (3 sections), Helm, Billing, FAQ (2)

    await publish(admin, space.id, [
      { operation: 'update_page', page: pages.billing, title: 'Invoicing', document: { markdown: 'Receipts are sent weekly.' } },
      { operation: 'delete_page', page: pages.faq },
    ]);
    const after = await rowVersions();
    // Untouched pages keep their rows as they were (same row versions); the edited page's were rewritten.
    for (const [key, version] of before) {
      if (key.startsWith(pages.faq)) expect(after.has(key)).toBe(false);
      else if (key.startsWith(pages.billing)) expect(after.get(key)).not.toBe(version);
      else expect(after.get(key), key).toBe(version);
    }
    expect(expectOk(await search(admin, space.id, 'monthly')).count).toBe(0);
    expect(titles(expectOk(await search(admin, space.id, 'receipts')))).toEqual(['Invoicing']);
    expect(expectOk(await search(admin, space.id, 'drain')).items.map((p: any) => p.title)).toEqual(['Kubernetes']);

    // Moving a page changes its path (and its sub-pages'); renaming a parent changes their ancestors.
    await publish(admin, space.id, [
      { operation: 'update_page', page: pages.k8s, into: null },
      { operation: 'update_page', page: pages.ops, title: 'Production' },
    ]);
    const helm = expectOk(await search(admin, space.id, 'applications')).items[0];
    expect(helm).toMatchObject({ path: 'kubernetes/helm-charts', ancestors: [{ title: 'Kubernetes' }] });
    expect(titles(expectOk(await search(admin, space.id, 'production')))).toEqual(['Production']);
  });

  it('catches up on content the index has not seen (written before it existed), before searching it', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await buildSpace(admin, o);
    const revision = await addRevision(h.db, space.id, space.revision);
    await addPages(h.db, revision, [{ id: 'legacy-page', title: 'Legacy', path: 'legacy', markdown: 'Written by an older release: zeppelin.' }]);
    await h.db.space.update({ where: { id: space.id }, data: { revisionId: revision } });
    expect(titles(expectOk(await search(admin, space.id, 'zeppelin')))).toEqual(['Legacy']);
    expect((await h.db.space.findUniqueOrThrow({ where: { id: space.id } })).searchRevisionId).toBe(revision);
    expect(expectOk(await admin.rest('GET', `/v1/orgs/${o}/search?query=zeppelin`)).items[0].pages.map((p: any) => p.title)).toEqual(['Legacy']);
  });

  it('a duplicate is searchable at once (the index is copied); a deleted space is not', async () => {
    const { admin, o, space } = await docsSpace();
    const copy = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/duplicate`), 201);
    expect((await h.db.space.findUniqueOrThrow({ where: { id: copy.id } })).searchRevisionId).toBe(copy.revision);
    expect(titles(expectOk(await search(admin, copy.id, 'kubeadm')))).toEqual(['Kubernetes']);
    const org = expectOk(await admin.rest('GET', `/v1/orgs/${o}/search?query=kubeadm`));
    expect(org.items.map((s: any) => s.id).sort()).toEqual([space.id, copy.id].sort());
    expectOk(await admin.rest('DELETE', `/v1/spaces/${copy.id}`), 204);
    expect(expectOk(await admin.rest('GET', `/v1/orgs/${o}/search?query=kubeadm`)).items.map((s: any) => s.id)).toEqual([space.id]);
  });

  it('costs the same statements for 2 and 40 results, within the route budgets (REST and GraphQL)', async () => {
    const statements = async (action: () => Promise<unknown>) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const before = h.store.queries.length;
      await action();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return h.store.queries.length - before;
    };
    const { admin, organizationId: o } = await buildOrganization(h);
    const small = await buildSpace(admin, o);
    const large = await buildSpace(admin, o);
    const chapter = (n: number) => [
      { operation: 'insert_page', ref: 'top', title: 'Chapter', document: { markdown: 'Chapter text.' } },
      ...Array.from({ length: n }, (_, i) => ({ operation: 'insert_page', into: 'top', title: `Gadget ${i}`, document: { markdown: `## Part\n\ngadget ${i}` } })),
    ];
    await publish(admin, small.id, chapter(2));
    await publish(admin, large.id, chapter(40));
    const few = await statements(() => search(admin, small.id, 'gadget'));
    const many = await statements(() => search(admin, large.id, 'gadget', '&limit=100'));
    expect(expectOk(await search(admin, large.id, 'gadget', '&limit=100')).items).toHaveLength(40);
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(ROUTE_BUDGETS['GET /v1/spaces/{s}/search?query=budget']);
    const orgFew = await statements(() => admin.rest('GET', `/v1/orgs/${o}/search?query=gadget&limit=1`));
    const orgMany = await statements(() => admin.rest('GET', `/v1/orgs/${o}/search?query=gadget`));
    expect(orgMany).toBe(orgFew);
    expect(orgMany).toBeLessThanOrEqual(ROUTE_BUDGETS['GET /v1/orgs/{o}/search?query=budget']);
    const gql = (spaceId: string) =>
      admin.gql('query($s: String!) { spaceSearch(spaceId: $s, query: "gadget", limit: 100) { count items { id ancestors { title } sections { body } } } }', { s: spaceId });
    expect(await statements(() => gql(large.id))).toBe(await statements(() => gql(small.id)));
  });

  it('the GraphQL door answers the same', async () => {
    const { admin, space, pages } = await docsSpace();
    const data = gqlData(
      await admin.gql(
        `query($s: String!, $q: String!) { spaceSearch(spaceId: $s, query: $q, limit: 5) {
          count items { id title rank resultType ancestors { title } sections { id title body resultType urls { app } } } } }`,
        { s: space.id, q: 'kubeadm' },
      ),
      'spaceSearch',
    );
    expect(data).toEqual({
      count: 1,
      items: [
        {
          id: pages.k8s,
          title: 'Kubernetes',
          rank: 1,
          resultType: 'section',
          ancestors: [{ title: 'Operations' }],
          sections: [
            {
              id: `${pages.k8s}#installation`,
              title: 'Installation',
              body: 'Install the control plane with kubeadm init, then join each worker node.',
              resultType: 'section',
              urls: { app: `${h.config.appUrl}/s/${space.id}/operations/kubernetes#installation` },
            },
          ],
        },
      ],
    });
    const bad = await admin.gql('query($s: String!) { spaceSearch(spaceId: $s, query: "") { count } }', { s: space.id });
    expect(bad.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
    expect(bad.body.errors[0].message).toContain('"query"');
  });
});

describe('organization search', () => {
  /** Two spaces; a guest granted one of them through a team (no API grants space access yet). */
  async function twoSpaces() {
    const { admin, o, space } = await docsSpace();
    const secret = await buildSpace(admin, o, { title: 'Secret roadmap' });
    await publish(admin, secret.id, [
      { operation: 'insert_page', title: 'Project Kubeflow', document: { markdown: 'The hidden node launch plan for kubernetes.' } },
    ]);
    const guest = await buildMember(h, o, null, 'Guest');
    const team = await buildTeam(admin, o, { title: 'Readers', members: [guest.userId] });
    await h.db.spaceTeamGrant.create({ data: { spaceId: space.id, teamId: team.id, role: 'read' } });
    return { admin, o, first: space.id, secret: secret.id, guest };
  }

  it('groups results by space, best space first, in GitBook\'s shape', async () => {
    const { admin, o, first, secret } = await twoSpaces();
    const found = expectOk(await admin.rest('GET', `/v1/orgs/${o}/search?query=kubernetes`), 200, 'searchOrganizationContent');
    expect(found.count).toBe(2);
    expect(found.items.map((s: any) => [s.type, s.id, s.title])).toEqual([
      ['space', first, 'Platform docs'],
      ['space', secret, 'Secret roadmap'],
    ]);
    expect(found.items[0].pages.map((p: any) => p.title)).toEqual(['Kubernetes', 'Helm charts']);
    expect(found.items[1].pages.map((p: any) => p.title)).toEqual(['Project Kubeflow']);
    // Ranks are positions among all three pages, by score; a space's score is its best page's.
    const all = found.items.flatMap((s: any) => s.pages).sort((a: any, b: any) => a.rank - b.rank);
    expect(all.map((p: any) => p.rank)).toEqual([1, 2, 3]);
    for (let i = 1; i < all.length; i++) expect(all[i - 1].score).toBeGreaterThanOrEqual(all[i].score);
    expect(found.items[0].pages[0].rank).toBe(1);
    for (const space of found.items) expect(space.score).toBe(space.pages[0].score);
    const kubeflowRank = found.items[1].pages[0].rank;
    // Paging by space.
    const one = expectOk(await admin.rest('GET', `/v1/orgs/${o}/search?query=kubernetes&limit=1`));
    expect(one.items.map((s: any) => s.id)).toEqual([first]);
    const two = expectOk(await admin.rest('GET', `/v1/orgs/${o}/search?query=kubernetes&limit=1&page=${one.next.page}`));
    expect(two).toMatchObject({ count: 2, items: [{ id: secret, pages: [{ title: 'Project Kubeflow', rank: kubeflowRank }] }] });
    expect(two.next).toBeUndefined();
  });

  it('only spaces the caller can read: a guest granted one space learns nothing of the other', async () => {
    const { o, first, guest } = await twoSpaces();
    for (const query of ['kubernetes', 'kubeflow', 'hidden launch', 'roadmap', 'kubernets']) {
      const res = await guest.rest('GET', `/v1/orgs/${o}/search?query=${encodeURIComponent(query)}`);
      const found = expectOk(res);
      expect(found.items.every((s: any) => s.id === first), query).toBe(true);
      expect(res.text).not.toMatch(/Kubeflow|hidden|Secret|roadmap/);
    }
    expect(expectOk(await guest.rest('GET', `/v1/orgs/${o}/search?query=kubeflow`))).toEqual({ items: [], count: 0 });
    const data = gqlData(await guest.gql('query($o: String!) { organizationSearch(organizationId: $o, query: "node") { count items { id pages { title } } } }', { o }), 'organizationSearch');
    expect(data.items.map((s: any) => s.id)).toEqual([first]);
  });

  it('a space transferred to another organization leaves its search', async () => {
    const { admin, o, secret } = await twoSpaces();
    const other = expectOk(await admin.rest('POST', '/v1/orgs', { title: 'Elsewhere' }), 201);
    expectOk(await admin.rest('POST', `/v1/spaces/${secret}/transfer`, { organization: other.id }));
    expect(expectOk(await admin.rest('GET', `/v1/orgs/${o}/search?query=kubeflow`)).count).toBe(0);
    expect(expectOk(await admin.rest('GET', `/v1/orgs/${other.id}/search?query=kubeflow`)).items.map((s: any) => s.id)).toEqual([secret]);
  });

  it('400 at each limit', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    restError(await admin.rest('GET', `/v1/orgs/${o}/search`), 400, 'query');
    restError(await admin.rest('GET', `/v1/orgs/${o}/search?query=`), 400, 'query');
    restError(await admin.rest('GET', `/v1/orgs/${o}/search?query=${'b'.repeat(513)}`), 400, 'query');
    restError(await admin.rest('GET', `/v1/orgs/${o}/search?query=x&limit=1001`), 400, 'limit');
    restError(await admin.rest('GET', `/v1/orgs/${o}/search?query=x&page=%%%`), 400, 'page');
  });
});

type Ids = { o: string; s: string };
const OPS: RefusalOp<Ids>[] = [
  {
    name: 'space search',
    rest: ({ s }) => ['GET', `/v1/spaces/${s}/search?query=kubeadm`],
    gql: ({ s }) => ['query($s: String!) { spaceSearch(spaceId: $s, query: "kubeadm") { count } }', { s }],
  },
  {
    name: 'organization search',
    rest: ({ o }) => ['GET', `/v1/orgs/${o}/search?query=kubeadm`],
    gql: ({ o }) => ['query($o: String!) { organizationSearch(organizationId: $o, query: "kubeadm") { count } }', { o }],
  },
];

refusalMatrix(OPS, {
  h,
  setup: docsSpace,
  ids: (w) => ({ o: w.o, s: w.space.id }),
  unknown: { o: 'unknownOrganization1', s: 'unknownSpace00000001' },
  unchanged: async () => {},
});
