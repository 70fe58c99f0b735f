/**
 * `npm run bench`: space content at several sizes (BENCH_SIZES, default 50, 500 and 5,000 pages), in
 * process, on PGlite (or PostgreSQL with TEST_DATABASE_URL). For each size it prints:
 * - reads: p50/p95 (to the answer's last byte; p50 with the client's JSON.parse too) and SQL statements
 *   of the page tree (uncached: the revision left out of the content cache before every call, its
 *   leaves still held; cold: nothing held; and cached), the revision, one page as a document and as
 *   markdown;
 * - writes: the median time of a one-page change, of the merge of that change request and of an update
 *   from main of another change request holding a one-page change, and the rows each wrote by table.
 * - for the smallest and the largest size, the storage that BENCH_EDITS (1,000) one-page edits add, from
 *   PostgreSQL's own table sizes.
 * Last, the goals of issue 23 beside the figures measured before it (PostgreSQL, 500 and 5,000 pages). It asserts nothing: the figures are read beside each other.
 */
import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app.ts';
import { buildConfig } from '../../src/config.ts';
import { configureContentCache, contentCacheOf } from '../../src/modules/content/index.ts';
import { DEFAULT_CONTENT_CACHE_ENTRIES } from '../../src/modules/content/store/revision-content.ts';
import { createUserWithToken } from '../../src/modules/users/user.service.ts';
import { createTestDatabase, usingPostgres } from '../support/database.ts';

const SIZES = (process.env.BENCH_SIZES ?? '50,500,5000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WRITES = Number(process.env.BENCH_WRITES ?? 7);
const EDITS = Number(process.env.BENCH_EDITS ?? 1000);

const store = await createTestDatabase();
const db = store.database.prisma;
const app = createApp({ database: store.database, config: buildConfig({ logLevel: 'silent', rateLimit: { enabled: false } }) });
await app.ready();
const { token } = await createUserWithToken(db, { email: 'content-bench@example.com', displayName: 'Bench' });
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

async function call(method: string, path: string, body?: unknown) {
  const res = await app.fetch(`http://localhost${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = res.status === 204 ? null : await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A space of `pages` pages, written the way users write them: batches of 50 changes in one change request, merged. */
async function seedSpace(organizationId: string, pages: number) {
  const s = (await call('POST', `/v1/orgs/${organizationId}/spaces`, { title: `Handbook ${pages}` })).id as string;
  const seed = await call('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Seed' });
  // Chapters of 25 pages (a chapter and its pages always share a batch, so its ref is known).
  for (let start = 0; start < pages; start += 50) {
    const changes = [];
    for (let i = start; i < Math.min(pages, start + 50); i++) {
      const chapter = Math.floor(i / 25);
      changes.push(
        i % 25 === 0
          ? { operation: 'insert_page', ref: `c${chapter}`, title: `Chapter ${chapter}`, document: { markdown: `# Chapter ${chapter}\n\nOverview ${chapter}.` } }
          : { operation: 'insert_page', title: `Page ${i}`, into: `c${chapter}`, document: { markdown: `# Page ${i}\n\n${'Some text. '.repeat(40)}\n\n- a\n- b\n` } },
      );
    }
    await call('POST', `/v1/spaces/${s}/change-requests/${seed.id}/content`, { changes });
  }
  await call('POST', `/v1/spaces/${s}/change-requests/${seed.id}/merge`);
  const tree = (await call('GET', `/v1/spaces/${s}/content/pages`)).pages as { id: string; pages: { id: string }[] }[];
  // Pages from the whole space, not only its first chapter: the middle and the end of the tree too.
  const leaves = tree.flatMap((chapter) => chapter.pages.map((page) => page.id));
  return { s, leaves };
}

const spaceRevision = async (s: string) => (await call('GET', `/v1/spaces/${s}`)).revision as string;

/**
 * p50/p95 of a GET, timed to the answer's last byte (what the server costs), and p50 with the client's
 * own JSON.parse of it after (what a client waits for before it holds objects; a 5,000-page tree is
 * 2.8 MB of JSON, whose parse alone is several milliseconds).
 */
