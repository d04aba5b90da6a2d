/**
 * The Search explorer's searches: a position (a profile's start, or a board typed in any format
 * `mancala search --board` reads), the reference search run on it with its trace, exactly as
 * `mancala search` runs it (plugins/reference-search.ts), and the tree rebuilt from the trace
 * (search-tree.ts). Each exploration is kept, a bounded number of them (the least recently used
 * goes), so the page asks for a node's children when it opens that node: a big tree is never sent
 * whole.
 *
 * Searches and solves run on the worker pool's threads (searches.ts, search-job.ts), the trace
 * sent back: a search of a second never holds the other pages' requests.
 *
 * Iterative deepening runs alpha-beta at each depth 1..d to the end, one tree a depth, and the page
 * picks the iteration to look at. The `ids` agent stops at a deadline and publishes only each
 * iteration's move; here the trees themselves are the point, and every iteration is kept so the
 * page can show how the move and the node counts change from one depth to the next.
 *
 * A tree is bounded too: the search's trace sink counts nodes and stops the search past
 * MAX_TREE_NODES, so a depth too large is a one-line refusal, not a server holding millions of
 * events.
 */
import { randomUUID } from 'node:crypto';
import { UserError } from '../../errors.ts';
import { writeJson } from '../../games/mancala/board-io/index.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import type { MancalaProfile } from '../../games/mancala/profiles.ts';
import { agentTable, heuristicNames } from '../../plugins/agents.ts';
import type { SearchReport } from '../../plugins/reference-search.ts';
import { traverseLogLines, type TraverseLogLine } from '../../search/traverse-log.ts';
import type { ExplorerAlgo, SearchExploration, SolvedValues, SearchNodeDetail, SearchNodeView, SearchRequestBody, SearchTreeView, Seat } from '../shared/api.ts';
import { boardView, seatOf } from './board-view.ts';
import { PoolThreadCapped } from '../../workers/pool.ts';
import { explorerPosition } from './explorer-position.ts';
import { HttpError } from './http-error.ts';
import type { ExploreResult } from './search-job.ts';
import { SearchTree, TreeTooLarge } from './search-tree.ts';
import { cappedRefusal, EXPLORE_CAP_MS, positionItem, runSearchItem, SOLVE_CAP_MS } from './searches.ts';
import { EXPLORER_SOLVE_MAX_STONES, solvedValues } from './solved-values.ts';

/** The most nodes an exploration's trees hold together (a node is about 200 bytes here). */
export const MAX_TREE_NODES = 100_000;
export const MAX_EXPLORER_DEPTH = 20;
/** Explorations kept; a new one beyond this drops the one left alone longest. */
export const MAX_EXPLORATIONS = 8;
/** Traverse log lines a request answers (the page asks for more as it is scrolled to the end). */
export const LOG_CHUNK = 1000;

interface Tree {
  depth: number;
  tree: SearchTree;
  report: SearchReport;
  pv: Set<number>;
  log?: TraverseLogLine[];
  view: SearchTreeView;
}

interface Exploration {
  id: string;
  profile: MancalaProfile;
  game: MancalaGame;
  state: MancalaState;
  /** the player to move at the root */
  rootSeat: Seat;
  algo: ExplorerAlgo;
  heuristic: string;
  /** the page gave a board: commands read it from position.json */
  fromBoard: boolean;
  trees: Tree[];
  view: SearchExploration;
  /** solved values by position and searched children (solved-values.ts) */
  solved: Map<string, SolvedValues>;
}

const unbounded = (v: number | undefined): number | null | undefined => (v === undefined ? undefined : Math.abs(v) >= 1e9 ? null : v);

function command(x: Pick<Exploration, 'profile' | 'game' | 'fromBoard' | 'heuristic' | 'rootSeat'>, algo: string, depth: number, board: string | undefined): string {
  const position = board !== undefined ? ` --board ${board}` : ` --pits ${x.game.n} --seeds ${x.game.rules.seeds}${x.rootSeat === 'top' ? ' --player top' : ''}`;
  return `mancala search --rules ${x.profile.name}${position} --algo ${algo} --depth ${depth}${x.heuristic === 'basic' ? '' : ` --heuristic ${x.heuristic}`} --json`;
}

