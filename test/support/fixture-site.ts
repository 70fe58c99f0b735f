import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * A small documentation website on a 127.0.0.1 listener of the test's own, for the website import:
 * nested pages under /docs, relative and absolute links, a 404 link, a redirect, a PDF, a slow page,
 * images (one missing), pages outside the prefix and scripts and navigation to strip. Every request it
 * receives is recorded (`requests`), to prove what the crawler did not fetch.
 */
export interface FixtureSite {
  /** `http://<host>:<port>` */
  origin: string;
  requests: string[];
}

/** A 1×1 PNG, and a 3×2 GIF (image-size reads the dimensions from the header). */
export const LOGO_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
export const DIAGRAM_GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([3, 0, 2, 0]), Buffer.alloc(24)]);

const layout = (title: string, main: string) => `<!doctype html>
<html><head><title>${title} | Acme</title><script>window.tracker = 1;</script><style>body { color: red }</style></head>
<body>
<header><a href="/docs/">Acme</a> <a href="/pricing">Pricing</a></header>
<nav><ul><li><a href="/docs/">Home</a></li><li><a href="/docs/guide/">Guide</a></li><li><a href="/blog/post">Blog</a></li></ul></nav>
<main>${main}<script>document.write('injected')</script></main>
<footer>Copyright Acme <a href="/legal">Legal</a></footer>
</body></html>`;

export const SITE: Record<string, (origin: string) => string> = {
  '/docs/': () =>
    layout(
      'Acme Docs',
      `<h1>Acme Docs</h1><p>Welcome to the <strong>Acme</strong> documentation. Start with the <a href="guide/">guide</a> or read <a href="about">about us</a>.</p>
       <p><img src="img/logo.png" alt="Acme logo"></p>`,
    ),
  '/docs/guide': () =>
    layout(
      'Guide',
      `<h1>Guide</h1><p>Two steps: <a href="install">install</a>, then <a href="/docs/guide/configure#options">configure</a>.</p>
       <p>Back to <a href="../about">about</a>.</p>`,
    ),
  '/docs/guide/install': (origin) =>
    layout(
      'Installing',
      `<h1>Installing Acme</h1><p>Acme runs on a zeppelin cluster.</p>
       <h2>Requirements</h2><ul><li>Node.js</li><li>A <em>database</em></li></ul>
       <pre><code class="language-sh">npm install acme</code></pre>
       <p>See the <a href="${origin}/docs/missing">missing page</a> and the <a href="configure">configuration</a>.</p>
       <p><img src="../img/diagram.gif" alt="Diagram"> <img src="/docs/img/broken.png" alt="Broken"></p>`,
    ),
  '/docs/guide/configure': () =>
    layout(
      'Configure',
      `<h1>Configure</h1><h2 id="options">Options</h2>
       <table><thead><tr><th>Name</th><th>Default</th></tr></thead><tbody><tr><td>port</td><td>4000</td></tr></tbody></table>`,
    ),
  '/docs/about': () =>
    layout(
      'About',
      `<h1>About</h1><p>We are <a href="https://example.com/">Acme</a>. Read our <a href="/blog/post">blog</a>,
       mail <a href="mailto:hello@acme.test">us</a>, see the <a href="/docs/deep/nested/page">deep page</a>,
       the <a href="redirect">old about</a>, the <a href="file.pdf">PDF</a> and the <a href="slow">slow page</a>.</p>`,
    ),
  '/docs/deep/nested/page': () => layout('Deep', '<h1>Deep page</h1><p>Far down.</p>'),
  '/blog/post': () => layout('Blog', '<h1>Blog post</h1><p>Outside the docs.</p>'),
};

async function serve(site: FixtureSite, req: IncomingMessage, res: ServerResponse) {
  const path = (req.url ?? '/').split('?')[0];
  site.requests.push(path);
  if (path === '/docs') return void res.writeHead(301, { location: '/docs/' }).end();
  if (path === '/docs/redirect') return void res.writeHead(302, { location: '/docs/about' }).end();
  if (path === '/docs/file.pdf') return void res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
  if (path === '/docs/img/logo.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(LOGO_PNG);
  if (path === '/docs/img/diagram.gif') return void res.writeHead(200, { 'content-type': 'image/gif' }).end(DIAGRAM_GIF);
  if (path === '/docs/slow') {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html' }).end(layout('Slow', '<h1>Slow</h1>'));
    return;
  }
  const page = SITE[path === '/docs/' ? path : path.replace(/\/+$/, '')];
  if (!page) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(site.origin));
}

/** Serves the fixture site on `host` (127.0.0.1 by default) for the test file. */
export function useFixtureSite(host = '127.0.0.1'): FixtureSite {
  const site: FixtureSite = { origin: '', requests: [] };
  let server: Server;
  beforeAll(async () => {
    server = createServer((req, res) => void serve(site, req, res));
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    site.origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
  });
  return site;
}
