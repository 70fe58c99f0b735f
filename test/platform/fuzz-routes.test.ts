import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { AppServices } from '../../src/core/context.ts';
import { listen } from '../support/listener.ts';
import { readerAssets } from '../../src/modules/reader/reader-assets.ts';
import { moduleHttpRoutes, restRoutes, schema } from '../../src/schema.ts';
import { expectOk } from '../support/assertions.ts';
import { fuzzFailure, hugeHttpRouteRequests, hugeStringRequests, malformedRequests, sampleUrl, type FuzzRequest, type HttpProbe, type HttpRouteSample } from '../support/fuzz.ts';
import { readerSite } from '../support/reader-site.ts';
import { newIdp, responseXml } from '../support/saml-idp.ts';
import { buildFuzzWorld } from '../support/fuzz-world.ts';
import { buildMember, buildOrganization } from '../factories.ts';
import { BASE, callerFor, useHarness, type Caller, type HttpResult } from '../support/harness.ts';

/**
 * Walks every REST route and every GraphQL root field with malformed input (test/support/fuzz.ts) as an
 * admin, a reader, a guest and a published site's visitor (its apiToken) in turn, on IDs that exist (test/support/fuzz-world.ts), and fails on any
 * answer ≥ 500, any REST failure without the documented error body, and any GraphQL error that is
 * internal or has no code.
 */
const h = useHarness();

