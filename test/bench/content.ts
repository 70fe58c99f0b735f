/**
 * `npm run bench`: space content, in process, on PGlite (or PostgreSQL with TEST_DATABASE_URL), for a
 * space of BENCH_PAGES (500) pages. Prints two tables, asserting nothing:
 * - reads: p50/p95 and SQL statements of the page-tree read and the other content routes (space and
 *   change request);
 * - writes: the rows each table gains from a one-page change, an update from main and a merge (what
 *   "storage grows with what changed" means in rows), and the time each took.
 */
import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app.ts';
import { buildConfig } from '../../src/config.ts';
import { createUserWithToken } from '../../src/modules/users/user.service.ts';
import { createTestDatabase } from '../support/database.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 500);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

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

const o = (await call('POST', '/v1/orgs', { title: 'Content bench' })).id as string;
const space = await call('POST', `/v1/orgs/${o}/spaces`, { title: 'Handbook' });
const s = space.id as string;

// The space gets its pages the way users write them: batches of 50 changes in one change request, merged;
// chapters of 25 pages (a chapter and its pages always share a batch, so its ref is known).
const seed = await call('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Seed' });
for (let start = 0; start < PAGES; start += 50) {
  const changes = [];
  for (let i = start; i < Math.min(PAGES, start + 50); i++) {
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
const pageId = tree[0].pages[6].id;

const cr = await call('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Bench' });
const crBase = `/v1/spaces/${s}/change-requests/${cr.id}`;

async function measure(path: string) {
  await call('GET', path);
  const before = store.queries.length;
  await call('GET', path);
  const statements = store.queries.length - before;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await call('GET', path);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
  return { p50ms: pct(0.5), p95ms: pct(0.95), statements };
}

const reads = [
  ['space: page tree (GET …/content/pages)', `/v1/spaces/${s}/content/pages`],
  ['space: revision (GET …/content)', `/v1/spaces/${s}/content`],
  ['space: one page as a document', `/v1/spaces/${s}/content/page/${pageId}`],
  ['space: one page as markdown', `/v1/spaces/${s}/content/page/${pageId}?format=markdown`],
  ['change request: page tree', `${crBase}/content/pages`],
  ['change request: one page', `${crBase}/content/page/${pageId}`],
];
const readRows = [];
for (const [name, path] of reads) readRows.push({ [`read, ${PAGES} pages`]: name, ...(await measure(path)) });
console.table(readRows);

const TABLES = ['Revision', 'Page', 'Document', 'File', 'FileBlob'] as const;
async function rowCounts() {
  const counts = await Promise.all(TABLES.map((t) => db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${t}"`)));
  return Object.fromEntries(TABLES.map((t, i) => [t, Number(counts[i][0].n)]));
}
async function written(name: string, action: () => Promise<unknown>) {
  const before = await rowCounts();
  const start = performance.now();
  await action();
  const ms = (performance.now() - start).toFixed(1);
  const after = await rowCounts();
  return { [`write, ${PAGES} pages`]: name, ms, ...Object.fromEntries(TABLES.map((t) => [`+${t}`, after[t] - before[t]])) };
}

const other = await call('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Other' });
const writeRows = [
  await written('one-page change (update_page with a new body)', () =>
    call('POST', `${crBase}/content`, { changes: [{ operation: 'update_page', page: pageId, document: { markdown: '# Changed\n\nNew text.' } }] }),
  ),
  await written('merge of that change request', () => call('POST', `${crBase}/merge`)),
  await written('update from main of another change request', () => call('POST', `/v1/spaces/${s}/change-requests/${other.id}/update`)),
];
console.table(writeRows);
console.log(
  'Page rows are the tree of each revision (titles, slugs, order: no bodies), written in one statement; bodies and file bytes are shared by hash.',
);
await app.close();
await store.close();
