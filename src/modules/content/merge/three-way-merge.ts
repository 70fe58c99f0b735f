import { merge as diff3Merge } from 'node-diff3';
import type { ContentSequence, TreeLeaf } from '../store/content-tree.ts';
import type { FileEntry, PageEntry, RevisionContent } from '../store/revision-content.ts';
import { draftPageOf, RevisionDraft, type DraftPage } from '../store/revision-draft.ts';

/**
 * A three-way merge of two revisions of one space that share a base: a change request's revision
 * ("ours") and the space's active one ("theirs"). Pages and files changed on one side only are taken
 * from that side; a page body changed on both sides is merged line by line (node-diff3), and lines both
 * sides changed differently are kept as both versions between conflict markers, and reported.
 *
 * It costs what the sides changed: each side is compared with the base by its tree (leaves both hold
 * are skipped by their hash, src/modules/content/store/content-tree.ts), and the result is a draft of theirs
 * that takes in what ours changed — a one-page change in a 5,000-page space handles that page and its
 * siblings, and the writer rewrites the leaf it sits in.
 */

export interface MergeConflict {
  page: string;
  title: string;
  /**
   * `content`: both sides changed the same lines (markers in the body until someone resolves them);
   * `deleted-in-change-request` / `deleted-on-main`: one side deleted a page the other edited, and the
   * edited page was kept.
   */
  type: 'content' | 'deleted-in-change-request' | 'deleted-on-main';
}

export interface MergeResult {
  draft: RevisionDraft;
  conflicts: MergeConflict[];
}

export const CONFLICT_START = '<<<<<<< change request';
export const CONFLICT_END = '>>>>>>> main';

/** True while a body still holds conflict markers from a merge. */
export function hasConflictMarkers(markdown: string): boolean {
  return markdown.split('\n').some((line) => line.startsWith('<<<<<<< ') || line.startsWith('>>>>>>> '));
}

const METADATA = ['title', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'slug', 'type'] as const;

