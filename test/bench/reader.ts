/**
 * Part of `npm run bench` (PostgreSQL: TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres):
 * the reader (issue 25 §5) — a published site of 500 pages (20 chapters × 4 sections × 5 pages, bodies with
 * headings, paragraphs, lists, a code block and a table) served as HTML by the built server (`npm run build`
 * → dist/server.js, as `npm start` runs it). Prints, each beside its goal:
 * - cached page req/s at 32 connections (`accept-encoding: br`), beside a plain node:http server sending the
 *   same bytes and headers from memory (reader-plain-server.mjs), and the ratio (goal ≥ 0.5×);
 * - uncached render p50 / p99 at one connection, every page of the site asked once (each is a new
 *   fingerprint, so nothing is in the rendered-page cache), after a warm-up on another site over the same
 *   space (goal p99 ≤ 30 ms); the p50 of the 304 answer to `If-None-Match`;
 * - the weight of a typical content page and of the largest (HTML, br and gzip), and of the page's script and
 *   stylesheet (goals: HTML ≤ 60 KB, JavaScript ≤ 30 KB compressed; KB = 1,000 bytes, both encodings counted);
 * - Lighthouse (performance, accessibility, best practices, SEO; goal ≥ 95 each) of a content page with
 *   Debian's Chromium, mobile (Lighthouse's default: emulated phone, simulated slow 4G and 4× CPU slowdown) and
 *   desktop presets, with the audits that do not pass. Without Chromium or when Lighthouse cannot run, says
 *   why and goes on (CHROMIUM_PATH overrides /usr/bin/chromium; BENCH_LIGHTHOUSE=0 skips it).
 * Missed goals are printed, not failed; an error fails the bench (exit code 1).
 */
import { execSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Pool } from 'undici';
import { createApp } from '../../src/app.ts';
import { buildConfig } from '../../src/config.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../src/lib/runtime-tuning.ts';
import { createUserWithToken } from '../../src/modules/users/user.service.ts';
import { createTestDatabase } from '../support/database.ts';

const root = path.resolve(import.meta.dirname, '../..');
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 32;
const CHAPTERS = 20;
const SECTIONS = 4; // per chapter
const LEAVES = 5; // per section: 20 × (1 + 4 × (1 + 5)) = 500 pages
const WARM_UP_PAGES = 30;
const KB = 1000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
const [PORT, PLAIN_PORT] = [await freePort(), await freePort()];
const ORIGIN = `http://127.0.0.1:${PORT}`;
const PLAIN_ORIGIN = `http://127.0.0.1:${PLAIN_PORT}`;

// ---- Realistic page bodies: deterministic text (a seeded generator), so runs compare. ----
let seed = 0x2545f491;
const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
const WORDS = (
  'request response server client cache token page space site section revision document reader render header ' +
  'value option default setting limit memory database query index search result version release deploy build ' +
  'config network route handler session user member team organization access policy review merge change content ' +
  'the a of to and in is for with on that by this be are as an from at it can when each or your which will'
).split(' ');
const sentence = (min = 8, max = 18) => {
  const n = min + Math.floor(random() * (max - min));
  const words = Array.from({ length: n }, () => pick(WORDS));
  if (random() < 0.3) words[Math.floor(random() * n)] = `**${pick(WORDS)}**`;
  if (random() < 0.3) words[Math.floor(random() * n)] = `\`${pick(WORDS)}_${pick(WORDS)}\``;
  const text = words.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
};
const paragraph = (sentences = 4) => Array.from({ length: sentences }, () => sentence()).join(' ');
const title = (words = 3) => {
  const text = Array.from({ length: words }, () => pick(WORDS.slice(0, 48))).join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}`;
};

function block(n: number): string {
  const rows = Array.from({ length: 6 }, () => `| \`${pick(WORDS)}_${pick(WORDS)}\` | ${pick(['string', 'number', 'boolean', 'object'])} | ${sentence(5, 10)} |`);
  return [
    `# ${title()}`, // heading-1: the reader's h2 under the page title (GitBook's Heading 1)
    paragraph(4),
    paragraph(3),
    ...Array.from({ length: 5 }, () => `- ${sentence(5, 12)}`),
    '',
    `## ${title(2)} ${n}`,
    paragraph(2),
    '```ts',
    `import { createClient } from '@example/sdk';`,
    '',
    `const client = createClient({ baseUrl: 'https://api.example.com', token: process.env.TOKEN });`,
    `export async function ${pick(WORDS)}${n}(id: string, options: { limit?: number } = {}) {`,
    `  const response = await client.get(\`/v1/${pick(WORDS)}s/\${id}\`, { query: { limit: options.limit ?? 20 } });`,
    `  if (!response.ok) throw new Error(\`Request failed: \${response.status}\`);`,
    `  const { items, next } = await response.json();`,
    `  return { items: items.filter((item) => item.${pick(WORDS)} !== null), next };`,
    '}',
    '```',
    '',
    `## ${title(2)}`,
    '| Name | Type | Description |',
    '| --- | --- | --- |',
    ...rows,
    '',
    ...Array.from({ length: 3 }, (_, i) => `${i + 1}. ${sentence(6, 12)}`),
    '',
    paragraph(3),
  ].join('\n\n');
}
/** A content page's body; every 50th page is a long one (four times the sections). */
const body = (n: number) => [paragraph(3), ...Array.from({ length: n % 50 === 7 ? 8 : 2 }, (_, i) => block(n * 10 + i)), `# Next steps`, paragraph(2)].join('\n\n');

