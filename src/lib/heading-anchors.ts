/**
 * Headings' anchors within one page, as GitBook writes them: lower case, letters and digits of any
 * script kept, runs of anything else one dash, at most 100 characters (`section` when nothing is left);
 * `-1`, `-2` … for a repeat. Search indexes sections by these anchors and the reader gives its headings
 * these ids, so a search result lands on its heading: both make them here. The next suffix to try is
 * kept per slug, so 10,000 headings with one title cost 10,000 steps, not 50 million.
 */
export class HeadingAnchors {
  private readonly taken = new Set<string>();
  private readonly nextSuffix = new Map<string, number>();

  /** The anchor of the page's next heading. */
  next(heading: string): string {
    const base = trimDashes(heading.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-')).slice(0, 100) || 'section';
    let n = this.nextSuffix.get(base) ?? 0;
    let anchor = n === 0 ? base : `${base}-${n}`;
    while (this.taken.has(anchor)) anchor = `${base}-${++n}`;
    this.nextSuffix.set(base, n + 1);
    this.taken.add(anchor);
    return anchor;
  }
}

/** Leading and trailing dashes removed (a `-+$` regex rescans a run of dashes from each of its positions). */
function trimDashes(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '-') start++;
  while (end > start && text[end - 1] === '-') end--;
  return text.slice(start, end);
}