function sameJson(a: unknown, b: unknown) {
  return a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Did this side change the page relative to the base (any field but its place in the tree)? */
function edited(base: PageEntry, side: PageEntry): boolean {
  return (
    METADATA.some((field) => base[field] !== side[field]) ||
    base.documentHash !== side.documentHash ||
    !sameJson(base.layout, side.layout) ||
    !sameJson(base.cover, side.cover) ||
    !sameJson(base.computed, side.computed)
  );
}

/** A page's entry before and after one side's changes (absent: added, or removed). */
interface Change<E> {
  before?: E;
  after?: E;
}

/**
 * What changed from one sequence to another, by ID: only entries of leaves the two do not share are
 * looked at (an entry sits in exactly one leaf of each tree, so an ID found in a leaf of one side only
 * was added or removed unless the other side's new leaves hold it too).
 */
export function sequenceChanges<E extends { id: string }>(from: ContentSequence<E>, to: ContentSequence<E>, same: (a: E, b: E) => boolean): Map<string, Change<E>> {
  const changes = new Map<string, Change<E>>();
  if (from.root === to.root) return changes;
  const fromLeaves = new Set(from.leaves.map((leaf) => leaf.hash));
  const toLeaves = new Set(to.leaves.map((leaf) => leaf.hash));
  const visit = (leaves: readonly TreeLeaf<E>[], others: Set<string>, side: 'before' | 'after') => {
    for (const leaf of leaves) {
      if (others.has(leaf.hash)) continue;
      for (const entry of leaf.entries) {
        let change = changes.get(entry.id);
        if (!change) changes.set(entry.id, (change = {}));
        change[side] = entry;
      }
    }
  };
  visit(from.leaves, toLeaves, 'before');
  visit(to.leaves, fromLeaves, 'after');
  for (const [id, change] of changes) {
    if (change.before && change.after && (change.before === change.after || same(change.before, change.after))) changes.delete(id);
  }
  return changes;
}

/** Two page entries hold the same (their place in the tree included). */
export function samePage(a: PageEntry, b: PageEntry): boolean {
  return (
    a.parentId === b.parentId &&
    a.prev === b.prev &&
    a.path === b.path &&
    a.descendants === b.descendants &&
    !edited(a, b) &&
    a.createdAt.getTime() === b.createdAt.getTime() &&
    a.updatedAt.getTime() === b.updatedAt.getTime()
  );
}

const sameFile = (a: FileEntry, b: FileEntry) => a.name === b.name && a.blobHash === b.blobHash && a.contentType === b.contentType && a.size === b.size;

/** What each side changed from the base. */
interface Sides {
  ours: Map<string, Change<PageEntry>>;
  theirs: Map<string, Change<PageEntry>>;
}

function sidesOf(base: RevisionContent, ours: RevisionContent, theirs: RevisionContent): Sides {
  return { ours: sequenceChanges(base.pages, ours.pages, samePage), theirs: sequenceChanges(base.pages, theirs.pages, samePage) };
}

/** A page as the three revisions hold it (base, ours, theirs), for a page ours changed. */
function versionsOf(id: string, change: Change<PageEntry>, sides: Sides) {
  const b = change.before;
  const theirs = sides.theirs.get(id);
  const t = theirs ? theirs.after : b;
  return { b, o: change.after, t };
}

/** Hashes whose bodies a merge of these sides reads: pages whose body changed on both sides. */
export function hashesToMerge(base: RevisionContent, ours: RevisionContent, theirs: RevisionContent): string[] {
  const sides = sidesOf(base, ours, theirs);
  const hashes = new Set<string>();
  for (const [id, change] of sides.ours) {
    const { b, o, t } = versionsOf(id, change, sides);
    if (!o || !t) continue;
    const baseHash = b?.documentHash ?? null;
    if (o.documentHash !== t.documentHash && o.documentHash !== baseHash && t.documentHash !== baseHash) {
      for (const hash of [o.documentHash, t.documentHash, baseHash]) if (hash) hashes.add(hash);
    }
  }
  return [...hashes];
}


/** One page both sides hold: each field from the side that changed it (ours when both did). */
function mergePage(b: PageEntry | undefined, o: PageEntry, t: PageEntry, bodies: ReadonlyMap<string, string>, conflicts: MergeConflict[], now: Date): DraftPage {
  const page = draftPageOf(o);
  const pick = <K extends (typeof METADATA)[number]>(field: K) => (b && o[field] === b[field] ? t[field] : o[field]);
  page.title = pick('title');
  page.emoji = pick('emoji');
  page.icon = pick('icon');
  page.noIndex = pick('noIndex');
  page.noRobotsIndex = pick('noRobotsIndex');
  page.cover = b && sameJson(o.cover, b.cover) ? t.cover : o.cover;
  page.description = pick('description');
  page.hidden = pick('hidden');
  page.slug = pick('slug');
  page.type = pick('type');
  page.layout = b && sameJson(o.layout, b.layout) ? t.layout : o.layout;
  page.computed = b && sameJson(o.computed, b.computed) ? t.computed : o.computed;
  page.updatedAt = o.updatedAt > t.updatedAt ? o.updatedAt : t.updatedAt;

  const baseHash = b?.documentHash ?? null;
  if (o.documentHash === t.documentHash || t.documentHash === baseHash) page.documentHash = o.documentHash;
  else if (o.documentHash === baseHash) page.documentHash = t.documentHash;
  else {
    // Both sides changed the body: merge it line by line.
    const lines = (hash: string | null) => (hash === null ? [] : (bodies.get(hash) ?? '').split('\n'));
    const result = mergeLines(lines(o.documentHash), lines(baseHash), lines(t.documentHash));
    page.markdown = result.lines.join('\n');
    page.updatedAt = now;
    if (result.conflict) conflicts.push({ page: page.id, title: page.title, type: 'content' });
  }
  return page;
}

/**
 * Did a side move the page: another parent, or another place among the siblings both it and the base
 * have (pages inserted or removed around it do not count as moving it)? `before` and `after` are the
 * children of its parent in the base and on that side.
 */
function moved(base: PageEntry, side: PageEntry, before: readonly string[], after: readonly string[]): boolean {
  if (base.parentId !== side.parentId) return true;
  const previous = (list: readonly string[], keep: readonly string[]) => {
    const kept = new Set(keep);
    let last: string | null = null;
    for (const id of list) {
      if (id === base.id) return last;
      if (kept.has(id)) last = id;
    }
    return last;
  };
  return previous(before, after) !== previous(after, before);
}

/**
 * Merges `ours` and `theirs` against `base`: the result is a draft of theirs with what ours
 * changed taken in. `bodies` gives the markdown of every document hash that has to be merged line by
 * line (see `hashesToMerge`).
 */
export function mergeRevisions(base: RevisionContent, ours: RevisionContent, theirs: RevisionContent, bodies: ReadonlyMap<string, string>, now: Date): MergeResult {
  const sides = sidesOf(base, ours, theirs);
  const conflicts: MergeConflict[] = [];
  const draft = new RevisionDraft(theirs);
  /** Pages whose place follows ours (ours added or moved them), with the parent ours gives them. */
  const placedByOurs = new Map<string, string | null>();
  /** Pages ours deleted that theirs did not edit: they go (their kept children to the top level). */
  const dropped = new Set<string>();
  /** Pages the result holds that theirs does not: added to the draft when placed. */
  const added = new Map<string, DraftPage>();
  /** Pages whose slug may now collide with a sibling's, by ID. */
  const renamed = new Set<string>();

  for (const [id, change] of sides.ours) {
    const { b, o, t } = versionsOf(id, change, sides);
    if (o && t) {
      const page = mergePage(b, o, t, bodies, conflicts, now);
      const own = draft.own(id)!;
      if (own.slug !== page.slug) renamed.add(id);
      Object.assign(own, { ...page, parentId: own.parentId });
      if (page.markdown === undefined) delete own.markdown;
      // The change request's place wins when it moved the page (also when main moved it too).
      if (!b || moved(b, o, base.children(b.parentId), ours.children(o.parentId))) placedByOurs.set(id, o.parentId);
    } else if (o) {
      // Not on main: added by the change request (keep), or deleted on main (keep only if the change request edited it).
      if (b && !edited(b, o)) continue;
      if (b) conflicts.push({ page: id, title: o.title, type: 'deleted-on-main' });
      added.set(id, draftPageOf(o));
      placedByOurs.set(id, o.parentId);
    } else if (t && b) {
      if (edited(b, t)) conflicts.push({ page: id, title: t.title, type: 'deleted-in-change-request' });
      else dropped.add(id);
    }
  }

  const present = (id: string) => (added.has(id) || draft.peek(id) !== undefined) && !dropped.has(id);
  // Each page's parent in the result: the placing side's, the top level when that parent is gone.
  const parentOf = new Map<string, string | null>();
  const parentIn = (id: string): string | null => {
    const known = parentOf.get(id);
    if (known !== undefined) return known;
    const wanted = placedByOurs.has(id) ? placedByOurs.get(id)! : (draft.peek(id)?.parentId ?? null);
    return wanted !== null && present(wanted) ? wanted : null;
  };
  const affected = new Set<string | null>();
  for (const id of placedByOurs.keys()) {
    parentOf.set(id, parentIn(id));
    if (draft.peek(id)) affected.add(draft.peek(id)!.parentId);
  }
  for (const id of dropped) {
    affected.add(draft.peek(id)!.parentId);
    for (const child of theirs.children(id)) {
      if (!present(child) || placedByOurs.has(child)) continue;
      parentOf.set(child, null);
      affected.add(id);
    }
  }
  breakCycles(placedByOurs, parentOf, parentIn, ours, theirs, present);
  for (const [id, parentId] of parentOf) {
    affected.add(parentId);
    if (draft.peek(id)) affected.add(draft.peek(id)!.parentId);
  }

  // Every changed list of children, in the order the merge gives it; the rest stay as theirs has them.
  const finalParent = (id: string) => (parentOf.has(id) ? parentOf.get(id)! : (draft.peek(id)?.parentId ?? null));
  const mergedOrder = (id: string) => {
    const inOurs = ours.pages.positionOf(id);
    return inOurs !== -1 ? inOurs : ours.pages.length + theirs.pages.positionOf(id);
  };
  const lists = new Map<string | null, string[]>();
  for (const parentId of affected) {
    if (parentId !== null && !present(parentId)) continue;
    const order = theirs.children(parentId).filter((id) => present(id) && finalParent(id) === parentId && !placedByOurs.has(id));
    const ourOrder = parentId === null || ours.page(parentId) ? ours.children(parentId) : [];
    const inOrder = new Set(order);
    const others = [...parentOf.keys()].filter((id) => parentOf.get(id) === parentId && present(id) && !inOrder.has(id));
    const index = new Map(ourOrder.map((id, i) => [id, i]));
    others.sort((a, b) => (index.get(a) ?? Number.MAX_SAFE_INTEGER) - (index.get(b) ?? Number.MAX_SAFE_INTEGER) || mergedOrder(a) - mergedOrder(b));
    for (const id of others) {
      // After the sibling before it in the change request, else before the one after it, else last.
      const at = index.get(id) ?? -1;
      const placed = new Set(order);
      let before: string | undefined;
      for (let i = at - 1; i >= 0 && before === undefined; i--) if (placed.has(ourOrder[i])) before = ourOrder[i];
      let after: string | undefined;
      if (at >= 0) for (let i = at + 1; i < ourOrder.length && after === undefined; i++) if (placed.has(ourOrder[i])) after = ourOrder[i];
      if (before !== undefined) order.splice(order.indexOf(before) + 1, 0, id);
      else if (after !== undefined) order.splice(order.indexOf(after), 0, id);
      else order.push(id);
    }
    lists.set(parentId, order);
  }

  // Into the draft: pages gone, pages added, lists of children replaced.
  for (const id of dropped) draft.drop(id);
  for (const [id, page] of added) draft.put({ ...page, parentId: finalParent(id) });
  for (const [parentId, order] of lists) draft.setChildren(parentId, order);

  // Two pages given the same slug by the two sides: the later one among its siblings gets a free variant.
  const slugParents = new Set<string | null>(lists.keys());
  for (const id of [...renamed, ...added.keys()]) slugParents.add(finalParent(id));
  for (const parentId of slugParents) {
    if (parentId !== null && !draft.peek(parentId)) continue;
    const taken = new Set<string>();
    for (const id of draft.children(parentId)) {
      const slug = draft.peek(id)!.slug;
      if (taken.has(slug)) {
        let free = slug;
        for (let n = 2; taken.has(free); n++) free = `${slug.slice(0, 95)}-${n}`;
        draft.own(id)!.slug = free;
        taken.add(free);
      } else taken.add(slug);
    }
  }

  mergeFiles(draft, base, ours);
  return { draft, conflicts };
}

/**
 * Breaks cycles (each side moved a page under the other's): such a page goes to the top level. Only
 * pages below a page ours placed can be in one (theirs alone has none), visited in the merged order.
 */
function breakCycles(
  placedByOurs: ReadonlyMap<string, string | null>,
  parentOf: Map<string, string | null>,
  parentIn: (id: string) => string | null,
  ours: RevisionContent,
  theirs: RevisionContent,
  present: (id: string) => boolean,
) {
  if (!placedByOurs.size) return;
  const below = new Map<string | null, string[]>();
  for (const id of placedByOurs.keys()) {
    const parent = parentIn(id);
    below.set(parent, [...(below.get(parent) ?? []), id]);
  }
  const childrenOf = (id: string) => [...theirs.children(id).filter((child) => present(child) && !placedByOurs.has(child)), ...(below.get(id) ?? [])];
  const candidates: string[] = [];
  const seen = new Set<string>();
  const stack = [...placedByOurs.keys()];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    candidates.push(id);
    stack.push(...childrenOf(id));
  }
  const order = (id: string) => {
    const at = ours.pages.positionOf(id);
    return at !== -1 ? at : ours.pages.length + theirs.pages.positionOf(id);
  };
  candidates.sort((a, b) => order(a) - order(b));
  const parent = (id: string) => (parentOf.has(id) ? parentOf.get(id)! : parentIn(id));
  for (const id of candidates) {
    const visited = new Set<string>();
    for (let at: string | null = id; at !== null; at = parent(at)) {
      if (visited.has(at)) {
        parentOf.set(id, null);
        break;
      }
      visited.add(at);
    }
  }
}

