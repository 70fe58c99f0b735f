import { isIP } from 'node:net';
import type { Db } from '../../db/client.ts';

/**
 * Which hosts are published sites' own hostnames: a request on one is a reader's, whatever its path
 * (request-classification.ts sends it to the reader). The set is read from the sites table and read
 * again when it is a few seconds old and a request comes on a host that is not the server's own — so a
 * hostname set through the API is served within seconds on every instance, with no shared state, and
 * requests on the server's own hosts never wait for it.
 */
const FRESH_MS = 5_000;

export class SiteHostnames {
  private hostnames = new Set<string>();
  private readAt = 0;
  private reading: Promise<void> | null = null;
  private readonly own: Set<string>;

  constructor(
    private readonly db: Db,
    /** The server's own URLs (PUBLIC_URL, PUBLISHED_URL): their hosts are never a site's. */
    ownUrls: string[],
  ) {
    this.own = new Set(ownUrls.map((url) => new URL(url).hostname.toLowerCase()));
  }

  /** A host that may be a site's: not the server's own, not an IP address or localhost. */
  foreign(hostname: string): boolean {
    const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
    return !this.own.has(host) && host !== 'localhost' && isIP(host) === 0 && host.length > 0;
  }

  has(hostname: string): boolean {
    return this.hostnames.has(hostname.toLowerCase());
  }

  /** Reads the set again when it is stale (one read at a time; a failed read keeps the last set). */
  async refresh(): Promise<void> {
    if (Date.now() - this.readAt < FRESH_MS) return;
    this.reading ??= this.db.site
      .findMany({ where: { hostname: { not: null }, published: true }, select: { hostname: true } })
      .then((rows) => {
        this.hostnames = new Set(rows.map((row) => row.hostname!.toLowerCase()));
        this.readAt = Date.now();
      })
      .catch(() => {
        this.readAt = Date.now();
      })
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }
}
