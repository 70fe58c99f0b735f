import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../lib/logger.ts';
import { clientIp } from './client-ip.ts';
import { ifNoneMatch } from './conditional-requests.ts';
import { compress, negotiateEncoding, type Encoding } from './content-encoding.ts';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id.ts';
import { findRequestState, type PageToRemember, type RememberedBody, type RequestState } from './request-state.ts';

/**
 * Public pages of published sites answered from memory, before the request reaches the GraphQL
 * server's pipeline (docs/published-sites.md, "Pages from memory"). A page that any visitor without
 * credentials would be answered the same way (a public or unlisted site, no adaptive content, no query string, no
 * visitor cookie) is remembered once the edge has answered it — with every header the edge added — and
 * the next such request for the same URL is answered from here: no lookup, no SQL, no plugin.
 *
 * Forgetting is what makes this correct. Everything a page is drawn from lives in tables whose writes
 * notify the channel `published_changes` at commit (migration …_published_change_notifications); every
 * instance LISTENs to it and forgets everything it remembered (`forget`). While an instance is not
 * listening (starting, or its listening connection lost) it remembers nothing and answers nothing from
 * here. A page rendered from data read before a change but offered after it is refused: each request
 * notes the generation it started in, and a page is remembered only if no change came in between. A
 * write through this instance forgets at once, without waiting for its own notification. Signed file
 * URLs in a page hold for the hour: a page is kept at most until the hour's end.
 */

interface RememberedPage extends PageToRemember {
  /** The headers the edge answered with, but those of one request or one encoding. */
  headers: [string, string][];
  route: string;
}

/** Headers that belong to one answer, not to the page: made again for each. */
const PER_ANSWER = new Set([REQUEST_ID_HEADER.toLowerCase(), 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'content-length', 'content-encoding', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/** Pages kept per instance (their compressed forms included). */
const MEMORY_BYTES = 32 * 1024 * 1024;

/** Counts a reader's request against their rate limit: the headers to add, or null when refused. */
export type PageRateLimit = (ip: string) => Promise<Record<string, string> | null>;

export interface PageMemoryOptions {
  trustProxy: number;
  logger: Logger;
  rateLimit?: PageRateLimit | null;
  /** The application's clock (epoch ms): what a remembered page's `expiresAt` is measured against. */
  now: () => number;
  /** Called for each answer given from memory (metrics). */
  observe?: (labels: { method: string; route: string; status: number }, seconds: number) => void;
}

export class PageMemory {
  private generation = 0;
  private listening = false;
  private readonly pages = new LRUCache<string, RememberedPage>({
    maxSize: MEMORY_BYTES,
    sizeCalculation: (page) => page.body.identity.length + (page.body.br?.length ?? 0) + (page.body.gzip?.length ?? 0) + 500,
  });
  /** Answers given from memory, since start (tests and benchmarks read it). */
  answered = 0;

  constructor(private readonly options: PageMemoryOptions) {}

  /** The generation a request starts in: a page read in it is remembered only if it is still current. */
  get current(): number {
    return this.generation;
  }

  /** Whether the instance follows the change notifications (nothing is remembered otherwise). */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.forget();
  }

  /** Something a page may be drawn from changed: every remembered page goes. */
  forget(): void {
    this.generation += 1;
    this.pages.clear();
  }

  remember(key: string, startedIn: number, page: RememberedPage): void {
    if (!this.listening || startedIn !== this.generation) return;
    this.pages.set(key, page);
  }

  recall(key: string, now: number): RememberedPage | undefined {
    if (!this.listening) return undefined;
    const page = this.pages.get(key);
    if (page && page.expiresAt <= now) {
      this.pages.delete(key);
      return undefined;
    }
    return page;
  }

  /**
   * Answers `req` from memory when it can: true when it took the request (answered, or handed to
   * `fallback` after all), false when the caller must answer it. Writes (any other method) make this
   * instance forget once they are answered.
   */
  serve(req: IncomingMessage, res: ServerResponse, fallback: (req: IncomingMessage, res: ServerResponse) => void): boolean {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      if (method !== 'OPTIONS') res.once('finish', () => this.forget());
      return false;
    }
    if (!this.listening || this.pages.size === 0) return false;
    const key = memoryKeyOf(headerGetter(req), req.url ?? '/', this.options.trustProxy);
    const page = key === null ? undefined : this.recall(key, this.options.now());
    if (!page) return false;
    void this.answer(req, res, page, method, fallback);
    return true;
  }

  private async answer(req: IncomingMessage, res: ServerResponse, page: RememberedPage, method: string, fallback: (req: IncomingMessage, res: ServerResponse) => void) {
    const start = performance.now();
    const headers = headerGetter(req);
    let limitHeaders: Record<string, string> = {};
    if (this.options.rateLimit) {
      const counted = await this.options.rateLimit(clientIp({ headers } as Request, { req }, this.options.trustProxy));
      // Over the limit: the pipeline answers the refusal, in the reader's shape.
      if (!counted) return fallback(req, res);
      limitHeaders = counted;
    }
    const requestId = requestIdFrom(headers.get(REQUEST_ID_HEADER));
    for (const [name, value] of page.headers) res.setHeader(name, value);
    for (const [name, value] of Object.entries(limitHeaders)) res.setHeader(name, value);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    let status = 200;
    if (ifNoneMatch(headers.get('if-none-match'), page.etag)) {
      status = 304;
      res.writeHead(304).end();
    } else {
      const encoding = negotiateEncoding(headers.get('accept-encoding'));
      const bytes = encodedBody(page.body, encoding);
      if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
      res.setHeader('Content-Length', bytes.length);
      res.writeHead(200);
      res.end(method === 'HEAD' ? undefined : bytes);
    }
    this.answered += 1;
    const seconds = (performance.now() - start) / 1000;
    this.options.observe?.({ method, route: page.route, status }, seconds);
    this.options.logger.info({ requestId, method, route: page.route, status, durationMs: Math.round(seconds * 100_000) / 100, fromMemory: true }, 'request');
  }
}