/** Files are never edited in place: one added on either side stays, one removed on either side goes. */
function mergeFiles(draft: RevisionDraft, base: RevisionContent, ours: RevisionContent) {
  for (const [id, change] of sequenceChanges(base.files, ours.files, sameFile)) {
    if (change.after && !change.before) {
      if (!draft.files.has(id)) draft.files.set(id, change.after);
    } else if (change.before && !change.after) draft.files.delete(id);
  }
}

/**
 * The most work the line merges of one page may take, in node-diff3's units (matching line pairs times
 * the shorter side: its LCS scans a list of candidates for every matching pair, so 2,000 identical lines
 * changed on both sides took 8.8 s). About half a second here; past it, the body is reported as a
 * conflict (ours kept), as a person has to look at such a page anyway.
 */
const MAX_MERGE_WORK = 200_000_000;
/** The most lines (of the three sides together) node-diff3 is given at once. */
const MAX_REGION_LINES = 60_000;

/**
 * A three-way line merge that costs what changed: the sides are cut at anchors — lines that occur once
 * in each side, in the same order in all three (as patience diff does) — into regions merged one by one:
 * a region one side left alone takes the other side's lines; node-diff3 merges the rest. Two edits far
 * apart in a page of 20,000 lines are two small regions, not one diff of the whole page; a page without
 * anchors (the same line repeated) is one region, bounded by MAX_MERGE_WORK.
 */
