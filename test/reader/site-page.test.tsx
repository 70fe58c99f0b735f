// The page layout of published sites (src/modules/reader/layout/): the HTML of a site page and an error
// page (head, landmarks, ARIA, escaping of hostile values), the stylesheet (variables, contrast, size) and
// the page script (parses, stays within budget, starts without errors on a page that has none of its
// elements). The script's behaviour in a browser is not checked here (no DOM library in the test process).
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { contentHash, readerAssetNames, readerCss, readerJs } from '../../src/modules/reader/layout/assets.ts';
import { renderErrorPage } from '../../src/modules/reader/layout/error-page.tsx';
import { BACKGROUNDS, themeStyle } from '../../src/modules/reader/layout/parts.tsx';
import { contrastRatio, emojiFaviconUrl, formTarget, readableOn, safeColor, safeHref, safeImageSrc } from '../../src/modules/reader/layout/safe-values.ts';
import { renderSitePage, THEME_BOOT_SCRIPT } from '../../src/modules/reader/layout/site-page.tsx';
import type { SitePageProps, TreeItem } from '../../src/modules/reader/layout/site-page-props.ts';

const doc = (over: Partial<TreeItem> & { title: string }): TreeItem => ({ kind: 'document', current: false, expanded: false, children: [], ...over });

function fullProps(): SitePageProps {
  return {
    lang: 'en',
    site: { title: 'Acme Docs', homeHref: '/acme/docs/', emoji: '🚀', logo: null, icon: null },
    theme: { primaryColor: { light: '#ffcc00', dark: '#346ddb' }, defaultMode: 'system', toggleable: true },
    headerLinks: [{ title: 'Blog', href: 'https://acme.example/blog' }],
    announcement: { message: 'Version 2 is out', link: { title: 'Read more', href: '/acme/docs/v2' }, style: 'warning' },
    tabs: [
      { kind: 'section', title: 'Guides', href: '/acme/docs/', current: true, icon: '📘' },
      { kind: 'group', title: 'Products', current: false, sections: [{ title: 'Rockets', href: '/acme/rockets/', current: false }] },
    ],
    variants: [
      { title: 'English', href: '/acme/docs/install', current: true, lang: 'en' },
      { title: 'Français', href: '/acme/docs/fr/install', current: false, lang: 'fr' },
    ],
    tree: [
      {
        kind: 'group',
        title: 'Getting started',
        current: false,
        expanded: true,
        children: [
          doc({ title: 'Guides', href: '/acme/docs/guides', expanded: true, children: [doc({ title: 'Install', href: '/acme/docs/guides/install', current: true, expanded: true })] }),
          doc({ title: 'Reference', href: '/acme/docs/reference', children: [doc({ title: 'API', href: '/acme/docs/reference/api' })] }),
          { kind: 'link', title: 'GitHub', href: 'https://github.com/acme', external: true, current: false, expanded: false, children: [] },
        ],
      },
    ],
    breadcrumbs: [{ title: 'Getting started', href: '/acme/docs/' }, { title: 'Guides', href: '/acme/docs/guides' }],
    page: {
      title: 'Install',
      description: 'Install Acme in five minutes.',
      emoji: '📦',
      cover: { url: '/files/cover.png', width: 1200, height: 400 },
      lastUpdated: '2025-03-04T10:00:00.000Z',
    },
    toc: [
      { id: 'requirements', title: 'Requirements', level: 1 },
      { id: 'on-linux', title: 'On Linux', level: 2 },
    ],
    previous: { title: 'Guides', href: '/acme/docs/guides' },
    next: { title: 'Configure', href: '/acme/docs/guides/configure' },
    content: (
      <div class="document">
        <h2 id="requirements">Requirements</h2>
        <p>Node.js</p>
      </div>
    ),
    meta: {
      canonicalUrl: 'https://docs.acme.example/guides/install',
      noIndex: false,
      alternates: [{ href: 'https://docs.acme.example/fr/guides/install', lang: 'fr' }, { href: 'https://docs.acme.example/x', lang: null }],
      description: null,
      image: '/files/social.png',
      markdownHref: '/acme/docs/guides/install.md',
    },
    assets: { css: '/_site/assets/reader.abc.css', js: '/_site/assets/reader.abc.js' },
    search: { href: '/acme/docs/~search' },
    footer: { copyright: '© 2025 Acme', groups: [{ title: 'Company', links: [{ title: 'About', href: 'https://acme.example/about' }] }] },
  };
}

