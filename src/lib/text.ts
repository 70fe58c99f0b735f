/** PostgreSQL text cannot hold U+0000: a NUL, raw or as the JSON escape `\u0000`, is refused up front. */
export function containsNul(text: string): boolean {
  return text.includes('\u0000') || text.includes('\\u0000');
}
