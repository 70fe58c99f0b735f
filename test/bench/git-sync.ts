/**
 * `npm run bench`: Git Sync of a 1,000-page repository (BENCH_GIT_PAGES), against a real Git server
 * (git http-backend on 127.0.0.1), in process, on PGlite (or PostgreSQL with TEST_DATABASE_URL). It
 * prints, for each sync, the time from the request to the run's end, the SQL statements and the rows it
 * added by table:
 * - the first import of the repository (goal ≤ 10 s);
 * - pushes that changed one page each, imported (goal ≤ 1 s, and what it writes does not grow with the space);
 * - one-page changes merged here, each exported as one commit (goal ≤ 1 s);
 * then the goals of issue 40 beside the figures. It exits 1 when a goal is missed.
 */
import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app.ts';
import { buildConfig } from '../../src/config.ts';
import { JobRunner } from '../../src/jobs/job-runner.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createUserWithToken } from '../../src/modules/users/user.service.ts';
import { jobHandlers } from '../../src/schema.ts';
import { createTestDatabase, usingPostgres } from '../support/database.ts';
import { startGitServer } from '../support/git-server.ts';

const PAGES = Number(process.env.BENCH_GIT_PAGES ?? 1000);
const CHAPTER = 25;

const git = await startGitServer();
const store = await createTestDatabase();
const db = store.database.prisma;
const config = buildConfig({ logLevel: 'silent', rateLimit: { enabled: false }, fetch: { allowPrivate: true }, gitSyncPollSeconds: 0 });
const app = createApp({ database: store.database, config });
await app.ready();
const runner = new JobRunner({ db, config, clock: systemClock, logger: createLogger('silent'), handlers: jobHandlers, concurrency: 1 });
const { token } = await createUserWithToken(db, { email: 'git-bench@example.com', displayName: 'Bench' });
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

async function call(method: string, path: string, body?: unknown) {
  const res = await app.fetch(`http://localhost${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = res.status === 204 ? null : await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A repository in GitBook's layout: chapters of 25 pages (a chapter's README, its pages beside it). */
function repository(pages: number): Record<string, string> {
  const files: Record<string, string> = { 'README.md': '# Handbook\n\nWelcome.\n' };
  const summary = ['# Table of contents', '', '* [Handbook](README.md)'];
  for (let i = 0; i < pages - 1; i++) {
    const chapter = Math.floor(i / CHAPTER);
    const folder = `chapter-${chapter}`;
    if (i % CHAPTER === 0) {
      files[`${folder}/README.md`] = `# Chapter ${chapter}\n\nOverview of chapter ${chapter}.\n`;
      summary.push(`* [Chapter ${chapter}](${folder}/README.md)`);
    } else {
      files[`${folder}/page-${i}.md`] = `# Page ${i}\n\n${'Some text. '.repeat(40)} (${i})\n\n- a\n- b\n\nSee [the chapter](README.md).\n`;
      summary.push(`  * [Page ${i}](${folder}/page-${i}.md)`);
    }
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  return files;
}

const TABLES = ['Revision', 'ContentNode', 'Document', 'FileBlob', 'ChangeRequest'] as const;
async function rowCounts() {
  const counts = await Promise.all(TABLES.map((t) => db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${t}"`)));
  return Object.fromEntries(TABLES.map((t, i) => [t, Number(counts[i][0].n)])) as Record<(typeof TABLES)[number], number>;
}

/** Runs a request and the job it queued: time, statements, rows added by table. */
async function sync(label: string, request: () => Promise<unknown>) {
  const before = await rowCounts();
  const counted = store.queries.length;
  const start = performance.now();
  await request();
  await runner.drain();
  const ms = performance.now() - start;
  const statements = store.queries.length - counted;
  const after = await rowCounts();
  const rows = Object.fromEntries(TABLES.map((t) => [t, after[t] - before[t]]));
  const state = await db.gitSync.findFirst({ select: { state: true, error: true } });
  if (state?.state !== 'success') throw new Error(`${label}: ${state?.state} ${state?.error}`);
  return { label, ms, statements, ...rows };
}

const url = git.repository('handbook', repository(PAGES)).replace('http://', `http://${git.username}:${git.password}@`);
const organization = await call('POST', '/v1/orgs', { title: 'Bench' });
const space = await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Handbook' });
const importRepository = () => call('POST', `/v1/spaces/${space.id}/git/import`, { url, ref: 'refs/heads/main' });

const results = [];
results.push(await sync(`first import (${PAGES} pages)`, importRepository));
const PUSHES = Number(process.env.BENCH_GIT_PUSHES ?? 5);
for (let push = 1; push <= PUSHES; push++) {
  // A page of the middle and the end of the tree too (never a chapter's README).
  let page = (push * 137) % (PAGES - 1);
  if (page % CHAPTER === 0) page++;
  git.commit('handbook', { [`chapter-${Math.floor(page / CHAPTER)}/page-${page}.md`]: `# Page ${page}\n\nChanged in Git (push ${push}).\n` });
  results.push(await sync(`one-page push ${push}, imported`, importRepository));
}

// One-page changes merged here: each merge queues an export.
const pages = (await call('GET', `/v1/spaces/${space.id}/content/pages`)).pages as { id: string; pages: { id: string }[] }[];
for (let merge = 1; merge <= 3; merge++) {
  const target = pages[5 * merge].pages[merge].id;
  const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: `One page ${merge}` });
  await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'update_page', page: target, document: { markdown: `# Edited\n\nHere (${merge}).\n` } }] });
  results.push(await sync(`one-page merge ${merge}, exported`, () => call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)));
}

console.log(`Git Sync, ${usingPostgres ? 'PostgreSQL' : 'PGlite'}, ${PAGES} pages`);
console.table(results.map((r) => ({ ...r, ms: Number(r.ms.toFixed(0)) })));
const pushes = results.filter((r) => r.label.startsWith('one-page push')).map((r) => r.ms);
const exports = results.filter((r) => r.label.startsWith('one-page merge')).map((r) => r.ms);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const goals = [
  { goal: `first import of ${PAGES} pages ≤ 10 s`, measured: results[0].ms, limit: 10_000, note: '' },
  { goal: 'a one-page push imported ≤ 1 s (median of the pushes)', measured: median(pushes), limit: 1000, note: `each: ${pushes.map((ms) => ms.toFixed(0)).join(', ')} ms` },
  { goal: 'a one-page change exported ≤ 1 s (median of the merges)', measured: median(exports), limit: 1000, note: `each: ${exports.map((ms) => ms.toFixed(0)).join(', ')} ms` },
];
console.table(goals.map((g) => ({ goal: g.goal, measured: `${g.measured.toFixed(0)} ms`, met: g.measured <= g.limit ? 'yes' : 'MISSED', note: g.note })));
await runner.stop();
await git.close();
await store.close();
if (goals.some((g) => g.measured > g.limit)) process.exitCode = 1;