export class SearchExplorations {
  private readonly explorations = new Map<string, Exploration>();

  get size(): number {
    return this.explorations.size;
  }

  /** Runs the search the page asks for and keeps it; refuses (4xx) what it cannot run. */
  async create(body: SearchRequestBody): Promise<SearchExploration> {
    const heuristic = body.heuristic ?? 'basic';
    if (!heuristicNames().includes(heuristic)) throw new HttpError(400, `body field "heuristic": unknown heuristic ${JSON.stringify(heuristic)}: expected one of ${heuristicNames().join(', ')}`);
    const searchAlgo = body.algo === 'minimax' ? 'minimax' : 'alphabeta';
    if (agentTable()[searchAlgo]?.withheld === true) throw new HttpError(400, `the explorer runs the reference ${searchAlgo}, which this student kit holds back`);
    const setup = explorerPosition(body);
    const { game, state, profile } = setup;
    if (game.isOver(state)) throw new HttpError(400, `body field "board": the game is over in this position: there is no move to search for`);
    const rootSeat = seatOf(game.toMove(state));
    const base = { profile, game, fromBoard: body.board !== undefined, heuristic, rootSeat };

    let nodes = 0;
    const depths = body.algo === 'ids' ? Array.from({ length: body.depth }, (_, k) => k + 1) : [body.depth];
    const trees: Tree[] = [];
    for (const depth of depths) {
      // Searched on a pool thread (searches.ts), the trace sent back: the server answers other pages meanwhile.
      let searched: ExploreResult;
      try {
        searched = await runSearchItem<ExploreResult>({ kind: 'explore', body, algo: searchAlgo, depth, heuristic, maxNodes: MAX_TREE_NODES - nodes }, EXPLORE_CAP_MS);
      } catch (e) {
        if (e instanceof PoolThreadCapped) throw cappedRefusal('body field "depth": the search', EXPLORE_CAP_MS);
        if (e instanceof UserError) throw new HttpError(400, e.message);
        throw e;
      }
      if ('tooLarge' in searched) {
        throw new HttpError(422, `body field "depth": ${new TreeTooLarge(MAX_TREE_NODES).message}${body.algo === 'ids' ? ` (iterations 1 to ${depth} together)` : ''}`);
      }
      const { events, report } = searched;
      nodes += events.filter((e) => e.type === 'enter' || e.type === 'leaf' || e.type === 'cached').length;
      const tree = SearchTree.fromTrace(events);
      const pvIds = tree.principalVariation();
      const pv = new Set(pvIds);
      const t: Tree = { depth, tree, report, pv, view: undefined as unknown as SearchTreeView };
      let logNote: string | undefined;
      if (profile.name === 'csci561') {
        try {
          t.log = traverseLogLines(events, { alphaBeta: searchAlgo === 'alphabeta' });
        } catch (e) {
          // The log writes whole numbers only: a heuristic with fractions (advanced) has none.
          if (!(e instanceof RangeError)) throw e;
          logNote = `no traverse log: ${e.message}`;
        }
      }
      const view = (id: number) => this.nodeView({ rootSeat }, t, id);
      t.view = {
        depth,
        move: report.move,
        moveName: report.moveName,
        value: report.value,
        nodes: report.nodes,
        evaluations: report.evaluations,
        ms: report.ms,
        command: command(base, searchAlgo, depth, base.fromBoard ? 'position.json' : undefined),
        root: view(0),
        perDepth: tree.countsPerDepth(),
        pv: pvIds.map(view),
        ...(t.log !== undefined ? { log: this.logLines(t, 0), logTotal: t.log.length } : {}),
        ...(logNote !== undefined ? { logNote } : {}),
      };
      trees.push(t);
    }

    const id = randomUUID();
    const last = trees[trees.length - 1]!;
    const csci561 = setup.board?.csci561;
    const x: Exploration = {
      ...base,
      id,
      state,
      algo: body.algo,
      trees,
      solved: new Map(),
      view: {
        id,
        profile: profile.name,
        pits: game.n,
        algo: body.algo,
        depth: body.depth,
        heuristic,
        unit: last.report.unit,
        terminal: last.report.terminal,
        board: boardView(game, state),
        boardJson: writeJson(game, state),
        ...(csci561 !== undefined ? { csci561: { task: csci561.task, depth: csci561.depth } } : {}),
        trees: trees.map((t) => t.view),
      },
    };
    if (this.explorations.size >= MAX_EXPLORATIONS) this.explorations.delete(this.explorations.keys().next().value!);
    this.explorations.set(id, x);
    return x.view;
  }

