// The reader (issue 25 §6) in a real browser — Debian's Chromium driven by playwright-core — against the app
// on a 127.0.0.1 listener: what a reader sees when they open a published site, move through it, search it,
// read a shared or protected site, switch the theme, copy code, use tabs, read on a phone and without
// JavaScript. Every page is checked for console errors and uncaught exceptions; axe-core checks the home
// page, a page of blocks, dark mode and the phone layout. Screenshots go to test-output/reader/. Skipped,
// saying so, only where no Chromium is installed (CI installs it and sets REQUIRE_BROWSER=1).
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import axe from 'axe-core';
import { endpoint, rich, openContext, expectNoProblems, shot, axeViolations, CODE, useReaderBrowser, executablePath, type AxeViolation } from './reader-browser-kit.ts';

useReaderBrowser();

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