// ---- The site, built through the API (in process, on the same database the built server then reads). ----
const store = await createTestDatabase(SERVER_URL);
const children: ChildProcess[] = [];
const tmp = mkdtempSync(path.join(tmpdir(), 'reader-bench-'));
let failed = false;
try {
  const config = buildConfig({ logLevel: 'silent', publicUrl: ORIGIN, rateLimit: { enabled: false } });
  const app = createApp({ database: store.database, config });
  await app.ready();
  const { token } = await createUserWithToken(store.database.prisma, { email: 'reader-bench@example.com', displayName: 'Bench' });
  const call = async (method: string, url: string, payload?: unknown) => {
    const res = await app.fetch(`http://localhost${url}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : null;
  };
  const builtAt = performance.now();
  const o = (await call('POST', '/v1/orgs', { title: 'Reader bench' })).id as string;
  const s = (await call('POST', `/v1/orgs/${o}/spaces`, { title: 'Handbook' })).id as string;
  const cr = await call('POST', `/v1/spaces/${s}/change-requests`, { subject: 'Seed' });
  let n = 0;
  for (let c = 0; c < CHAPTERS; c += 2) {
    // Two chapters (50 pages) per request: a request takes at most 50 changes, refs live within it.
    const changes: object[] = [];
    for (const chapter of [c, c + 1]) {
      changes.push({ operation: 'insert_page', ref: `c${chapter}`, title: `Chapter ${chapter + 1}: ${title(2)}`, description: sentence(6, 10), document: { markdown: body(n++) } });
      for (let sec = 0; sec < SECTIONS; sec++) {
        changes.push({ operation: 'insert_page', ref: `c${chapter}s${sec}`, into: `c${chapter}`, title: `${title(2)} ${chapter + 1}.${sec + 1}`, document: { markdown: body(n++) } });
        for (let leaf = 0; leaf < LEAVES; leaf++) {
          changes.push({ operation: 'insert_page', into: `c${chapter}s${sec}`, title: `${title(3)} ${chapter + 1}.${sec + 1}.${leaf + 1}`, description: sentence(6, 10), document: { markdown: body(n++) } });
        }
      }
    }
    await call('POST', `/v1/spaces/${s}/change-requests/${cr.id}/content`, { changes });
  }
  await call('POST', `/v1/spaces/${s}/change-requests/${cr.id}/merge`);
  // The measured site, and another over the same space for the warm-up (its pages are other fingerprints).
  const site = await call('POST', `/v1/orgs/${o}/sites`, { title: 'Handbook', spaces: [s] });
  await call('POST', `/v1/orgs/${o}/sites/${site.id}/publish`);
  const warmSite = await call('POST', `/v1/orgs/${o}/sites`, { title: 'Warm-up', spaces: [s] });
  await call('POST', `/v1/orgs/${o}/sites/${warmSite.id}/publish`);
  const flatten = (pages: TreePage[]): TreePage[] => pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
  const pages: TreePage[] = flatten((await call('GET', `/v1/spaces/${s}/content/pages`)).pages);
  if (pages.length !== n) throw new Error(`expected ${n} pages, the space has ${pages.length}`);
  const siteBase = `${config.publishedUrl}/${o}/${site.id}`;
  const warmBase = `${config.publishedUrl}/${o}/${warmSite.id}`;
  const pathOf = (base: string, page: TreePage) => `${new URL(base).pathname}/${page.path}`;
  const typical = typicalPage(pages);
  // SQL statements per request, counted by the driver of the in-process app on the same database (its
  // rendered pages are its own: this warms nothing in the built server).
  const inProcess = (headers: Record<string, string> = {}) => app.fetch(`${ORIGIN}${pathOf(siteBase, typical)}`, { headers: { 'accept-encoding': 'br', ...headers } });
  const first = await inProcess();
  await first.arrayBuffer();
  const statementsOf = async (headers: Record<string, string> = {}) => {
    const before = store.queries.length;
    const res = await inProcess(headers);
    await res.arrayBuffer();
    if (res.status !== 200 && res.status !== 304) throw new Error(`in process: ${res.status}`);
    return store.queries.length - before;
  };
  const statements = { cached: await statementsOf(), notModified: await statementsOf({ 'if-none-match': first.headers.get('etag')! }) };
  await app.close?.();
  const buildSeconds = (performance.now() - builtAt) / 1000;

  // ---- The built server, as `npm start` runs it. ----
  if (!process.env.BENCH_SKIP_BUILD) execSync('npm run build', { cwd: root, stdio: 'ignore' });
  const env = { ...process.env, NODE_ENV: 'production', DATABASE_URL: store.url!, PUBLIC_URL: ORIGIN, LOG_LEVEL: 'silent', RATE_LIMIT: 'false', HOST: '127.0.0.1' };
  const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean); // e.g. --cpu-prof to profile
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeFlags, 'dist/server.js'], { cwd: root, env: { ...SERVER_ENV, ...env, PORT: String(PORT) }, stdio: 'ignore' });
  children.push(server);
  await waitFor(`${ORIGIN}/healthz`, server);

  const pool = new Pool(ORIGIN, { connections: 1 });
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await pool.request({ path: url, method: 'GET', headers });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: res.headers as Record<string, string>, bytes };
  };
  const expect200 = <T extends { status: number; bytes: Buffer }>(answer: T, url: string): T => {
    if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status} ${answer.bytes.toString().slice(0, 300)}`);
    return answer;
  };

  // ---- Uncached renders: each page of the site once, at one connection, after a warm-up elsewhere. ----
  for (const page of pages.slice(0, WARM_UP_PAGES)) expect200(await get(pathOf(warmBase, page), { 'accept-encoding': 'br' }), pathOf(warmBase, page));
  const renders: number[] = [];
  const longBody = pages.map((_, i) => i % 50 === 7); // body(n): pages are listed in the order they were written
  const sizes: { page: TreePage; br: number }[] = [];
  const etags = new Set<string>();
  for (const page of pages) {
    const url = pathOf(siteBase, page);
    const started = performance.now();
    const answer = expect200(await get(url, { 'accept-encoding': 'br' }), url);
    renders.push(performance.now() - started);
    if (answer.headers['content-encoding'] !== 'br') throw new Error(`GET ${url}: not brotli (${answer.headers['content-encoding']})`);
    etags.add(answer.headers.etag);
    sizes.push({ page, br: answer.bytes.length });
  }
  if (etags.size !== pages.length) throw new Error(`${pages.length} pages answered ${etags.size} distinct ETags: some were not new renders`);

  const typicalUrl = pathOf(siteBase, typical);
  const largest = sizes.reduce((a, b) => (b.br > a.br ? b : a)).page;
  const largestUrl = pathOf(siteBase, largest);

  // ---- 304: the page again with its ETag (the lookup runs, nothing is rendered or sent). ----
  const typicalBr = expect200(await get(typicalUrl, { 'accept-encoding': 'br' }), typicalUrl);
  const notModified: number[] = [];
  for (let i = 0; i < 350; i++) {
    const started = performance.now();
    const answer = await get(typicalUrl, { 'accept-encoding': 'br', 'if-none-match': typicalBr.headers.etag });
    if (answer.status !== 304) throw new Error(`GET ${typicalUrl} with its ETag: ${answer.status}`);
    if (i >= 50) notModified.push(performance.now() - started);
  }

  // ---- Weight: HTML (br, gzip), and the page's script and stylesheet. ----
  const weigh = async (url: string) => {
    const br = expect200(await get(url, { 'accept-encoding': 'br' }), url);
    const gzip = expect200(await get(url, { 'accept-encoding': 'gzip' }), url);
    const identity = expect200(await get(url), url);
    if (!brotliDecompressSync(br.bytes).equals(identity.bytes) || !gunzipSync(gzip.bytes).equals(identity.bytes)) throw new Error(`${url}: encodings differ`);
    return { br: br.bytes.length, gzip: gzip.bytes.length, identity: identity.bytes.length, html: identity.bytes.toString() };
  };
  const typicalWeight = await weigh(typicalUrl);
  const largestWeight = await weigh(largestUrl);
  const scriptSrc = /<script\b[^>]*\bsrc="([^"]+)"/.exec(typicalWeight.html)?.[1];
  const cssHref = /<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/.exec(typicalWeight.html)?.[1];
  if (!scriptSrc || !cssHref) throw new Error(`the page names no script (${scriptSrc}) or stylesheet (${cssHref})`);
  const jsWeight = await weigh(scriptSrc);
  const cssWeight = await weigh(cssHref);
  await pool.close();

  // ---- Cached page req/s: our server against a plain node:http server sending the same bytes. ----
  const bodyFile = path.join(tmp, 'page.br');
  writeFileSync(bodyFile, typicalBr.bytes);
  const sameHeaders = { 'content-type': typicalBr.headers['content-type'], 'content-encoding': typicalBr.headers['content-encoding'], etag: typicalBr.headers.etag };
  const plain = fork(path.join(import.meta.dirname, 'reader-plain-server.mjs'), [], {
    env: { ...process.env, PORT: String(PLAIN_PORT), BODY_FILE: bodyFile, HEADERS: JSON.stringify(sameHeaders) },
    stdio: 'ignore',
    execArgv: [],
  });
  children.push(plain);
  await waitFor(`${PLAIN_ORIGIN}/`, plain);
  const plainAnswer = await fetchRaw(PLAIN_ORIGIN, typicalUrl);
  const ourAnswer = await fetchRaw(ORIGIN, typicalUrl);
  if (!plainAnswer.equals(ourAnswer)) throw new Error('the plain server and ours send different bytes');
  await load(PLAIN_ORIGIN, typicalUrl, 8, 2, ourAnswer.length); // warm-up
  const plainRps = await load(PLAIN_ORIGIN, typicalUrl, CONNECTIONS, DURATION, ourAnswer.length);
  await load(ORIGIN, typicalUrl, 8, 2, ourAnswer.length);
  const ourRps = await load(ORIGIN, typicalUrl, CONNECTIONS, DURATION, ourAnswer.length);

  // ---- Lighthouse. ----
  const lighthouse = process.env.BENCH_LIGHTHOUSE === '0' ? { skipped: 'BENCH_LIGHTHOUSE=0' } : await runLighthouse(`${ORIGIN}${typicalUrl}`);

  // ---- The figures. ----
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const kb = (v: number) => `${(v / KB).toFixed(1)} KB`;
  const ratio = ourRps.rps / plainRps.rps;
  console.log(
    `\nThe reader: a published site of ${pages.length} pages (${CHAPTERS} chapters × ${SECTIONS} sections × ${LEAVES} pages; built through the API in ${buildSeconds.toFixed(1)} s), ` +
      `dist/server.js on PostgreSQL, ${DURATION} s per load`,
  );
  console.log(`typical content page: ${typicalUrl} (${kb(typicalWeight.identity)} of HTML); largest: ${largestUrl} (${kb(largestWeight.identity)})`);
  console.log(`SQL statements per request (in process, same database): cached page ${statements.cached}, 304 ${statements.notModified}`);
  console.log(`\nCached page, ${CONNECTIONS} connections, accept-encoding: br (${ourAnswer.length} bytes on the wire per answer, headers included), identical bytes:`);
  console.table([
    { server: 'plain node:http from memory', 'req/s': Math.round(plainRps.rps), 'p50 ms': Number(plainRps.p50.toFixed(1)), 'p99 ms': Number(plainRps.p99.toFixed(1)) },
    { server: 'dist/server.js (reader)', 'req/s': Math.round(ourRps.rps), 'p50 ms': Number(ourRps.p50.toFixed(1)), 'p99 ms': Number(ourRps.p99.toFixed(1)) },
  ]);
  const p = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
  console.log(
    `\nUncached renders (${renders.length} pages, each once, 1 connection, br; warm-up: ${WARM_UP_PAGES} pages of another site over the same space): ` +
      `p50 ${ms(p(renders, 0.5))}, p90 ${ms(p(renders, 0.9))}, p99 ${ms(p(renders, 0.99))}, max ${ms(Math.max(...renders))}`,
  );
  const usual = renders.filter((_, i) => !longBody[i]);
  const long = renders.filter((_, i) => longBody[i]);
  console.log(
    `  by body: ${usual.length} usual pages p50 ${ms(p(usual, 0.5))}, p99 ${ms(p(usual, 0.99))}; ${long.length} long pages (4× the sections) p50 ${ms(p(long, 0.5))}, max ${ms(Math.max(...long))}`,
  );
  console.log(`304 with If-None-Match (${notModified.length} requests, 1 connection): p50 ${ms(p(notModified, 0.5))}, p99 ${ms(p(notModified, 0.99))}`);
  console.log('\nWeight (KB = 1,000 bytes):');
  console.table(
    Object.entries({ 'HTML, typical content page': typicalWeight, 'HTML, largest page': largestWeight, [`JavaScript ${scriptSrc}`]: jsWeight, [`CSS ${cssHref}`]: cssWeight }).map(([what, w]) => ({
      what,
      identity: kb(w.identity),
      br: kb(w.br),
      gzip: kb(w.gzip),
    })),
  );

  const rows: { figure: string; measured: string; goal: string; result: string }[] = [];
  const row = (figure: string, measured: string, goal: string, met: boolean | null) => rows.push({ figure, measured, goal, result: met === null ? '—' : met ? 'met' : 'MISSED' });
  row('cached page req/s, 32 conn, br (vs plain node:http)', `${Math.round(ourRps.rps)} vs ${Math.round(plainRps.rps)} req/s = ${ratio.toFixed(2)}×`, '≥ 0.5× plain', ratio >= 0.5);
  row('uncached render p50 (500 pages, 1 conn)', ms(p(renders, 0.5)), '—', null);
  row('uncached render p99 (500 pages, 1 conn)', ms(p(renders, 0.99)), '≤ 30 ms', p(renders, 0.99) <= 30);
  row('304 (If-None-Match) p50', ms(p(notModified, 0.5)), '—', null);
  row('SQL statements through the pipeline: cached render / 304 (0 from memory)', `${statements.cached} / ${statements.notModified}`, '—', null);
  row('HTML typical page, br / gzip', `${kb(typicalWeight.br)} / ${kb(typicalWeight.gzip)}`, '≤ 60 KB', Math.max(typicalWeight.br, typicalWeight.gzip) <= 60 * KB);
  row('HTML largest page, br / gzip', `${kb(largestWeight.br)} / ${kb(largestWeight.gzip)}`, '≤ 60 KB', Math.max(largestWeight.br, largestWeight.gzip) <= 60 * KB);
  row('JavaScript, br / gzip', `${kb(jsWeight.br)} / ${kb(jsWeight.gzip)}`, '≤ 30 KB', Math.max(jsWeight.br, jsWeight.gzip) <= 30 * KB);
  row('CSS, br / gzip', `${kb(cssWeight.br)} / ${kb(cssWeight.gzip)}`, '—', null);
  if ('skipped' in lighthouse) row('Lighthouse', `not run: ${lighthouse.skipped}`, '≥ 95 each', null);
  else {
    for (const [preset, report] of Object.entries(lighthouse.presets)) {
      if ('error' in report) {
        row(`Lighthouse ${preset}`, `not run: ${report.error}`, '≥ 95 each', null);
        continue;
      }
      for (const [id, score] of Object.entries(report.scores)) row(`Lighthouse ${preset}: ${id}`, score === null ? 'no score' : String(score), '≥ 95', score !== null && score >= 95);
    }
  }
  if ('skipped' in lighthouse) console.log(`\nLighthouse: not run — ${lighthouse.skipped}`);
  else for (const report of Object.values(lighthouse.presets)) console.log(report.text);
  console.log('\nGoals (issue 25 §5):');
  console.table(rows);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  // SIGTERM (the server closes gracefully, writing a --cpu-prof if asked), SIGKILL after 5 s.
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => (child.kill('SIGKILL'), resolve()), 5000);
          child.once('exit', () => (clearTimeout(timer), resolve()));
          child.kill('SIGTERM');
        }),
    ),
  );
  rmSync(tmp, { recursive: true, force: true });
  await store.close().catch((error) => {
    failed = true;
    console.error('dropping the database:', error);
  });
}
process.exit(failed ? 1 : 0);

