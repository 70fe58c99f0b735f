import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * Documentation sites shaped like the output of the usual generators, written for the website import's
 * tests (issue 39 §2): Docusaurus, MkDocs Material and GitBook. Each has 12 pages under /docs that only
 * the sidebar links (the content links one page), a page with a tab set, a callout and an expandable,
 * heading anchors, an "On this page" table of contents and a "Last updated" line, as those generators
 * write them. Not copies of their output: the parts the import reads, with their class names and roles.
 */
export type Generator = 'docusaurus' | 'mkdocs' | 'gitbook';

export const PAGES = ['intro', 'install', 'configure', 'deploy', 'upgrade', 'cli', 'api', 'auth', 'storage', 'logging', 'faq', 'changelog'];
const title = (slug: string) => slug[0].toUpperCase() + slug.slice(1);

/** The sidebar's sections (where the generator has them): the first three pages, then the rest. */
export const SECTIONS = { 'Getting started': PAGES.slice(0, 3), Reference: PAGES.slice(3) };

function sidebar(kind: Generator): string {
  const items = (slugs: string[]) => slugs.map((slug) => `<li><a href="/docs/${slug}"${kind === 'docusaurus' ? ' class="menu__link"' : ''}>${title(slug)}</a></li>`).join('');
  const sections = Object.entries(SECTIONS);
  if (kind === 'docusaurus') {
    // Categories without a page of their own: a link to "#" that opens the list.
    const categories = sections.map(([name, slugs]) => `<li class="theme-doc-sidebar-item-category menu__list-item"><div class="menu__list-item-collapsible"><a class="menu__link menu__link--sublist" href="#">${name}</a></div><ul class="menu__list">${items(slugs)}</ul></li>`).join('');
    return `<aside class="theme-doc-sidebar-container"><nav class="menu"><ul class="menu__list">${categories}</ul></nav></aside>`;
  }
  if (kind === 'mkdocs') {
    const navSections = sections.map(([name, slugs]) => `<li class="md-nav__item md-nav__item--section md-nav__item--nested"><label class="md-nav__link">${name}</label><nav class="md-nav"><ul class="md-nav__list">${items(slugs)}</ul></nav></li>`).join('');
    return `<div class="md-sidebar md-sidebar--primary"><nav class="md-nav md-nav--primary"><ul class="md-nav__list">${navSections}</ul></nav></div>`;
  }
  return `<aside><div class="summary"><ul>${items(PAGES)}</ul></div></aside>`;
}

function blocks(kind: Generator): string {
  if (kind === 'docusaurus') {
    return `<div class="tabs-container tabList_abc"><ul role="tablist" aria-orientation="horizontal" class="tabs"><li role="tab" tabindex="0" aria-selected="true" class="tabs__item">macOS</li><li role="tab" tabindex="-1" aria-selected="false" class="tabs__item">Linux</li></ul><div class="margin-top--md"><div role="tabpanel" class="tabItem_x"><p>Use brew.</p></div><div role="tabpanel" class="tabItem_x" hidden=""><p>Use apt.</p></div></div></div>
<div class="theme-admonition theme-admonition-warning admonition_LlT9 alert alert--warning"><div class="admonitionHeading_tbUL"><span class="admonitionIcon_kALy"><svg viewBox="0 0 16 16"></svg></span>warning</div><div class="admonitionContent_S0QG"><p>Back up first.</p></div></div>
<details class="details_lb9f alert alert--info"><summary>Advanced options</summary><div><p>Hidden until opened.</p></div></details>`;
  }
  if (kind === 'mkdocs') {
    return `<div class="tabbed-set tabbed-alternate" data-tabs="1:2"><input checked="checked" id="__tabbed_1_1" name="__tabbed_1" type="radio"><input id="__tabbed_1_2" name="__tabbed_1" type="radio"><div class="tabbed-labels"><label for="__tabbed_1_1">macOS</label><label for="__tabbed_1_2">Linux</label></div><div class="tabbed-content"><div class="tabbed-block"><p>Use brew.</p></div><div class="tabbed-block"><p>Use apt.</p></div></div></div>
<div class="admonition warning"><p class="admonition-title">Warning</p><p>Back up first.</p></div>
<details class="note"><summary>Advanced options</summary><p>Hidden until opened.</p></details>`;
  }
  return `<div class="tabs"><div role="tablist"><button role="tab" aria-selected="true">macOS</button><button role="tab" aria-selected="false">Linux</button></div><div role="tabpanel"><p>Use brew.</p></div><div role="tabpanel" hidden><p>Use apt.</p></div></div>
<div class="alert alert-warning hints-alert"><div class="hints-icon"><i class="icon-warning"></i></div><div class="hints-container"><p>Back up first.</p></div></div>
<details><summary>Advanced options</summary><p>Hidden until opened.</p></details>`;
}