  /** A node with its children and its position. */
  async node(id: string, nodeId: number, iteration?: number): Promise<SearchNodeDetail> {
    const x = this.get(id);
    const t = this.tree(x, iteration);
    if (t.tree.node(nodeId) === undefined) throw new HttpError(404, `no node ${nodeId} in this tree: it has nodes 0 to ${t.tree.size - 1}`);
    return this.detail(x, t, nodeId);
  }

  /** The node and every node above it, the root first: what the page opens to show it. */
  async path(id: string, nodeId: number, iteration?: number): Promise<SearchNodeDetail[]> {
    const x = this.get(id);
    const t = this.tree(x, iteration);
    if (t.tree.node(nodeId) === undefined) throw new HttpError(404, `no node ${nodeId} in this tree: it has nodes 0 to ${t.tree.size - 1}`);
    const path: SearchNodeDetail[] = [];
    for (const n of t.tree.pathTo(nodeId)) path.push(await this.detail(x, t, n));
    return path;
  }

  /** Traverse log lines from `from` on, LOG_CHUNK of them at most. */
  log(id: string, from: number, iteration?: number): { from: number; total: number; lines: { text: string; node: number }[] } {
    const x = this.get(id);
    const t = this.tree(x, iteration);
    if (t.log === undefined) throw new HttpError(404, `this search has no traverse log (the csci561 profile's searches have one)`);
    return { from, total: t.log.length, lines: this.logLines(t, from) };
  }

  private get(id: string): Exploration {
    const x = this.explorations.get(id);
    if (x === undefined) throw new HttpError(404, `no search ${JSON.stringify(id.slice(0, 60))}: the server keeps the last ${MAX_EXPLORATIONS} searches, or it restarted; run the search again`);
    // Most recently used last: the Map's order is the eviction order.
    this.explorations.delete(id);
    this.explorations.set(id, x);
    return x;
  }

  private tree(x: Exploration, iteration: number | undefined): Tree {
    if (iteration === undefined) return x.trees[x.trees.length - 1]!;
    if (x.algo !== 'ids') throw new HttpError(404, `no iteration ${iteration}: only iterative deepening has iterations`);
    const t = x.trees.find((t) => t.depth === iteration);
    if (t === undefined) throw new HttpError(404, `no iteration ${iteration}: this search deepened from 1 to ${x.trees.length}`);
    return t;
  }

  private logLines(t: Tree, from: number): { text: string; node: number }[] {
    return t.log!.slice(from, from + LOG_CHUNK).map((l) => ({ text: l.text, node: l.event < 0 ? -1 : t.tree.eventNode[l.event]! }));
  }

  private nodeView(x: Pick<Exploration, 'rootSeat'>, t: Tree, id: number): SearchNodeView {
    const n = t.tree.nodes[id]!;
    const other: Seat = x.rootSeat === 'bottom' ? 'top' : 'bottom';
    const window =
      n.alphaIn === undefined
        ? {}
        : {
            alpha: unbounded(n.alphaIn)!,
            beta: unbounded(n.betaIn)!,
            ...(n.alpha !== undefined ? { alphaOut: unbounded(n.alpha)!, betaOut: unbounded(n.beta)! } : {}),
          };
    return {
      id,
      move: n.name,
      ply: n.ply,
      depthLeft: t.depth - n.level,
      max: n.maximizing,
      toMove: n.maximizing ? x.rootSeat : other,
      kind: n.kind,
      value: n.value,
      bound: t.tree.exactness(id),
      ...window,
      children: n.children.length,
      pruned: n.skipped,
      pv: t.pv.has(id),
    };
  }

