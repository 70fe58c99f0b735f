// What the reader's browser tests share (test/reader/*-browser.test.ts): the app on a 127.0.0.1 listener
// whose origin is PUBLIC_URL, Debian's Chromium driven by playwright-core, a visitor-authentication
// backend, the rich site the flows read, and helpers that watch every page for problems.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { buildConfig } from '../../src/config.ts';
import { expectOk } from '../support/assertions.ts';
import { createTestDatabase } from '../support/database.ts';
import { ADMIN_TOKEN, TestClock, type Harness } from '../support/harness.ts';
import { GUIDE_PAGES, readerSite, spaceWithPages, type PageSpec } from '../support/reader-site.ts';
import { chromiumFor } from '../support/chromium.ts';
import { REPO_ROOT } from '../support/server-process.ts';
import { startVisitorAuthBackend, type VisitorAuthBackend } from '../support/visitor-auth-backend.ts';

export const executablePath = chromiumFor('the reader browser tests');
const OUTPUT = path.join(REPO_ROOT, 'test-output', 'reader');

/** The app's clock is the real one: the authentication backend signs tokens with the time the app checks them against. */
class WallClock extends TestClock {
  override now() {
    return new Date();
  }
}

// ---------------------------------------------------------------------------------------------------
// The site the flows read
// ---------------------------------------------------------------------------------------------------

export const FILLER = Array.from({ length: 14 }, (_, i) => `Paragraph ${i + 1} about nodes, pods and the control plane of a cluster.`).join('\n\n');
export const CODE = "import { connect } from 'cluster';\n\nconst client = connect({ nodes: 3 });\nawait client.scale('web', 5);";

export const RICH_GUIDES: PageSpec[] = [
  { title: 'Getting started', ref: 'start', description: 'First steps', markdown: 'Welcome to the **guide**.\n\n## Install\n\nRun `npm install`.\n\n## Configure\n\nSet the options.\n' },
  {
    title: 'Components',
    ref: 'components',
    markdown: [
      'Every block a page may hold.',
      '',
      '## Code',
      '',
      '```js',
      CODE,
      '```',
      '',
      '## Hint',
      '',
      '{% hint style="info" %}',
      'Clusters need **three** nodes at least.',
      '{% endhint %}',
      '',
      '## Tabs',
      '',
      '{% tabs %}',
      '{% tab title="A" %}',
      'Alpha panel text.',
      '{% endtab %}',
      '',
      '{% tab title="B" %}',
      'Bravo panel text.',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '## Table',
      '',
      '| Size | Nodes | Memory |',
      '| --- | --- | --- |',
      '| Small | 3 | 8 GB |',
      '| Large | 12 | 64 GB |',
      '',
      '## Math',
      '',
      'The cost grows as $$x^2$$ with the size.',
      '',
      '$$',
      'x^2 + y^2 = z^2',
      '$$',
      '',
    ].join('\n'),
  },
  { title: 'Advanced', ref: 'advanced', markdown: 'Deep topics.\n' },
  { title: 'Clusters', ref: 'clusters', into: 'advanced', markdown: `Run many **kubernetes** nodes.\n\n## Overview\n\n${FILLER}\n\n## Scaling\n\nThe autoscaler adds nodes under load.\n\n${FILLER}\n\n${FILLER}\n` },
  { title: 'Last page', ref: 'last', markdown: 'The end.\n' },
];
export const FRENCH_GUIDES: PageSpec[] = [
  { title: 'Getting started', markdown: 'Bienvenue ! Premiers pas.\n' },
  { title: 'Advanced', ref: 'advanced', markdown: 'Sujets avancés.\n' },
  { title: 'Clusters', into: 'advanced', markdown: 'Des nœuds **kubernetes** en français.\n\n## Mise à l’échelle\n\nLe regroupement des nœuds.\n' },
];
export const API_PAGES: PageSpec[] = [{ title: 'Reference', markdown: 'Every endpoint of the API.\n' }];

// ---------------------------------------------------------------------------------------------------
// Set-up: the app on a listener whose origin is PUBLIC_URL, the browser, the authentication backend
// ---------------------------------------------------------------------------------------------------

export const h = {} as Harness;
export let server: Server;
export let endpoint: string;
export let browser: Browser;
export let backend: VisitorAuthBackend;
/** The rich site: two sections (Guides, API), Guides in two variants (English, French). */
export let rich: { base: string; apiPath: string; frenchPath: string };

