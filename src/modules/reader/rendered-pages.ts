import { LRUCache } from 'lru-cache';
import { compress, type Encoding } from '../../http/content-encoding.ts';

export { compress, negotiateEncoding, type Encoding } from '../../http/content-encoding.ts';

/**
 * Rendered pages by fingerprint (reader-page.ts): the bytes of a page never change for one fingerprint,
 * so they are kept — within a byte budget — with their compressed forms, made once on first ask. Nothing
 * is ever purged: a merge or a publish changes the fingerprint, and the old bytes age out. Each instance
 * keeps its own; all make the same bytes for the same fingerprint.
 */
export interface RenderedBody {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** Rendered pages kept per instance: a 500-page site's pages take about 20 MB with their compressed forms. */
const CACHE_BYTES = 64 * 1024 * 1024;

export class RenderedPages {
  private readonly cache = new LRUCache<string, RenderedBody>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (body) => body.identity.length + (body.br?.length ?? 0) + (body.gzip?.length ?? 0) + 200,
  });

  get(key: string): RenderedBody | undefined {
    return this.cache.get(key);
  }

  put(key: string, html: string): RenderedBody {
    const body = { identity: Buffer.from(html) };
    this.cache.set(key, body);
    return body;
  }

  /** The body in the encoding asked for, compressed (and kept) on first ask. */
  encoded(key: string, body: RenderedBody, encoding: Encoding): Buffer {
    if (encoding === 'identity') return body.identity;
    let bytes = body[encoding];
    if (!bytes) {
      bytes = compress(body.identity, encoding);
      body[encoding] = bytes;
      // Re-set so the cache counts the new size (and may let something older go).
      if (this.cache.has(key)) this.cache.set(key, body);
    }
    return bytes;
  }
}
