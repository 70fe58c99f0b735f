// The reader in a real browser for visitors who bring something (issue 25 §6): a share link, a visitor-auth
// backend's signed token, signed claims that open an adaptive section. Set-up and checks as in
// reader-browser.test.ts (reader-browser-kit.ts).
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { type Page } from 'playwright-core';
import { expectOk } from '../support/assertions.ts';
import { GUIDE_PAGES, readerSite } from '../support/reader-site.ts';
import { h, backend, openContext, expectNoProblems, shot, pathOf, visitorAuthSite, API_PAGES, useReaderBrowser, executablePath } from './reader-browser-kit.ts';

useReaderBrowser();

describe.skipIf(!executablePath)('the reader in a browser, for visitors with a link, a token or claims', () => {
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
});
