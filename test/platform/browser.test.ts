// The two pages a person opens: the API reference (/docs, Swagger UI) and GraphiQL (/graphql), in a real
// browser — Debian's Chromium driven by playwright-core — against a 127.0.0.1 listener with no internet:
// both must load from the server alone, show the API, and make an authenticated call. Screenshots go to
// test-output/browser/. Skipped, saying so, only where no Chromium is installed (CI installs it).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useClientServer } from '../support/client-server.ts';
import { chromiumFor } from '../support/chromium.ts';
import { REPO_ROOT } from '../support/server-process.ts';

const executablePath = chromiumFor('browser.test.ts');
const OUTPUT = path.join(REPO_ROOT, 'test-output', 'browser');

const s = useClientServer();
let browser: Browser;

beforeAll(async () => {
  if (!executablePath) return;
  mkdirSync(OUTPUT, { recursive: true });
  browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** A page that records its console errors, failed requests and uncaught exceptions. */
async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  return { page, problems };
}

/** Replaces the text of a Monaco editor (GraphiQL's) as typing would, without its bracket auto-closing. */
async function typeInto(page: Page, editor: string, text: string) {
  await page.click(editor);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Escape');
}

describe.skipIf(!executablePath)('in a browser', () => {
  it('the API reference (/docs) loads from the server alone, lists the operations, and a "try it" call with a token answers 200', { timeout: 90_000 }, async () => {
    const ada = await s.newUser('Ada Lovelace');
    const { page, problems } = await openPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(s.endpoint)) outside.push(request.url());
    });
    await page.goto(`${s.endpoint}/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    // Every operation of the document is listed. Swagger UI renders only what is near the viewport, so
    // the test scrolls through the page collecting what it shows.
    const document = await (await fetch(`${s.endpoint}/v1/openapi.json`)).json();
    const documented = Object.entries(document.paths).flatMap(([route, item]) => Object.keys(item as object).map((method) => `${method.toUpperCase()} ${route}`));
    expect(documented.length).toBeGreaterThan(130);
    const shown = new Set<string>();
    for (let step = 0; step < 400; step++) {
      const visible = await page.locator('.opblock-summary').evaluateAll((summaries) =>
        summaries.map((summary) => `${summary.querySelector('.opblock-summary-method')?.textContent} ${summary.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
      );
      for (const operation of visible) shown.add(operation);
      const atBottom = await page.evaluate(() => window.scrollY + window.innerHeight >= document.body.scrollHeight - 2);
      if (atBottom) break;
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(50);
    }
    expect([...shown].sort()).toEqual([...documented].sort());
    await page.evaluate(() => window.scrollTo(0, 0));

    // Authorize with the token, then call GET /user.
    await page.click('button.authorize');
    await page.fill('.modal-ux input[type=text], .modal-ux input:not([type])', ada.token);
    await page.click('.modal-ux button.authorize');
    await page.click('.modal-ux button.btn-done');
    const operation = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path', { hasText: /^\/user$/ }) }).first();
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table tbody .response-col_status').first();
    await expect.poll(async () => (await status.textContent())?.trim(), { timeout: 20_000 }).toBe('200');
    expect(await operation.locator('.live-responses-table .microlight').first().textContent()).toContain(ada.id);
    await status.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(OUTPUT, 'api-reference.png'), fullPage: false });
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('GraphiQL (/graphql) loads from the server alone and runs a query with the token header', { timeout: 90_000 }, async () => {
    const ada = await s.newUser('Grace Hopper');
    const { page, problems } = await openPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(s.endpoint) && !request.url().startsWith('blob:') && !request.url().startsWith('data:')) outside.push(request.url());
    });
    await page.goto(`${s.endpoint}/graphql`, { waitUntil: 'load' });
    await page.waitForSelector('.graphiql-query-editor .monaco-editor', { timeout: 30_000 });
    // The schema loaded with no token: the documentation explorer knows the Query type.
    await page.click('button[aria-label="Show Documentation Explorer"]');
    await expect.poll(async () => page.locator('.graphiql-doc-explorer').innerText(), { timeout: 20_000 }).toContain('Query');

    // Type what a user types: the query, then the token into the headers editor (open by default).
    await typeInto(page, '.graphiql-query-editor .monaco-editor', '{ user { id displayName } }');
    await typeInto(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden) .monaco-editor', JSON.stringify({ Authorization: `Bearer ${ada.token}` }));
    await page.click('.graphiql-execute-button');
    await expect.poll(async () => page.locator('.graphiql-response').innerText(), { timeout: 20_000 }).toContain(ada.id);
    expect(await page.locator('.graphiql-response').innerText()).toMatch(/Grace\s+Hopper/);
    await page.screenshot({ path: path.join(OUTPUT, 'graphiql.png'), fullPage: false });
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  });
});