async function measure(path: string, before?: () => void) {
  await call('GET', path);
  before?.();
  const counted = store.queries.length;
  await call('GET', path);
  const statements = store.queries.length - counted;
  const received: number[] = [];
  const parsed: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    before?.();
    const start = performance.now();
    const res = await app.fetch(`http://localhost${path}`, { headers: auth });
    const text = await res.text();
    received.push(performance.now() - start);
    JSON.parse(text);
    parsed.push(performance.now() - start);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 300)}`);
  }
  const pct = (times: number[], p: number) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(p * times.length))];
  return { p50: pct(received, 0.5), p95: pct(received, 0.95), parsedP50: pct(parsed, 0.5), statements };
}

const TABLES = ['Revision', 'ContentNode', 'Document', 'FileBlob'] as const;
async function rowCounts() {
  const counts = await Promise.all(TABLES.map((t) => db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${t}"`)));
  return Object.fromEntries(TABLES.map((t, i) => [t, Number(counts[i][0].n)])) as Record<(typeof TABLES)[number], number>;
}

/** Runs `action` and answers its time and the rows each table gained. */
async function written(action: () => Promise<unknown>) {
  const before = await rowCounts();
  const start = performance.now();
  await action();
  const ms = performance.now() - start;
  const after = await rowCounts();
  return { ms, rows: Object.fromEntries(TABLES.map((t) => [t, after[t] - before[t]])) as Record<(typeof TABLES)[number], number> };
}

type Write = Awaited<ReturnType<typeof written>>;
const summary = (writes: Write[]) => ({
  ms: median(writes.map((w) => w.ms)),
  rows: Object.fromEntries(TABLES.map((t) => [t, Math.max(...writes.map((w) => w.rows[t]))])) as Write['rows'],
});

/** Bytes of every table and index of the database, from PostgreSQL's own sizes. */
async function databaseBytes() {
  const [row] = await db.$queryRawUnsafe<{ bytes: bigint }[]>(
    `SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'm')`,
  );
  return Number(row.bytes);
}

/** The database growth of EDITS one-page edits (each a new revision of one change request), per edit; and the bytes of one whole copy of the page tree's leaves. */
async function storagePerEdit(s: string, leaves: string[]) {
  const cr = await call('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Many edits' });
  if (usingPostgres) await db.$executeRawUnsafe('VACUUM');
  const before = await databaseBytes();
  const [tree] = await db.$queryRawUnsafe<{ bytes: bigint }[]>(
    `SELECT sum(pg_column_size(n.*))::bigint AS bytes FROM "ContentNode" n
      WHERE n."hash" IN (SELECT c.hash FROM "Revision" r, content_leaves(r."pageTree") c WHERE r."id" = $1)`,
    await spaceRevision(s),
  );
  const start = performance.now();
  for (let i = 0; i < EDITS; i++) {
    const page = leaves[(i * 104729) % leaves.length];
    await call('POST', `/v1/spaces/${s}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'update_page', page, document: { markdown: `# Edit ${i}\n\nText of edit ${i}.` } }],
    });
  }
  const seconds = (performance.now() - start) / 1000;
  if (usingPostgres) await db.$executeRawUnsafe('VACUUM');
  return { perEdit: ((await databaseBytes()) - before) / EDITS, tree: Number(tree.bytes), seconds };
}

const results = new Map<
  number,
  { reads: Record<string, Awaited<ReturnType<typeof measure>>>; writes: Record<string, ReturnType<typeof summary>>; storage?: Awaited<ReturnType<typeof storagePerEdit>> }
>();

// Warm-up, not printed: the first requests of a process pay for compiling and for connections.
{
  const o = (await call('POST', '/v1/orgs', { title: 'Content bench warm-up' })).id as string;
  const { s, leaves } = await seedSpace(o, 100);
  for (let round = 0; round < 5; round++) {
    const edit = await call('POST', `/v1/spaces/${s}/change-requests`, { subject: `Warm ${round}` });
    await call('POST', `/v1/spaces/${s}/change-requests/${edit.id}/content`, { changes: [{ operation: 'update_page', page: leaves[round], document: { markdown: `# Warm ${round}` } }] });
    await call('POST', `/v1/spaces/${s}/change-requests/${edit.id}/merge`);
    await call('GET', `/v1/spaces/${s}/content/page/${leaves[round]}`);
  }
}

