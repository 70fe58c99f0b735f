import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs stay true: the README is a short front door; every relative link of the README and of
 * `docs/` names a file that exists (and, with `#…`, a heading in it); every citation of the docs in the
 * code — `docs/api/sites.md, "Who may"` — names a file and a heading that exist; every source file a
 * page names in backticks exists.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext) && !e.parentPath.includes('generated'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

const pages = ['README.md', ...filesUnder('docs', '.md')];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function headingsOf(file: string): string[] {
  return [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1].trim());
}

describe('docs', () => {
  it('the README is a front door: at most 250 lines', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  it('every relative link of the README and docs/ resolves, anchors included', () => {
    const broken: string[] = [];
    let links = 0;
    for (const page of pages) {
      // Links, not code that looks like one: fenced blocks and inline code are left out.
      const text = readFileSync(path.join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        links++;
        const [file, anchor] = target.split('#');
        const resolved = file ? path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, page)), file)) : page;
        if (!existsSync(path.join(ROOT, resolved))) {
          broken.push(`${page}: ${target} (no ${resolved})`);
          continue;
        }
        if (anchor && !headingsOf(resolved).some((h) => slug(h) === anchor)) broken.push(`${page}: ${target} (no heading #${anchor})`);
      }
    }
    expect(links).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });

  it('every citation of the docs in src/ and test/ names a file and a heading that exist', () => {
    const broken: string[] = [];
    let citations = 0;
    for (const file of [...filesUnder('src', '.ts'), ...filesUnder('test', '.ts')]) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/((?:README|docs\/[\w/.-]+)\.md),\s*\\?"([^"\\]+)\\?"((?:\s+and\s+\\?"[^"\\]+\\?")*)/g)) {
        citations++;
        const [, doc, first, more] = m;
        if (!existsSync(path.join(ROOT, doc))) {
          broken.push(`${file}: ${doc} does not exist`);
          continue;
        }
        const headings = headingsOf(doc);
        const cited = [first, ...[...(more ?? '').matchAll(/"([^"\\]+)\\?"/g)].map((x) => x[1])];
        for (const heading of cited) if (!headings.includes(heading)) broken.push(`${file}: ${doc} has no heading "${heading}"`);
      }
      for (const m of text.matchAll(/README,?\s+\\?"([^"\\]+)/g)) broken.push(`${file}: cites the README's old section "${m[1]}"`);
    }
    expect(citations).toBeGreaterThan(10);
    expect(broken).toEqual([]);
  });

  it('every source file a page names in backticks exists', () => {
    const missing: string[] = [];
    for (const page of pages.filter((p) => !p.startsWith('docs/reference/'))) {
      const text = readFileSync(path.join(ROOT, page), 'utf8');
      for (const [, named] of text.matchAll(/`((?:src|test|prisma)\/[\w/.-]+\.(?:ts|mjs|md|prisma|sh))`/g)) {
        if (!existsSync(path.join(ROOT, named))) missing.push(`${page}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
