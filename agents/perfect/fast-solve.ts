/**
 * The fast solver (the `solve` everything uses; plain-solve.ts is its specification). Each root
 * move's value is proven by MTD(f) (Plaat et al.): null-window searches (solver-search.ts) that
 * close in on the value from a guess, the table keeping every bound they prove, so later passes
 * and the next root moves reuse the work. The guess for a move is the best value so far, which
 * is what a move must reach to matter.
 *
 * Two modes: every move's exact value (`moveValues: 'all'`, the default: what a quality check or
 * an explorer shows), or the value and every best move only (`'best'`: a move is first tested
 * against the best so far with one null window, and valued exactly only if it reaches it).
 */
import type { MancalaGame, MancalaState } from '../../framework/games/mancala/engine.ts';
import { BoardKey } from './board-key.ts';
import { endgameFor } from './endgame-cache.ts';
import { SolveTable } from './solve-table.ts';
import { SolverSearch } from './solver-search.ts';
import type { SolveOptions, SolveResult } from './solve-types.ts';

/** Transposition table megabytes when the caller says nothing: small for small solves (a fresh table's pages cost time to touch). */
export function defaultTableMb(board: number): number {
  return board >= 40 ? 256 : board >= 24 ? 64 : 8;
}

/** Peak resident memory of this process so far, in MB. */
export function peakMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

function storeDiff(game: MancalaGame, s: MancalaState, p: number): number {
  const d = game.store(s, 0) - game.store(s, 1);
  return p === 0 ? d : -d;
}

export function fastSolve(game: MancalaGame, state: MancalaState, options: SolveOptions = {}): SolveResult {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const mover = game.toMove(state);
  if (game.isOver(state)) {
    return { value: game.score(state, mover), bestMoves: [], moveValues: new Map(), proven: true, nodes: 1, ms: performance.now() - started, peakMb: peakMb() };
  }
  let total = 0;
  for (let k = 0; k < game.w; k++) total += state.cells[k]!;
  const board = total - game.store(state, 0) - game.store(state, 1);
  const db = endgameFor(game, board, options);
  const endgameLoadMs = performance.now() - started;
  const key = new BoardKey(game.n, board);
  const table = new SolveTable(options.ttMb ?? defaultTableMb(board), key.words);
  const deadline = options.deadlineMs === undefined ? Infinity : started + options.deadlineMs;
  const here = storeDiff(game, state, mover);
  // Bounds of the root's value for the progress display: proven values, the current move's window.
  let low = here - board;
  let high = here + board;
  const search = new SolverSearch({
    game,
    total,
    table,
    key,
    db,
    deadline,
    onTick: () => options.onProgress?.({ nodes: search.nodes, ms: performance.now() - started, bound: [low, high] }),
  });

  /** The exact future margin of child (not over) for its mover, or undefined when the deadline struck. */
  const mtdf = (child: MancalaState, guess: number): number | undefined => {
    const childBoard = total - game.store(child, 0) - game.store(child, 1);
    let lo = -childBoard;
    let hi = childBoard;
    let g = Math.max(lo, Math.min(hi, guess));
    while (lo < hi) {
      const beta = g === lo ? g + 1 : g;
      g = search.search(child, 0, beta - 1, beta);
      if (search.aborted) return undefined;
      if (g < beta) hi = g;
      else lo = g;
    }
    return g;
  };

  /** Whether the move to child (same: the mover moves again) is worth at least `threshold` at the root; undefined on the deadline. */
  const reaches = (child: MancalaState, same: boolean, threshold: number): boolean | undefined => {
    const sd = storeDiff(game, child, mover);
    // Root value v = sd + f (same mover) or sd - f: v ≥ threshold ⇔ f ≥ threshold - sd, or f ≤ sd - threshold.
    const g = same ? search.search(child, 0, threshold - sd - 1, threshold - sd) : search.search(child, 0, sd - threshold, sd - threshold + 1);
    if (search.aborted) return undefined;
    return same ? g >= threshold - sd : g <= sd - threshold;
  };

  const moveValues = new Map<number, number>();
  let best = -Infinity;
  let bestMove = -1;
  let finished = true;
  // Likely best first (free turns, then the largest gains), so that in 'best' mode the others are
  // only tested against a strong value; results are reported in the engine's move order.
  const legal = game.legalMoves(state);
  const children = new Map(legal.map((m) => [m, game.play(state, m)]));
  const promise = (m: number) => {
    const child = children.get(m)!;
    return (game.toMove(child) === mover && !game.isOver(child) ? 1000 : 0) + storeDiff(game, child, mover) - here;
  };
  for (const move of [...legal].sort((a, b) => promise(b) - promise(a))) {
    const child = children.get(move)!;
    let v: number | undefined;
    if (game.isOver(child)) {
      v = game.score(child, mover);
    } else {
      const same = game.toMove(child) === mover;
      const sd = storeDiff(game, child, mover);
      if (options.moveValues === 'best' && best > -Infinity) {
        const worth = reaches(child, same, best);
        if (worth === undefined) {
          finished = false;
          break;
        }
        if (!worth) continue; // below the best: its exact value is not wanted
      }
      const guess = best > -Infinity ? (same ? best - sd : sd - best) : 0;
      const f = mtdf(child, guess);
      if (f === undefined) {
        finished = false;
        break;
      }
      v = same ? sd + f : sd - f;
    }
    v = v === 0 ? 0 : v;
    moveValues.set(move, v);
    if (v > best) {
      best = v;
      bestMove = move;
    }
    low = best;
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  const common = { nodes: search.nodes, ms, cpuMs: Math.round((cpu.user + cpu.system) / 1000), peakMb: peakMb(), tableMb: Math.round(table.megabytes()), endgameStones: db?.maxStones ?? 0, endgameLoadMs };
  if (!finished) {
    return { value: undefined, bestMoves: [], moveValues, proven: false, ...common, bounds: [low, high], ...(bestMove >= 0 ? { bestKnownMove: bestMove } : {}) };
  }
  const bestMoves = legal.filter((m) => moveValues.get(m) === best);
  const inOrder = new Map(legal.filter((m) => moveValues.has(m)).map((m) => [m, moveValues.get(m)!]));
  return { value: best, bestMoves, moveValues: inOrder, proven: true, ...common };
}
