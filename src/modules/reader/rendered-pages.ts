import { LRUCache } from 'lru-cache';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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

export type Encoding = 'br' | 'gzip' | 'identity';

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

export function compress(bytes: Buffer, encoding: Exclude<Encoding, 'identity'>): Buffer {
  // Brotli at quality 5: most of its gain for a fraction of the time of 11 (measured on a 40 KB page:
  // q5 ~1 ms, q11 ~60 ms); the result is kept, so it is paid once per page and encoding.
  return encoding === 'br'
    ? brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })
    : gzipSync(bytes, { level: 6 });
}

/** The encoding to answer with: brotli, then gzip, when the client accepts it (q=0 refuses). */
export function negotiateEncoding(acceptEncoding: string | null): Encoding {
  if (!acceptEncoding || acceptEncoding.length > 1000) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : 'identity';
}
