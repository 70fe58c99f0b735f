import type { TreeLeaf } from './store/content-tree.ts';
import { IsoDates, pageJson } from './page-json.ts';
import type { RevisionContent, PageEntry } from './store/revision-content.ts';

/**
 * A revision's page tree as the JSON text of `pageTreeJson` (GitBook's `RevisionPage` objects, children
 * nested under `pages`), written from per-page fragments instead of building and serializing 5,000
 * objects for every answer.
 *
 * A page's fragment is its JSON up to its children: `{"id":…,…,"pages":[`. It depends on the page
 * entry, the space (its app URL) and the app's URL only, so it is made once per leaf (a leaf never
 * changes) and shared by every revision holding that leaf: a revision made by a one-page edit renders
 * one leaf's fragments. The tree is then the fragments in depth-first order, each page closed (`]}`)
 * after its descendants, which the entries count.
 */
export function pageTreeText(content: RevisionContent, appUrl: string): string {
  const spaceId = content.revision.spaceId;
  // Concatenated, not joined: V8 keeps the pieces as a rope, flattened once when the answer is written.
  let text = '[';
  /** Position of the last descendant of each page still open, innermost last. */
  const open: number[] = [];
  let position = 0;
  let first = true;
  for (const leaf of content.pages.leaves) {
    const fragments = fragmentsOf(leaf, spaceId, appUrl);
    for (let i = 0; i < fragments.length; i++, position++) {
      text += first ? fragments[i] : `,${fragments[i]}`;
      const descendants = leaf.entries[i].descendants;
      if (descendants > 0) {
        open.push(position + descendants);
        first = true;
        continue;
      }
      text += ']}';
      while (open.length && open[open.length - 1] === position) {
        open.pop();
        text += ']}';
      }
      first = false;
    }
  }
  return `${text}]`;
}

interface LeafFragments {
  readonly key: string;
  readonly fragments: readonly string[];
}

/** Fragments by leaf: held as long as the leaf is (the leaf store and the content cache bound them). */
const rendered = new WeakMap<TreeLeaf<PageEntry>, LeafFragments>();

function fragmentsOf(leaf: TreeLeaf<PageEntry>, spaceId: string, appUrl: string): readonly string[] {
  // A leaf belongs to one space (page IDs are the space's); the key guards the rare other case.
  const key = `${spaceId} ${appUrl}`;
  const held = rendered.get(leaf);
  if (held?.key === key) return held.fragments;
  const isoDates = new IsoDates();
  const fragments = leaf.entries.map((page) => {
    const json = JSON.stringify(pageJson({ spaceId, page, pages: [] }, appUrl, isoDates));
    // `pages` is the last key of pageJson: `…,"pages":[]}` without its `]}`.
    return json.slice(0, -2);
  });
  rendered.set(leaf, { key, fragments });
  return fragments;
}