for (const pages of SIZES) {
  const o = (await call('POST', '/v1/orgs', { title: `Content bench ${pages}` })).id as string;
  const space = await seedSpace(o, pages);
  const { s, leaves } = space;
  const pageId = leaves[Math.floor(leaves.length / 2)];
  const cr = await call('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Reads' });
  const revision = await spaceRevision(s);
  const uncached = () => contentCacheOf(db).forget(revision);
  // Nothing held at all (as in a process that just started): the revision and every leaf read and decoded.
  const cold = () => configureContentCache(db, DEFAULT_CONTENT_CACHE_ENTRIES);
  const reads = {
    'page tree, uncached (GET …/content/pages)': await measure(`/v1/spaces/${s}/content/pages`, uncached),
    'page tree, cold (no leaf held either)': await measure(`/v1/spaces/${s}/content/pages`, cold),
    'page tree, cached': await measure(`/v1/spaces/${s}/content/pages`),
    'revision (GET …/content)': await measure(`/v1/spaces/${s}/content`),
    'one page as a document, uncached': await measure(`/v1/spaces/${s}/content/page/${pageId}`, uncached),
    'one page as markdown, uncached': await measure(`/v1/spaces/${s}/content/page/${pageId}?format=markdown`, uncached),
    'change request: one page': await measure(`/v1/spaces/${s}/change-requests/${cr.id}/content/page/${pageId}`),
  };
  console.table(
    Object.entries(reads).map(([name, r]) => ({
      [`read, ${pages} pages`]: name,
      'p50 ms': r.p50.toFixed(1),
      'p95 ms': r.p95.toFixed(1),
      'p50 ms with JSON.parse': r.parsedP50.toFixed(1),
      statements: r.statements,
    })),
  );

  // Each round: a one-page change in a new change request, its merge, then an update from main of a
  // change request that holds a one-page change of its own (a three-way merge of both sides).
  const other = await call('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Other' });
  await call('POST', `/v1/spaces/${s}/change-requests/${other.id}/content`, {
    changes: [{ operation: 'update_page', page: leaves[leaves.length - 1], document: { markdown: '# Other\n\nTheir text.' } }],
  });
  const rounds: { change: Write; merge: Write; update: Write }[] = [];
  for (let round = 0; round < WRITES; round++) {
    const edit = await call('POST', `/v1/spaces/${s}/change-requests`, { subject: `Edit ${round}` });
    const base = `/v1/spaces/${s}/change-requests/${edit.id}`;
    const page = leaves[(round * 7919) % (leaves.length - 1)];
    const change = await written(() => call('POST', `${base}/content`, { changes: [{ operation: 'update_page', page, document: { markdown: `# Changed ${round}\n\nNew text.` } }] }));
    const merge = await written(() => call('POST', `${base}/merge`));
    const update = await written(() => call('POST', `/v1/spaces/${s}/change-requests/${other.id}/update`));
    rounds.push({ change, merge, update });
  }
  const writes = {
    'one-page change (update_page with a new body)': summary(rounds.map((r) => r.change)),
    'merge of that change request': summary(rounds.map((r) => r.merge)),
    'update from main of another change request': summary(rounds.map((r) => r.update)),
  };
  console.table(
    Object.entries(writes).map(([name, w]) => ({
      [`write, ${pages} pages (median of ${WRITES})`]: name,
      ms: w.ms.toFixed(1),
      ...Object.fromEntries(TABLES.map((t) => [`+${t} (max)`, w.rows[t]])),
    })),
  );
  // Storage at the smallest and the largest size: per edit, it should not follow the size of the space.
  let storage: Awaited<ReturnType<typeof storagePerEdit>> | undefined;
  if (EDITS > 0 && (pages === Math.min(...SIZES) || pages === Math.max(...SIZES))) {
    storage = await storagePerEdit(s, leaves);
    console.log(
      `storage, ${pages} pages: ${EDITS} one-page edits in ${storage.seconds.toFixed(1)} s grew the database by ${Math.round((storage.perEdit * EDITS) / 1024)} KiB, ` +
        `${Math.round(storage.perEdit)} bytes per edit (pg_total_relation_size of every table); a whole copy of the page tree's leaves is ${Math.round(storage.tree / 1024)} KiB`,
    );
  }
  results.set(pages, { reads, writes, storage });
}