/** Registers the set-up of a browser test file: the app on a listener, the authentication backend, the browser, the rich site. */
export function useReaderBrowser(): void {
  beforeAll(async () => {
    if (!executablePath) return;
    mkdirSync(OUTPUT, { recursive: true });
    h.store = await createTestDatabase();
    server = createServer((req, res) => h.app.yoga(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    endpoint = `http://127.0.0.1:${port}`;
    h.config = buildConfig({ port, host: '127.0.0.1', publicUrl: endpoint, logLevel: process.env.TEST_LOG_LEVEL ?? 'silent', adminToken: ADMIN_TOKEN });
    h.clock = new WallClock();
    h.db = h.store.database.prisma;
    h.app = createApp({ database: h.store.database, config: h.config, clock: h.clock });
    await h.app.ready();
    backend = await startVisitorAuthBackend({ siteOrigin: endpoint });
    browser = await chromium.launch({
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  
    const site = await readerSite(h, [
      { title: 'Guides', pages: RICH_GUIDES },
      { title: 'API', pages: API_PAGES },
    ]);
    const sections = expectOk(await site.admin.rest('GET', `/v1/orgs/${site.o}/sites/${site.site.id}/sections`)).items;
    const french = await spaceWithPages(site.admin, site.o, 'Guides FR', FRENCH_GUIDES);
    expectOk(await site.admin.rest('POST', `/v1/orgs/${site.o}/sites/${site.site.id}/site-spaces`, { spaceId: french.id, sectionId: sections[0].id }), 201);
    const variants = expectOk(await site.admin.rest('GET', `/v1/orgs/${site.o}/sites/${site.site.id}/site-spaces`)).items;
    // A variant of the default section lives under the section's path (GitBook's rule): `guides/guides-fr`.
    const frenchPath = `${sections[0].path}/${variants.find((s: { space: { id: string } }) => s.space.id === french.id).path}`;
    rich = { base: site.base, apiPath: sections[1].path, frenchPath };
  }, 90_000);
  
  afterAll(async () => {
    await browser?.close();
    await backend?.close();
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await h.store?.close();
  });
}

// ---------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------

/** What went wrong on the pages of a context: console errors, uncaught exceptions, failed requests, requests elsewhere. */
interface Watched {
  context: BrowserContext;
  problems: string[];
  page: Page;
}

/** A context whose every page reports its problems; requests may go to the app and to `allowedOrigins` only. */
export async function openContext(options: BrowserContextOptions = {}, allowedOrigins: string[] = []): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  // A step that waits fails with what it waited for, well within the test's own timeout.
  context.setDefaultTimeout(8_000);
  const problems: string[] = [];
  const origins = [endpoint, ...allowedOrigins];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => {
      // A search typed on is aborted by the next one; a navigation cancels what the page was loading.
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
    });
    page.on('request', (request) => {
      const url = request.url();
      if (!origins.some((origin) => url.startsWith(`${origin}/`)) && !url.startsWith('data:')) problems.push(`request to another origin: ${url}`);
    });
  };
  context.on('page', watch);
  const page = await context.newPage();
  return { context, problems, page };
}

const NOT_FOUND_REPORT = /^console: Failed to load resource: the server responded with a status of 404/;

/**
 * No problems, except the console's report of a 404 answer where the test opened a page it expects to be
 * missing. (Every page names a favicon, so Chromium never asks the origin's /favicon.ico.)
 */
export function expectNoProblems(problems: string[], options: { missingPagesExpected?: boolean } = {}) {
  const left = problems.filter((p) => !(NOT_FOUND_REPORT.test(p) && options.missingPagesExpected));
  expect(left).toEqual([]);
}

export const shot = (page: Page, step: string, fullPage = false) => page.screenshot({ path: path.join(OUTPUT, `${step}.png`), fullPage });
export const pathOf = (url: string) => new URL(url).pathname;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

/**
 * axe-core on the page, its script injected — possible only in a context that bypasses the pages'
 * Content-Security-Policy (`script-src 'self' 'sha256-…'`): used for these checks alone. Answers the
 * serious and critical violations (all of them printed first, whatever their impact).
 */
export async function axeViolations(page: Page, name: string): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axe.source });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target as unknown[], html: n.html, failureSummary: n.failureSummary })),
    }));
  });
  for (const v of violations) {
    console.log(`axe (${name}): [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes.map((n) => `  ${JSON.stringify(n.target)} ${n.html}\n    ${n.failureSummary?.replace(/\n/g, '\n    ')}`).join('\n')}`);
  }
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A visitor-auth site (the backend as its fallback URL), registered with the backend; `claims` are what the backend signs. */
export async function visitorAuthSite(spaces: { title: string; pages: PageSpec[] }[], claims: Record<string, unknown> = {}) {
  const built = await readerSite(h, spaces, { visibility: 'visitor-auth' });
  const auth = expectOk(await built.admin.rest('GET', `/v1/orgs/${built.o}/sites/${built.site.id}/publishing/auth`));
  expectOk(await built.admin.rest('PATCH', `/v1/orgs/${built.o}/sites/${built.site.id}/publishing/auth`, { fallbackURL: backend.loginUrl }));
  const signed = backend.register(pathOf(built.base), { privateKey: auth.privateKey, claims });
  return { ...built, signed };
}

// ---------------------------------------------------------------------------------------------------
// The flows
// ---------------------------------------------------------------------------------------------------
