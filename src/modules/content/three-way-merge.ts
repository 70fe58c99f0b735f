import { merge as diff3Merge } from 'node-diff3';
import type { File, Page } from '../../generated/prisma/client.ts';
import { RevisionDraft, type DraftPage } from './revision-draft.ts';

/**
 * A three-way merge of two revisions of one space that share a base: a change request's revision
 * ("ours") and the space's active one ("theirs"). Pages and files changed on one side only are taken
 * from that side; a page body changed on both sides is merged line by line (node-diff3), and lines both
 * sides changed differently are kept as both versions between conflict markers, and reported.
 */
export interface RevisionSide {
  pages: readonly Page[];
  files: readonly File[];
}

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

const METADATA = ['title', 'emoji', 'description', 'hidden', 'slug', 'type'] as const;

function sameJson(a: Page['layout'], b: Page['layout']) {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Did this side change the page relative to the base (any field but its place in the tree)? */
function edited(base: Page, side: Page): boolean {
  return (
    METADATA.some((field) => base[field] !== side[field]) ||
    base.documentHash !== side.documentHash ||
    !sameJson(base.layout, side.layout) ||
    !sameJson(base.computed, side.computed)
  );
}

/**
 * Did a side move the page: another parent, or another place among the siblings both it and the base
 * have (pages inserted or removed around it do not count as moving it)?
 */
function moved(base: Page, side: Page, baseChildren: Map<string | null, string[]>, sideChildren: Map<string | null, string[]>): boolean {
  if (base.parentId !== side.parentId) return true;
  const before = baseChildren.get(base.parentId) ?? [];
  const after = sideChildren.get(side.parentId) ?? [];
  const previous = (list: string[], keep: string[]) => {
    const kept = list.filter((id) => keep.includes(id));
    return kept[kept.indexOf(base.id) - 1] ?? null;
  };
  return previous(before, after) !== previous(after, before);
}

function sortedChildren(pages: readonly Page[]): Map<string | null, string[]> {
  const byParent = new Map<string | null, Page[]>();
  for (const page of pages) {
    const list = byParent.get(page.parentId) ?? [];
    list.push(page);
    byParent.set(page.parentId, list);
  }
  const ordered = new Map<string | null, string[]>();
  for (const [parent, list] of byParent) {
    list.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));
    ordered.set(
      parent,
      list.map((p) => p.id),
    );
  }
  return ordered;
}

/**
 * Merges `ours` and `theirs` against `base`. `bodies` gives the markdown of every document hash that
 * has to be merged line by line (see `hashesToMerge`).
 */
export function mergeRevisions(base: RevisionSide, ours: RevisionSide, theirs: RevisionSide, bodies: ReadonlyMap<string, string>, now: Date): MergeResult {
  const B = new Map(base.pages.map((p) => [p.id, p]));
  const O = new Map(ours.pages.map((p) => [p.id, p]));
  const T = new Map(theirs.pages.map((p) => [p.id, p]));
  const conflicts: MergeConflict[] = [];
  const [baseChildren, oursChildren, theirsChildren] = [sortedChildren(base.pages), sortedChildren(ours.pages), sortedChildren(theirs.pages)];
  /** The merged page, and whether its place in the tree follows ours (the change request moved or added it). */
  const merged = new Map<string, { page: DraftPage; placedByOurs: boolean; parentId: string | null }>();

  for (const id of new Set([...O.keys(), ...T.keys()])) {
    const b = B.get(id);
    const o = O.get(id);
    const t = T.get(id);
    if (o && t) {
      const page = mergePage(b, o, t, bodies, conflicts, now);
      // The change request's place wins when it moved the page (also when main moved it too).
      const placedByOurs = !b || moved(b, o, baseChildren, oursChildren);
      merged.set(id, { page, placedByOurs, parentId: placedByOurs ? o.parentId : t.parentId });
    } else if (o) {
      // Not on main: added by the change request (keep), or deleted on main (keep only if the change request edited it).
      if (!b) merged.set(id, { page: draftOf(o), placedByOurs: true, parentId: o.parentId });
      else if (edited(b, o)) {
        conflicts.push({ page: id, title: o.title, type: 'deleted-on-main' });
        merged.set(id, { page: draftOf(o), placedByOurs: true, parentId: o.parentId });
      }
    } else if (t) {
      if (!b) merged.set(id, { page: draftOf(t), placedByOurs: false, parentId: t.parentId });
      else if (edited(b, t)) {
        conflicts.push({ page: id, title: t.title, type: 'deleted-in-change-request' });
        merged.set(id, { page: draftOf(t), placedByOurs: false, parentId: t.parentId });
      }
    }
  }

  const draft = new RevisionDraft();
  placeTree(draft, merged, oursChildren, theirsChildren);
  mergeFiles(draft, base.files, ours.files, theirs.files);
  return { draft, conflicts };
}

