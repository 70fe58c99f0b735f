/**
 * Which URLs of a document the reader may put in an `href` or a `src`. A document's URLs are written by
 * anyone who can edit a page, so a scheme that runs or embeds something (`javascript:`, `data:`,
 * `vbscript:`, `file:` …) never reaches an attribute: the link becomes its text, the image its
 * alternative.
 *
 * The scheme is read the way the browser reads it, by the WHATWG URL parser (which drops leading
 * controls and spaces and tabs or newlines anywhere, so `java\tscript:` is `javascript:` here too), and
 * the string that was checked is the string written to the attribute.
 */

/** Longer URLs are not links (a real one is far shorter; the attribute would only bloat the page). */
export const MAX_URL_LENGTH = 8_192;

/** A base no real URL has: a relative URL resolves against it, an absolute one keeps its own host. */
const BASE = new URL('https://relative.invalid/');

export interface SafeHref {
  href: string;
  /** Another site (absolute URL, protocol-relative URL or `mailto:`): the link gets `rel="noopener noreferrer"`. */
  external: boolean;
}

function parse(raw: unknown, base?: URL): { text: string; url: URL } | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  if (!text || text.length > MAX_URL_LENGTH) return null;
  try {
    return { text, url: new URL(text, base) };
  } catch {
    return null;
  }
}

/** A link target: http(s), `mailto:`, or relative (a path, `?query` or `#anchor`); null for any other scheme. */
export function safeLinkHref(raw: unknown): SafeHref | null {
  const parsed = parse(raw, BASE);
  if (!parsed) return null;
  const { text, url } = parsed;
  if (url.protocol === 'mailto:') return { href: text, external: true };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return { href: text, external: url.host !== BASE.host };
}

/** A URL the server itself produced (a page's href, a file's signed URL): http(s) or relative. */
export function safeResourceUrl(raw: unknown): string | null {
  const parsed = parse(raw, BASE);
  if (!parsed || (parsed.url.protocol !== 'http:' && parsed.url.protocol !== 'https:')) return null;
  return parsed.text;
}

/** A URL written in a document for an image or an embed: absolute http(s) only. */
export function safeAbsoluteUrl(raw: unknown): { href: string; host: string } | null {
  const parsed = parse(raw);
  if (!parsed || (parsed.url.protocol !== 'http:' && parsed.url.protocol !== 'https:') || !parsed.url.host) return null;
  return { href: parsed.text, host: parsed.url.host };
}
