import { createHash } from 'node:crypto';

/**
 * Content trees: how a revision stores its pages and its files so that a revision made from another
 * shares everything it did not change, as git shares trees.
 *
 * A tree holds one sequence of entries (the pages depth first, or the files by name) cut into leaves of
 * at most 64 entries; nodes of level 1, 2 … hold up to 64 children each, up to one root. Every node is
 * stored once by the SHA-256 of what it holds (`ContentNode`), so two revisions holding the same leaf
 * share its row. A writer never rewrites a sequence: it describes the new one as spans of the old one
 * and new entries (`Piece`), and `rebuildTree` keeps every old leaf a span covers whole, cuts new leaves
 * only around what changed, and does the same one level up: a one-page change writes one leaf and the
 * nodes above it (two or three rows, whatever the number of pages). Node boundaries depend on history,
 * not on content alone (they are kept where nothing changed): revisions of one space share structure
 * because they descend from each other, which is what diffs and merges compare.
 */

export type TreeKind = 'pages' | 'files';

/** The most entries of a leaf, and children of a node. */
export const NODE_MAX = 64;
/** New leaves cut from a long run of entries hold about this many, leaving room to grow. */
const NODE_TARGET = 32;
/** A run of new entries shorter than this joins a neighbouring node rather than make a small one. */
const NODE_MIN = 16;

/** How entries of one kind are stored: as JSON (`encode`), read back (`decode`). */
export interface EntryCodec<E extends { id: string }> {
  kind: TreeKind;
  encode(entry: E): Record<string, unknown>;
  decode(json: Record<string, unknown>): E;
  /** Page leaves: the document hashes of the entries (indexed, for backlinks). */
  documents?(entry: E): string | null;
}

export interface TreeLeaf<E> {
  readonly hash: string;
  readonly entries: readonly E[];
}

export interface ChildRef {
  readonly hash: string;
  readonly count: number;
}

export interface TreeInner {
  readonly hash: string;
  readonly level: number;
  readonly children: readonly ChildRef[];
}

/** A node as stored (a row of `ContentNode`). */
export interface NodeRow {
  hash: string;
  kind: TreeKind;
  level: number;
  count: number;
  items: unknown[];
  ids: string[];
  documents: string[];
}

/**
 * The entries of one tree, in order, in memory: immutable, so a revision read once may be kept and
 * shared (leaves are shared with the revisions it was made from). Positions are indexes in the whole
 * sequence.
 */
export class ContentSequence<E extends { id: string }> {
  readonly length: number;
  /** Position of the first entry of each leaf. */
  private readonly starts: number[];
  private positions: Map<string, number> | null = null;
  private flat: readonly E[] | null = null;

  constructor(
    readonly kind: TreeKind,
    readonly root: string | null,
    readonly leaves: readonly TreeLeaf<E>[],
    /** The nodes above the leaves, level by level (index 0: level 1), each level in order. */
    readonly inner: readonly (readonly TreeInner[])[],
  ) {
    this.starts = [];
    let at = 0;
    for (const leaf of leaves) {
      this.starts.push(at);
      at += leaf.entries.length;
    }
    this.length = at;
  }

  static empty<E extends { id: string }>(kind: TreeKind): ContentSequence<E> {
    return new ContentSequence<E>(kind, null, [], []);
  }

  /** The index of the leaf holding `position`. */
  leafIndexAt(position: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid] <= position) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  leafStart(index: number): number {
    return this.starts[index];
  }

  at(position: number): E {
    const leaf = this.leafIndexAt(position);
    return this.leaves[leaf].entries[position - this.starts[leaf]];
  }

  /** The position of an entry by ID, or -1 (an index built once, on first use). */
  positionOf(id: string): number {
    if (!this.positions) {
      const positions = new Map<string, number>();
      let at = 0;
      for (const leaf of this.leaves) for (const entry of leaf.entries) positions.set(entry.id, at++);
      this.positions = positions;
    }
    return this.positions.get(id) ?? -1;
  }

  get(id: string): E | undefined {
    const at = this.positionOf(id);
    return at === -1 ? undefined : this.at(at);
  }

  has(id: string): boolean {
    return this.positionOf(id) !== -1;
  }

  /** Every entry in order (one array, made once). */
  entries(): readonly E[] {
    if (!this.flat) {
      const all: E[] = [];
      for (const leaf of this.leaves) for (const entry of leaf.entries) all.push(entry);
      this.flat = all;
    }
    return this.flat;
  }

  /** Entries from `start` (included) to `end` (excluded). */
  slice(start: number, end: number): E[] {
    const out: E[] = [];
    if (start >= end) return out;
    for (let leaf = this.leafIndexAt(start); leaf < this.leaves.length && this.starts[leaf] < end; leaf++) {
      const entries = this.leaves[leaf].entries;
      const from = Math.max(0, start - this.starts[leaf]);
      const to = Math.min(entries.length, end - this.starts[leaf]);
      for (let i = from; i < to; i++) out.push(entries[i]);
    }
    return out;
  }

  /** All node hashes of the tree (leaves and the nodes above them). */
  *nodeHashes(): Generator<string> {
    for (const leaf of this.leaves) yield leaf.hash;
    for (const level of this.inner) for (const node of level) yield node.hash;
  }
}