interface TreePage {
  id: string;
  path: string;
  title: string;
  pages?: TreePage[];
}

/** A typical content page: the first page at the third level of the middle chapter (a usual body). */
function typicalPage(pages: TreePage[]): TreePage {
  const chapter = pages.find((c) => c.title.startsWith(`Chapter ${CHAPTERS / 2}:`))!;
  return pages.find((p) => p.path.split('/').length === 3 && p.path.startsWith(`${chapter.path}/`))!;
}

async function waitFor(url: string, child: ChildProcess) {
  const deadline = performance.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    if (performance.now() > deadline) throw new Error(`${url}: no answer in 30 s`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The answer's body as sent (content-encoding kept), through undici's raw request. */
async function fetchRaw(origin: string, url: string): Promise<Buffer> {
  const pool = new Pool(origin, { connections: 1 });
  try {
    const res = await pool.request({ path: url, method: 'GET', headers: { 'accept-encoding': 'br' } });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200 || res.headers['content-encoding'] !== 'br') throw new Error(`${origin}${url}: ${res.statusCode} ${res.headers['content-encoding']}`);
    return bytes;
  } finally {
    await pool.close();
  }
}

/** `connections` clients sending requests back to back for `seconds` (undici Pool, keep-alive); every body checked for its length. */
async function load(origin: string, url: string, connections: number, seconds: number, expectedBytes: number) {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const start = performance.now();
        const res = await pool.request({ path: url, method: 'GET', headers: { 'accept-encoding': 'br' } });
        const bytes = await res.body.arrayBuffer();
        if (res.statusCode !== 200 || bytes.byteLength !== expectedBytes) failures++;
        latencies.push(performance.now() - start);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  if (failures || !latencies.length) throw new Error(`${origin}${url}: ${failures} failures of ${latencies.length}`);
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: latencies[Math.floor(latencies.length / 2)], p99: latencies[Math.floor(latencies.length * 0.99)] };
}

