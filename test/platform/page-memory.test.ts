// Public pages answered from memory (src/http/page-memory.ts), on two real HTTP servers over one
// PostgreSQL database: the second request for a page is answered without the pipeline, with the same
// bytes and headers; a change through either instance (or straight in the database) is followed by the
// other through PostgreSQL's notifications; anything personal never comes from memory.
import { createServer, request, type Server } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { App } from '../../src/app.ts';
import { useTwoInstances } from '../support/harness.ts';
import { readerSite } from '../support/reader-site.ts';
import { POSTGRES_SERVER_URL } from '../support/server-process.ts';

const h = useTwoInstances(POSTGRES_SERVER_URL);

interface Running {
  app: App;
  server: Server;
  origin: string;
  stop: () => Promise<void>;
}

let one: Running;
let two: Running;

async function run(app: App): Promise<Running> {
  const stopFollowing = app.followPublishedChanges();
  const server = createServer(app.handleNodeRequest);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    app,
    server,
    origin: `http://127.0.0.1:${port}`,
    stop: async () => {
      await stopFollowing();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

beforeAll(async () => {
  one = await run(h.app);
  two = await run(h.second.app);
});
afterAll(async () => {
  await one?.stop();
  await two?.stop();
});

/** Waits until `check` holds (notifications arrive at commit, a few milliseconds later), or fails after 5 s. */
async function eventually(check: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const listening = (r: Running) => eventually(() => (r.app.pageMemory as unknown as { listening: boolean }).listening, 'listening');

/**
 * A request to a running server as a reader's browser sends it: to the published site's host (the
 * servers listen on 127.0.0.1; `Host` names the PUBLISHED_URL host the sites are published under).
 */
function send(origin: string, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers: { host: new URL(h.config.publishedUrl).host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const body = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
        const all = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) all.set(name, Array.isArray(value) ? value.join(', ') : value);
        resolve({ status: res.statusCode!, headers: all, text: body.toString() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** GET through a running server; `fromMemory`: whether that instance answered it from memory. */
async function get(r: Running, path: string, headers: Record<string, string> = {}) {
  const before = r.app.pageMemory.answered;
  const res = await send(r.origin, path, { accept: 'text/html', 'accept-encoding': 'br', ...headers });
  return { ...res, fromMemory: r.app.pageMemory.answered > before };
}

/**
 * GET until the instance answers from memory, and that answer. The setup's own writes notify at commit,
 * and a notification that arrives late (a loaded machine) makes the instance forget what it had just
 * remembered: the page is then remembered again by the next request. Fails after 5 s if it never is.
 */
async function fromMemory(r: Running, path: string, headers: Record<string, string> = {}) {
  let answer: Awaited<ReturnType<typeof get>> | undefined;
  await eventually(async () => (answer = await get(r, path, headers)).fromMemory, `${path} to be answered from memory`);
  return answer!;
}

// (Framing too: the pipeline streams a page in chunks, memory sends it with its length.)
const PER_ANSWER = ['x-request-id', 'date', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'];
const pageHeaders = (headers: Headers) => Object.fromEntries([...headers].filter(([name]) => !PER_ANSWER.includes(name)));

describe('public pages from memory', () => {
  it('the second request for a page is answered from memory: the same bytes, the same headers, 304 on its ETag', async () => {
    await Promise.all([listening(one), listening(two)]);
    const { base } = await readerSite(h);
    const path = `${new URL(base).pathname}/advanced/clusters`;
    const first = await get(one, path);
    expect(first.status).toBe(200);
    expect(first.fromMemory).toBe(false);
    const second = await fromMemory(one, path);
    expect(second.text).toBe(first.text);
    expect(pageHeaders(second.headers)).toEqual(pageHeaders(first.headers));
    // The page's own headers are among them, and each answer has its own request ID.
    expect(second.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(second.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(second.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    // Each encoding (and none) from the same remembered page.
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await fromMemory(one, path, { 'accept-encoding': encoding });
      expect(res.headers.get('content-encoding')).toBe(encoding === 'identity' ? null : encoding);
      expect(res.text).toBe(first.text);
    }
    const notModified = await fromMemory(one, path, { 'if-none-match': first.headers.get('etag')! });
    expect(notModified).toMatchObject({ status: 304, text: '' });
    const head = await send(one.origin, path, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('a merge through one instance reaches the other through the notification: no stale page once it arrives', async () => {
    await Promise.all([listening(one), listening(two)]);
    const { base, admin, spaces } = await readerSite(h);
    const path = `${new URL(base).pathname}/advanced/clusters`;
    await get(two, path);
    await fromMemory(two, path);
    const generation = two.app.pageMemory.current;

    const space = spaces[0];
    const pages = (await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages;
    const clusters = pages.find((p: { title: string }) => p.title === 'Advanced').pages[0];
    const cr = (await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' })).body;
    await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'update_page', page: clusters.id, document: { markdown: '# Clusters\n\nRewritten through the first instance.\n' } }],
    });
    // (The admin's calls go to the first instance's app.)
    expect((await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
    await eventually(() => two.app.pageMemory.current > generation, 'the second instance to hear of the merge');
    const after = await get(two, path);
    expect(after.fromMemory).toBe(false);
    expect(after.text).toContain('Rewritten through the first instance.');
    expect((await fromMemory(two, path)).text).toContain('Rewritten through the first instance.');
  });

  it('a change written straight into the database (a script, another tool) is followed as well: unpublishing closes the page', async () => {
    await Promise.all([listening(one), listening(two)]);
    const { base, site } = await readerSite(h);
    const path = `${new URL(base).pathname}/advanced/clusters`;
    await get(one, path);
    await fromMemory(one, path);
    const client = new pg.Client({ connectionString: h.store.url! });
    await client.connect();
    try {
      await client.query('UPDATE "Site" SET "published" = false WHERE "id" = $1', [site.id]);
    } finally {
      await client.end();
    }
    await eventually(async () => (await get(one, path)).status === 404, 'the unpublished page to be gone');
    expect((await get(one, path)).fromMemory).toBe(false);
  });

  it('nothing personal comes from memory: query strings, visitor cookies, credentials, other origins', async () => {
    await Promise.all([listening(one), listening(two)]);
    const { base } = await readerSite(h);
    const path = `${new URL(base).pathname}/advanced/clusters`;
    // Each personal request right after the page was answered from memory (so memory holds it).
    for (const [query, headers] of [
      ['?shareKey=abc', {}],
      ['', { cookie: 'gb_visitor=x' }],
      ['', { authorization: 'Bearer x' }],
      ['', { origin: 'https://elsewhere.example' }],
    ] as const) {
      await fromMemory(one, path);
      expect((await get(one, `${path}${query}`, headers)).fromMemory).toBe(false);
    }
    // Other cookies (a site's analytics) change nothing a page shows.
    await fromMemory(one, path, { cookie: 'theme=dark' });
  });

  it('an instance that does not follow the notifications answers nothing from memory', async () => {
    const { base } = await readerSite(h);
    const path = `${new URL(base).pathname}/advanced/clusters`;
    const server = createServer(h.second.app.handleNodeRequest);
    await two.stop();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const answered = h.second.app.pageMemory.answered;
      for (let i = 0; i < 3; i++) expect((await send(origin, path)).status).toBe(200);
      expect(h.second.app.pageMemory.answered).toBe(answered);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      two = await run(h.second.app);
    }
  });
});
