/**
 * A percent-encoded part of a URL (a path segment, a fragment) decoded for use as text — a page ID, a
 * file name, a title. Text that cannot be stored or shown as it decodes (malformed escapes, which
 * `decodeURIComponent` throws on, or a NUL, which PostgreSQL text cannot hold) stays as written.
 */
export function decodeUriPart(part: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(part);
  } catch {
    return part;
  }
  return decoded.includes('\u0000') ? part : decoded;
}
