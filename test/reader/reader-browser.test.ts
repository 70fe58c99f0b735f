// The reader (issue 25 §6) in a real browser — Debian's Chromium driven by playwright-core — against the app
// on a 127.0.0.1 listener: what a reader sees when they open a published site, move through it, search it,
// read a shared or protected site, switch the theme, copy code, use tabs, read on a phone and without
// JavaScript. Every page is checked for console errors and uncaught exceptions; axe-core checks the home
// page, a page of blocks, dark mode and the phone layout. Screenshots go to test-output/reader/. Skipped,
// saying so, only where no Chromium is installed (CI installs it and sets REQUIRE_BROWSER=1).
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

const executablePath = chromiumFor('reader-browser.test.ts');
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

const FILLER = Array.from({ length: 14 }, (_, i) => `Paragraph ${i + 1} about nodes, pods and the control plane of a cluster.`).join('\n\n');
const CODE = "import { connect } from 'cluster';\n\nconst client = connect({ nodes: 3 });\nawait client.scale('web', 5);";

const RICH_GUIDES: PageSpec[] = [
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
const FRENCH_GUIDES: PageSpec[] = [
  { title: 'Getting started', markdown: 'Bienvenue ! Premiers pas.\n' },
  { title: 'Advanced', ref: 'advanced', markdown: 'Sujets avancés.\n' },
  { title: 'Clusters', into: 'advanced', markdown: 'Des nœuds **kubernetes** en français.\n\n## Mise à l’échelle\n\nLe regroupement des nœuds.\n' },
];
const API_PAGES: PageSpec[] = [{ title: 'Reference', markdown: 'Every endpoint of the API.\n' }];

// ---------------------------------------------------------------------------------------------------
// Set-up: the app on a listener whose origin is PUBLIC_URL, the browser, the authentication backend
// ---------------------------------------------------------------------------------------------------

const h = {} as Harness;
let server: Server;
let endpoint: string;
let browser: Browser;
let backend: VisitorAuthBackend;
/** The rich site: two sections (Guides, API), Guides in two variants (English, French). */
let rich: { base: string; apiPath: string; frenchPath: string };

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
async function openContext(options: BrowserContextOptions = {}, allowedOrigins: string[] = []): Promise<Watched> {
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
function expectNoProblems(problems: string[], options: { missingPagesExpected?: boolean } = {}) {
  const left = problems.filter((p) => !(NOT_FOUND_REPORT.test(p) && options.missingPagesExpected));
  expect(left).toEqual([]);
}

const shot = (page: Page, step: string, fullPage = false) => page.screenshot({ path: path.join(OUTPUT, `${step}.png`), fullPage });
const pathOf = (url: string) => new URL(url).pathname;

interface AxeViolation {
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
async function axeViolations(page: Page, name: string): Promise<AxeViolation[]> {
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
async function visitorAuthSite(spaces: { title: string; pages: PageSpec[] }[], claims: Record<string, unknown> = {}) {
  const built = await readerSite(h, spaces, { visibility: 'visitor-auth' });
  const auth = expectOk(await built.admin.rest('GET', `/v1/orgs/${built.o}/sites/${built.site.id}/publishing/auth`));
  expectOk(await built.admin.rest('PATCH', `/v1/orgs/${built.o}/sites/${built.site.id}/publishing/auth`, { fallbackURL: backend.loginUrl }));
  const signed = backend.register(pathOf(built.base), { privateKey: auth.privateKey, claims });
  return { ...built, signed };
}

// ---------------------------------------------------------------------------------------------------
// The flows
// ---------------------------------------------------------------------------------------------------

describe.skipIf(!executablePath)('the reader in a browser', () => {
  it('1. opens a site and goes to a nested page from the sidebar', { timeout: 30_000 }, async () => {
    const { context, problems, page } = await openContext();
    const response = await page.goto(rich.base);
    expect(response?.status()).toBe(200);
    await expect.poll(() => page.locator('h1.page-title').innerText()).toBe('Getting started');
    expect(await page.title()).toBe('Getting started – Docs');
    // The sidebar lists the pages; the nested one is behind its parent's toggle.
    const tree = page.locator('nav.tree-nav');
    await expect.poll(() => tree.getByRole('link', { name: 'Getting started' }).getAttribute('aria-current')).toBe('page');
    const clusters = tree.getByRole('link', { name: 'Clusters', exact: true });
    expect(await clusters.isVisible()).toBe(false);
    await shot(page, '01-home');
    await tree.locator('summary', { hasText: 'Pages under Advanced' }).click();
    expect(await clusters.isVisible()).toBe(true);
    await clusters.click();
    await page.waitForURL(`${rich.base}/advanced/clusters`);
    expect(await page.locator('h1.page-title').innerText()).toBe('Clusters');
    expect(await page.locator('.page-body').innerText()).toContain('Run many kubernetes nodes.');
    expect(await tree.getByRole('link', { name: 'Clusters', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(await tree.getByRole('link', { name: 'Getting started' }).getAttribute('aria-current')).toBeNull();
    // Breadcrumbs name the parent.
    expect(await page.locator('nav.breadcrumbs').innerText()).toContain('Advanced');
    await shot(page, '01-nested-page');
    expectNoProblems(problems);
    await context.close();
  });

  it('2. switches section (header tab) and variant (switcher), which keeps the page path', { timeout: 30_000 }, async () => {
    const { context, problems, page } = await openContext();
    await page.goto(`${rich.base}/advanced/clusters`);
    const tabs = page.locator('nav.section-tabs');
    expect(await tabs.getByRole('link', { name: 'Guides' }).getAttribute('aria-current')).toBe('true');
    await tabs.getByRole('link', { name: 'API' }).click();
    await page.waitForURL(`${rich.base}/${rich.apiPath}/`);
    expect(await page.locator('h1.page-title').innerText()).toBe('Reference');
    expect(await tabs.getByRole('link', { name: 'API' }).getAttribute('aria-current')).toBe('true');
    expect(await tabs.getByRole('link', { name: 'Guides' }).getAttribute('aria-current')).toBeNull();
    // One variant in this section: no switcher.
    expect(await page.locator('.variant-nav').count()).toBe(0);
    await shot(page, '02-section-api');

    await tabs.getByRole('link', { name: 'Guides' }).click();
    await page.waitForURL(`${rich.base}/`);
    expect(await page.locator('h1.page-title').innerText()).toBe('Getting started');
    await page.goto(`${rich.base}/advanced/clusters`);
    const switcher = page.locator('.variant-nav.desktop-only');
    expect(await switcher.locator('summary').innerText()).toContain('Guides');
    await switcher.locator('summary').click();
    await shot(page, '02-variant-menu');
    await switcher.getByRole('link', { name: 'Guides FR' }).click();
    await page.waitForURL(`${rich.base}/${rich.frenchPath}/advanced/clusters`);
    expect(await page.locator('.page-body').innerText()).toContain('Des nœuds kubernetes en français.');
    expect(await switcher.locator('summary').innerText()).toContain('Guides FR');
    expect(await switcher.locator('a[aria-current="true"]').textContent()).toBe('Guides FR');
    // Back to English: the same page again.
    await switcher.locator('summary').click();
    await switcher.getByRole('link', { name: 'Guides', exact: true }).click();
    await page.waitForURL(`${rich.base}/advanced/clusters`);
    expect(await page.locator('h1.page-title').innerText()).toBe('Clusters');
    await shot(page, '02-variant-back');
    expectNoProblems(problems);
    await context.close();
  });

  it('3. searches: "/" focuses the field, results grouped by page, Enter lands on the heading', { timeout: 30_000 }, async () => {
    const { context, problems, page } = await openContext();
    await page.goto(rich.base);
    const input = page.locator('#search-input');
    await page.locator('h1.page-title').click();
    await page.keyboard.press('/');
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('autoscaler');
    const listbox = page.getByRole('listbox', { name: 'Search results' });
    await listbox.waitFor({ state: 'visible' });
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    const group = listbox.getByRole('group', { name: 'Clusters' });
    await group.waitFor();
    expect(await group.getByRole('option').first().innerText()).toContain('Clusters');
    expect(await group.getByRole('option').first().innerText()).toContain('Advanced');
    const scaling = group.getByRole('option', { name: /Scaling/ });
    expect(await scaling.locator('mark').first().innerText()).toMatch(/^autoscaler$/i);
    await shot(page, '03-search-results');
    // Arrow down to the section's result, Enter.
    const options = await listbox.getByRole('option').evaluateAll((all) => all.map((o) => (o as HTMLAnchorElement).href));
    const index = options.findIndex((href) => href.endsWith('/advanced/clusters#scaling'));
    expect(index, options.join('\n')).toBeGreaterThanOrEqual(0);
    for (let i = 0; i <= index; i++) await page.keyboard.press('ArrowDown');
    expect(await scaling.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${rich.base}/advanced/clusters#scaling`);
    expect(await page.locator('h1.page-title').innerText()).toBe('Clusters');
    // The heading is at the top of the view, just below the sticky header (once the smooth scroll ends).
    const heading = page.locator('#scaling');
    await expect
      .poll(async () =>
        heading.evaluate((el) => {
          const header = document.querySelector('.site-header')!.getBoundingClientRect().bottom;
          const { top } = el.getBoundingClientRect();
          return top >= header - 1 && top <= header + 48;
        }),
      )
      .toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await shot(page, '03-search-landed');

    // Ctrl-K from anywhere, then a click on a page's result.
    await page.locator('h1.page-title').click();
    await page.keyboard.press('Control+K');
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('endpoint');
    const reference = listbox.getByRole('group', { name: 'Reference' });
    await reference.waitFor();
    await reference.getByRole('option').first().click();
    await page.waitForURL(`${rich.base}/${rich.apiPath}/reference`);
    expect(await page.locator('h1.page-title').innerText()).toBe('Reference');

    // In the French variant, the search is the French variant's: its pages, at their French URLs.
    await page.goto(`${rich.base}/${rich.frenchPath}/`);
    await input.click();
    await page.keyboard.type('regroupement');
    const french = listbox.getByRole('group', { name: 'Clusters' });
    await french.waitFor();
    const hrefs = await listbox.getByRole('option').evaluateAll((all) => all.map((o) => (o as HTMLAnchorElement).href));
    expect(hrefs[0]).toBe(`${rich.base}/${rich.frenchPath}/advanced/clusters`);
    await shot(page, '03-search-variant');
    await french.getByRole('option').first().click();
    await page.waitForURL(`${rich.base}/${rich.frenchPath}/advanced/clusters`);
    expect(await page.locator('.page-body').innerText()).toContain('Le regroupement des nœuds.');
    expectNoProblems(problems);
    await context.close();
  });

  it('4. a share link: 404 without it; its URL lands on the clean URL; deactivated, the next load is a 404', { timeout: 30_000 }, async () => {
    const { admin, o, site, base } = await readerSite(h, undefined, { visibility: 'share-link' });
    const { context, problems, page } = await openContext();
    const closed = await page.goto(base);
    expect(closed?.status()).toBe(404);
    expect(await page.locator('h1').innerText()).toBe('Page not found');
    expect(await page.content()).not.toContain('Getting started');
    await shot(page, '04-share-link-closed');

    const link = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/share-links`, { name: 'Partners' }), 201);
    const shared = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/share-links`)).items[0];
    expect(shared.urls.published).toContain('shareKey=');
    const landing = await page.goto(shared.urls.published);
    expect(landing?.status()).toBe(200);
    expect(page.url()).not.toContain('shareKey');
    expect(pathOf(page.url()).replace(/\/$/, '')).toBe(pathOf(base));
    expect(await page.locator('h1.page-title').innerText()).toBe('Getting started');
    const cookie = (await context.cookies(base)).find((c) => c.name === 'gb_share');
    expect(cookie?.httpOnly).toBe(true);
    expect(await page.evaluate(() => document.cookie)).not.toContain('gb_share');
    await shot(page, '04-share-link-open');
    // Navigating keeps the access.
    await page.locator('nav.tree-nav').getByRole('link', { name: 'Last page' }).click();
    await page.waitForURL(`${base}/last-page`);
    expect(await page.locator('h1.page-title').innerText()).toBe('Last page');
    // So does the search (the script's requests carry the cookie).
    await page.locator('#search-input').click();
    await page.keyboard.type('kubernetes');
    await page.getByRole('listbox', { name: 'Search results' }).getByRole('group', { name: 'Clusters' }).waitFor();

    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}/share-links/${link.id}`, { active: false }));
    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(404);
    expect(await page.locator('h1').innerText()).toBe('Page not found');
    expect(await page.locator('body').innerText()).not.toContain('The end.');
    // The key the site no longer takes is forgotten.
    expect((await context.cookies(base)).map((c) => c.name)).not.toContain('gb_share');
    await shot(page, '04-share-link-deactivated');
    expectNoProblems(problems, { missingPagesExpected: true });
    await context.close();
  });

  it('5. visitor authentication: sent to the backend, back with a signed token, on the page; the cookie is HttpOnly', { timeout: 30_000 }, async () => {
    const { base } = await visitorAuthSite([{ title: 'Guides', pages: GUIDE_PAGES }]);
    const { context, problems, page } = await openContext({}, [backend.origin]);
    const response = await page.goto(`${base}/advanced/clusters`);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`${base}/advanced/clusters`);
    expect(backend.logins).toContain(`${pathOf(base)}/advanced/clusters`);
    expect(await page.locator('h1.page-title').innerText()).toBe('Clusters');
    expect(await page.locator('.page-body').innerText()).toContain('Run many kubernetes nodes.');
    const cookie = (await context.cookies(base)).find((c) => c.name === 'gb_visitor');
    expect(cookie, JSON.stringify(await context.cookies())).toBeDefined();
    expect(cookie!.httpOnly).toBe(true);
    expect(cookie!.sameSite).toBe('Lax');
    expect(cookie!.path).toBe(pathOf(base));
    expect(await page.evaluate(() => document.cookie)).not.toContain('gb_visitor');
    // The next page needs no new trip to the backend.
    const logins = backend.logins.length;
    await page.locator('nav.tree-nav').getByRole('link', { name: 'Last page' }).click();
    await page.waitForURL(`${base}/last-page`);
    expect(await page.locator('h1.page-title').innerText()).toBe('Last page');
    expect(backend.logins.length).toBe(logins);
    await shot(page, '05-visitor-auth');
    expectNoProblems(problems);
    await context.close();
  });

  it('6. adaptive content: a section shown only to visitors whose signed claims hold its condition', { timeout: 30_000 }, async () => {
    const { admin, o, site, base, signed } = await visitorAuthSite([
      { title: 'Guides', pages: GUIDE_PAGES },
      { title: 'API', pages: API_PAGES },
      { title: 'Pro', pages: [{ title: 'Pro features', markdown: 'Only for **pro** plans.\n' }] },
    ]);
    const sections = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/sections`)).items;
    const pro = sections.find((s: { title: string }) => s.title === 'Pro');
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}/sections/${pro.id}`, { condition: 'visitor.claims.plan === "pro"' }));

    // A token without the claim: no tab, and the section's URL is a 404.
    signed.claims = { plan: 'free' };
    const free = await openContext({}, [backend.origin]);
    expect((await free.page.goto(base))?.status()).toBe(200);
    const tabs = free.page.locator('nav.section-tabs');
    expect(await tabs.getByRole('link').allInnerTexts()).toEqual(['Guides', 'API']);
    await shot(free.page, '06-adaptive-free');
    expect((await free.page.goto(`${base}/${pro.path}/`))?.status()).toBe(404);
    expect(await free.page.locator('h1').innerText()).toBe('Page not found');
    expect(await free.page.locator('body').innerText()).not.toContain('Only for pro plans');
    expectNoProblems(free.problems, { missingPagesExpected: true });
    await free.context.close();

    // With the claim: the tab, and its pages.
    signed.claims = { plan: 'pro' };
    const paying = await openContext({}, [backend.origin]);
    expect((await paying.page.goto(base))?.status()).toBe(200);
    const proTabs = paying.page.locator('nav.section-tabs');
    expect(await proTabs.getByRole('link').allInnerTexts()).toEqual(['Guides', 'API', 'Pro']);
    await proTabs.getByRole('link', { name: 'Pro' }).click();
    await paying.page.waitForURL(`${base}/${pro.path}/`);
    expect(await paying.page.locator('h1.page-title').innerText()).toBe('Pro features');
    expect(await paying.page.locator('.page-body').innerText()).toContain('Only for pro plans.');
    await shot(paying.page, '06-adaptive-pro');
    expectNoProblems(paying.problems);
    await paying.context.close();
  });

  it('7. theme: the toggle switches to dark, and the choice survives a reload', { timeout: 30_000 }, async () => {
    const { context, problems, page } = await openContext({ colorScheme: 'light' });
    await page.goto(`${rich.base}/components`);
    const html = page.locator('html');
    expect(await html.getAttribute('data-theme')).toBe('system');
    const toggle = page.locator('[data-theme-toggle]');
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe('rgb(255, 255, 255)');
    await toggle.click();
    expect(await html.getAttribute('data-theme')).toBe('dark');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await background()).toBe('rgb(16, 19, 23)');
    await page.reload();
    expect(await html.getAttribute('data-theme')).toBe('dark');
    expect(await background()).toBe('rgb(16, 19, 23)');
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    await shot(page, '07-dark', true);
    // And back.
    await toggle.click();
    expect(await html.getAttribute('data-theme')).toBe('light');
    await page.reload();
    expect(await html.getAttribute('data-theme')).toBe('light');
    expectNoProblems(problems);
    await context.close();
  });

  it('8. copies a code block to the clipboard', { timeout: 30_000 }, async () => {
    const { context, problems, page } = await openContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: endpoint });
    await page.goto(`${rich.base}/components`);
    const figure = page.locator('figure.code').first();
    const button = figure.locator('button[data-copy]');
    await figure.hover();
    await button.click();
    await expect.poll(() => button.innerText()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
    await shot(page, '08-copied');
    expectNoProblems(problems);
    await context.close();
  });

  it('9. tabs: choosing tab B shows its panel and hides A\'s', { timeout: 30_000 }, async () => {
    const { context, problems, page } = await openContext();
    await page.goto(`${rich.base}/components`);
    const tabs = page.locator('.tabs');
    const [a, b] = [tabs.getByRole('tab', { name: 'A' }), tabs.getByRole('tab', { name: 'B' })];
    const [panelA, panelB] = [tabs.getByRole('tabpanel', { name: 'A', includeHidden: true }), tabs.getByRole('tabpanel', { name: 'B', includeHidden: true })];
    await expect.poll(() => tabs.getAttribute('data-enhanced')).toBe('');
    expect(await a.getAttribute('aria-selected')).toBe('true');
    expect(await panelA.isVisible()).toBe(true);
    expect(await panelB.isVisible()).toBe(false);
    await b.click();
    expect(await b.getAttribute('aria-selected')).toBe('true');
    expect(await a.getAttribute('aria-selected')).toBe('false');
    expect(await panelB.isVisible()).toBe(true);
    expect(await panelA.isVisible()).toBe(false);
    expect(await panelB.innerText()).toContain('Bravo panel text.');
    // The keyboard: Left arrow back to A, focus follows.
    await page.keyboard.press('ArrowLeft');
    expect(await a.getAttribute('aria-selected')).toBe('true');
    expect(await a.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await panelA.isVisible()).toBe(true);
    await b.click();
    await tabs.scrollIntoViewIfNeeded();
    await shot(page, '09-tab-b');
    expectNoProblems(problems);
    await context.close();
  });

  it('10. on a phone (360×740): no horizontal scroll; the menu button opens the sidebar', { timeout: 30_000 }, async () => {
    const { context, problems, page } = await openContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    for (const url of [rich.base, `${rich.base}/components`, `${rich.base}/advanced/clusters`]) {
      await page.goto(url);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(360);
    }
    await page.goto(`${rich.base}/components`);
    await shot(page, '10-phone-page');
    // On a touch screen the copy buttons are always shown, and never cover the first line of code.
    const copyButtons = await page.evaluate(() =>
      [...document.querySelectorAll('figure.code')].map((figure) => {
        const button = figure.querySelector('button[data-copy]')!;
        const b = button.getBoundingClientRect();
        const l = (figure.querySelector('.line') ?? figure.querySelector('code'))!.getBoundingClientRect();
        return { shown: getComputedStyle(button).opacity === '1', covers: b.bottom > l.top && b.top < l.bottom && b.right > l.left && b.left < l.right };
      }),
    );
    expect(copyButtons.length).toBeGreaterThan(0);
    expect(copyButtons).toEqual(copyButtons.map(() => ({ shown: true, covers: false })));
    const sidebar = page.locator('#sidebar');
    expect(await sidebar.isVisible()).toBe(false);
    await page.locator('label.menu-button').click();
    expect(await page.locator('#nav-toggle').isChecked()).toBe(true);
    expect(await sidebar.isVisible()).toBe(true);
    // The drawer holds the sections, the variants and the pages.
    expect(await sidebar.locator('.drawer-sections').getByRole('link', { name: 'API' }).isVisible()).toBe(true);
    expect(await sidebar.locator('.variant-nav').isVisible()).toBe(true);
    const last = sidebar.locator('nav.tree-nav').getByRole('link', { name: 'Last page' });
    expect(await last.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, '10-phone-menu');
    await last.click();
    await page.waitForURL(`${rich.base}/last-page`);
    expect(await page.locator('h1.page-title').innerText()).toBe('Last page');
    expect(await page.locator('#sidebar').isVisible()).toBe(false);
    expectNoProblems(problems);
    await context.close();
  });

  it('11. without JavaScript: the page renders, every tab panel is readable, the search form gives a results page', { timeout: 30_000 }, async () => {
    const { context, problems, page } = await openContext({ javaScriptEnabled: false });
    await page.goto(`${rich.base}/components`);
    expect(await page.locator('html').evaluate((el) => el.classList.contains('js'))).toBe(false);
    expect(await page.locator('h1.page-title').innerText()).toBe('Components');
    const body = await page.locator('.page-body').innerText();
    expect(body).toContain('Alpha panel text.');
    expect(body).toContain('Bravo panel text.');
    for (const panel of await page.locator('[role="tabpanel"]').all()) expect(await panel.isVisible()).toBe(true);
    expect(body).toContain('Clusters need three nodes at least.');
    expect(await page.locator('table').innerText()).toContain('64 GB');
    await shot(page, '11-no-js-page', true);
    await page.locator('#search-input').fill('autoscaler');
    await page.locator('#search-input').press('Enter');
    await page.waitForURL((url) => url.pathname.endsWith('/~search') && url.searchParams.get('q') === 'autoscaler');
    expect(await page.locator('h1.page-title').innerText()).toBe('Search results for “autoscaler”');
    const results = page.locator('ol.search-results');
    expect(await results.locator('mark').first().innerText()).toMatch(/^autoscaler$/i);
    await shot(page, '11-no-js-search');
    await results.getByRole('link', { name: 'Scaling' }).click();
    await page.waitForURL(`${rich.base}/advanced/clusters#scaling`);
    expect(await page.locator('h1.page-title').innerText()).toBe('Clusters');
    expectNoProblems(problems);
    await context.close();
  });

  it('axe-core: no serious or critical violation on the home page, a page of blocks, dark mode and the phone layout', { timeout: 60_000 }, async () => {
    const found: Record<string, AxeViolation[]> = {};
    const desktop = await openContext({ bypassCSP: true, colorScheme: 'light' });
    await desktop.page.goto(rich.base);
    found.home = await axeViolations(desktop.page, 'home');
    await desktop.page.goto(`${rich.base}/components`);
    await desktop.page.locator('.tabs[data-enhanced]').waitFor();
    found.components = await axeViolations(desktop.page, 'components');
    await desktop.page.locator('[data-theme-toggle]').click();
    expect(await desktop.page.locator('html').getAttribute('data-theme')).toBe('dark');
    found.dark = await axeViolations(desktop.page, 'components, dark');
    await shot(desktop.page, 'axe-dark');
    expectNoProblems(desktop.problems);
    await desktop.context.close();

    const phone = await openContext({ bypassCSP: true, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await phone.page.goto(rich.base);
    found.phone = await axeViolations(phone.page, 'phone');
    await phone.page.locator('label.menu-button').click();
    found.phoneMenu = await axeViolations(phone.page, 'phone, menu open');
    await shot(phone.page, 'axe-phone-menu');
    expectNoProblems(phone.problems);
    await phone.context.close();

    expect(Object.fromEntries(Object.entries(found).map(([name, violations]) => [name, violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`)]))).toEqual({
      home: [],
      components: [],
      dark: [],
      phone: [],
      phoneMenu: [],
    });
  });
});