  /** The position at node `id`: the root's, with the path's moves played (found by their names). */
  private position(x: Exploration, t: Tree, id: number): { state: MancalaState; path: string[] } {
    let s = x.state;
    const path: string[] = [];
    for (const k of t.tree.pathTo(id).slice(1)) {
      const name = t.tree.nodes[k]!.name;
      const move = x.game.legalMoves(s).find((m) => x.game.moveName(s, m) === name);
      if (move === undefined) throw new Error(`internal: the trace's move ${name} after ${path.join(' ') || 'the root'} is not a legal move`);
      s = x.game.play(s, move);
      path.push(name);
    }
    return { state: s, path };
  }

  private async detail(x: Exploration, t: Tree, id: number): Promise<SearchNodeDetail> {
    const node = this.nodeView(x, t, id);
    const n = t.tree.nodes[id]!;
    const { state, path } = this.position(x, t, id);
    // The search visits the legal moves in the game's order and a prune stops it: what it left are the last ones.
    const prunedMoves = n.skipped > 0 ? x.game.legalMoves(state).slice(n.children.length).map((m) => x.game.moveName(state, m)) : [];
    const searched = n.kind === 'node' ? x.game.legalMoves(state).slice(0, n.children.length) : [];
    const seen = searched.map((m) => x.game.moveName(state, m));
    if (prunedMoves.length !== n.skipped || seen.some((name, k) => t.tree.nodes[n.children[k]!]!.name !== name)) {
      throw new Error(`internal: node ${id}'s children (${seen.join(' ')}) and ${n.skipped} pruned moves do not match its position's legal moves`);
    }
    // `mancala search` values a position for the player to move there: a min node's value negated
    // (every heuristic here is the mover's minus the opponent's, as the score is).
    const sign = n.maximizing ? 1 : -1;
    const relation = node.bound === 'exact' ? '=' : (node.bound === 'upper') === n.maximizing ? '≤' : '≥';
    return {
      node,
      children: n.children.map((c) => this.nodeView(x, t, c)),
      prunedMoves,
      path,
      board: boardView(x.game, state),
      boardJson: writeJson(x.game, state),
      ...(n.kind === 'node' ? { check: { command: command(x, 'minimax', node.depthLeft, 'node.json'), value: sign * n.value || 0, relation } } : {}),
      solved: await this.solved(x, state, searched, n.maximizing),
    };
  }

  /** The node's solved values, solved once per exploration (the page asks for a node again and again). */
  private async solved(x: Exploration, state: MancalaState, moves: number[], maximizing: boolean): Promise<SolvedValues> {
    const key = `${x.game.key(state)}:${moves.length}`;
    let v = x.solved.get(key);
    if (v !== undefined) return v;
    const stones = [...x.game.row(state, 0), ...x.game.row(state, 1)].reduce((a, b) => a + b, 0);
    // A board too large is said at once; a solve runs on a pool thread (searches.ts).
    if (stones > EXPLORER_SOLVE_MAX_STONES && !x.game.isOver(state)) v = solvedValues(x.game, state, moves, maximizing);
    else {
      try {
        v = await runSearchItem<SolvedValues>({ kind: 'solve', moves, maximizing, ...positionItem(x.profile.name, x.game, state) }, SOLVE_CAP_MS);
      } catch (e) {
        if (!(e instanceof PoolThreadCapped)) throw e;
        v = { note: `not solved: still running after ${SOLVE_CAP_MS / 1000} s` };
      }
    }
    x.solved.set(key, v);
    return v;
  }
}