export function mergeLines(o: string[], b: string[], t: string[]): { lines: string[]; conflict: boolean } {
  const merged: string[] = [];
  let conflict = false;
  let work = 0;
  let from = { o: 0, b: 0, t: 0 };
  for (const anchor of [...anchorsOf(o, b, t), { o: o.length, b: b.length, t: t.length }]) {
    const region = mergeRegion(o.slice(from.o, anchor.o), b.slice(from.b, anchor.b), t.slice(from.t, anchor.t));
    work += region.work;
    if (work > MAX_MERGE_WORK) return { lines: o, conflict: true };
    for (const line of region.lines) merged.push(line);
    conflict ||= region.conflict;
    if (anchor.b < b.length) merged.push(b[anchor.b]);
    from = { o: anchor.o + 1, b: anchor.b + 1, t: anchor.t + 1 };
  }
  return { lines: merged, conflict };
}

/**
 * Lines occurring once in each side, kept in the same order in all three: in base order, the longest run
 * increasing in ours, then of those the longest increasing in theirs (a line one side moved is no anchor).
 */
function anchorsOf(o: readonly string[], b: readonly string[], t: readonly string[]): { o: number; b: number; t: number }[] {
  const once = (side: readonly string[]) => {
    const positions = new Map<string, number>();
    const seen = new Set<string>();
    side.forEach((line, i) => (seen.has(line) ? positions.delete(line) : (seen.add(line), positions.set(line, i))));
    return positions;
  };
  const [inO, inB, inT] = [once(o), once(b), once(t)];
  const candidates: { o: number; b: number; t: number }[] = [];
  for (const [line, at] of inB) {
    const [po, pt] = [inO.get(line), inT.get(line)];
    if (po !== undefined && pt !== undefined) candidates.push({ o: po, b: at, t: pt });
  }
  return longestIncreasing(longestIncreasing(candidates, (c) => c.o), (c) => c.t);
}