function minimalProps(): SitePageProps {
  return {
    lang: 'en',
    site: { title: 'Tiny', homeHref: '/' },
    theme: { primaryColor: { light: '#0055ff', dark: '#88aaff' }, defaultMode: 'light', toggleable: false },
    headerLinks: [],
    tabs: [],
    variants: [],
    tree: [],
    breadcrumbs: [],
    page: { title: 'Home' },
    toc: [],
    content: 'Hello',
    meta: { canonicalUrl: 'https://tiny.example/', noIndex: false, alternates: [], markdownHref: '/index.md' },
    assets: { css: '/a.css', js: '/a.js' },
    search: { href: '/~search' },
  };
}

/** Every opening tag with that name, as written. */
const tags = (html: string, name: string) => html.match(new RegExp(`<${name}\\b[^>]*>`, 'g')) ?? [];
const count = (html: string, text: string) => html.split(text).length - 1;

describe('site page: the document and its head', () => {
  const html = renderSitePage(fullProps());

  it('is a complete HTML document in the site language, with the theme on <html>', () => {
    expect(html.startsWith('<!doctype html><html lang="en" data-theme="system" data-theme-toggleable')).toBe(true);
    expect(html).toContain('<meta charset="utf-8"/>');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(html).toContain('<title>Install – Acme Docs</title>');
    expect(html.endsWith('</body></html>')).toBe(true);
  });

  it('has the description, canonical, alternates, markdown link, OpenGraph and Twitter card', () => {
    expect(html).toContain('<meta name="description" content="Install Acme in five minutes."/>');
    expect(html).toContain('<link rel="canonical" href="https://docs.acme.example/guides/install"/>');
    expect(html).toContain('<link rel="alternate" hreflang="fr" href="https://docs.acme.example/fr/guides/install"/>');
    expect(html).not.toContain('https://docs.acme.example/x'); // an alternate without a language says nothing
    expect(html).toContain('<link rel="alternate" type="text/markdown" href="/acme/docs/guides/install.md"');
    for (const meta of [
      '<meta property="og:type" content="article"/>',
      '<meta property="og:title" content="Install"/>',
      '<meta property="og:description" content="Install Acme in five minutes."/>',
      '<meta property="og:url" content="https://docs.acme.example/guides/install"/>',
      '<meta property="og:site_name" content="Acme Docs"/>',
      // a relative image is made absolute against the canonical URL
      '<meta property="og:image" content="https://docs.acme.example/files/social.png"/>',
      '<meta name="twitter:card" content="summary_large_image"/>',
      '<meta name="twitter:title" content="Install"/>',
    ]) {
      expect(html).toContain(meta);
    }
    expect(html).not.toContain('name="robots"');
  });

  it('has an emoji favicon as a percent-encoded SVG, the stylesheet, the theme boot script and the deferred script', () => {
    const icon = tags(html, 'link').find((tag) => tag.includes('rel="icon"'))!;
    expect(icon).toContain(`href="${emojiFaviconUrl('🚀')}"`);
    expect(emojiFaviconUrl('🚀')).toMatch(/^data:image\/svg\+xml,%3Csvg[^<>"' ]*%F0%9F%9A%80[^<>"' ]*$/);
    expect(html).toContain('<link rel="stylesheet" href="/_site/assets/reader.abc.css"/>');
    expect(html).toContain(`<script>${THEME_BOOT_SCRIPT}</script>`);
    expect(html).toContain('<script src="/_site/assets/reader.abc.js" defer></script>');
    // The boot script comes before the stylesheet (it must not wait for it) and is a constant.
    expect(html.indexOf(THEME_BOOT_SCRIPT)).toBeLessThan(html.indexOf('rel="stylesheet"'));
    expect(THEME_BOOT_SCRIPT).not.toMatch(/<|&/);
    expect(() => new Script(THEME_BOOT_SCRIPT)).not.toThrow();
  });

  it('writes the primary colours as CSS variables, made readable on the theme backgrounds', () => {
    const style = /<style>([^<]*)<\/style>/.exec(html)![1];
    expect(style).toContain('--primary-brand:#ffcc00');
    expect(style).toContain('[data-theme=dark]{--primary:');
    expect(style).toContain('@media (prefers-color-scheme:dark){:root:not([data-theme=light],[data-theme=dark]){--primary:');
    const lightPrimary = /:root\{--primary:(#[0-9a-f]{6})/.exec(style)![1];
    for (const bg of BACKGROUNDS.light) expect(contrastRatio(lightPrimary, bg)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('site page: landmarks, navigation and ARIA', () => {
  const html = renderSitePage(fullProps());

  it('has a skip link to the main content, a banner, navigations, main, aside and footer', () => {
    expect(html).toContain('<a class="skip-link" href="#content">Skip to content</a>');
    expect(html).toContain('<main id="content" class="main" tabindex="-1">');
    expect(count(html, '<header class="site-header">')).toBe(1);
    expect(html).toContain('<nav class="tree-nav" aria-label="Pages">');
    expect(html).toContain('<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="/acme/docs/">Getting started</a></li>');
    expect(html).toContain('<aside class="toc"><nav class="toc-nav" aria-label="On this page">');
    expect(html).toContain('<footer class="site-footer">');
    expect(html).toContain('<section class="announcement" data-style="warning" aria-label="Announcement">');
    expect(html).toContain('<div id="reader-live" class="visually-hidden" role="status" aria-live="polite"></div>');
  });

  it('draws the page tree: groups as headings, the current page marked, its ancestors open, external links said', () => {
    expect(html).toContain('<h2 class="tree-heading">Getting started</h2>');
    expect(count(html, 'aria-current="page"')).toBe(1);
    expect(html).toContain('<a href="/acme/docs/guides/install" aria-current="page">Install</a>');
    // Guides (an ancestor) is open, Reference is closed: a <details> beside the link, never around it.
    expect(html).toMatch(/<a href="\/acme\/docs\/guides">Guides<\/a><details open><summary/);
    expect(html).toMatch(/<a href="\/acme\/docs\/reference">Reference<\/a><details><summary/);
    expect(html).toMatch(/<a class="external" href="https:\/\/github.com\/acme" rel="noopener">GitHub<span class="visually-hidden"> \(external\)<\/span>/);
    expect(html).not.toMatch(/<summary[^>]*>(?:(?!<\/summary>).)*<a /);
  });

  it('has the header: brand, section tabs with a group menu, variants, links, search form and theme toggle', () => {
    expect(html).toContain('<a class="brand" href="/acme/docs/"><span class="brand-emoji" aria-hidden="true">🚀</span><span class="brand-title">Acme Docs</span></a>');
    expect(html).toContain('<a class="section-tab" href="/acme/docs/" aria-current="true">');
    expect(html).toContain('<details class="menu"><summary class="section-tab">Products</summary>');
    expect(html).toContain('<a href="/acme/docs/fr/install" hreflang="fr" lang="fr">Français</a>');
    expect(html).toContain('<nav class="header-links links-wide" aria-label="Site links">');
    const form = tags(html, 'form')[0];
    expect(form).toBe('<form class="search" role="search" action="/acme/docs/~search" method="get" data-search="/acme/docs/~search">');
    expect(html).toContain('<label class="visually-hidden" for="search-input">Search</label>');
    const input = tags(html, 'input').find((tag) => tag.includes('id="search-input"'))!;
    expect(input).toContain('name="q"');
    expect(input).toContain('placeholder="Search… (press /)"');
    expect(html).toContain('<button type="button" class="icon-button theme-toggle" data-theme-toggle aria-pressed="false"');
    // The sidebar opens on narrow screens with a checkbox (no JavaScript needed).
    expect(html).toContain('<input type="checkbox" id="nav-toggle" class="nav-toggle" aria-controls="sidebar"/>');
    expect(html).toContain('<div class="sidebar" id="sidebar">');
  });

  it('has the page: cover, emoji and title, description, content, last update, previous and next', () => {
    expect(html).toContain('<img class="cover" src="/files/cover.png" alt width="1200" height="400"/>'); // alt="", decorative
    expect(html).toContain('<h1 class="page-title"><span class="page-emoji" aria-hidden="true">📦</span>Install</h1>');
    expect(count(html, '<h1')).toBe(1);
    expect(html).toContain('<p class="page-description">Install Acme in five minutes.</p>');
    expect(html).toContain('<div class="page-body"><div class="document"><h2 id="requirements">Requirements</h2><p>Node.js</p></div></div>');
    expect(html).toContain('Last updated <time datetime="2025-03-04T10:00:00.000Z">March 4, 2025</time>');
    expect(html).toMatch(/<a class="pager-prev" rel="prev" href="\/acme\/docs\/guides">.*?<span class="pager-title">Guides<\/span><\/a>/);
    expect(html).toMatch(/<a class="pager-next" rel="next" href="\/acme\/docs\/guides\/configure">/);
  });

  it('lists the headings on this page (the aside on wide screens, a details above the content on narrow ones)', () => {
    expect(count(html, '<nav class="toc-nav" aria-label="On this page">')).toBe(2);
    expect(html).toContain('<li class="toc-depth-0"><a href="#requirements">Requirements</a></li><li class="toc-depth-1"><a href="#on-linux">On Linux</a></li>');
    expect(html).toContain('<details class="toc-inline"><summary>On this page</summary>');
  });

  it('has the footer groups and copyright', () => {
    expect(html).toContain('<nav class="footer-groups" aria-label="Footer"><div class="footer-group"><h2>Company</h2><ul><li><a href="https://acme.example/about">About</a></li></ul></div></nav>');
    expect(html).toContain('<p class="copyright">© 2025 Acme</p>');
  });
});

describe('site page: what is absent', () => {
  it('draws minimal props without the optional parts', () => {
    const html = renderSitePage(minimalProps());
    // A site with neither icon nor emoji still names a favicon (a default emoji): else the browser asks the host's /favicon.ico.
    expect(tags(html, 'link').find((tag) => tag.includes('rel="icon"'))).toContain(`href="${emojiFaviconUrl('📄')}"`);
    expect(html).toContain('<html lang="en" data-theme="light">');
    expect(html).toContain('<title>Home – Tiny</title>');
    expect(html).toContain('<main id="content"');
    expect(html).toContain('<div class="page-body">Hello</div>');
    expect(html).toContain('<div class="layout no-sidebar"><main id="content"');
    for (const absent of [
      'name="robots"',
      'name="description"',
      'og:image',
      'data-theme-toggle ',
      'data-theme-toggleable>',
      'class="announcement"',
      'aria-label="Sections"',
      'aria-label="Variants"',
      'aria-label="Pages"',
      'aria-label="Breadcrumb"',
      'aria-label="On this page"',
      'rel="prev"',
      'rel="next"',
      '<time',
      'class="site-footer"',
      'class="cover"',
      'id="nav-toggle"',
      'class="sidebar"',
    ]) {
      expect(html, absent).not.toContain(absent);
    }
    expect(html).toContain('<meta name="twitter:card" content="summary"/>');
    expect(html).toContain('<meta name="color-scheme" content="light"/>');
  });

  it('says noindex only when asked', () => {
    const props = minimalProps();
    expect(renderSitePage(props)).not.toContain('noindex');
    props.meta.noIndex = true;
    expect(count(renderSitePage(props), '<meta name="robots" content="noindex"/>')).toBe(1);
  });

  it('uses the icon URLs as favicons (per colour scheme when they differ) and the logo in the header', () => {
    const props = minimalProps();
    props.site = { ...props.site, icon: { light: '/icon-light.png', dark: '/icon-dark.png' }, logo: { light: '/logo.png', dark: '/logo-dark.png' }, emoji: '🚀' };
    const html = renderSitePage(props);
    expect(html).toContain('<link rel="icon" href="/icon-light.png" media="(prefers-color-scheme: light)"/>');
    expect(html).toContain('<link rel="icon" href="/icon-dark.png" media="(prefers-color-scheme: dark)"/>');
    expect(html).not.toContain('data:image/svg+xml');
    expect(html).toContain('<img class="brand-logo when-light" src="/logo.png" alt="Tiny"/><img class="brand-logo when-dark" src="/logo-dark.png" alt="Tiny"/>');
  });
});

describe('site page: hostile values', () => {
  const EVIL = '<script>alert(1)</script>';
  const JS = 'javascript:alert(1)';

  function hostileProps(): SitePageProps {
    const props = fullProps();
    const link = { title: EVIL, href: JS };
    return {
      ...props,
      lang: '"><script>alert(1)</script>',
      site: { ...props.site, title: EVIL, homeHref: ' JaVaScRiPt:alert(1)', emoji: '"><script>alert(1)</script>', logo: { light: JS, dark: 'data:text/html,<script>alert(1)</script>' } },
      theme: { primaryColor: { light: 'red;}</style><script>alert(1)</script>', dark: 'url(javascript:alert(1))' }, defaultMode: 'evil' as never, toggleable: true },
      headerLinks: [link],
      announcement: { message: EVIL, link, style: 'evil' as never },
      tabs: [{ kind: 'section', title: EVIL, href: 'java\tscript:alert(1)', current: true, icon: EVIL }],
      variants: [
        { title: EVIL, href: JS, current: true, lang: '"><script>' },
        { title: EVIL, href: 'vbscript:msgbox(1)', current: false },
      ],
      tree: [doc({ title: EVIL, href: JS, emoji: EVIL, children: [doc({ title: EVIL, href: '\u0001javascript:alert(1)' })] })],
      breadcrumbs: [link],
      page: { title: EVIL, description: EVIL, emoji: EVIL, cover: { url: JS }, lastUpdated: 'not a date' },
      toc: [{ id: '"><script>alert(1)</script>', title: EVIL, level: 1 }],
      previous: link,
      next: link,
      content: EVIL,
      meta: { canonicalUrl: JS, noIndex: false, alternates: [{ href: JS, lang: 'fr' }], description: EVIL, image: JS, markdownHref: JS },
      assets: { css: JS, js: JS },
      search: { href: `${JS}?x=1` },
      footer: { copyright: EVIL, groups: [{ title: EVIL, links: [link] }] },
    };
  }

  const html = renderSitePage(hostileProps());

  it('escapes every text: the only scripts are the boot script and the page script', () => {
    expect(html).not.toContain('<script>alert');
    expect(count(html, '<script')).toBe(2);
    expect(html).toContain('&lt;script>alert(1)&lt;/script>');
    expect(html).toContain('<title>&lt;script>alert(1)&lt;/script></title>'); // page title = site title: said once
    // No attribute is broken out of: every quote inside a value is escaped.
    expect(html).not.toMatch(/="[^"]*"><script/);
  });

  it('draws no javascript:, vbscript: or data: URL in links, images or the head', () => {
    const flat = html.replace(/[\u0000-\u0020]/g, '').toLowerCase();
    expect(flat).not.toContain('javascript:');
    expect(flat).not.toContain('vbscript:');
    expect(flat).not.toContain('data:text');
    expect(html).toContain('<a class="brand" href="#">');
    expect(html).not.toContain('og:image');
    expect(html).not.toContain('og:url');
    expect(html).not.toContain('class="cover"');
  });

  it('drops colours that are not hex, an unknown theme mode, an invalid language and an unknown style', () => {
    expect(html).not.toContain('<style>');
    expect(html).not.toContain('red;');
    expect(html).toMatch(/^<!doctype html><html lang="en" data-theme="system" data-theme-toggleable>/);
    expect(html).toContain('<section class="announcement" data-style="info"');
    expect(html).not.toContain('hreflang="&quot;');
    expect(html).not.toContain('<time');
    expect(themeStyle({ primaryColor: { light: '#abc', dark: 'blue' }, defaultMode: 'light', toggleable: false })).toBe(':root{--primary:#aabbcc;--primary-brand:#abc}'.replace('#aabbcc', readableOn('#abc', [...BACKGROUNDS.light])));
  });

  it('checks URLs and colours strictly', () => {
    expect(safeHref('JAVASCRIPT:alert(1)')).toBe('#');
    expect(safeHref(' java\nscript:alert(1)')).toBe('#');
    expect(safeHref('data:text/html,x')).toBe('#');
    expect(safeHref('/docs/a?b=1#c')).toBe('/docs/a?b=1#c');
    expect(safeHref('https://example.com/')).toBe('https://example.com/');
    expect(safeHref('mailto:a@example.com')).toBe('mailto:a@example.com');
    expect(safeHref('#anchor')).toBe('#anchor');
    expect(safeImageSrc('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    expect(safeImageSrc('data:text/html,x')).toBeNull();
    expect(safeColor('#12345')).toBeNull();
    expect(safeColor('#12345g')).toBeNull();
    expect(safeColor('#AbCdEf')).toBe('#abcdef');
    expect(safeColor('#abcd')).toBe('#abcd');
    expect(formTarget('/s/~search?share=k&q=x')).toEqual({ action: '/s/~search', fields: [['share', 'k'], ['q', 'x']] });
  });

  it('keeps a query of the search URL as hidden fields (a GET form drops its action query)', () => {
    const props = minimalProps();
    props.search = { href: '/docs/~search?token=abc' };
    const html = renderSitePage(props);
    expect(html).toContain('action="/docs/~search" method="get" data-search="/docs/~search?token=abc"');
    expect(html).toContain('<input type="hidden" name="token" value="abc"/>');
  });
});

describe('error page', () => {
  it('draws the status, title, message and link in the site look, never indexed', () => {
    const props = fullProps();
    const html = renderErrorPage({ lang: 'fr', status: 404, title: 'Page not found', message: 'No such page.', link: { title: 'Home', href: '/acme/docs/' }, site: props.site, theme: props.theme, assets: props.assets });
    expect(html.startsWith('<!doctype html><html lang="fr" data-theme="system" data-theme-toggleable>')).toBe(true);
    expect(html).toContain('<title>Page not found – Acme Docs</title>');
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain('<link rel="stylesheet" href="/_site/assets/reader.abc.css"/>');
    expect(html).toContain('<span class="brand-title">Acme Docs</span>');
    expect(html).toContain('<p class="error-status">404</p><h1 class="error-title">Page not found</h1><p class="error-message">No such page.</p>');
    expect(html).toContain('<a href="/acme/docs/">Home</a>');
    expect(html).toContain('data-theme-toggle');
  });

  it('has no header without a site, and escapes its texts', () => {
    const html = renderErrorPage({ lang: 'en', status: 500, title: '<b>x</b>', message: '<i>y</i>', assets: { css: '/a.css', js: '/a.js' } });
    expect(html).not.toContain('site-header');
    expect(html).toContain('&lt;b>x&lt;/b>');
    expect(html).toContain('<main id="content"');
    expect(html).not.toContain('<style>');
  });
});

describe('stylesheet', () => {
  const css = readerCss();
  const VARIABLES = ['--primary', '--text', '--muted', '--border', '--surface', '--bg', '--code-bg', '--hint-info', '--hint-success', '--hint-warning', '--hint-danger'];

  /** The variables declared by the first rule with that selector (inside a media query or not). */
  function palette(selector: string): Record<string, string> {
    const at = css.indexOf(`${selector} {`);
    expect(at, selector).toBeGreaterThanOrEqual(0);
    const body = css.slice(at, css.indexOf('}', at));
    return Object.fromEntries([...body.matchAll(/(--[a-z-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
  }
  const light = palette(':root');
  const dark = palette('[data-theme=dark]');
  const system = palette(':root:not([data-theme=light], [data-theme=dark])');

  it('stays lean: a size budget', () => {
    expect(Buffer.byteLength(css)).toBeLessThanOrEqual(17 * 1024);
  });

  it('defines every shared variable in light and dark, and the system dark palette is the dark one', () => {
    for (const name of VARIABLES) {
      expect(light[name], `light ${name}`).toBeDefined();
      expect(dark[name], `dark ${name}`).toBeDefined();
    }
    expect(system).toEqual(dark);
    expect(css).toContain('@media (prefers-color-scheme: dark) {\n  :root:not([data-theme=light], [data-theme=dark]) {');
    expect([light['--bg'], light['--surface']]).toEqual(['#fff', BACKGROUNDS.light[1]]);
    expect([dark['--bg'], dark['--surface']]).toEqual([...BACKGROUNDS.dark]);
  });

  it('reaches WCAG AA contrast (4.5:1) for every text colour on every background, in both themes', () => {
    for (const [name, colours] of [['light', light], ['dark', dark]] as const) {
      for (const fg of ['--text', '--muted', '--primary', '--hint-info', '--hint-success', '--hint-warning', '--hint-danger']) {
        for (const bg of ['--bg', '--surface', '--code-bg']) {
          expect(contrastRatio(colours[fg], colours[bg]), `${name} ${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
        }
      }
    }
    // A brand colour too light to read (yellow) is darkened until it is.
    const yellow = readableOn('#ffdd00', [...BACKGROUNDS.light]);
    expect(contrastRatio(yellow, '#f5f6f8')).toBeGreaterThanOrEqual(4.5);
    expect(readableOn('#1f5fbf', [...BACKGROUNDS.light])).toBe('#1f5fbf');
  });

  it('has focus styles, reduced motion, print rules, and loads nothing from another origin', () => {
    expect(css).toContain(':focus-visible { outline: 2px solid var(--primary)');
    expect(css).toContain('@media (prefers-reduced-motion: reduce)');
    expect(css).toMatch(/@media print \{[\s\S]*\.site-header, [^{]*\.sidebar, \.toc, [^{]*button[^{]*\{ display: none !important; \}/);
    expect(css).toMatch(/@media print \{[\s\S]*a\.external::after, [^{]*\{ content: " \(" attr\(href\) "\)"/);
    expect(css).not.toMatch(/@import|url\(|@font-face/);
  });
});

describe('page script', () => {
  const js = readerJs();

  it('parses, stays within its budget and loads nothing from another origin', () => {
    expect(() => new Script(js, { filename: 'reader.js' })).not.toThrow();
    expect(() => new Function(js)).not.toThrow();
    expect(Buffer.byteLength(js)).toBeLessThanOrEqual(12 * 1024);
    expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|https?:\/\//);
  });

  it('starts without errors on a page that has none of its elements', () => {
    const errors: unknown[] = [];
    const listeners: string[] = [];
    const element = { dataset: {}, getAttribute: () => null, setAttribute: () => undefined };
    const fakeDocument = {
      documentElement: element,
      readyState: 'complete',
      querySelector: () => null,
      querySelectorAll: () => [],
      getElementById: () => null,
      addEventListener: (type: string) => listeners.push(type),
    };
    const context = {
      document: fakeDocument,
      window: {},
      matchMedia: () => ({ matches: false, addEventListener: () => undefined }),
      reportError: (error: unknown) => errors.push(error),
      Element: class {},
      console,
    };
    new Script(js).runInNewContext(context);
    expect(errors).toEqual([]);
    // Copy buttons, menus and shortcuts listen on the document (delegation), whatever the page holds.
    expect(listeners).toEqual(expect.arrayContaining(['click', 'keydown']));
  });
});

describe('assets', () => {
  it('reads the files once and names them by content hash', () => {
    expect(readerCss()).toBe(readerCss());
    expect(readerCss()).toContain('--hint-danger');
    expect(readerJs()).toContain('data-search');
    expect(contentHash('abc')).toBe('ba7816bf8f01');
    const names = readerAssetNames();
    expect(names.css).toMatch(/^reader\.[0-9a-f]{12}\.css$/);
    expect(names.js).toMatch(/^reader\.[0-9a-f]{12}\.js$/);
  });
});