function draftOf(page: Page): DraftPage {
  return {
    id: page.id,
    type: page.type,
    title: page.title,
    emoji: page.emoji,
    description: page.description,
    hidden: page.hidden,
    layout: page.layout,
    computed: page.computed,
    slug: page.slug,
    documentHash: page.documentHash,
    parentId: page.parentId,
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
  };
}

/** One page both sides hold: each field from the side that changed it (ours when both did). */
function mergePage(b: Page | undefined, o: Page, t: Page, bodies: ReadonlyMap<string, string>, conflicts: MergeConflict[], now: Date): DraftPage {
  const page = draftOf(o);
  const pick = <K extends (typeof METADATA)[number]>(field: K) => (b && o[field] === b[field] ? t[field] : o[field]);
  page.title = pick('title');
  page.emoji = pick('emoji');
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

/** Hashes whose bodies a merge of these sides reads: pages whose body changed on both sides. */
export function hashesToMerge(base: RevisionSide, ours: RevisionSide, theirs: RevisionSide): string[] {
  const B = new Map(base.pages.map((p) => [p.id, p.documentHash]));
  const T = new Map(theirs.pages.map((p) => [p.id, p.documentHash]));
  const hashes = new Set<string>();
  for (const o of ours.pages) {
    if (!T.has(o.id)) continue;
    const b = B.get(o.id) ?? null;
    const t = T.get(o.id) ?? null;
    if (o.documentHash !== t && o.documentHash !== b && t !== b) {
      for (const hash of [o.documentHash, t, b]) if (hash) hashes.add(hash);
    }
  }
  return [...hashes];
}

/**
 * Builds the merged tree: each page under the parent its placing side gives it (the top level when
 * that parent is gone, or when it would make a cycle). Siblings follow main's order, and pages the
 * change request added or moved go right after the sibling that precedes them in the change request.
 */
function placeTree(
  draft: RevisionDraft,
  merged: Map<string, { page: DraftPage; placedByOurs: boolean; parentId: string | null }>,
  oursChildren: Map<string | null, string[]>,
  theirsChildren: Map<string | null, string[]>,
) {
  const parentOf = new Map<string, string | null>();
  for (const [id, entry] of merged) parentOf.set(id, entry.parentId !== null && merged.has(entry.parentId) ? entry.parentId : null);
  // Break cycles (each side moved a page under the other's): such a page goes to the top level.
  for (const id of parentOf.keys()) {
    const seen = new Set<string>();
    for (let at: string | null = id; at !== null; at = parentOf.get(at) ?? null) {
      if (seen.has(at)) {
        parentOf.set(id, null);
        break;
      }
      seen.add(at);
    }
  }
  const childrenOf = (parentId: string | null): string[] => {
    const order = (theirsChildren.get(parentId) ?? []).filter((id) => merged.has(id) && parentOf.get(id) === parentId && !merged.get(id)!.placedByOurs);
    const ourOrder = oursChildren.get(parentId) ?? [];
    const placedByOurs = [...merged.keys()].filter((id) => parentOf.get(id) === parentId && (merged.get(id)!.placedByOurs || !order.includes(id)));
    placedByOurs.sort((a, b) => index(ourOrder, a) - index(ourOrder, b));
    for (const id of placedByOurs) {
      // After the sibling before it in the change request, else before the one after it, else last.
      const at = ourOrder.indexOf(id);
      const before = at > 0 ? ourOrder.slice(0, at).reverse().find((other) => order.includes(other)) : undefined;
      const after = at >= 0 ? ourOrder.slice(at + 1).find((other) => order.includes(other)) : undefined;
      if (before !== undefined) order.splice(order.indexOf(before) + 1, 0, id);
      else if (after !== undefined) order.splice(order.indexOf(after), 0, id);
      else order.push(id);
    }
    return order;
  };
  const visit = (parentId: string | null) => {
    for (const id of childrenOf(parentId)) {
      const page = merged.get(id)!.page;
      page.parentId = parentId;
      // Two pages given the same slug by the two sides: the later one gets a free variant.
      if (draft.slugTaken(parentId, page.slug)) page.slug = draft.freeSlug(parentId, page.slug);
      draft.insert(page);
      visit(id);
    }
  };
  visit(null);
}

function index(list: string[], id: string): number {
  const at = list.indexOf(id);
  return at === -1 ? Number.MAX_SAFE_INTEGER : at;
}

/** Files are never edited in place: one added on either side stays, one removed on either side goes. */
function mergeFiles(draft: RevisionDraft, base: readonly File[], ours: readonly File[], theirs: readonly File[]) {
  const inBase = new Set(base.map((f) => f.id));
  const inOurs = new Set(ours.map((f) => f.id));
  const inTheirs = new Set(theirs.map((f) => f.id));
  for (const file of [...ours, ...theirs]) {
    if (draft.files.has(file.id)) continue;
    const removedSomewhere = inBase.has(file.id) && (!inOurs.has(file.id) || !inTheirs.has(file.id));
    if (removedSomewhere) continue;
    const { revisionId: _revision, ...row } = file;
    draft.files.set(file.id, row);
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
