/**
 * The tree a reference search walked, rebuilt from its trace (contracts/search-trace.ts) for the
 * Search explorer: every position the search visited is a node, with the move that led to it, its
 * value (from the root player's point of view, as the searches keep it), the alpha-beta window it
 * received and the one it ended with, why a leaf is a leaf, and how many moves a prune left
 * unsearched. Nothing here runs a game: the events alone give the tree's shape.
 *
 * The events come in depth-first order. A node the search expands is an `enter`, then for each
 * child the child's own events (a `leaf`, a `cached`, or an entered node's events) followed by one
 * `update` of the node, and after the last update perhaps a `prune` repeating it. `open` below is
 * the path of entered nodes; a node "owes" an update from the moment a child of its appears until
 * the update for that child arrives, so any node above it on `open` that owes nothing has finished.
 */
import type { TraceEvent } from '../../contracts/search-trace.ts';

export type NodeKind =
  /** the search expanded it */
  | 'node'
  /** a leaf: the depth limit */
  | 'depth'
  /** a leaf: the game is over */
  | 'game-over'
  /** the transposition table answered for it */
  | 'cached';

export interface TreeNode {
  /** -1 for the root */
  parent: number;
  /** the move that led here as the game names it (`B3`); `root` at the root */
  name: string;
  /** moves from the root */
  ply: number;
  /** the trace's level: the depth the search had used up (unit `turn`: a free turn uses none) */
  level: number;
  /** the root player moves here (a max node); false: the opponent (a min node) */
  maximizing: boolean;
  kind: NodeKind;
  /** the node's value from the root player's view: the last update's for an expanded node */
  value: number;
  /** the window the node received (alpha-beta; ±Infinity: unbounded) */
  alphaIn?: number;
  betaIn?: number;
  /** the window after its last child (alpha-beta, expanded nodes) */
  alpha?: number;
  beta?: number;
  /** ids of the children the search visited, in its order */
  children: number[];
  /** legal moves a prune left unsearched here */
  skipped: number;
}

/** Whether a node's value is its subtree's minimax value or a bound of it (fail-soft alpha-beta). */
export type Exactness = 'exact' | 'upper' | 'lower';

export interface DepthCount {
  /** moves from the root */
  ply: number;
  /** nodes at that ply (leaves included) */
  nodes: number;
  leaves: number;
  /** moves at this ply that prunes left unsearched (children of nodes one ply up) */
  pruned: number;
}

export class MalformedTrace extends Error {}

