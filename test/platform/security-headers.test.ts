import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { buildConfig, loadConfig, type ConfigInput } from '../../src/config.ts';
import { buildUser } from '../factories.ts';
import { ADMIN_TOKEN, BASE, useHarness, type Harness } from '../support/harness.ts';
import { readerSite } from '../support/reader-site.ts';

const h = useHarness();

const JSON_POLICY = "default-src 'none'; frame-ancestors 'none'";

function expectCommonHeaders(response: Response, what: string) {
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('x-frame-options'), what).toBe('DENY');
  expect(response.headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(response.headers.get('content-security-policy'), what).toBeTruthy();
}

describe('security headers', () => {
  it('are on every kind of answer: REST, GraphQL, errors, health, OpenAPI, SAML, preflight', async () => {
    const user = await buildUser(h);
    const auth = { authorization: `Bearer ${user.token}` };
    const cases: Array<[string, RequestInit | undefined]> = [
      ['/v1/user', { headers: auth }],
      ['/graphql', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"query":"{ user { id } }"}' }],
      ['/v1/user', undefined], // 401
      ['/v1/nothing', { headers: auth }], // 404
      ['/healthz', undefined],
      ['/v1/openapi.json', undefined],
      ['/sso/saml/unknown/start', undefined],
      ['/v1/orgs', { method: 'OPTIONS' }],
    ];
    for (const [path, init] of cases) {
      const response = await h.app.fetch(`${BASE}${path}`, init ?? {});
      const what = `${init?.method ?? 'GET'} ${path} → ${response.status}`;
      expectCommonHeaders(response, what);
      expect(response.headers.get('content-security-policy'), what).toBe(JSON_POLICY);
    }
  });

  it('Cache-Control: no-store on every authenticated answer and on the admin route (its body holds a token)', async () => {
    const user = await buildUser(h);
    const rest = await h.app.fetch(`${BASE}/v1/user`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(rest.headers.get('cache-control')).toBe('no-store');
    const gql = await user.gql('{ user { id } }');
    expect(gql.headers.get('cache-control')).toBe('no-store');
    const missing = await user.rest('GET', '/v1/nothing-here');
    expect(missing.headers.get('cache-control')).toBe('no-store');
    const created = await h.app.fetch(`${BASE}/v1/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'no.store@example.com', displayName: 'No Store' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
  });

  it('GraphiQL: a policy allowing exactly what the page loads — inline scripts by hash, no unsafe-inline scripts', async () => {
    const response = await h.app.fetch(`${BASE}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expectCommonHeaders(response, 'GraphiQL');
    const html = await response.text();
    const policy = Object.fromEntries(
      response.headers
        .get('content-security-policy')!
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['script-src']).not.toContain("'unsafe-inline'");
    expect(policy['script-src']).not.toContain("'unsafe-eval'");

    // GraphiQL is served whole from the npm package: its scripts inline, each allowed by its hash, and
    // nothing loaded from another origin (it works offline).
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, body]) => body);
    expect(inline.length).toBeGreaterThan(0);
    for (const body of inline) {
      expect(policy['script-src']).toContain(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    }
    expect(html).not.toMatch(/<script[^>]*\ssrc=["']?https?:/);
    expect(html).not.toMatch(/<link[^>]*\shref=["']?https?:/);
    expect(policy['connect-src']).toEqual(["'self'"]);
    // The editor's web workers start from blob: URLs.
    expect(policy['worker-src']).toEqual(['blob:']);
    // Nothing else: only the URLs of the page itself appear in the policy.
    const urls = Object.values(policy).flat().filter((value) => /^https?:/.test(value));
    for (const url of urls) expect(html).toContain(url);
  });
});

/** An app on the harness database with other settings. */
const appWith = (harness: Harness, input: ConfigInput) =>
  createApp({ database: harness.store.database, config: buildConfig({ logLevel: 'silent', ...input }) });

function preflight(app: ReturnType<typeof createApp>, path: string, origin: string) {
  return app.fetch(`${BASE}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });
}

describe("a route's own headers win over the edge's", () => {
  it("a published site's page keeps its own framing and referrer rules (the edge adds only what it lacks)", async () => {
    const { base } = await readerSite(h);
    const page = await h.app.fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    // Its framing rule agrees with its policy, and links tell other sites only its origin.
    expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the API reference page (/docs)', () => {
  it('is served without a token, from the npm package only, under a policy allowing only this origin', async () => {
    const response = await h.app.fetch(`${BASE}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toMatch(/https?:/);
    expect(html).not.toMatch(/<script>/); // no inline code: init.js is a file
    const assets = [...html.matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)].map(([, url]) => url);
    expect(assets).toEqual(expect.arrayContaining(['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/init.js']));
    for (const asset of assets) {
      const file = await h.app.fetch(`${BASE}${asset}`);
      expect(file.status, asset).toBe(200);
      expect((await file.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }
    expect(html).toContain('data-openapi="/v1/openapi.json"');
    // Only the page's own files: nothing else of the package, nothing outside it.
    for (const path of ['/docs/package.json', '/docs/../package.json', '/docs/%2e%2e%2fpackage.json', '/docs/index.html']) {
      expect((await h.app.fetch(`${BASE}${path}`)).status, path).toBe(404);
    }
  });
});

describe('CORS', () => {
  it('by default: no cross-origin access at all (no CORS headers for a foreign Origin)', async () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    const user = await buildUser(h);
    const response = await h.app.fetch(`${BASE}/v1/user`, {
      headers: { authorization: `Bearer ${user.token}`, origin: 'https://evil.example' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    for (const path of ['/v1/orgs', '/graphql']) {
      const pre = await preflight(h.app, path, 'https://evil.example');
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      expect(pre.headers.get('access-control-allow-headers')).toBeNull();
    }
  });

  it('with a list: only those origins, never with credentials; preflights allow Authorization and Content-Type', async () => {
    const config = loadConfig({ CORS_ORIGINS: 'https://docs.example.com, http://localhost:3000' });
    expect(config.corsOrigins).toEqual(['https://docs.example.com', 'http://localhost:3000']);
    const app = appWith(h, { corsOrigins: config.corsOrigins });
    const user = await buildUser(h);
    for (const origin of ['https://docs.example.com', 'http://localhost:3000']) {
      for (const path of ['/v1/orgs', '/graphql']) {
        const pre = await preflight(app, path, origin);
        expect(pre.status).toBe(204);
        expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
        const allowed = pre.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
        expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type']));
        expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
        expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
      }
      const response = await app.fetch(`${BASE}/v1/user`, { headers: { authorization: `Bearer ${user.token}`, origin } });
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
      expect(response.headers.get('vary')).toMatch(/origin/i);
    }
    for (const origin of ['https://evil.example', 'https://docs.example.com.evil.example', 'null']) {
      const pre = await preflight(app, '/v1/orgs', origin);
      expect(pre.headers.get('access-control-allow-origin'), origin).toBeNull();
      const response = await app.fetch(`${BASE}/v1/user`, { headers: { authorization: `Bearer ${user.token}`, origin } });
      expect(response.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(response.headers.get('vary')).toMatch(/origin/i);
    }
  });

  it('with *: any origin, without credentials', async () => {
    const config = loadConfig({ CORS_ORIGINS: '*' });
    expect(config.corsOrigins).toBe('*');
    const app = appWith(h, { corsOrigins: '*' });
    for (const origin of ['https://anything.example', 'http://localhost:8080']) {
      const pre = await preflight(app, '/graphql', origin);
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
      expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
      const response = await app.fetch(`${BASE}/v1/openapi.json`, { headers: { origin } });
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('vary')).toMatch(/origin/i);
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('refuses malformed CORS_ORIGINS at start-up', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'docs.example.com' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://docs.example.com/' })).toThrow(/CORS_ORIGINS/);
  });
});