/** A part of a new sequence: a span `[start, end)` of the old one, or one entry. */
export type Piece<E> = { span: readonly [number, number] } | { entry: E };

/** The hash a node is stored under: its kind, level and items. */
function nodeHash(kind: TreeKind, level: number, items: unknown[]): string {
  return createHash('sha256').update(`${kind}:${level}:${JSON.stringify(items)}`).digest('hex');
}

/** Sizes of the nodes a run of `n` loose items is cut into. */
function cut(n: number): number[] {
  if (n <= NODE_MAX) return [n];
  const parts = Math.ceil(n / NODE_TARGET);
  const sizes: number[] = [];
  for (let i = 0; i < parts; i++) sizes.push(Math.floor(((i + 1) * n) / parts) - Math.floor((i * n) / parts));
  return sizes;
}

/**
 * A unit of one level while rebuilding: a node of the old tree kept whole, or loose items (entries at
 * level 0, child references above) that go into new nodes.
 */
type Unit<T, N> = { kept: N } | { loose: T };

/**
 * Groups loose items into new nodes. A short run next to a kept node takes that node in (loose again),
 * so that edits do not leave ever smaller nodes behind; a run never grows past NODE_MAX that way.
 */
function regroup<T, N>(units: Unit<T, N>[], itemsOf: (node: N) => readonly T[]): ({ kept: N } | { group: T[] })[] {
  // Runs of loose items, between kept nodes.
  const runs: ({ kept: N } | { run: T[] })[] = [];
  for (const unit of units) {
    const last = runs[runs.length - 1];
    if ('loose' in unit) {
      if (last && 'run' in last) last.run.push(unit.loose);
      else runs.push({ run: [unit.loose] });
    } else runs.push(unit);
  }
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i];
    if (!('run' in run) || run.run.length >= NODE_MIN) continue;
    const next = runs[i + 1];
    const previous = runs[i - 1];
    if (next && 'kept' in next && itemsOf(next.kept).length + run.run.length <= NODE_MAX) {
      run.run.push(...itemsOf(next.kept));
      runs.splice(i + 1, 1);
      // The next node may have been followed by another run: join it too.
      const after = runs[i + 1];
      if (after && 'run' in after) {
        run.run.push(...after.run);
        runs.splice(i + 1, 1);
      }
    } else if (previous && 'kept' in previous && itemsOf(previous.kept).length + run.run.length <= NODE_MAX) {
      run.run.unshift(...itemsOf(previous.kept));
      runs.splice(i - 1, 1);
      i--;
      const before = runs[i - 1];
      if (before && 'run' in before) {
        before.run.push(...run.run);
        runs.splice(i, 1);
        i--;
      }
    }
  }
  const out: ({ kept: N } | { group: T[] })[] = [];
  for (const run of runs) {
    if ('kept' in run) out.push(run);
    else {
      let at = 0;
      for (const size of cut(run.run.length)) {
        out.push({ group: run.run.slice(at, at + size) });
        at += size;
      }
    }
  }
  return out;
}

/**
 * The tree of a new sequence described as pieces of `base`'s (see `Piece`): old leaves a span covers
 * whole are kept, the rest is cut into new leaves, and each level above keeps the old nodes whose
 * children are all still there, in order. Answers the new sequence and the nodes to store (those the
 * old tree did not have). Costs what changed, plus a pass over the leaves the spans cover.
 */