// Issue 23's goals beside the figures measured before it (PostgreSQL, this machine).
const BEFORE: Record<string, Record<number, number>> = {
  change: { 500: 152, 5000: 1542 },
  merge: { 500: 148, 5000: 1435 },
  update: { 500: 172, 5000: 2259 },
  page: { 500: 8.2, 5000: 37.7 },
  tree: { 500: 10.6, 5000: 87.7 },
  revision: { 500: 15.4, 5000: 134.9 },
};
const small = results.get(Math.min(...SIZES));
const big = results.get(Math.max(...SIZES));
const goals: { goal: string; measured: string; before: string; met: string }[] = [];
if (small && big) {
  const bigSize = Math.max(...SIZES);
  const smallSize = Math.min(...SIZES);
  const writeGoal = (name: string, key: string, label: string) => {
    const b = big.writes[name];
    const a = small.writes[name];
    const constantRows = TABLES.every((t) => b.rows[t] <= a.rows[t] + 2);
    goals.push({
      goal: `${label}: ≤ 60 ms at ${bigSize} and ≤ 2× of ${smallSize}; rows do not grow`,
      measured: `${b.ms.toFixed(1)} ms (${(b.ms / a.ms).toFixed(2)}× of ${a.ms.toFixed(1)}); rows ${TABLES.map((t) => `${t} +${b.rows[t]}`).join(', ')} (at ${smallSize}: ${TABLES.map((t) => `+${a.rows[t]}`).join(', ')})`,
      before: `${BEFORE[key][500]} / ${BEFORE[key][5000]} ms; +5,000 Page rows`,
      met: b.ms <= 60 && b.ms <= 2 * a.ms && constantRows ? 'yes' : 'MISSED',
    });
  };
  writeGoal('one-page change (update_page with a new body)', 'change', 'one-page change');
  writeGoal('merge of that change request', 'merge', 'merge of it');
  writeGoal('update from main of another change request', 'update', 'update from main');
  const page = big.reads['one page as a document, uncached'];
  const markdown = big.reads['one page as markdown, uncached'];
  goals.push({
    goal: `one page ≤ 10 ms p50 at ${bigSize}, as at ${smallSize}`,
    measured: `document ${page.p50.toFixed(1)} ms, markdown ${markdown.p50.toFixed(1)} ms (at ${smallSize}: ${small.reads['one page as a document, uncached'].p50.toFixed(1)} / ${small.reads['one page as markdown, uncached'].p50.toFixed(1)})`,
    before: `${BEFORE.page[500]} / ${BEFORE.page[5000]} ms`,
    met: page.p50 <= 10 && markdown.p50 <= 10 ? 'yes' : 'MISSED',
  });
  const tree = big.reads['page tree, uncached (GET …/content/pages)'];
  const cold = big.reads['page tree, cold (no leaf held either)'];
  const cached = big.reads['page tree, cached'];
  goals.push({
    goal: `page tree of ${bigSize} pages ≤ 30 ms p50 uncached (to the last byte); cached without SQL for content`,
    measured:
      `uncached ${tree.p50.toFixed(1)} ms (${tree.statements} statements; ${tree.parsedP50.toFixed(1)} ms with the client's JSON.parse), ` +
      `cold ${cold.p50.toFixed(1)} ms (${cold.parsedP50.toFixed(1)} with JSON.parse), cached ${cached.p50.toFixed(1)} ms (${cached.statements} statements)`,
    before: `${BEFORE.tree[500]} / ${BEFORE.tree[5000]} ms`,
    met: tree.p50 <= 30 && cached.statements < tree.statements ? 'yes' : 'MISSED',
  });
  goals.push({
    goal: 'revision read (no goal set; for reference)',
    measured: `${big.reads['revision (GET …/content)'].p50.toFixed(1)} ms`,
    before: `${BEFORE.revision[500]} / ${BEFORE.revision[5000]} ms`,
    met: '—',
  });
  if (small.storage && big.storage) {
    const [a, b] = [small.storage, big.storage];
    goals.push({
      goal: `storage of ${EDITS} one-page edits follows the edits: per edit at ${bigSize} ≤ 2× at ${smallSize}, ≤ 10% of a copy of the tree`,
      measured: `${Math.round(b.perEdit)} bytes per edit at ${bigSize} (${Math.round(a.perEdit)} at ${smallSize}); a whole tree: ${Math.round(b.tree)} bytes`,
      before: 'every edit copied the tree (a row per page)',
      met: b.perEdit <= 2 * a.perEdit && b.perEdit <= b.tree / 10 ? 'yes' : 'MISSED',
    });
  }
}
console.log(`Goals of issue 23 (${usingPostgres ? 'PostgreSQL' : 'PGlite'}; the "before" column was measured on PostgreSQL, 500 / 5,000 pages):`);
console.table(goals);
await app.close();
await store.close();