function heading(kind: Generator, level: number, text: string, id: string): string {
  if (kind === 'docusaurus') return `<h${level} class="anchor" id="${id}">${text}<a href="#${id}" class="hash-link" aria-label="Direct link to ${text}" title="Direct link to ${text}">​</a></h${level}>`;
  if (kind === 'mkdocs') return `<h${level} id="${id}">${text}<a class="headerlink" href="#${id}" title="Permanent link">¶</a></h${level}>`;
  return `<h${level} id="${id}"><a href="#${id}" class="anchor-link">#</a>${text}</h${level}>`;
}

function chrome(kind: Generator): { toc: string; updated: string } {
  if (kind === 'docusaurus') {
    return {
      toc: `<div class="theme-doc-toc-mobile tocCollapsible_x"><button type="button" class="clean-btn tocCollapsibleButton_x">On this page</button></div>`,
      updated: `<footer class="theme-doc-footer docusaurus-mt-lg"><div class="row"><div class="col"><a href="https://github.com/acme/docs/edit/main/x.md" class="theme-edit-this-page">Edit this page</a></div><div class="col lastUpdated_x"><span class="theme-last-updated">Last updated on <b><time datetime="2026-11-01">Nov 1, 2026</time></b></span></div></div></footer>`,
    };
  }
  if (kind === 'mkdocs') {
    return {
      toc: '',
      updated: `<aside class="md-source-file"><span class="md-source-file__fact"><span title="Last update">Last update: November 1, 2026</span></span></aside>`,
    };
  }
  return {
    toc: `<div class="page-toc"><p>On this page</p></div>`,
    updated: `<div class="page-meta"><p>Last updated 3 days ago</p></div>`,
  };
}

export function generatorPage(kind: Generator, slug: string): string {
  const { toc, updated } = chrome(kind);
  const body =
    slug === 'install'
      ? `${heading(kind, 2, 'Requirements', 'requirements')}<p>Node.js and a database.</p>${blocks(kind)}`
      : `${heading(kind, 2, 'Overview', 'overview')}<p>About ${slug}: the zeppelin ${slug} guide.</p>`;
  const content = `<h1>${title(slug)}</h1>${toc}${body}${slug === 'intro' ? '<p>Start with the <a href="/docs/install">installation</a>.</p>' : ''}${updated}`;
  const main =
    kind === 'docusaurus'
      ? `<main class="docMainContainer_x"><div class="container"><div class="row"><div class="col docItemCol_x"><article><div class="theme-doc-markdown markdown">${content}</div></article></div><div class="col col--3"><div class="tableOfContents_x thin-scrollbar theme-doc-toc-desktop"><ul class="table-of-contents"><li><a href="#overview">Overview</a></li></ul></div></div></div></div></main>`
      : kind === 'mkdocs'
        ? `<main class="md-main"><div class="md-main__inner md-grid">${sidebar(kind)}<div class="md-content" data-md-component="content"><article class="md-content__inner md-typeset">${content}</article></div></div></main>`
        : `<main>${content}</main>`;
  return `<!doctype html><html><head><title>${title(slug)} | Acme</title></head><body><header><a href="/docs/intro">Acme</a></header>${kind === 'mkdocs' ? '' : sidebar(kind)}${main}<footer>© Acme</footer></body></html>`;
}

/** Serves one generator's site for the test file: /docs redirects to /docs/intro. */
export function useGeneratorSite(kind: Generator): { origin: string } {
  const site = { origin: '' };
  let server: Server;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
      if (path === '/docs') return void res.writeHead(302, { location: '/docs/intro' }).end();
      const slug = path.startsWith('/docs/') ? path.slice('/docs/'.length) : '';
      if (!PAGES.includes(slug)) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(generatorPage(kind, slug));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
  });
  return site;
}