export function rebuildTree<E extends { id: string }>(base: ContentSequence<E>, pieces: readonly Piece<E>[], codec: EntryCodec<E>): { sequence: ContentSequence<E>; rows: NodeRow[] } {
  const kind = codec.kind;
  const rows: NodeRow[] = [];

  // Level 0: kept leaves and loose entries.
  const units: Unit<E, TreeLeaf<E>>[] = [];
  for (const piece of pieces) {
    if ('entry' in piece) {
      units.push({ loose: piece.entry });
      continue;
    }
    const [start, end] = piece.span;
    if (start >= end) continue;
    for (let index = base.leafIndexAt(start); index < base.leaves.length && base.leafStart(index) < end; index++) {
      const leaf = base.leaves[index];
      const leafStart = base.leafStart(index);
      const leafEnd = leafStart + leaf.entries.length;
      if (start <= leafStart && leafEnd <= end) units.push({ kept: leaf });
      else for (let at = Math.max(start, leafStart); at < Math.min(end, leafEnd); at++) units.push({ loose: leaf.entries[at - leafStart] });
    }
  }
  const leaves: TreeLeaf<E>[] = [];
  for (const group of regroup(units, (leaf) => leaf.entries)) {
    if ('kept' in group) {
      leaves.push(group.kept);
      continue;
    }
    const items = group.group.map((entry) => codec.encode(entry));
    const hash = nodeHash(kind, 0, items);
    const documents = codec.documents ? group.group.map((entry) => codec.documents!(entry)).filter((d): d is string => d !== null) : [];
    rows.push({ hash, kind, level: 0, count: items.length, items, ids: group.group.map((entry) => entry.id), documents });
    leaves.push({ hash, entries: group.group });
  }

  // Levels above, until one node is left.
  const inner: TreeInner[][] = [];
  let refs: ChildRef[] = leaves.map((leaf) => ({ hash: leaf.hash, count: leaf.entries.length }));
  for (let level = 1; refs.length > 1; level++) {
    const old = base.inner[level - 1] ?? [];
    const byFirstChild = new Map(old.map((node) => [node.children[0]?.hash, node]));
    const levelUnits: Unit<ChildRef, TreeInner>[] = [];
    for (let i = 0; i < refs.length; ) {
      const node = byFirstChild.get(refs[i].hash);
      if (node && node.children.length <= refs.length - i && node.children.every((child, k) => child.hash === refs[i + k].hash)) {
        levelUnits.push({ kept: node });
        i += node.children.length;
      } else levelUnits.push({ loose: refs[i++] });
    }
    const nodes: TreeInner[] = [];
    for (const group of regroup(levelUnits, (node) => node.children)) {
      if ('kept' in group) {
        nodes.push(group.kept);
        continue;
      }
      let start = 0;
      const items = group.group.map((child) => {
        const item = [child.hash, child.count, start];
        start += child.count;
        return item;
      });
      const hash = nodeHash(kind, level, items);
      rows.push({ hash, kind, level, count: start, items, ids: [], documents: [] });
      nodes.push({ hash, level, children: group.group });
    }
    inner.push(nodes);
    refs = nodes.map((node) => ({ hash: node.hash, count: node.children.reduce((sum, child) => sum + child.count, 0) }));
  }
  const root = refs[0]?.hash ?? null;
  // A node reused from another part of the old tree is already stored; so is one the old tree holds.
  const stored = new Set(base.nodeHashes());
  return { sequence: new ContentSequence(kind, root, leaves, inner), rows: rows.filter((row) => !stored.has(row.hash)) };
}

/** A stored node as read back (`items` parsed; null for a leaf whose entries were not read). */
export interface StoredNode {
  hash: string;
  level: number;
  items: unknown[] | null;
}

/** Leaves already decoded, by hash (a leaf never changes): revisions read apart share them in memory. */
export interface LeafSource<E> {
  get(hash: string): TreeLeaf<E> | undefined;
  set(leaf: TreeLeaf<E>): void;
}

/** Leaves kept for one read only. */
function leafMap<E>(): LeafSource<E> {
  const leaves = new Map<string, TreeLeaf<E>>();
  return { get: (hash) => leaves.get(hash), set: (leaf) => void leaves.set(leaf.hash, leaf) };
}

/**
 * The sequence under `root` from its stored nodes: every node above the leaves, and the leaves that
 * `leafSource` does not hold already (decoded once, then kept there, so revisions share their leaves).
 */
export function sequenceFromNodes<E extends { id: string }>(
  root: string | null,
  nodes: ReadonlyMap<string, StoredNode>,
  codec: EntryCodec<E>,
  leafSource: LeafSource<E> = leafMap(),
): ContentSequence<E> {
  if (root === null) return ContentSequence.empty(codec.kind);
  const top = nodes.get(root);
  if (!top) throw new Error(`Content node ${root} is missing`);
  const inner: TreeInner[][] = [];
  let level: StoredNode[] = [top];
  for (let depth = top.level; depth > 0; depth--) {
    inner[depth - 1] = level.map((node) => ({
      hash: node.hash,
      level: depth,
      children: (node.items as [string, number, number][]).map(([hash, count]) => ({ hash, count })),
    }));
    if (depth === 1) break;
    level = inner[depth - 1].flatMap((node) =>
      node.children.map((child) => {
        const found = nodes.get(child.hash);
        if (!found) throw new Error(`Content node ${child.hash} is missing`);
        return found;
      }),
    );
  }
  const leafHashes = top.level === 0 ? [root] : inner[0].flatMap((node) => node.children.map((child) => child.hash));
  const leaves = leafHashes.map((hash) => {
    let leaf = leafSource.get(hash);
    if (!leaf) {
      const items = nodes.get(hash)?.items;
      if (!items) throw new Error(`Content node ${hash} is missing`);
      leaf = { hash, entries: (items as Record<string, unknown>[]).map((item) => codec.decode(item)) };
      leafSource.set(leaf);
    }
    return leaf;
  });
  return new ContentSequence(codec.kind, root, leaves, inner);
}
