/**
 * A page's title written as the first line of its markdown (`# Title`, optionally closed by `#`s), as
 * GitBook reads markdown: the heading is the page's title, not part of its body. Writing or importing
 * such markdown takes the title from it (unless one is given that differs) and keeps the heading out of
 * the body, so that readers do not show the title twice; the page's `.md` puts it back on top.
 *
 * Read by hand, line by line: the regex it replaces (`^\s*#\s+(.+?)\s*#*\s*$`) backtracked in time
 * cubic in a line of spaces (4,000 characters took 49 s).
 */
export interface LeadingTitle {
  title: string;
  /** The markdown after the heading line, without the blank lines that followed it. */
  body: string;
}

export function leadingTitleOf(markdown: string): LeadingTitle | null {
  let from = 0;
  // Skip blank lines to the first written one.
  for (;;) {
    const end = markdown.indexOf('\n', from);
    const line = markdown.slice(from, end === -1 ? markdown.length : end);
    if (line.trim() !== '') {
      const title = headingOneText(line);
      if (title === undefined) return null;
      let rest = end === -1 ? markdown.length : end + 1;
      // The blank lines between the heading and the body belong to neither.
      for (;;) {
        const next = markdown.indexOf('\n', rest);
        if (next === -1 || markdown.slice(rest, next).trim() !== '') break;
        rest = next + 1;
      }
      return { title, body: markdown.slice(rest) };
    }
    if (end === -1) return null;
    from = end + 1;
  }
}

/** The text of an ATX level-1 heading line (`# Title #`), or undefined when the line is none. */
function headingOneText(line: string): string | undefined {
  const trimmed = line.trim();
  // At most three spaces of indentation (four make a code block), then `#` and a space: `##` is level 2.
  if (line.length - line.trimStart().length > 3 || !trimmed.startsWith('#') || !/^\s/.test(trimmed.slice(1))) return undefined;
  let title = trimmed.slice(1).trim();
  let end = title.length;
  while (end > 0 && title[end - 1] === '#') end--;
  // A closing sequence must follow a space (`# C#` keeps its `#`).
  if (end < title.length && end > 0 && !/\s/.test(title[end - 1])) end = title.length;
  title = title.slice(0, end).trimEnd();
  return title || undefined;
}

/** The page's markdown as a file: its title as the leading heading, then the body. */
export function withLeadingTitle(title: string, body: string): string {
  const heading = `# ${title.replace(/\s+/g, ' ').trim()}`;
  return body.trim() === '' ? `${heading}\n` : `${heading}\n\n${body.replace(/^\s*\n/, '')}`;
}
