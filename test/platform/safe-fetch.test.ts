import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressRule, isPublicAddress, SafeFetchError, SafeFetcher, type SafeFetcherOptions } from '../../src/lib/safe-fetch.ts';
import { buildOrganization, buildSpace } from '../factories.ts';
import { restError } from '../support/assertions.ts';
import { useFixtureSite } from '../support/fixture-site.ts';
import { useHarness } from '../support/harness.ts';

/**
 * The guard on URLs users give (src/lib/safe-fetch.ts), with FETCH_ALLOW_PRIVATE off: loopback,
 * private, link-local and metadata addresses are refused whether written in the URL, behind a name, or
 * behind a redirect. Fixtures run on 127.0.0.x; for the redirect cases one of them (127.0.0.2) plays a
 * public host: the rule under test is then "public addresses, and 127.0.0.2".
 */
const site = useFixtureSite();

/** A server on 127.0.0.2 whose `/to?url=` redirects to that URL, `/loop` to itself, `/big` streams 2 MB. */
let relay: Server;
let relayOrigin = '';
beforeAll(async () => {
  relay = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/to') return void res.writeHead(302, { location: url.searchParams.get('url')! }).end();
    if (url.pathname === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (url.pathname === '/big') {
      // No Content-Length: the cap must hold while streaming.
      res.writeHead(200, { 'content-type': 'text/html' });
      for (let i = 0; i < 32; i++) res.write(Buffer.alloc(64 * 1024, 'a'));
      return void res.end();
    }
    if (url.pathname === '/hang') return; // never answers
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>relay</h1>');
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.2', resolve));
  relayOrigin = `http://127.0.0.2:${(relay.address() as AddressInfo).port}`;
});
afterAll(async () => {
  relay.closeAllConnections();
  await new Promise((resolve) => relay.close(resolve));
});

const options = (allowsAddress: SafeFetcherOptions['allowsAddress']): SafeFetcherOptions => ({ allowsAddress, timeoutMs: 1000, maxBytes: 1024 * 1024, maxRedirects: 3 });

async function failure(fetcher: SafeFetcher, url: string): Promise<SafeFetchError> {
  const error = await fetcher.fetch(url).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, url).toBeInstanceOf(SafeFetchError);
  return error as SafeFetchError;
}

describe('safe fetch: the address rule', () => {
  it('public unicast addresses only; IPv4 written as IPv6 is judged as IPv4', () => {
    const table: [string, boolean][] = [
      ['8.8.8.8', true],
      ['1.1.1.1', true],
      ['2001:4860:4860::8888', true],
      ['::ffff:8.8.8.8', true],
      ['127.0.0.1', false],
      ['127.0.0.2', false],
      ['10.1.2.3', false],
      ['172.16.0.1', false],
      ['192.168.1.1', false],
      ['169.254.169.254', false],
      ['100.64.0.1', false],
      ['0.0.0.0', false],
      ['224.0.0.1', false],
      ['255.255.255.255', false],
      ['::1', false],
      ['::', false],
      ['fe80::1', false],
      ['fd00:ec2::254', false],
      ['::ffff:127.0.0.1', false],
      ['::ffff:169.254.169.254', false],
      ['64:ff9b::7f00:1', false],
      ['not an address', false],
    ];
    for (const [address, allowed] of table) expect(isPublicAddress(address), address).toBe(allowed);
  });

  it('refuses loopback, private, link-local and metadata hosts, written as IPs or behind a name, before any request', async () => {
    const fetcher = new SafeFetcher(options(addressRule(false)));
    const port = new URL(site.origin).port;
    site.requests.length = 0;
    try {
      for (const url of [
        `${site.origin}/docs/`,
        `http://localhost:${port}/docs/`,
        `http://[::1]:${port}/docs/`,
        `http://[::ffff:127.0.0.1]:${port}/docs/`,
        `http://2130706433:${port}/docs/`,
        `http://0x7f.0.0.1:${port}/docs/`,
        `http://0.0.0.0:${port}/docs/`,
        'http://10.0.0.1/',
        'http://172.16.5.4:8080/',
        'http://192.168.0.1/',
        'http://169.254.169.254/latest/meta-data/',
        'http://[fd00:ec2::254]/latest/meta-data/',
        'http://100.100.100.200/latest/meta-data/',
      ]) {
        const error = await failure(fetcher, url);
        expect(error.code, `${url}: ${error.message}`).toBe('BLOCKED_ADDRESS');
        expect(error.message).toMatch(/non-public address/);
      }
      expect(site.requests).toEqual([]);
      // With the switch on, the same fixture answers.
      const open = new SafeFetcher(options(addressRule(true)));
      expect((await open.fetch(`${site.origin}/docs/`)).status).toBe(200);
      await open.close();
    } finally {
      await fetcher.close();
    }
  });

  it('checks every redirect hop: a public page redirecting to a private address is refused', async () => {
    // 127.0.0.2 plays the public internet; everything else keeps the rule.
    const fetcher = new SafeFetcher(options((address) => address === '127.0.0.2' || isPublicAddress(address)));
    const port = new URL(site.origin).port;
    site.requests.length = 0;
    try {
      expect((await fetcher.fetch(`${relayOrigin}/to?url=${encodeURIComponent(`${relayOrigin}/page`)}`)).url).toBe(`${relayOrigin}/page`);
      for (const target of [`http://127.0.0.1:${port}/docs/`, `http://localhost:${port}/docs/`, 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/']) {
        const error = await failure(fetcher, `${relayOrigin}/to?url=${encodeURIComponent(target)}`);
        expect(error.code, target).toBe('BLOCKED_ADDRESS');
      }
      expect(site.requests).toEqual([]);
      expect((await failure(fetcher, `${relayOrigin}/to?url=${encodeURIComponent('file:///etc/passwd')}`)).code).toBe('INVALID_URL');
      expect((await failure(fetcher, `${relayOrigin}/loop`)).code).toBe('TOO_MANY_REDIRECTS');
    } finally {
      await fetcher.close();
    }
  });

  it('caps the body while it streams, and gives up on a server that does not answer', async () => {
    const fetcher = new SafeFetcher(options(addressRule(true)));
    try {
      expect((await failure(fetcher, `${relayOrigin}/big`)).code).toBe('TOO_LARGE');
      const started = Date.now();
      expect((await failure(fetcher, `${relayOrigin}/hang`)).code).toBe('TIMEOUT');
      expect(Date.now() - started).toBeLessThan(2500);
      expect((await failure(fetcher, 'http://127.0.0.1:1/')).code).toBe('NETWORK');
    } finally {
      await fetcher.close();
    }
  });
});

describe('website import with FETCH_ALLOW_PRIVATE off (the default)', () => {
  const h = useHarness();
  it('answers 400 for a start URL on a loopback, private, link-local or metadata address, and fetches nothing', async () => {
    expect(h.config.fetch.allowPrivate).toBe(false);
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await buildSpace(admin, o);
    site.requests.length = 0;
    const port = new URL(site.origin).port;
    for (const url of [`${site.origin}/docs/`, `http://localhost:${port}/docs/`, 'http://10.0.0.1/docs/', 'http://169.254.169.254/latest/meta-data/']) {
      const message = restError(await admin.rest('POST', `/v1/spaces/${space.id}/content/import`, { url, source: 'website' }), 400, 'url');
      expect(message).toContain('non-public address');
    }
    expect(site.requests).toEqual([]);
    expect(await h.db.revision.count({ where: { spaceId: space.id } })).toBe(1);
  });
});
