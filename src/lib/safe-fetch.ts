import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch, type Dispatcher } from 'undici';

/**
 * Fetching a URL a user gave us (a website to import, an OpenAPI spec) without letting them reach what
 * only the server can: `http`/`https` only; no loopback, private, link-local, multicast, metadata or
 * otherwise non-public address — checked on the address each connection actually goes to (the DNS
 * answer is checked inside the connection's own lookup, so a name that resolves differently the second
 * time, or a redirect to such an address, is refused too); redirects followed a bounded number of times,
 * each hop checked again; a timeout per request; a cap on the body read.
 * `FETCH_ALLOW_PRIVATE` lifts the address rule (tests serve their fixtures on 127.0.0.1).
 */
export interface SafeFetcherOptions {
  /** Which addresses connections may go to: `isPublicAddress`, or anything (`FETCH_ALLOW_PRIVATE`). */
  allowsAddress: (address: string) => boolean;
  /** Per request (each redirect hop included), headers and body. */
  timeoutMs: number;
  /** Largest body read; a larger one fails with TOO_LARGE without being read whole. */
  maxBytes: number;
  maxRedirects: number;
}

export interface FetchOptions {
  /** Aborts the request (e.g. an import's total time budget). */
  signal?: AbortSignal;
  /** Media types accepted, by prefix (`text/html`); others fail with UNSUPPORTED_TYPE before the body is read. */
  accept?: string[];
}

/** The address rule of the configuration: public addresses only, unless private ones are allowed. */
export const addressRule = (allowPrivate: boolean): ((address: string) => boolean) => (allowPrivate ? () => true : isPublicAddress);

export type SafeFetchErrorCode =
  | 'INVALID_URL'
  | 'BLOCKED_ADDRESS'
  | 'TIMEOUT'
  | 'TOO_LARGE'
  | 'TOO_MANY_REDIRECTS'
  | 'HTTP_STATUS'
  | 'UNSUPPORTED_TYPE'
  | 'NETWORK';

export class SafeFetchError extends Error {
  constructor(
    readonly code: SafeFetchErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface FetchedResource {
  /** Where the body came from, after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Uint8Array<ArrayBuffer>;
}

/** Only addresses of the public internet: ipaddr.js's `unicast` range, IPv4-mapped IPv6 judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

const blocked = (host: string, address: string) =>
  new SafeFetchError(
    'BLOCKED_ADDRESS',
    `${host === address ? address : `${host} resolves to ${address}, which`} is a loopback, private, link-local or otherwise non-public address`,
  );

/**
 * A `lookup` for the connections of one agent: resolves every address of the name and refuses them all
 * if any is refused (a name answering both a public and a private address is not trusted).
 */
function guardedLookup(allowsAddress: (address: string) => boolean): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: any[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses: dns.LookupAddress[]) => {
      if (err) return callback(err);
      const refused = addresses.find((a) => !allowsAddress(a.address));
      if (refused) return callback(blocked(hostname, refused.address));
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  }) as net.LookupFunction;
}

/** An absolute http(s) URL, or a SafeFetchError saying what is wrong with it. */
export function parseHttpUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SafeFetchError('INVALID_URL', `"${value.slice(0, 200)}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SafeFetchError('INVALID_URL', `only http and https URLs can be fetched (got ${url.protocol})`);
  if (url.username || url.password) throw new SafeFetchError('INVALID_URL', 'URLs with credentials are not fetched');
  return url;
}

/** An IP written in the URL itself never reaches `lookup`: it is checked here. */
function checkLiteralHost(url: URL, allowsAddress: (address: string) => boolean) {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !allowsAddress(host)) throw blocked(host, host);
}

/** What undici's error (or its cause chain) says went wrong, as one of our codes. */
function networkError(err: unknown, url: URL): SafeFetchError {
  for (let cause: any = err; cause; cause = cause.cause) {
    if (cause instanceof SafeFetchError) return cause;
    if (cause?.name === 'TimeoutError' || cause?.code === 'UND_ERR_CONNECT_TIMEOUT' || cause?.code === 'UND_ERR_HEADERS_TIMEOUT' || cause?.code === 'UND_ERR_BODY_TIMEOUT') {
      return new SafeFetchError('TIMEOUT', `${url.origin} did not answer in time`);
    }
  }
  const reason = (err as any)?.cause?.code ?? (err as any)?.cause?.message ?? (err as Error)?.message ?? 'failed';
  return new SafeFetchError('NETWORK', `${url.origin} could not be reached (${reason})`);
}

async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number, url: URL): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (body) {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new SafeFetchError('TOO_LARGE', `${url.href} is larger than ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  }
  const out = new Uint8Array(new ArrayBuffer(size));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * One pool of connections, each going through the address rule; `close` it when done (an import makes
 * one for all its requests).
 */
export class SafeFetcher {
  private readonly agent: Agent;