/** The body in `encoding`, compressed (and kept with the body) on first ask. */
function encodedBody(body: RememberedBody, encoding: Encoding): Buffer {
  if (encoding === 'identity') return body.identity;
  return (body[encoding] ??= compress(body.identity, encoding));
}

interface HeaderGetter {
  get(name: string): string | null;
}

function headerGetter(req: IncomingMessage): HeaderGetter {
  return {
    get: (name) => {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * The key a request's page is remembered by — its scheme, host and path — or null when its answer may
 * depend on more than that: a query string (share keys, visitor tokens, claims), a visitor cookie, a
 * credential, or an Origin (cross-origin answers carry CORS headers of their own).
 */
export function memoryKeyOf(headers: HeaderGetter, rawUrl: string, trustProxy: number): string | null {
  if (rawUrl.includes('?') || rawUrl.length > 2048) return null;
  if (headers.get('authorization') !== null || headers.get('origin') !== null) return null;
  if ((headers.get('cookie') ?? '').includes('gb_')) return null;
  const host = (headers.get('host') ?? '').toLowerCase();
  const forwarded = trustProxy > 0 && headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https';
  let path: string;
  try {
    path = new URL(rawUrl, 'http://memory.invalid').pathname;
  } catch {
    return null;
  }
  return `${forwarded ? 'https' : 'http'} ${host} ${path}`;
}

/**
 * The edge's side, as two plugins: `noteStart`, right after classification (before any route answers),
 * notes the generation each published-site request starts in; `remember`, last, remembers a page the
 * reader offered (`state.pageToRemember`) once the edge has answered it, with every header the plugins
 * before it added.
 */
export function usePageMemory(memory: PageMemory, trustProxy: number): { noteStart: Plugin; remember: Plugin } {
  const startedIn = new WeakMap<RequestState, number>();
  const noteStart: Plugin = {
    onRequest({ request, serverContext }) {
      const state = findRequestState(serverContext);
      if (state?.door === 'published-site' && request.method === 'GET') startedIn.set(state, memory.current);
    },
  };
  const remember: Plugin = {
    onResponse({ request, response, serverContext }) {
      const state = findRequestState(serverContext);
      const offered = state?.pageToRemember;
      const generation = state ? startedIn.get(state) : undefined;
      if (!state || !offered || generation === undefined || response.status !== 200 || response.headers.has('set-cookie')) return;
      const url = new URL(request.url);
      const key = memoryKeyOf(request.headers, `${url.pathname}${url.search}`, trustProxy);
      if (key === null) return;
      const headers = [...response.headers].filter(([name]) => !PER_ANSWER.has(name.toLowerCase()));
      memory.remember(key, generation, { ...offered, headers, route: state.route ?? url.pathname });
    },
  };
  return { noteStart, remember };
}
