/** `If-None-Match` holding this strong ETag (or `*`). */
export function ifNoneMatch(header: string | null, etag: string): boolean {
  if (!header || header.length > 4096) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === etag || t === '*' || t === `W/${etag}`;
  });
}
