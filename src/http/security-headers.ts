import { createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { findRequestState } from './request-state.ts';

/**
 * Headers on every response. The API answers JSON (and XML metadata) to programs, plus one HTML page,
 * GraphiQL; these headers make sure none of it can be turned against a browser:
 * - `X-Content-Type-Options: nosniff`: a browser must not guess a type, e.g. run a JSON body as script;
 * - `X-Frame-Options: DENY` (and CSP `frame-ancestors 'none'` for current browsers): no page can frame
 *   ours to trick a user into clicking (clickjacking);
 * - `Referrer-Policy: no-referrer`: URLs, which may hold IDs, do not leak to other sites;
 * - `Content-Security-Policy`: for JSON, `default-src 'none'` — a body opened as a document loads and runs
 *   nothing; for GraphiQL, exactly what that page loads (see `htmlPolicy`); a route that sets its own
 *   keeps it (the published sites' pages, whose policy the reader states beside the pages it draws);
 *   so does a route that sets its own `X-Frame-Options` or `Referrer-Policy` (the reader's again).
 * - `Cache-Control: no-store` on every authenticated answer (private data; the admin route's body holds a
 *   new token): no shared or browser cache keeps a copy — unless the route set its own (an answer
 *   addressed by revision, which never changes: `private`, see rest/responses.ts).
 */
const EDGE_DEFAULTS: [string, string][] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
];

export function useSecurityHeaders(): Plugin {
  const htmlPolicies = new Map<string, string>();
  return {
    async onResponse({ response, serverContext }) {
      const headers = response.headers;
      // The edge sets each header only where the route has not: a route that states its own (the
      // reader's pages: framed by their own site, links that tell other sites where they came from)
      // keeps it.
      for (const [name, value] of EDGE_DEFAULTS) if (!headers.has(name)) headers.set(name, value);
      if (headers.has('Content-Security-Policy')) {
        // The route wrote its own policy (the reader's pages: modules/reader/reader.http.ts).
      } else if ((headers.get('content-type') ?? '').startsWith('text/html')) {
        // The page is the same for every request: compute its policy once.
        const html = await response.clone().text();
        let policy = htmlPolicies.get(html);
        if (!policy) {
          policy = htmlPolicy(html);
          htmlPolicies.clear();
          htmlPolicies.set(html, policy);
        }
        headers.set('Content-Security-Policy', policy);
      } else {
        headers.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
      }
      if (findRequestState(serverContext)?.auth && !headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
    },
  };
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** An attribute of a tag, quoted or not (Yoga's GraphiQL page is minified and leaves URLs unquoted). */
function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}=(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/** A CSP source for a URL of the page: itself when absolute, `'self'` when relative. */
const source = (url: string) => (/^https?:\/\//i.test(url) ? url : "'self'");

/**
 * The policy of an HTML page (GraphiQL), read from the page itself so that it allows exactly what the
 * page loads and keeps doing so when Yoga changes the page (another version, or assets served locally):
 * - each inline `<script>` by its SHA-256 hash (no 'unsafe-inline' for scripts), each `<script src>` by URL;
 * - each stylesheet `<link>` by URL; styles also need 'unsafe-inline', because the Monaco editor inside
 *   GraphiQL injects `<style>` elements at run time (styles cannot run code);
 * - the icon `<link>` and data: images, data: fonts (graphiql.css embeds its fonts);
 * - `connect-src`: this origin only (the GraphQL endpoint; GraphiQL is served whole from the npm package,
 *   and starts the editor's web workers from `blob:` URLs, hence `worker-src blob:`).
 */
export function htmlPolicy(html: string): string {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const images = new Set<string>(['data:']);
  const connects = new Set<string>(["'self'"]);
  for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const src = attribute(attributes, 'src');
    if (src) {
      scripts.add(source(src));
      continue;
    }
    scripts.add(sha256(body));
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = (attribute(tag, 'rel') ?? '').toLowerCase().split(/\s+/);
    const href = attribute(tag, 'href');
    if (!href) continue;
    if (rel.includes('stylesheet')) styles.add(source(href));
    else if (rel.includes('icon')) images.add(source(href));
  }
  return [
    "default-src 'none'",
    `script-src ${[...scripts].join(' ')}`,
    `style-src ${[...styles, "'unsafe-inline'"].join(' ')}`,
    `img-src ${[...images].join(' ')}`,
    'font-src data:',
    `connect-src ${[...connects].join(' ')}`,
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