async function world() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Fuzzed');
  const reader = await buildMember(h, o, 'read');
  const guest = await buildMember(h, o, null);
  const ids = await buildFuzzWorld(
    async (method, path, body) => {
      const res = await admin.rest(method, path, body);
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
      return res.body;
    },
    o,
    reader.userId,
  );
  // A visitor of the organization's published site, holding the apiToken the URL lookup gives anyone.
  expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${ids.siteId}/publish`));
  const found = expectOk(await admin.rest('POST', '/v1/urls/published', { url: `${h.config.publishedUrl}/${o}/${ids.siteId}/` }));
  const visitor = callerFor(h, found.apiToken);
  return { admin, reader, guest, visitor, ids };
}

function send(caller: Caller, request: FuzzRequest): Promise<HttpResult> {
  if (request.kind === 'graphql') return caller.gql(request.query, request.variables);
  return request.raw !== undefined ? caller.raw(request.method, request.path, request.raw) : caller.rest(request.method, request.path, request.body);
}

/** The collector, for measuring the heap (vitest's workers run without --expose-gc). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('every route with malformed input', () => {
  it('never answers ≥ 500, and every REST failure has the error body', { timeout: 600_000 }, async () => {
    const { admin, reader, guest, visitor, ids } = await world();
    const callers: Caller[] = [admin, reader, guest, visitor];
    const failures: string[] = [];
    let sent = 0;
    for (const request of malformedRequests(restRoutes, schema, ids)) {
      const res = await send(callers[sent++ % callers.length], request);
      const failure = fuzzFailure(request, res.status, res.text);
      if (failure) failures.push(failure);
    }
    expect(sent).toBeGreaterThan(3000);
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it(
    'strings of 100,000 and 1,000,000 characters anywhere (path, query, body, JSON, GraphQL variables): a 4xx within a second, memory back where it was',
    { timeout: 600_000 },
    async () => {
      const { admin, reader, ids } = await world();
      const gc = collector();
      const heap = () => {
        gc();
        return process.memoryUsage().heapUsed;
      };
      // The first huge request pays for warming what every later one shares (it took 0.8–1.4 s under the
      // full suite, 16 ms alone): sent once before measuring.
      await admin.rest('GET', `/v1/orgs/${'x'.repeat(1_000_000)}`);
      const before = heap();
      const failures: string[] = [];
      let sent = 0;
      let slowest = 0;
      for (const request of hugeStringRequests(restRoutes, schema, ids, [100_000, 1_000_000])) {
        // The admin reaches every service; the reader is refused what only admins may do.
        const caller = sent++ % 4 === 3 ? reader : admin;
        // "Within a second": a request fails it when both its wall-clock time and this process's CPU time
        // (PGlite runs in it too) pass a second. Wall clock alone also counts the other test files'
        // processes sharing the 2 cores; CPU time alone also counts this process's GC and compiler threads.
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        const res = await send(caller, request);
        const ms = performance.now() - started;
        const cpu = process.cpuUsage(cpuBefore);
        const cpuMs = (cpu.user + cpu.system) / 1000;
        slowest = Math.max(slowest, cpuMs);
        const label = request.kind === 'graphql' ? request.label : `${request.method} ${request.path.slice(0, 120)} ${JSON.stringify(request.body ?? null).slice(0, 120)}`;
        const refused = request.kind === 'graphql' ? res.status < 500 && res.body?.errors?.length > 0 && !res.body.data?.[Object.keys(res.body.data ?? {})[0]] : res.status >= 400 && res.status < 500;
        const accepted = request.mayAccept && res.status >= 200 && res.status < 300;
        if (!refused && !accepted) failures.push(`${label} → ${res.status} ${res.text.slice(0, 200)}`);
        else if (cpuMs > 1000 && ms > 1000) failures.push(`${label} → ${res.status} after ${cpuMs.toFixed(0)} ms of CPU, ${ms.toFixed(0)} ms`);
        const failure = fuzzFailure(request, res.status, res.text);
        if (failure) failures.push(failure);
      }
      const grown = (heap() - before) / 2 ** 20;
      console.log(`huge strings: ${sent} requests, slowest ${slowest.toFixed(0)} ms of CPU, heap grown by ${grown.toFixed(1)} MiB`);
      expect(sent).toBeGreaterThan(1000);
      expect(failures.slice(0, 20)).toEqual([]);
      expect(grown).toBeLessThan(64);
    },
  );

  it(
    'HTTP routes of the modules (SAML, downloads, PDFs, the reader): strings of 100,000 and 1,000,000 characters in paths, queries, cookies and bodies: a 4xx (or the documented answer) within a second, memory back where it was',
    { timeout: 600_000 },
    async () => {
      const world = await httpRouteWorld();
      const routes = moduleHttpRoutes({ config: h.config } as unknown as AppServices);
      const missing = routes.filter((r) => world.samplesOf(r.path).length === 0).map((r) => r.path);
      // A new HTTP route needs its samples here (values that reach real records) before it is walked.
      expect(missing).toEqual([]);
      // The samples reach real records: each answers (the ACS refuses its unsigned response only after
      // reading it; the Git Sync webhook its unsigned event only after finding the installation, else 404).
      const answers = [];
      for (const route of routes) {
        for (const sample of world.samplesOf(route.path)) {
          const res = await h.app.fetch(sampleUrl(BASE, route, sample), { method: route.methods[0], redirect: 'manual', ...(sample.form ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(sample.form).toString() } : {}) });
          answers.push(`${route.path} (${sample.name}) ${res.status}`);
          await res.arrayBuffer();
        }
      }
      expect(answers.filter((a) => !/ (200|302)$/.test(a) && !/\/acs \(ACS\) 401$/.test(a) && !/\/webhook \(push webhook\) 401$/.test(a))).toEqual([]);
      const gc = collector();
      const heap = () => {
        gc();
        return process.memoryUsage().heapUsed;
      };
      const probes = [...hugeHttpRouteRequests(BASE, routes, world.samplesOf, [100_000, 1_000_000]), ...world.extraProbes];
      // Warmed once, as above: the first huge request pays for what every later one shares.
      for (const probe of probes.slice(0, 3)) await (await sendProbe(probe)).text();
      const before = heap();
      const failures: string[] = [];
      let slowest = { cpuMs: 0, ms: 0, label: '' };
      const statuses: Record<number, number> = {};
      for (const probe of probes) {
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        const res = await sendProbe(probe);
        const text = await res.text();
        const ms = performance.now() - started;
        const cpu = process.cpuUsage(cpuBefore);
        const cpuMs = (cpu.user + cpu.system) / 1000;
        if (cpuMs > slowest.cpuMs) slowest = { cpuMs, ms, label: probe.label };
        const status = res.status;
        statuses[status] = (statuses[status] ?? 0) + 1;
        const ok =
          status < 500 &&
          (probe.expect === 'answered' || (status >= 400 && (probe.status === undefined || status === probe.status)));
        if (!ok) failures.push(`${probe.label} → ${status} ${text.slice(0, 200)}`);
        else if (cpuMs > 1000 && ms > 1000) failures.push(`${probe.label} → ${status} after ${cpuMs.toFixed(0)} ms of CPU, ${ms.toFixed(0)} ms`);
        // The API's doors answer refusals with the error body; the reader's with its HTML page.
        if (status >= 400 && (res.headers.get('content-type') ?? '').includes('json')) {
          let body: any;
          try {
            body = JSON.parse(text);
          } catch {}
          if (body?.error?.code !== status || typeof body?.error?.message !== 'string') failures.push(`${probe.label} → ${status} without the error body: ${text.slice(0, 200)}`);
        }
      }
      const grown = (heap() - before) / 2 ** 20;
      console.log(
        `huge strings on HTTP routes: ${routes.length} routes, ${probes.length} requests, slowest ${slowest.cpuMs.toFixed(0)} ms of CPU (${slowest.ms.toFixed(0)} ms: ${slowest.label.slice(0, 160)}), heap grown by ${grown.toFixed(1)} MiB, answers ${JSON.stringify(statuses)}`,
      );
      expect(routes.length).toBeGreaterThanOrEqual(9);
      expect(probes.length).toBeGreaterThan(150);
      expect(failures.slice(0, 20)).toEqual([]);
      expect(grown).toBeLessThan(64);

      // Over the wire, Node's parser caps the request line and headers (16 KiB): huge cookies and URLs
      // are a 431 before any handler, and the server goes on answering.
      const wire = await listen(h);
      try {
        const page = `${world.sitePath}/getting-started`;
        for (const size of [100_000, 1_000_000]) {
          const huge = 'x'.repeat(size);
          for (const name of ['gb_share', 'gb_visitor', 'gb_claims']) {
            expect((await wire.send('GET', page, { cookie: `${name}=${huge}` })).status, `cookie ${name} of ${size}`).toBe(431);
          }
          expect((await wire.send('GET', `${page}?q=${huge}`)).status).toBe(431);
          expect((await wire.send('GET', `/files/${huge}/x`)).status).toBe(431);
          const acs = await wire.send('POST', world.acsPath, { 'content-type': 'application/x-www-form-urlencoded' }, `SAMLResponse=${huge}&RelayState=${huge}`);
          expect(acs.status, acs.text.slice(0, 200)).toBeGreaterThanOrEqual(400);
          expect(acs.status).toBeLessThan(500);
        }
        // Past the edge's 8,192 characters but within Node's limit: the edge's 414.
        expect((await wire.send('GET', `${page}?q=${'x'.repeat(9000)}`)).status).toBe(414);
        expect((await wire.send('GET', `${world.acsPath.replace(/\/acs$/, '/start')}?RelayState=${'x'.repeat(9000)}`)).status).toBe(414);
        expect((await wire.send('POST', world.acsPath, { 'content-type': 'application/x-www-form-urlencoded' }, `SAMLResponse=${'x'.repeat(2_000_000)}`)).status).toBe(413);
        const after = await wire.send('GET', page);
        expect(after.status).toBe(200);
        expect(after.text).toContain('Getting started');
      } finally {
        await wire.close();
      }
    },
  );
});

/**
 * A published site with pages, a fully configured SAML provider, a file's signed download URL and a
 * change request's signed PDF URL: the samples that reach real records on every module HTTP route.
 */
async function httpRouteWorld() {
  const { admin, o, site, spaces, base } = await readerSite(h);
  const space = spaces[0];
  const sitePath = new URL(base).pathname;
  const idp = await newIdp();
  const provider = expectOk(
    await admin.rest('POST', `/v1/orgs/${o}/saml`, { label: 'Okta', entityID: idp.entityID, certificate: idp.cert, ssoURL: 'https://idp.example.test/sso/saml', defaultRole: 'read' }),
    201,
  );
  const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'File' }), 201);
  expectOk(
    await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('notes').toString('base64') }] }],
    }),
  );
  expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
  const file = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/files`)).items[0];
  const open = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'PDF' }), 201);
  const pdf = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/change-requests/${open.id}/pdf`)).url as string;
  const shareLink = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/share-links`, { name: 'Partners' }), 201);
  const links = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/share-links`)).items;
  const shareKey = new URL(links.find((l: { id: string }) => l.id === shareLink.id).urls.published).searchParams.get('shareKey')!;
  expect(shareKey).toBeTruthy();
  const acsPath = `/sso/saml/${provider.id}/acs`;
  // A space synced with Git, with a push webhook: its installation ID (the import is queued, never run here).
  expect((await admin.rest('POST', `/v1/spaces/${space.id}/git/import`, { url: 'https://git.example.test/acme/docs.git', ref: 'main' })).status).toBe(204);
  const webhook = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/git/webhook`), 201);
  const installationId = new URL(webhook.url).pathname.split('/')[2];
  // Well-formed but unsigned: the provider refuses it (a 4xx), after reading all of it.
  const unsigned = (nameID: string) =>
    Buffer.from(responseXml(idp, { audience: `${BASE}/sso/saml/${provider.id}`, acsURL: `${BASE}${acsPath}`, nameID })).toString('base64');

  /** A signed URL's parameters, as the route's template names them. */
  const signed = (url: string, template: string): HttpRouteSample => {
    const parsed = new URL(url);
    const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '([^/]+)')}$`);
    const values = parsed.pathname.match(pattern)!.slice(1);
    return { name: 'signed URL', params: Object.fromEntries(names.map((n, i) => [n, values[i]])), query: Object.fromEntries(parsed.searchParams) };
  };
  const visitor = { reads: ['shareKey', 'jwt_token', 'visitor.beta'], cookies: ['gb_share', 'gb_visitor', 'gb_claims'] };
  const siteParams = { organizationId: o, siteName: site.id };
  const css = readerAssets().css.split('/').pop()!;

  const samplesOf = (template: string): HttpRouteSample[] => {
    if (template === '/sso/saml/{providerId}/start') return [{ name: 'start', params: { providerId: provider.id }, reads: ['RelayState'] }];
    if (template === '/sso/saml/{providerId}/acs') return [{ name: 'ACS', params: { providerId: provider.id }, form: { SAMLResponse: unsigned('someone@example.com'), RelayState: 'abc' } }];
    if (template === '/sso/saml/{providerId}') return [{ name: 'metadata', params: { providerId: provider.id } }];
    if (template === '/files/{hash}/{name}') return [signed(file.downloadURL, template)];
    if (template === '/pdf/{spaceId}/{revisionId}') return [{ ...signed(pdf, template), reads: ['page', 'only'] }];
    if (template === '/_site/assets/{name}') return [{ name: 'stylesheet', params: { name: css } }];
    if (template === '/git-sync/{installationId}/webhook') return [{ name: 'push webhook', params: { installationId } }];
    if (template === `${sitePath.replace(/\/[^/]+\/[^/]+$/, '')}/{organizationId}/{siteName}`) return [{ name: 'site', params: siteParams, ...visitor }];
    if (template === `${sitePath.replace(/\/[^/]+\/[^/]+$/, '')}/{organizationId}/{siteName}/`) return [{ name: 'site root', params: siteParams, ...visitor }];
    if (template === `${sitePath.replace(/\/[^/]+\/[^/]+$/, '')}/{organizationId}/{siteName}/{path}`) {
      return [
        { name: 'page', params: { ...siteParams, path: 'getting-started' }, ...visitor },
        { name: 'nested page', params: { ...siteParams, path: 'advanced/clusters' }, ...visitor },
        { name: 'markdown', params: { ...siteParams, path: 'getting-started.md' }, ...visitor },
        { name: 'search', params: { ...siteParams, path: '~search' }, query: { q: 'guide' }, ...visitor },
        { name: 'sitemap', params: { ...siteParams, path: 'sitemap.xml' }, ...visitor },
        { name: 'llms-full', params: { ...siteParams, path: 'llms-full.txt' }, ...visitor },
      ];
    }
    return [];
  };

  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const acsUrl = `${BASE}${acsPath}`;
  const extraProbes: HttpProbe[] = [
    // A well-formed SAMLResponse (valid base64 of a Response) carrying a huge NameID: read in full,
    // within the body limit, and refused.
    ...[100_000, 600_000].map((size) => ({
      label: `POST ${acsPath} a well-formed SAMLResponse with a NameID of ${size} characters`,
      method: 'POST',
      url: acsUrl,
      headers: form,
      body: new URLSearchParams({ SAMLResponse: unsigned('x'.repeat(size)) }).toString(),
      expect: 'refused' as const,
    })),
    // The search page for a browser: the HTML path of `q`.
    {
      label: `GET ${sitePath}/~search ?q of 8,000 characters as HTML`,
      method: 'GET',
      url: `${base}/~search?q=${'x'.repeat(8000)}`,
      headers: { accept: 'text/html' },
      expect: 'answered',
    },
    // Share key and visitor token that are real, beside huge values of the other.
    ...[100_000, 1_000_000].flatMap((size) => [
      { label: `GET site page with a valid shareKey and a ${size}-character gb_visitor cookie`, method: 'GET', url: `${base}/getting-started?shareKey=${shareKey}`, headers: { cookie: `gb_visitor=${'x'.repeat(size)}` }, expect: 'answered' as const },
      { label: `GET site page with a valid gb_share cookie and ${size} characters of other cookies`, method: 'GET', url: `${base}/getting-started`, headers: { cookie: `gb_share=${shareKey}; ${'a=b; '.repeat(size / 5)}` }, expect: 'answered' as const },
    ]),
  ];
  return { samplesOf, extraProbes, sitePath, acsPath };
}

async function sendProbe(probe: HttpProbe): Promise<Response> {
  return h.app.fetch(probe.url, { method: probe.method, headers: probe.headers, body: probe.body, redirect: 'manual' });
}

