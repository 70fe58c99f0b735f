// The real process: `node --import tsx src/server.ts` with environment configuration, on the embedded
// database (PGlite in DATA_DIR) and on PostgreSQL (DATABASE_URL).
//
// PostgreSQL cases run when TEST_DATABASE_URL is set (and then fail if it is unreachable), and otherwise
// whenever a server answers on postgres://postgres@127.0.0.1:5432 — they are simply not registered when
// neither is available, which is reported on stderr.
import { connect, type Socket } from 'node:net';
import { execSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresDatabase,
  freePort,
  killAll,
  MIGRATIONS,
  postgresQuery,
  postgresReachable,
  quote,
  randomToken,
  REPO_ROOT,
  run,
  startServer,
  tempDir,
  type ServerProcess,
} from '../support/server-process.ts';

const runPostgres = Boolean(process.env.TEST_DATABASE_URL) || (await postgresReachable());
if (!runPostgres) console.warn('server.test.ts: no PostgreSQL reachable and TEST_DATABASE_URL unset: DATABASE_URL cases not run');

const cleanups: Array<() => Promise<unknown> | unknown> = [];

/** A fresh temporary directory, removed in afterAll. */
function scratchDir(prefix: string): string {
  const dir = tempDir(prefix);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

afterAll(async () => {
  await killAll();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function http(server: ServerProcess, method: string, path: string, token?: string | null, body?: unknown, headers: Record<string, string> = {}) {
  const h: Record<string, string> = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  const response = await fetch(`${server.url}${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: json };
}

/** Request log lines (msg "request") matching method and route. */
const requestLines = (server: ServerProcess, method: string, route: string) =>
  server.logs().filter((l) => l.msg === 'request' && l.method === method && l.route === route);

async function waitFor(predicate: () => boolean, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/** True once `raw` holds a whole HTTP/1.1 response (Content-Length or chunked). */
function responseComplete(raw: string): boolean {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = raw.slice(0, end).toLowerCase();
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length) return Buffer.byteLength(raw.slice(end + 4)) >= Number(length[1]);
  return /\r\ntransfer-encoding: *chunked/.test(head) && raw.endsWith('\r\n0\r\n\r\n');
}

/** The body of a complete HTTP/1.1 response, de-chunked when needed. */
function decodeBody(raw: string): string {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, end).toLowerCase();
  let rest = raw.slice(end + 4);
  if (!/\r\ntransfer-encoding: *chunked/.test(head)) return rest;
  let body = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return body;
    const chunk = Buffer.from(rest.slice(lineEnd + 2)).subarray(0, size).toString('utf8');
    body += chunk;
    rest = rest.slice(lineEnd + 2 + chunk.length + 2);
  }
}

/** Resolves true when a TCP connection to the port is refused, false when it is accepted. */
function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('server on the embedded database (PGlite in DATA_DIR)', { timeout: 300_000 }, () => {
  const dataDir = scratchDir('dp-server-');
  const adminToken = randomToken();
  const env = { DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'info', DATABASE_URL: undefined };
  let server: ServerProcess;
  let userToken: string;
  let userId: string;
  let organizationId: string;

  beforeAll(async () => {
    server = await startServer(env);
  });

  it('starts on PGlite and applies every migration on a fresh DATA_DIR', () => {
    const ready = server.logs().find((l) => l.msg === 'database ready');
    expect(ready).toMatchObject({ database: 'pglite' });
    expect(ready.migrationsApplied).toEqual(MIGRATIONS);
  });

  it('(a) ADMIN_TOKEN creates the first user; the returned token authenticates; admin token is refused elsewhere', async () => {
    const created = await http(server, 'POST', '/v1/admin/users', adminToken, { email: 'First.Admin@Example.com', displayName: 'First Admin' });
    expect(created.status).toBe(201);
    expect(created.body.user).toMatchObject({ object: 'user', displayName: 'First Admin', email: 'first.admin@example.com' });
    expect(created.body.token).toEqual(expect.any(String));
    expect(created.body.token.length).toBeGreaterThanOrEqual(22); // ≥128 bits in any common encoding
    userToken = created.body.token;
    userId = created.body.user.id;

    const me = await http(server, 'GET', '/v1/user', userToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ object: 'user', id: userId, email: 'first.admin@example.com', displayName: 'First Admin' });

    const adminOnOrgs = await http(server, 'GET', '/v1/orgs', adminToken);
    expect(adminOnOrgs.status).toBe(403);
    expect(adminOnOrgs.body).toEqual({ error: { code: 403, message: expect.any(String) } });

    const anonymous = await http(server, 'GET', '/v1/orgs');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: { code: 401, message: expect.any(String) } });

    // A user token may not create users; neither may anyone without a token.
    expect((await http(server, 'POST', '/v1/admin/users', userToken, { email: 'x@example.com', displayName: 'X' })).status).toBe(403);
    expect((await http(server, 'POST', '/v1/admin/users', null, { email: 'x@example.com', displayName: 'X' })).status).toBe(401);

    const org = await http(server, 'POST', '/v1/orgs', userToken, { title: 'Persistent Org' });
    expect(org.status).toBe(201);
    expect(org.body.urls.location).toBe(`http://localhost:${server.port}/v1/orgs/${org.body.id}`); // PUBLIC_URL default
    organizationId = org.body.id;
  });

  it('(b) the OpenAPI document and the GraphiQL page need no token', async () => {
    const doc = await http(server, 'GET', '/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    const paths = Object.keys(doc.body.paths);
    expect(paths.some((p) => p.endsWith('/orgs/{organizationId}'))).toBe(true);
    expect(paths.some((p) => p.endsWith('/admin/users'))).toBe(true);

    const page = await http(server, 'GET', '/graphql', null, undefined, { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text.toLowerCase()).toContain('graphiql');

    // …but GraphQL itself does.
    const query = await http(server, 'POST', '/graphql', null, { query: '{ user { id } }' });
    expect(query.status).toBe(401);
    const authed = await http(server, 'POST', '/graphql', userToken, { query: '{ user { id email } }' });
    expect(authed.status).toBe(200);
    expect(authed.body).toEqual({ data: { user: { id: userId, email: 'first.admin@example.com' } } });
  });

  it('(b2) URLs too long for the server or for Node\'s HTTP parser, and bytes that are not HTTP: the error body, and the server goes on', async () => {
    const long = await http(server, 'GET', `/v1/orgs/${'x'.repeat(10_000)}`, userToken);
    expect(long.status).toBe(414);
    expect(long.body).toEqual({ error: { code: 414, message: expect.any(String) } });
    for (const size of [100_000, 1_000_000]) {
      const huge = await http(server, 'GET', `/v1/orgs?search=${'x'.repeat(size)}`, userToken);
      expect(huge.status).toBe(431);
      expect(huge.body).toEqual({ error: { code: 431, message: expect.any(String) } });
    }
    const garbage = await new Promise<string>((resolve) => {
      const socket: Socket = connect(server.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let received = '';
      socket.on('data', (chunk) => (received += chunk));
      socket.on('close', () => resolve(received));
    });
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toEqual({ error: { code: 400, message: expect.any(String) } });
    expect((await http(server, 'GET', '/v1/orgs', userToken)).status).toBe(200);
  });

  it('(c) stdout carries one JSON line per request with method, route, status and durationMs', async () => {
    const before = requestLines(server, 'GET', '/v1/orgs/{organizationId}').length;
    for (let i = 0; i < 3; i++) expect((await http(server, 'GET', `/v1/orgs/${organizationId}`, userToken)).status).toBe(200);
    expect((await http(server, 'GET', '/v1/orgs/unknownOrg123', userToken)).status).toBe(404);
    const healthBefore = requestLines(server, 'GET', '/healthz').length;
    expect((await http(server, 'GET', '/healthz')).status).toBe(200);

    await waitFor(() => requestLines(server, 'GET', '/healthz').length > healthBefore);
    const lines = requestLines(server, 'GET', '/v1/orgs/{organizationId}').slice(before);
    expect(lines.map((l) => l.status)).toEqual([200, 200, 200, 404]);
    for (const line of lines) expect(line.durationMs).toEqual(expect.any(Number));

    // Earlier requests: the 201, the 403 and the 401 of (a) are there too, each once.
    expect(requestLines(server, 'POST', '/v1/admin/users').map((l) => l.status)).toEqual([201, 403, 401]);
    expect(requestLines(server, 'GET', '/v1/user').map((l) => l.status)).toEqual([200]);

    // Every request line, including /healthz, has all four fields.
    const health = requestLines(server, 'GET', '/healthz').slice(healthBefore);
    expect(health).toHaveLength(1);
    for (const line of server.logs().filter((l) => l.msg === 'request')) {
      expect(line, JSON.stringify(line)).toMatchObject({
        method: expect.any(String),
        route: expect.any(String),
        status: expect.any(Number),
        durationMs: expect.any(Number),
      });
    }
  });

  it('(d) SIGTERM finishes the in-flight request, refuses new connections and exits 0', async () => {
    const body = JSON.stringify({ query: '{ user { id displayName } }' });
    const socket: Socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let raw = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // Headers and half of the body now; the request is in flight until the rest arrives.
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${userToken}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));

    server.child.kill('SIGTERM');
    expect(await waitFor(() => server.logs().some((l) => l.signal === 'SIGTERM'))).toBe(true);
    expect(await connectionRefused(server.port)).toBe(true);
    expect(server.child.exitCode).toBeNull(); // still finishing the request

    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.write(body.slice(10));
    // The client keeps its connection (HTTP/1.1 keep-alive, like fetch/undici or a browser would).
    expect(await waitFor(() => responseComplete(raw), 5000)).toBe(true);
    const answeredAt = Date.now();
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    const responseBody = decodeBody(raw);
    expect(JSON.parse(responseBody)).toEqual({ data: { user: { id: userId, displayName: 'First Admin' } } });

    expect(await server.exited).toEqual({ code: 0, signal: null });
    const exitDelay = Date.now() - answeredAt;
    await closed;
    expect(server.logs().at(-1)).toMatchObject({ msg: 'stopped' });
    // Once the last in-flight request is answered there is nothing left to finish: the process should exit
    // promptly, not hold the idle keep-alive connection open until its keepAliveTimeout (5 s) expires.
    expect(exitDelay, `exit ${exitDelay} ms after the last response`).toBeLessThan(2000);
  });

  it('(e) data persists across a restart on the same DATA_DIR', async () => {
    const again = await startServer(env);
    try {
      const ready = again.logs().find((l) => l.msg === 'database ready');
      expect(ready).toMatchObject({ database: 'pglite', migrationsApplied: [] });
      const org = await http(again, 'GET', `/v1/orgs/${organizationId}`, userToken);
      expect(org.status).toBe(200);
      expect(org.body).toMatchObject({ id: organizationId, title: 'Persistent Org' });
      const list = await http(again, 'GET', '/v1/orgs', userToken);
      expect(list.body.count).toBe(1);
      expect((await http(again, 'GET', '/v1/user', userToken)).body.id).toBe(userId);
    } finally {
      expect(await again.stop()).toEqual({ code: 0, signal: null });
    }
  });
});

if (runPostgres) {
  describe('server on PostgreSQL (DATABASE_URL)', { timeout: 300_000 }, () => {
    it('(f) starts on a fresh database, migrates it, and serves', async () => {
      const db = await createPostgresDatabase('dp_server');
      cleanups.push(db.drop);
      const adminToken = randomToken();
      const server = await startServer({ DATABASE_URL: db.url, ADMIN_TOKEN: adminToken, DATA_DIR: scratchDir('dp-unused-') });
      try {
        const ready = server.logs().find((l) => l.msg === 'database ready');
        expect(ready).toMatchObject({ database: 'postgres' });
        expect(ready.migrationsApplied).toEqual(MIGRATIONS);

        const created = await http(server, 'POST', '/v1/admin/users', adminToken, { email: 'pg@example.com', displayName: 'Pg User' });
        expect(created.status).toBe(201);
        const org = await http(server, 'POST', '/v1/orgs', created.body.token, { title: 'Postgres Org' });
        expect(org.status).toBe(201);
        const got = await http(server, 'GET', `/v1/orgs/${org.body.id}`, created.body.token);
        expect(got.body).toMatchObject({ id: org.body.id, title: 'Postgres Org' });

        // The rows really are in that PostgreSQL database.
        const rows = await postgresQuery(db.url, `SELECT migration_name, finished_at FROM "_prisma_migrations"`);
        expect(rows).toHaveLength(MIGRATIONS.length);
        expect(rows.every((r) => r.finished_at !== null)).toBe(true);
        const users = await postgresQuery(db.url, `SELECT email FROM "${await userTable(db.url)}"`);
        expect(users.map((u) => u.email)).toEqual(['pg@example.com']);
      } finally {
        expect(await server.stop()).toEqual({ code: 0, signal: null });
      }
    });

    it('(g) two instances starting at once on the same database both migrate safely and serve', async () => {
      const db = await createPostgresDatabase('dp_server_pair');
      cleanups.push(db.drop);
      const adminToken = randomToken();
      const env = { DATABASE_URL: db.url, ADMIN_TOKEN: adminToken, DATA_DIR: scratchDir('dp-unused-') };
      const [a, b] = await Promise.all([startServer(env), startServer(env)]);
      try {
        const applied = [a, b].map((s) => s.logs().find((l) => l.msg === 'database ready').migrationsApplied);
        // Exactly one of them applied the migrations; the other waited for its lock and found them done.
        expect(applied.map((x: string[]) => x.length).sort((x: number, y: number) => x - y)).toEqual([0, MIGRATIONS.length]);
        const rows = await postgresQuery(db.url, `SELECT migration_name FROM "_prisma_migrations"`);
        expect(rows).toHaveLength(MIGRATIONS.length);

        expect((await http(a, 'GET', '/healthz')).status).toBe(200);
        expect((await http(b, 'GET', '/healthz')).status).toBe(200);
        // Shared state: a user created through one instance authenticates on the other.
        const created = await http(a, 'POST', '/v1/admin/users', adminToken, { email: 'shared@example.com', displayName: 'Shared' });
        expect(created.status).toBe(201);
        const me = await http(b, 'GET', '/v1/user', created.body.token);
        expect(me.status).toBe(200);
        expect(me.body.id).toBe(created.body.user.id);
      } finally {
        const exits = await Promise.all([a.stop(), b.stop()]);
        expect(exits).toEqual([
          { code: 0, signal: null },
          { code: 0, signal: null },
        ]);
      }
    });
  });
}

describe('npm start: the server a user starts and stops (issue 39 §1)', { timeout: 300_000 }, () => {
  it('starts from dist/ without compiling when it is current; SIGTERM to npm finishes the in-flight request and closes the database', async () => {
    // `npm ci` built dist/ (postinstall); build once more here in case the sources changed since.
    execSync('npm run build', { cwd: REPO_ROOT, stdio: 'pipe' });
    const dataDir = scratchDir('dp-npm-start-');
    const adminToken = randomToken();
    const env = { DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'debug' };
    const server = await startServer(env, 120_000, { npmStart: true });
    expect(server.stderr()).not.toContain('Compiling src/');
    const created = await http(server, 'POST', '/v1/admin/users', adminToken, { email: 'npm@example.com', displayName: 'Npm Start' });
    expect(created.status).toBe(201);
    // A published site answers on the address the user has (127.0.0.1), not only PUBLIC_URL's host
    // (localhost), its links still PUBLISHED_URL's (issue 39 §3).
    const token = created.body.token;
    const org = (await http(server, 'POST', '/v1/orgs', token, { title: 'Acme' })).body;
    const space = (await http(server, 'POST', `/v1/orgs/${org.id}/spaces`, token, { title: 'Docs' })).body;
    const cr = (await http(server, 'POST', `/v1/spaces/${space.id}/change-requests`, token, { subject: 'Pages' })).body;
    expect((await http(server, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, token, { changes: [{ operation: 'insert_page', document: { markdown: '# Welcome\n\nHello.' } }] })).status).toBe(200);
    expect((await http(server, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, token)).status).toBe(200);
    const site = (await http(server, 'POST', `/v1/orgs/${org.id}/sites`, token, { title: 'Site' })).body;
    expect((await http(server, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/site-spaces`, token, { spaceId: space.id })).status).toBe(201);
    expect((await http(server, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`, token)).status).toBe(200);
    const published = new URL((await http(server, 'GET', `/v1/orgs/${org.id}/sites/${site.id}`, token)).body.urls.published);
    expect(published.host).toBe(`localhost:${server.port}`);
    const page = await fetch(`http://127.0.0.1:${server.port}${published.pathname}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<h1 class="page-title">Welcome</h1>');
    expect(html).toContain(`<link rel="canonical" href="http://localhost:${server.port}${published.pathname}`);
    // --expose-gc reached node through the script: after the requests and 5 idle seconds it collects.
    await waitFor(() => server.logs().some((l) => l.msg === 'idle garbage collection'), 15_000);

    // A request in flight (half its body sent) when npm gets SIGTERM, as `kill $!` sends it.
    const body = JSON.stringify({ query: '{ user { displayName } }' });
    const socket: Socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let raw = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${created.body.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGTERM');
    expect(await waitFor(() => server.logs().some((l) => l.signal === 'SIGTERM'))).toBe(true);
    expect(await connectionRefused(server.port)).toBe(true);
    socket.write(body.slice(10));
    expect(await waitFor(() => responseComplete(raw), 5000)).toBe(true);
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(decodeBody(raw))).toEqual({ data: { user: { displayName: 'Npm Start' } } });
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.logs().at(-1)).toMatchObject({ msg: 'stopped' });

    // The database was closed: the same DATA_DIR opens again at once, and SIGINT (Ctrl-C) stops it too.
    const again = await startServer(env, 120_000, { npmStart: true });
    expect((await http(again, 'GET', '/v1/user', created.body.token)).body.email).toBe('npm@example.com');
    again.child.kill('SIGINT');
    expect(await again.exited).toEqual({ code: 0, signal: null });
    expect(again.logs().at(-1)).toMatchObject({ msg: 'stopped' });
  });

  it('npm run admin prints the JSON alone on stdout, with the URLs of the server last started on that database', async () => {
    const dataDir = scratchDir('dp-admin-urls-');
    const port = await freePort();
    const server = await startServer({ DATA_DIR: dataDir, PORT: String(port) }, 120_000, { npmStart: true });
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    // No PORT nor PUBLIC_URL given to the CLI: the server's are used.
    const result = await run('npm', ['run', 'admin', '--', 'create-user', '--email', 'urls@example.com', '--name', 'Urls'], { DATA_DIR: dataDir });
    expect(result.code, quote(result.stderr)).toBe(0);
    const printed = JSON.parse(result.stdout); // throws if npm's banner or anything else is on stdout
    expect(printed.user.urls.location).toBe(`http://localhost:${port}/v1/users/${printed.user.id}`);
    // The CLI's own PUBLIC_URL wins.
    const own = await run('npm', ['run', 'admin', '--', 'create-user', '--email', 'own@example.com', '--name', 'Own'], { DATA_DIR: dataDir, PUBLIC_URL: 'https://docs.example.com' });
    expect(JSON.parse(own.stdout).user.urls.location).toMatch(/^https:\/\/docs\.example\.com\/v1\/users\//);
  });
});

/** The table Prisma maps the User model to ("User" or "users", depending on @@map). */
async function userTable(url: string): Promise<string> {
  const rows = await postgresQuery(
    url,
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND lower(table_name) IN ('user', 'users')`,
  );
  if (rows.length !== 1) throw new Error(`cannot find the user table: ${JSON.stringify(rows)}`);
  return rows[0].table_name;
}