/** The longest subsequence of `items` whose `key` increases (patience sorting, n log n). */
function longestIncreasing<T>(items: readonly T[], key: (item: T) => number): T[] {
  const tails: number[] = [];
  const previous: number[] = [];
  items.forEach((item, i) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (key(items[tails[mid]]) < key(item)) low = mid + 1;
      else high = mid;
    }
    previous[i] = low > 0 ? tails[low - 1] : -1;
    tails[low] = i;
  });
  const result: T[] = [];
  for (let i = tails.length ? tails[tails.length - 1] : -1; i !== -1; i = previous[i]) result.push(items[i]);
  return result.reverse();
}

/** One region between anchors: the side that changed it wins; both: node-diff3, with its work counted. */
function mergeRegion(o: string[], b: string[], t: string[]): { lines: string[]; conflict: boolean; work: number } {
  const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((line, i) => line === y[i]);
  if (same(o, b) || same(o, t)) return { lines: t, conflict: false, work: 0 };
  if (same(t, b)) return { lines: o, conflict: false, work: 0 };
  const work = diffWork(o, b) + diffWork(t, b);
  // node-diff3 also spreads runs of lines into a call's arguments, which overflows past ~120,000.
  if (work > MAX_MERGE_WORK || o.length + b.length + t.length > MAX_REGION_LINES) return { lines: o, conflict: true, work };
  const merged = diff3Merge(o, b, t, { label: { a: 'change request', b: 'main' }, excludeFalseConflicts: true });
  return { lines: merged.result, conflict: merged.conflict, work };
}

/** node-diff3's LCS work for two sides: their matching line pairs times the shorter side's length. */
function diffWork(a: readonly string[], b: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const line of b) counts.set(line, (counts.get(line) ?? 0) + 1);
  let pairs = 0;
  for (const line of a) pairs += counts.get(line) ?? 0;
  return pairs * Math.min(a.length, b.length);
}
