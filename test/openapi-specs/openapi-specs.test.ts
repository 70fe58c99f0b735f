import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRunner } from '../../src/jobs/job-runner.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { jobHandlers } from '../../src/schema.ts';
import { buildMember, buildOrganization } from '../factories.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller } from '../support/harness.ts';

// The fixture server is on 127.0.0.1: private addresses are allowed (FETCH_ALLOW_PRIVATE). Its slow URL
// never answers, so it is a FETCH_TIMEOUT however fast the machine; every other answers at once, well
// within the timeout however busy the machine (a 300 ms timeout made a 404 a timeout under load).
const h = useHarness({ fetch: { allowPrivate: true, timeoutMs: 2000 } });

export const PETSTORE = {
  openapi: '3.0.3',
  info: { title: 'Pet store', version: '1.0.0' },
  tags: [{ name: 'pets', description: 'Everything about pets' }],
  paths: {
    '/pets': {
      get: { tags: ['pets'], summary: 'List pets', operationId: 'listPets', parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer' } }], responses: { '200': { description: 'A page of pets', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } } } },
      post: { tags: ['pets'], summary: 'Create a pet', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, responses: { '201': { description: 'Created' } } },
    },
  },
  components: { schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string' } } } } },
};

let server: Server;
let origin = '';
let version = '1.0.0';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/petstore.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...PETSTORE, info: { ...PETSTORE.info, version } }));
    if (req.url === '/petstore.yaml') return void res.writeHead(200, { 'content-type': 'application/yaml' }).end(`openapi: 3.1.0\ninfo:\n  title: Yaml store\n  version: "2.0"\npaths: {}\n`);
    if (req.url === '/not-openapi') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Hello</h1>');
    if (req.url === '/slow') return; // never answered: closed with the server
    res.writeHead(404).end('no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const specs = (o: string) => `/v1/orgs/${o}/openapi`;
/** Runs the queued jobs (what an instance's runner does in the background). */
const runJobs = () => new JobRunner({ db: h.db, config: h.config, clock: h.clock, logger: createLogger('silent'), handlers: jobHandlers }).drain();

async function world() {
  const { admin, organizationId: o } = await buildOrganization(h);
  return { admin, o, reader: await buildMember(h, o, 'read'), guest: await buildMember(h, o, null) };
}

const put = (caller: Caller, o: string, slug: string, source: object) => caller.rest('PUT', `${specs(o)}/${slug}`, { source });

describe('OpenAPI specs', () => {
  it('from a URL: pending, then processed in the background to complete with a version; a changed document is a new version', async () => {
    const { admin, o, reader } = await world();
    const created = expectOk(await admin.rest('POST', specs(o), { slug: 'petstore', source: { url: `${origin}/petstore.json` } }), 201, 'createOpenAPISpec');
    expect(created).toMatchObject({
      object: 'openapi-spec',
      slug: 'petstore',
      sourceURL: `${origin}/petstore.json`,
      processingState: 'pending',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
      urls: { location: `${h.config.apiUrl}/orgs/${o}/openapi/petstore`, app: expect.any(String) },
    });
    expect(created.lastVersion).toBeUndefined();
    await runJobs();
    const done = expectOk(await reader.rest('GET', `${specs(o)}/petstore`), 200, 'getOpenAPISpecBySlug');
    expect(done).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String), lastProcessedAt: expect.any(String), permissions: { edit: false } });
    expect(done.lastProcessErrorCode).toBeUndefined();
    const first = await h.db.openAPISpecVersion.findUniqueOrThrow({ where: { id: done.lastVersion } });
    expect(first.version).toBe('1.0.0');
    expect(JSON.parse(first.document).paths['/pets'].get.operationId).toBe('listPets');

    // Processed again, the same document is no new version; a changed one is.
    expectOk(await put(admin, o, 'petstore', { url: `${origin}/petstore.json` }), 200, 'createOrUpdateOpenAPISpecBySlug');
    await runJobs();
    expect(expectOk(await admin.rest('GET', `${specs(o)}/petstore`)).lastVersion).toBe(done.lastVersion);
    version = '1.1.0';
    expect(expectOk(await put(admin, o, 'petstore', { url: `${origin}/petstore.json` })).processingState).toBe('pending');
    await runJobs();
    const updated = expectOk(await admin.rest('GET', `${specs(o)}/petstore`));
    expect(updated.lastVersion).not.toBe(done.lastVersion);
    expect((await h.db.openAPISpecVersion.findMany({ where: { specId: created.id }, orderBy: { createdAt: 'asc' } })).map((v) => v.version)).toEqual(['1.0.0', '1.1.0']);
    version = '1.0.0';
  });

  it('from text (JSON or YAML), created by PUT; a slow URL is FETCH_TIMEOUT, an unreachable one FETCH_ERROR, a non-OpenAPI body PARSE_ERROR', async () => {
    const { admin, o } = await world();
    expectOk(await put(admin, o, 'inline', { text: JSON.stringify(PETSTORE) }), 200, 'createOrUpdateOpenAPISpecBySlug');
    expectOk(await put(admin, o, 'yaml-store', { url: `${origin}/petstore.yaml` }));
    expectOk(await put(admin, o, 'slow', { url: `${origin}/slow` }));
    expectOk(await put(admin, o, 'missing', { url: `${origin}/nothing-here` }));
    expectOk(await put(admin, o, 'html', { url: `${origin}/not-openapi` }));
    expectOk(await put(admin, o, 'garbage', { text: 'openapi: [unclosed' }));
    expectOk(await put(admin, o, 'swagger-one', { text: JSON.stringify({ swagger: '1.2', info: {} }) }));
    await runJobs();
    const state = async (slug: string) => {
      const spec = expectOk(await admin.rest('GET', `${specs(o)}/${slug}`), 200, 'getOpenAPISpecBySlug');
      return [spec.processingState, spec.lastProcessErrorCode ?? null, spec.lastVersion ? 'version' : 'none'];
    };
    expect(await state('inline')).toEqual(['complete', null, 'version']);
    expect(await state('yaml-store')).toEqual(['complete', null, 'version']);
    expect(await state('slow')).toEqual(['complete', 'FETCH_TIMEOUT', 'none']);
    expect(await state('missing')).toEqual(['complete', 'FETCH_ERROR', 'none']);
    expect(await state('html')).toEqual(['complete', 'PARSE_ERROR', 'none']);
    expect(await state('garbage')).toEqual(['complete', 'PARSE_ERROR', 'none']);
    expect(await state('swagger-one')).toEqual(['complete', 'PARSE_ERROR', 'none']);
    const failed = expectOk(await admin.rest('GET', `${specs(o)}/html`));
    expect(failed).toMatchObject({ lastProcessedErrorCount: 1, lastProcessedErrors: [{ message: expect.stringContaining('Not an OpenAPI document') }] });
    // A failed source fixed by a new one is processed again; the error goes.
    expectOk(await put(admin, o, 'html', { url: `${origin}/petstore.json` }));
    await runJobs();
    expect(await state('html')).toEqual(['complete', null, 'version']);
    expect((await h.db.openAPISpecVersion.findFirstOrThrow({ where: { spec: { organizationId: o, slug: 'yaml-store' } } })).version).toBe('2.0');
    expect(expectOk(await admin.rest('GET', specs(o)), 200, 'listOpenAPISpecs').count).toBe(7);
  });

  it('goes pending → progress (while its job fetches) → complete', async () => {
    const { admin, o } = await world();
    expectOk(await put(admin, o, 'watched', { url: `${origin}/slow` }));
    const states: string[] = [(await h.db.openAPISpec.findFirstOrThrow({ where: { organizationId: o, slug: 'watched' } })).processingState];
    const running = runJobs();
    // Watched until it completes (the slow URL times out after the fetch timeout), however long that takes here.
    for (const deadline = Date.now() + 20_000; Date.now() < deadline && !states.includes('complete'); ) {
      const { processingState } = await h.db.openAPISpec.findFirstOrThrow({ where: { organizationId: o, slug: 'watched' } });
      if (states.at(-1) !== processingState) states.push(processingState);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await running;
    expect(states).toEqual(['pending', 'progress', 'complete']);
  });

  it('a source that changes while it is being processed is processed again', async () => {
    const { admin, o } = await world();
    expectOk(await put(admin, o, 'moving', { text: JSON.stringify(PETSTORE) }));
    const spec = await h.db.openAPISpec.findFirstOrThrow({ where: { organizationId: o, slug: 'moving' } });
    // The job starts, the source changes under it (a PUT meanwhile), the job finishes.
    const handler = jobHandlers['openapi.process'];
    const runner = new JobRunner({
      db: h.db,
      config: h.config,
      clock: h.clock,
      logger: createLogger('silent'),
      handlers: {
        'openapi.process': async (payload, ctx) => {
          if (!ctx.job.attempts || (await h.db.openAPISpecVersion.count({ where: { specId: spec.id } })) === 0) {
            await h.db.openAPISpec.update({ where: { id: spec.id }, data: { sourceGeneration: { increment: 1 } } });
            await h.db.openAPISpecSource.update({ where: { specId: spec.id }, data: { text: JSON.stringify({ ...PETSTORE, info: { ...PETSTORE.info, version: '9.9.9' } }) } });
          }
          return handler(payload, ctx);
        },
      },
    });
    await runner.drain();
    await runner.drain();
    const versions = await h.db.openAPISpecVersion.findMany({ where: { specId: spec.id }, orderBy: { createdAt: 'asc' } });
    expect(versions.at(-1)?.version).toBe('9.9.9');
    expect(expectOk(await admin.rest('GET', `${specs(o)}/moving`))).toMatchObject({ processingState: 'complete', lastVersion: versions.at(-1)!.id });
  });

  it('400 at each limit of slugs and sources; 409 for a slug taken; delete 204', async () => {
    const { admin, o } = await world();
    const post = (body: object) => admin.rest('POST', specs(o), body);
    restError(await post({ source: { url: `${origin}/petstore.json` } }), 400, 'slug');
    restError(await post({ slug: 'x'.repeat(101), source: { text: '{}' } }), 400, 'slug');
    for (const slug of ['Pet-Store', 'pet_store', 'pet--store', '-pet', 'pet-', '']) restError(await post({ slug, source: { text: '{}' } }), 400, 'slug');
    restError(await post({ slug: 'ok' }), 400, 'source');
    restError(await post({ slug: 'ok', source: {} }), 400, 'source');
    restError(await post({ slug: 'ok', source: 'http://example.com' }), 400, 'source');
    restError(await post({ slug: 'ok', source: { url: 'x', text: 'y' } }), 400, 'source');
    restError(await post({ slug: 'ok', source: { file: 'x' } }), 400, 'source');
    restError(await post({ slug: 'ok', source: { url: 'ftp://example.com/spec.json' } }), 400, 'source.url');
    restError(await post({ slug: 'ok', source: { url: 'not a url' } }), 400, 'source.url');
    restError(await post({ slug: 'ok', source: { url: `https://example.com/${'a'.repeat(2048)}` } }), 400, 'source.url');
    restError(await post({ slug: 'ok', source: { text: '' } }), 400, 'source.text');
    restError(await post({ slug: 'ok', source: { text: 12 } }), 400, 'source.text');
    restError(await admin.rest('PUT', `${specs(o)}/Bad_Slug`, { source: { text: '{}' } }), 400, 'slug');
    expect(await h.db.openAPISpec.count({ where: { organizationId: o } })).toBe(0);
    // A 5 MB document goes through the REST door (its own body limit); one byte more is a 400.
    const padding = ' '.repeat(5 * 1024 * 1024 - JSON.stringify(PETSTORE).length);
    expectOk(await post({ slug: 'big', source: { text: JSON.stringify(PETSTORE) + padding } }), 201);
    restError(await post({ slug: 'bigger', source: { text: `${JSON.stringify(PETSTORE)}${padding} ` } }), 400, 'source.text');
    expectOk(await post({ slug: 'taken', source: { text: '{}' } }), 201);
    restError(await post({ slug: 'taken', source: { text: '{}' } }), 409, 'slug');
    await runJobs();
    expectOk(await admin.rest('DELETE', `${specs(o)}/taken`), 204);
    restError(await admin.rest('GET', `${specs(o)}/taken`), 404);
    restError(await admin.rest('DELETE', `${specs(o)}/taken`), 404);
    expect(await h.db.job.count({ where: { kind: 'openapi.process', state: { in: ['queued', 'running'] } } })).toBe(0);
  });

  it('refuses a URL on a private address when FETCH_ALLOW_PRIVATE is off: FETCH_ERROR, no request made', async () => {
    const { admin, o } = await world();
    expectOk(await put(admin, o, 'private', { url: `${origin}/petstore.json` }));
    const strict = new JobRunner({ db: h.db, config: { ...h.config, fetch: { ...h.config.fetch, allowPrivate: false } }, clock: h.clock, logger: createLogger('silent'), handlers: jobHandlers });
    await strict.drain();
    expect(expectOk(await admin.rest('GET', `${specs(o)}/private`))).toMatchObject({
      processingState: 'complete',
      lastProcessErrorCode: 'FETCH_ERROR',
      lastProcessedErrors: [{ message: expect.stringContaining('non-public address') }],
    });
  });

  it('computed pages: a page of type computed (builtin:openapi) shows its spec\'s operations when read, its source with computed=false', async () => {
    const { admin, o } = await world();
    expectOk(await put(admin, o, 'petstore', { text: JSON.stringify(PETSTORE) }));
    await runJobs();
    const space = expectOk(await admin.rest('POST', `/v1/orgs/${o}/spaces`, { title: 'API' }), 201);
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, {}), 201);
    const content = (changes: object[]) => admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
    const source = (spec: string, models = true) => ({ type: 'builtin:openapi', props: { models }, dependencies: { spec: { ref: { kind: 'openapi', spec } } } });
    // 400: a computed page needs a source of an existing spec, and no body of its own; a document page no source.
    restError(await content([{ operation: 'insert_page', title: 'API', type: 'computed' }]), 400, 'changes[0].computed');
    restError(await content([{ operation: 'insert_page', title: 'API', type: 'computed', computed: source('nope') }]), 400, 'changes[0].computed.dependencies.spec.ref.spec');
    restError(await content([{ operation: 'insert_page', title: 'API', type: 'computed', computed: source('petstore'), document: { markdown: 'x' } }]), 400, 'changes[0].document');
    restError(await content([{ operation: 'insert_page', title: 'API', computed: source('petstore'), document: { markdown: 'x' } }]), 400, 'changes[0].computed');
    restError(await content([{ operation: 'insert_page', title: 'API', type: 'computed', computed: { ...source('petstore'), type: 'builtin:other' } }]), 400, 'changes[0].computed.type');
    const edited = expectOk(await content([{ operation: 'insert_page', title: 'API reference', type: 'computed', computed: source('petstore') }]));
    const pageId = edited.changes[0].page.id;
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));

    const page = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=markdown`));
    expect(page).toMatchObject({ type: 'computed', title: 'API reference', computed: source('petstore') });
    for (const expected of ['## pets', 'Everything about pets', '### GET /pets', '**List pets**', '| limit | query | integer | no |', '### POST /pets', '**Request body**', '#/components/schemas/Pet', '| 200 | A page of pets |', '## Models', '### Pet']) {
      expect(page.markdown, expected).toContain(expected);
    }
    const asDocument = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/${pageId}`));
    expect(asDocument.document.nodes.some((n: any) => n.type === 'heading-2')).toBe(true);
    // A published site shows the computed page to its readers, rendered (issue 25).
    const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'API docs', spaces: [space.id] }), 201);
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
    const reader = await h.app.fetch(`${h.config.publishedUrl}/${o}/${site.id}/api-reference`, { headers: { accept: 'text/html' } });
    expect(reader.status).toBe(200);
    const html = await reader.text();
    expect(html).toContain('GET /pets');
    expect(html).toContain('Everything about pets');
    const stored = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=markdown&computed=false`));
    expect(stored.markdown).toBeUndefined();
    expect(stored.computed).toEqual(source('petstore'));
    // The page follows the spec's latest version; without models, no Models section.
    const cr2 = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, {}), 201);
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr2.id}/content`, { changes: [{ operation: 'update_page', page: pageId, computed: source('petstore', false) }] }));
    expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr2.id}/merge`));
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=markdown`)).markdown).not.toContain('## Models');
    // A spec deleted since: the page says so.
    expectOk(await admin.rest('DELETE', `${specs(o)}/petstore`), 204);
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=markdown`)).markdown).toContain('does not exist');
    // A document page takes no source.
    const cr3 = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, {}), 201);
    const doc = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr3.id}/content?compat=false`, { changes: [{ operation: 'insert_page', title: 'Doc', document: { markdown: 'x' } }] }));
    expectOk(await put(admin, o, 'petstore', { text: JSON.stringify(PETSTORE) }));
    restError(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr3.id}/content`, { changes: [{ operation: 'update_page', page: doc.changes[0].page.id, computed: source('petstore') }] }), 400, 'changes[0].computed');
  });

  it('the GraphQL door', async () => {
    const { admin, o } = await world();
    const created = gqlData(
      await admin.gql('mutation($o: String!, $s: JSON!) { createOpenAPISpec(organizationId: $o, slug: "gql", source: $s) { slug processingState } }', { o, s: { text: JSON.stringify(PETSTORE) } }),
      'createOpenAPISpec',
    );
    expect(created).toEqual({ slug: 'gql', processingState: 'pending' });
    await runJobs();
    const spec = gqlData(await admin.gql('query($o: String!) { openAPISpec(organizationId: $o, specSlug: "gql") { processingState lastVersion lastProcessedErrorCount } }', { o }), 'openAPISpec');
    expect(spec).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String), lastProcessedErrorCount: 0 });
    expect(gqlData(await admin.gql('query($o: String!) { organizationOpenAPISpecs(organizationId: $o) { count } }', { o }), 'organizationOpenAPISpecs').count).toBe(1);
    expect(gqlData(await admin.gql('mutation($o: String!) { deleteOpenAPISpec(organizationId: $o, specSlug: "gql") }', { o }), 'deleteOpenAPISpec')).toBe(true);
  });
});

type Ids = { o: string; s: string };
const OPS: RefusalOp<Ids>[] = [
  { name: 'list', rest: ({ o }) => ['GET', specs(o)], gql: ({ o }) => ['query($o: String!) { organizationOpenAPISpecs(organizationId: $o) { count } }', { o }], refuse: 'guest' },
  { name: 'get', rest: ({ o, s }) => ['GET', `${specs(o)}/${s}`], gql: ({ o, s }) => ['query($o: String!, $s: String!) { openAPISpec(organizationId: $o, specSlug: $s) { id } }', { o, s }], refuse: 'guest' },
  {
    name: 'create',
    rest: ({ o }) => ['POST', specs(o), { slug: 'other', source: { text: '{}' } }],
    gql: ({ o }) => ['mutation($o: String!) { createOpenAPISpec(organizationId: $o, slug: "other", source: { text: "{}" }) { id } }', { o }],
    refuse: 'member',
  },
  {
    name: 'put',
    rest: ({ o, s }) => ['PUT', `${specs(o)}/${s}`, { source: { text: '{}' } }],
    gql: ({ o, s }) => ['mutation($o: String!, $s: String!) { putOpenAPISpec(organizationId: $o, specSlug: $s, source: { text: "{}" }) { id } }', { o, s }],
    refuse: 'member',
  },
  {
    name: 'delete',
    rest: ({ o, s }) => ['DELETE', `${specs(o)}/${s}`],
    gql: ({ o, s }) => ['mutation($o: String!, $s: String!) { deleteOpenAPISpec(organizationId: $o, specSlug: $s) }', { o, s }],
    refuse: 'member',
  },
];

refusalMatrix(OPS, {
  h,
  setup: async () => {
    const w = await world();
    expectOk(await w.admin.rest('POST', specs(w.o), { slug: 'kept', source: { text: JSON.stringify(PETSTORE) } }), 201);
    return w;
  },
  ids: (w) => ({ o: w.o, s: 'kept' }),
  unknown: { o: 'unknownOrganization1' },
  // Guests read no spec of the organization; other members do not change them.
  forbidden: async (w, refuse) => ({ callers: refuse === 'guest' ? [w.guest] : [w.reader, w.guest] }),
  unchanged: async (w) => {
    const rows = await h.db.openAPISpec.findMany({ where: { organizationId: w.o }, include: { source: true } });
    expect(rows.map((r) => [r.slug, r.sourceGeneration, r.source?.text === JSON.stringify(PETSTORE)])).toEqual([['kept', 0, true]]);
  },
});