/** Thrown by a sink that stops a search whose tree grew past the explorer's limit. */
export class TreeTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the tree has more than ${limit.toLocaleString('en-US')} nodes: lower the depth`);
  }
}

export class SearchTree {
  private constructor(
    readonly nodes: readonly TreeNode[],
    /** eventNode[i]: the node trace event i is about (the node entered, the leaf, the node updated) */
    readonly eventNode: Int32Array,
  ) {}

  static fromTrace(events: readonly TraceEvent[]): SearchTree {
    const nodes: TreeNode[] = [];
    const eventNode = new Int32Array(events.length);
    const open: { id: number; owesUpdate: boolean }[] = [];
    let lastUpdated = -1;

    const add = (e: TraceEvent, kind: NodeKind): number => {
      // A finished child leaves `open` only at its parent's update, so the innermost open node is the parent.
      const parentEntry = open[open.length - 1];
      if (parentEntry === undefined && nodes.length > 0) throw new MalformedTrace(`malformed trace: '${e.name}' at level ${e.level} comes after the root finished`);
      const parent = parentEntry?.id ?? -1;
      if (parentEntry !== undefined) {
        if (parentEntry.owesUpdate) throw new MalformedTrace(`malformed trace: '${e.name}' at level ${e.level} comes before its sibling's update`);
        parentEntry.owesUpdate = true;
      }
      const id = nodes.length;
      const window = 'alpha' in e && e.alpha !== undefined ? { alphaIn: e.alpha, betaIn: e.beta! } : {};
      nodes.push({
        parent,
        name: e.name,
        ply: parent < 0 ? 0 : nodes[parent]!.ply + 1,
        level: e.level,
        // A cached event does not say who moves there (the explorer searches without a cache).
        maximizing: 'maximizing' in e ? e.maximizing : parent >= 0 ? nodes[parent]!.maximizing : true,
        kind,
        value: e.value,
        ...window,
        children: [],
        skipped: 0,
      });
      if (parent >= 0) nodes[parent]!.children.push(id);
      return id;
    };

    /** The node an update or prune is about: the innermost open node still owing one. */
    const updated = (e: Extract<TraceEvent, { type: 'update' | 'prune' }>): TreeNode & { id: number } => {
      while (open.length > 0 && !open[open.length - 1]!.owesUpdate) open.pop();
      const entry = open[open.length - 1];
      const node = entry === undefined ? undefined : nodes[entry.id]!;
      if (entry === undefined || node === undefined || node.name !== e.name || node.level !== e.level) {
        throw new MalformedTrace(`malformed trace: '${e.type}' of '${e.name}' at level ${e.level} does not follow a child of that node`);
      }
      entry.owesUpdate = false;
      return Object.assign(node, { id: entry.id });
    };

    events.forEach((e, i) => {
      switch (e.type) {
        case 'enter': {
          const id = add(e, 'node');
          open.push({ id, owesUpdate: false });
          eventNode[i] = id;
          break;
        }
        case 'leaf':
          eventNode[i] = add(e, e.reason);
          break;
        case 'cached':
          eventNode[i] = add(e, 'cached');
          break;
        case 'update': {
          const node = updated(e);
          setValue(node, e);
          lastUpdated = node.id;
          eventNode[i] = node.id;
          break;
        }
        case 'prune': {
          // The reference alpha-beta announces the prune's values in an update just before it.
          let id = lastUpdated;
          const last = nodes[id];
          if (last === undefined || last.name !== e.name || last.level !== e.level || events[i - 1]?.type !== 'update') id = updated(e).id;
          const node = nodes[id]!;
          setValue(node, e);
          node.skipped = e.skipped;
          eventNode[i] = id;
          break;
        }
      }
    });
    if (nodes.length === 0) throw new MalformedTrace('malformed trace: no events');
    return new SearchTree(nodes, eventNode);
  }

  get size(): number {
    return this.nodes.length;
  }

  node(id: number): TreeNode | undefined {
    return Number.isInteger(id) ? this.nodes[id] : undefined;
  }

  /** Fail-soft alpha-beta: a value at or below the window's alpha is an upper bound, at or above beta a lower bound. */
  exactness(id: number): Exactness {
    const n = this.nodes[id]!;
    if (n.kind !== 'node' || n.alphaIn === undefined || n.betaIn === undefined) return 'exact';
    if (n.value <= n.alphaIn) return 'upper';
    if (n.value >= n.betaIn) return 'lower';
    return 'exact';
  }

  /** Nodes, leaves and pruned moves at each ply. */
  countsPerDepth(): DepthCount[] {
    const counts: DepthCount[] = [];
    const at = (ply: number): DepthCount => (counts[ply] ??= { ply, nodes: 0, leaves: 0, pruned: 0 });
    for (const n of this.nodes) {
      const c = at(n.ply);
      c.nodes++;
      if (n.kind !== 'node') c.leaves++;
      if (n.skipped > 0) at(n.ply + 1).pruned += n.skipped;
    }
    return counts;
  }

  /**
   * The principal variation: from the root, at each node its first child whose value is the
   * node's (the searches take a child's value only when it is strictly better, so the first such
   * child is the one they chose), down to a leaf. Node ids, the root first.
   */
  principalVariation(): number[] {
    const pv = [0];
    let n = this.nodes[0]!;
    while (n.children.length > 0) {
      const best = n.children.find((c) => this.nodes[c]!.value === n.value);
      if (best === undefined) break;
      pv.push(best);
      n = this.nodes[best]!;
    }
    return pv;
  }

  /** The ids from the root down to `id`, both included. */
  pathTo(id: number): number[] {
    const path: number[] = [];
    for (let k = id; k >= 0; k = this.nodes[k]!.parent) path.push(k);
    return path.reverse();
  }
}

function setValue(node: TreeNode, e: Extract<TraceEvent, { type: 'update' | 'prune' }>): void {
  node.value = e.value;
  if (e.alpha !== undefined) {
    node.alpha = e.alpha;
    node.beta = e.beta!;
  }
}
