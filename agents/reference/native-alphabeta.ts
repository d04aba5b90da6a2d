/**
 * Runs alpha-beta on a Mancala position in the generated WebAssembly search
 * (mancala-native-search.ts) when it applies: the caller (alphabeta.ts) has already checked that
 * nothing is traced or cached and that leaves are valued by `basic`; here the game must be a
 * Mancala engine, the depth limited and the deepest line short enough for the module's stack of
 * boards. Anything else gets undefined, and the TypeScript search runs.
 */
import type { Game, SearchCounters } from '../../framework/contracts/game.ts';
import { NO_DEPTH_LIMIT } from '../../framework/contracts/search-conventions.ts';
import type { MancalaRules } from '../../framework/games/mancala/rules.ts';
import { levelBytes, nativeSearchModule, type NativeConventions } from './mancala-native-search.ts';
import type { SearchResult } from './search-stack.ts';

/** Levels of boards the module may stack (and so the deepest recursion it makes): the TypeScript search takes deeper ones. */
const MAX_LEVELS = 1000;
const INF = 1_000_000_000;

interface MancalaLike {
  kind: string;
  rules: MancalaRules;
  counters: SearchCounters;
  legalMovesInto(s: unknown, out: Int32Array): number;
}

interface NativeSearch {
  ab: (p: number, depth: number, alpha: number, beta: number) => number;
  memory: WebAssembly.Memory;
  globals: Record<'nodes' | 'leaves' | 'evaluations' | 'expanded' | 'cutoff' | 'aborted' | 'bestMove' | 'root' | 'flip', WebAssembly.Global>;
}

/** performance.now() after which the running search gives up; read by the module every 256 expanded nodes. */
let deadline = Infinity;
const pastDeadline = (): boolean => deadline !== Infinity && performance.now() > deadline;

/** One module per rule set and convention, made when first needed (2-10 ms to encode, under 1 ms to compile). */
const modules = new Map<string, NativeSearch>();

function moduleKey(rules: MancalaRules, conv: NativeConventions): string {
  return JSON.stringify([rules.pits, rules.freeTurn, rules.capture, rules.captureEmptyOpposite, rules.gameEnd, rules.moveOrder, conv.turnUnit, conv.terminalByScore]);
}

/**
 * When a search makes its module: making one costs a few ms of CPU once a process, more than a
 * whole search of depth 6 takes in TypeScript. So a search makes it from depth `soon` on when it
 * is the second such search with these rules and conventions in the process (a match, a
 * tournament, a class's grading), and from depth `at once` on when it is the first (one
 * `mancala search` deep enough to repay it). Below `soon` (a csci561 case, most match moves) the
 * TypeScript search runs unless the module is already made; once made, it serves every depth.
 */
export const NATIVE_FROM_DEPTH = { move: { soon: 5, atOnce: 8 }, turn: { soon: 3, atOnce: 5 } } as const;

/** Searches of depth `soon` or more run in TypeScript so far, by module key. */
const waiting = new Map<string, number>();

function worthMaking(key: string, depth: number, turnUnit: boolean): boolean {
  const from = NATIVE_FROM_DEPTH[turnUnit ? 'turn' : 'move'];
  if (depth < from.soon) return false;
  if (depth >= from.atOnce) return true;
  const before = waiting.get(key) ?? 0;
  waiting.set(key, before + 1);
  return before >= 1;
}

/** Makes the module for these rules and conventions now (as a search deep enough would), so later searches of any depth use it. */
export function prepareNativeSearch(rules: MancalaRules, conv: NativeConventions): boolean {
  return nativeSearch(rules, conv) !== undefined;
}

/** The module for these rules and conventions: made when `depth` says it is worth it (undefined: now). */
function nativeSearch(rules: MancalaRules, conv: NativeConventions, depth?: number): NativeSearch | undefined {
  const key = moduleKey(rules, conv);
  let found = modules.get(key);
  if (found === undefined) {
    if (depth !== undefined && !worthMaking(key, depth, conv.turnUnit)) return undefined;
    // node --jitless has no WebAssembly: the TypeScript search runs there. A module this code
    // wrote wrong throws, as a bug should.
    if (typeof WebAssembly === 'undefined') return undefined;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(nativeSearchModule(rules, conv)), { env: { pastDeadline } });
    const e = instance.exports as Record<string, unknown>;
    found = {
      ab: e.ab as NativeSearch['ab'],
      memory: e.memory as WebAssembly.Memory,
      globals: Object.fromEntries(['nodes', 'leaves', 'evaluations', 'expanded', 'cutoff', 'aborted', 'bestMove', 'root', 'flip'].map((g) => [g, e[g]])) as NativeSearch['globals'],
    };
    modules.set(key, found);
  }
  return found;
}

export interface NativeRequest<S> {
  game: Game<S>;
  state: S;
  conventions: NativeConventions;
  /** in the unit's terms; NO_DEPTH_LIMIT for none */
  depth: number;
  deadline: number;
  /** the counted heuristic's counters, which the search adds its evaluations to */
  evaluationCounters: SearchCounters;
}

export function nativeAlphaBeta<S>(r: NativeRequest<S>): SearchResult | undefined {
  const game = r.game as unknown as MancalaLike;
  const cells = (r.state as { cells?: unknown }).cells;
  if (game.kind !== 'mancala' || game.rules === undefined || !(cells instanceof Int32Array)) return undefined;
  const n = game.rules.pits;
  const w = 2 * n + 2;
  if (r.depth < 1 || r.depth >= NO_DEPTH_LIMIT || cells[w + 1] !== 0) return undefined;
  let stones = 0;
  for (let i = 0; i < w; i++) stones += cells[i]!;
  // Unit turn: a move that keeps the turn put a stone in a store for good, so a line has at most depth + stones moves.
  const levels = r.depth + 1 + (r.conventions.turnUnit ? stones : 0);
  if (levels > MAX_LEVELS) return undefined;
  const search = nativeSearch(game.rules, r.conventions, r.depth);
  if (search === undefined) return undefined;
  const bytes = levels * levelBytes(n);
  if (search.memory.buffer.byteLength < bytes) search.memory.grow(Math.ceil((bytes - search.memory.buffer.byteLength) / 65536));
  new Int32Array(search.memory.buffer, 0, w + 2).set(cells.subarray(0, w + 2));
  const first = new Int32Array(n);
  const root = cells[w]!;
  const g = search.globals;
  g.nodes.value = 0n;
  g.leaves.value = 0n;
  g.evaluations.value = 0n;
  g.expanded.value = 0;
  g.cutoff.value = 0;
  g.aborted.value = 0;
  g.bestMove.value = game.legalMovesInto(r.state, first) > 0 ? first[0]! : -1;
  g.root.value = root;
  g.flip.value = root === 0 ? 0 : -1;
  deadline = r.deadline;
  let value: number;
  try {
    value = search.ab(0, r.depth, -INF, INF);
  } finally {
    deadline = Infinity;
  }
  const nodes = Number(g.nodes.value);
  // What the TypeScript search's game and counted heuristic would have counted.
  game.counters.plays += nodes - 1;
  r.evaluationCounters.evaluations += Number(g.evaluations.value);
  return { move: g.bestMove.value, value, nodes, leaves: Number(g.leaves.value), aborted: g.aborted.value === 1, cutoff: g.cutoff.value === 1 };
}