interface PresetReport {
  scores: Record<string, number | null>;
  /** What is printed: scores, metrics, the audits not passed with their first items, the long tasks. */
  text: string;
}

/** The first items of an audit's details, one line each (an element's snippet, a console message, a URL…). */
function auditItems(details: unknown, max = 4): string[] {
  const items = ((details as { items?: unknown[] } | undefined)?.items ?? []) as Record<string, any>[];
  const lines = items.slice(0, max).map((item) => {
    const node = item.node?.type === 'node' ? item.node : item.subItems?.items?.[0]?.node;
    const what = [
      item.description,
      node ? `${String(node.snippet ?? '').slice(0, 140)}${node.selector ? ` (${node.selector})` : ''}` : null,
      item.url ?? item.source?.url ?? item.sourceLocation?.url,
      typeof item.duration === 'number' ? `${Math.round(item.duration)} ms` : null,
      typeof item.wastedMs === 'number' ? `${Math.round(item.wastedMs)} ms wasted` : null,
    ].filter(Boolean);
    return what.length ? what.join(' — ') : JSON.stringify(item).slice(0, 160);
  });
  if (items.length > max) lines.push(`… ${items.length - max} more`);
  return lines;
}

/** Lighthouse's four categories of `url`, mobile and desktop presets, with Debian's Chromium; what stopped it, if anything. */
async function runLighthouse(url: string): Promise<{ skipped: string } | { presets: Record<string, PresetReport | { error: string; text: string }> }> {
  if (!existsSync(CHROMIUM)) {
    return { skipped: `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)` };
  }
  let modules;
  try {
    modules = {
      lighthouse: (await import('lighthouse')).default,
      desktop: (await import('lighthouse/core/config/desktop-config.js')).default,
      launcher: await import('chrome-launcher'),
    };
  } catch (error) {
    return { skipped: `cannot load lighthouse: ${(error as Error).message}` };
  }
  const categories = ['performance', 'accessibility', 'best-practices', 'seo'];
  const presets: Record<string, PresetReport | { error: string; text: string }> = {};
  for (const [preset, config] of [
    ['mobile', undefined],
    ['desktop', modules.desktop],
  ] as const) {
    let chrome: Awaited<ReturnType<typeof modules.launcher.launch>> | null = null;
    try {
      chrome = await modules.launcher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
      const result = await modules.lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories }, config);
      if (!result) throw new Error('Lighthouse returned nothing');
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
      const scores: Record<string, number | null> = {};
      const failing: string[] = [];
      const flagged: string[] = [];
      for (const id of categories) {
        const category = lhr.categories[id];
        scores[id] = category?.score === null || category?.score === undefined ? null : Math.round(category.score * 100);
        for (const ref of category?.auditRefs ?? []) {
          const audit = lhr.audits[ref.id];
          if (!audit || audit.score === null || ['notApplicable', 'manual', 'informative'].includes(audit.scoreDisplayMode)) continue;
          if (audit.score >= 0.9) continue;
          const line = `[${id}] ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`;
          // Metrics are listed with their values below; other scored audits with what they point at.
          if (ref.weight && ref.group === 'metrics') failing.push(line);
          else if (ref.weight) failing.push([line, ...auditItems(audit.details).map((item) => `    · ${item}`)].join('\n      '));
          else flagged.push(line);
        }
      }
      const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'].map(
        (id) => `${lhr.audits[id]?.title}: ${lhr.audits[id]?.displayValue ?? '—'}`,
      );
      const breakdown = ((lhr.audits['mainthread-work-breakdown']?.details as { items?: { groupLabel?: string; group?: string; duration: number }[] })?.items ?? [])
        .slice(0, 5)
        .map((item) => `${item.groupLabel ?? item.group} ${Math.round(item.duration)} ms`);
      const longTasks = auditItems(lhr.audits['long-tasks']?.details, 5);
      const warnings = lhr.runWarnings.length ? `\n  run warnings: ${lhr.runWarnings.join(' | ')}` : '';
      presets[preset] = {
        scores,
        text:
          `\nLighthouse ${lhr.lighthouseVersion}, ${preset} preset (${preset === 'mobile' ? "the default: emulated Moto G Power, simulated slow 4G, 4× CPU slowdown" : 'desktop-config: 1350×940, simulated 10 Mbit/s, no CPU slowdown'}), ` +
          `Chromium ${lhr.environment.hostUserAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? '?'} headless: ` +
          categories.map((id) => `${id} ${scores[id] ?? '—'}`).join(', ') +
          `\n  metrics: ${metrics.join('; ')}` +
          `\n  main thread: ${breakdown.join(', ') || '—'}; long tasks: ${longTasks.join('; ') || 'none'}` +
          `\n  scored audits not passed (score < 0.9): ${failing.length ? `\n    ${failing.join('\n    ')}` : 'none'}` +
          `\n  flagged, weight 0 (insights and diagnostics): ${flagged.length ? flagged.join('; ') : 'none'}${warnings}`,
      };
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      presets[preset] = { error: message.slice(0, 120), text: `\nLighthouse ${preset}: not run — ${message}` };
    } finally {
      if (chrome) await Promise.resolve(chrome.kill()).catch(() => undefined);
    }
  }
  return { presets };
}
