/**
 * `npm run bench`: reading a published site as a renderer does, in process, on PGlite (or PostgreSQL with
 * TEST_DATABASE_URL): a site over a space of BENCH_PAGES (500) pages, published. Prints p50/p95 and SQL
 * statements of the URL lookup (`POST /v1/urls/published`, no token), the page tree, a page and its
 * document by revision with the lookup's apiToken, and the same page read again with its ETag (a 304).
 */
import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app.ts';
import { buildConfig } from '../../src/config.ts';
import { createUserWithToken } from '../../src/modules/users/user.service.ts';
import { createTestDatabase } from '../support/database.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 500);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);

const store = await createTestDatabase();
const db = store.database.prisma;
const config = buildConfig({ logLevel: 'silent', rateLimit: { enabled: false } });
const app = createApp({ database: store.database, config });
await app.ready();
const { token } = await createUserWithToken(db, { email: 'published-bench@example.com', displayName: 'Bench' });

async function call(method: string, path: string, body?: unknown, bearer: string | null = token, headers: Record<string, string> = {}) {
  const res = await app.fetch(`http://localhost${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { status: res.status, etag: res.headers.get('etag'), json: text ? JSON.parse(text) : null };
}

const o = (await call('POST', '/v1/orgs', { title: 'Published bench' })).json.id as string;
const s = (await call('POST', `/v1/orgs/${o}/spaces`, { title: 'Handbook' })).json.id as string;
const seed = (await call('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Seed' })).json;
for (let start = 0; start < PAGES; start += 50) {
  const changes = [];
  for (let i = start; i < Math.min(PAGES, start + 50); i++) {
    const chapter = Math.floor(i / 25);
    changes.push(
      i % 25 === 0
        ? { operation: 'insert_page', ref: `c${chapter}`, title: `Chapter ${chapter}`, document: { markdown: `# Chapter ${chapter}` } }
        : { operation: 'insert_page', title: `Page ${i}`, into: `c${chapter}`, document: { markdown: `# Page ${i}\n\n${'Some text. '.repeat(40)}\n\n- a\n- b\n` } },
    );
  }
  await call('POST', `/v1/spaces/${s}/change-requests/${seed.id}/content`, { changes });
}
await call('POST', `/v1/spaces/${s}/change-requests/${seed.id}/merge`);
const site = (await call('POST', `/v1/orgs/${o}/sites`, { title: 'Docs', spaces: [s] })).json;
await call('POST', `/v1/orgs/${o}/sites/${site.id}/publish`);
const tree = (await call('GET', `/v1/spaces/${s}/content/pages`)).json.pages as { id: string; path: string; pages: { id: string; path: string }[] }[];
const page = tree[Math.floor(tree.length / 2)].pages[3];
const url = `${config.publishedUrl}/${o}/${site.id}/${page.path}`;
const found = (await call('POST', '/v1/urls/published', { url }, null)).json;
const base = `/v1/spaces/${found.space}/revisions/${found.revision}`;

async function measure(run: () => Promise<unknown>) {
  await run();
  const counted = store.queries.length;
  await run();
  const statements = store.queries.length - counted;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
  return { 'p50 ms': pct(0.5), 'p95 ms': pct(0.95), statements };
}

const document = await call('GET', `${base}/page/${page.id}/document`, undefined, found.apiToken);
const rows = [
  { read: 'URL lookup (POST /urls/published, no token)', ...(await measure(() => call('POST', '/v1/urls/published', { url }, null))) },
  { read: 'page tree by revision (apiToken)', ...(await measure(() => call('GET', `${base}/pages`, undefined, found.apiToken))) },
  { read: 'page by revision (apiToken)', ...(await measure(() => call('GET', `${base}/page/${page.id}`, undefined, found.apiToken))) },
  { read: 'page document by revision (apiToken)', ...(await measure(() => call('GET', `${base}/page/${page.id}/document`, undefined, found.apiToken))) },
  {
    read: 'page document again with its ETag (304)',
    ...(await measure(() => call('GET', `${base}/page/${page.id}/document`, undefined, found.apiToken, { 'if-none-match': document.etag! }))),
  },
];
console.log(`\nA published site over ${PAGES} pages (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}), ${RUNS} runs each; the lookup's goal: ≤ 3 statements`);
console.table(rows);
await app.close();
await store.close();