  constructor(private readonly options: SafeFetcherOptions) {
    this.agent = new Agent({ connect: { lookup: guardedLookup(options.allowsAddress) }, connections: 8 });
  }

  /**
   * GETs `target`, following redirects itself so that each hop's URL is checked as the first was.
   * Answers the final 2xx response; anything else is a SafeFetchError.
   */
  fetch(target: string | URL, options: FetchOptions = {}): Promise<FetchedResource> {
    return fetchThrough(this.agent, typeof target === 'string' ? parseHttpUrl(target) : target, { ...this.options, ...options });
  }

  /**
   * One request of any method, its body given whole, for protocols that POST (Git's smart HTTP): the
   * address rule and the timeout as for `fetch`, the answer's body capped at `maxBytes`, and no redirect
   * followed (a redirect is answered as it came). Any status is answered; the caller reads it.
   */
  async request(target: string, init: { method: string; headers: Record<string, string>; body?: Uint8Array }): Promise<{ url: string; status: number; statusText: string; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> }> {
    const url = parseHttpUrl(target);
    checkLiteralHost(url, this.options.allowsAddress);
    let response: Awaited<ReturnType<typeof fetch>>;
    try {
      response = await fetch(url, { dispatcher: this.agent, method: init.method, headers: init.headers, body: init.body, redirect: 'manual', signal: AbortSignal.timeout(this.options.timeoutMs) });
    } catch (err) {
      throw networkError(err, url);
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > this.options.maxBytes) {
      await response.body?.cancel();
      throw new SafeFetchError('TOO_LARGE', `${url.href} is larger than ${this.options.maxBytes} bytes`);
    }
    let body: Uint8Array<ArrayBuffer>;
    try {
      body = await readCapped(response.body as ReadableStream<Uint8Array> | null, this.options.maxBytes, url);
    } catch (err) {
      throw err instanceof SafeFetchError ? err : networkError(err, url);
    }
    return { url: url.href, status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers), body };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

async function fetchThrough(agent: Dispatcher, start: URL, options: SafeFetcherOptions & FetchOptions): Promise<FetchedResource> {
  let url = start;
  for (let hop = 0; ; hop++) {
    checkLiteralHost(url, options.allowsAddress);
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Awaited<ReturnType<typeof fetch>>;
    try {
      response = await fetch(url, { dispatcher: agent, redirect: 'manual', signal, headers: { accept: options.accept?.join(', ') ?? '*/*', 'user-agent': 'docs-platform-import/1' } });
    } catch (err) {
      throw networkError(err, url);
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel();
      if (hop >= options.maxRedirects) throw new SafeFetchError('TOO_MANY_REDIRECTS', `more than ${options.maxRedirects} redirects from ${url.href}`);
      url = parseHttpUrl(new URL(response.headers.get('location')!, url).href);
      continue;
    }
    if (response.status < 200 || response.status >= 300) {
      await response.body?.cancel();
      throw new SafeFetchError('HTTP_STATUS', `${url.href} answered ${response.status}`, response.status);
    }
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (options.accept && !options.accept.some((type) => contentType.startsWith(type))) {
      await response.body?.cancel();
      throw new SafeFetchError('UNSUPPORTED_TYPE', `${url.href} is ${contentType || 'of no declared type'}, not ${options.accept.join(' or ')}`);
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > options.maxBytes) {
      await response.body?.cancel();
      throw new SafeFetchError('TOO_LARGE', `${url.href} is larger than ${options.maxBytes} bytes`);
    }
    try {
      return { url: url.href, status: response.status, contentType, body: await readCapped(response.body as ReadableStream<Uint8Array> | null, options.maxBytes, url) };
    } catch (err) {
      throw err instanceof SafeFetchError ? err : networkError(err, url);
    }
  }
}
