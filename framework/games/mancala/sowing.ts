/**
 * The move function, compiled once per rule set.
 *
 * Every search spends most of its time here, so instead of one function that reads the rule
 * flags and the board size on every call, we generate the source for one rule set with those
 * folded in as constants (the state copy unrolled to N+2 word moves, the capture and end rules
 * reduced to the branches that apply, one branch per player with its stores and row as constants)
 * and compile it with `new Function`. V8 then sees small, branch-light, monomorphic code: about
 * 1.3x faster than the generic form on Kalah(6,4).
 * The generated code is plain arithmetic on the two typed arrays it is handed; no user input
 * reaches the source text (only validated integers and enums).
 *
 * Semantics (cells as in engine.ts): empty the chosen pit; whole laps of 2N+1 cells (the
 * opponent's store skipped) add one stone everywhere, origin included; then sow one by one.
 * Last stone in the mover's store: a free turn (if on). Last stone in an own pit that was empty
 * (it now holds exactly one): a capture by the capture rule. Then the game is over by the end rule.
 */
import type { MancalaRules } from './rules.ts';

/** (from words, to words, to cells, move) → void; `to` receives the position after `move`. */
export type SowFunction = (from: Float64Array, to: Float64Array, c: Int32Array, move: number) => void;

function assertInt(name: string, v: number, lo: number, hi: number): void {
  if (!Number.isInteger(v) || v < lo || v > hi) throw new RangeError(`${name} must be a whole number in ${lo}..${hi}, got ${v}`);
}

export function sowingSource(rules: MancalaRules): string {
  const n = rules.pits;
  assertInt('pits', n, 1, 20);
  const W = 2 * n + 2; // board cells; c[W] = player to move, c[W + 1] = over
  const lap = W - 1;
  const copy = Array.from({ length: n + 2 }, (_, k) => `to[${k}] = from[${k}];`).join(' ');
  // A row is empty when the OR of its cells is 0 (cells are ≥ 0): unrolled, no loop or call.
  const rowEmpty = (from: number) => `(${Array.from({ length: n }, (_, k) => `c[${from + k}]`).join(' | ')}) === 0`;
  const bottomEmpty = rowEmpty(0);
  const topEmpty = rowEmpty(n + 1);
  // The move of one player, with its store, the store it skips and its row folded in as constants.
  const half = (p: 0 | 1): string => {
    const own = p === 0 ? n : 2 * n + 1;
    const opp = p === 0 ? 2 * n + 1 : n;
    const ownRow = p === 0 ? `idx < ${n}` : `idx > ${n}`;
    // A loop, not unrolled: laps are rare, and a longer function would be inlined into the search less.
    const laps =
      p === 0
        ? `for (let k = 0; k < ${opp}; k++) c[k] = (c[k] + laps) | 0;`
        : `for (let k = 0; k < ${W}; k++) if (k !== ${opp}) c[k] = (c[k] + laps) | 0;`;
    // The next cell: the skipped store is the last cell for the bottom player, cell N for the top one.
    const next = p === 0 ? `if (idx === ${opp}) idx = 0;` : `if (idx === ${W}) idx = 0; else if (idx === ${opp}) idx = ${opp + 1};`;
    const capture =
      rules.capture === 'none'
        ? ''
        : `
      if (idx !== ${own} && c[idx] === 1 && ${ownRow}) {
        const o = ${2 * n} - idx;
        const taken = c[o];
        ${rules.captureEmptyOpposite ? '' : 'if (taken > 0) {'}
        c[o] = 0;
        captured = true;
        ${rules.capture === 'last-and-opposite' ? `c[${own}] = (c[${own}] + taken + 1) | 0; c[idx] = 0;` : `c[${own}] = (c[${own}] + taken) | 0;`}
        ${rules.captureEmptyOpposite ? '' : '}'}
      }`;
    const turnEnds = rules.freeTurn ? `idx !== ${own}` : 'true';
    // Either row empty: before a legal move both rows hold stones, and sowing only adds to the
    // opponent's row, so that row can only have emptied through a capture.
    const [mine, theirs] = p === 0 ? [bottomEmpty, topEmpty] : [topEmpty, bottomEmpty];
    const over = rules.gameEnd === 'either-row-empty' ? `${mine} || (captured && ${theirs})` : `c[${W}] === 0 ? ${bottomEmpty} : ${topEmpty}`;
    return `
    let idx = ${p === 0 ? 'move' : `(${n + 1} + move) | 0`};
    let seeds = c[idx];
    let captured = false;
    c[idx] = 0;
    if (seeds >= ${lap}) {
      const laps = (seeds / ${lap}) | 0;
      ${laps}
      seeds = (seeds - laps * ${lap}) | 0;
    }
    while (seeds > 0) {
      idx = (idx + 1) | 0;
      ${next}
      c[idx] = (c[idx] + 1) | 0;
      seeds = (seeds - 1) | 0;
    }
    if (${turnEnds}) {${capture}
      c[${W}] = ${1 - p};
    }
    c[${W + 1}] = (${over}) ? 1 : 0;`;
  };
  // Arithmetic is written "(x) | 0": V8 then adds in 32 bits without overflow checks.
  return `
  return function sow(from, to, c, move) {
    ${copy}
    if (c[${W}] === 0) {${half(0)}
    } else {${half(1)}
    }
  };`;
}

/**
 * (from cells, from words, to words, to cells, move, sweep, keepTurn) → what a search needs of a
 * leaf after `move` (Game.playLeaf), mostly computed from the parent without making the move:
 * d << 2 | (same player to move ? 2 : 0) | (over ? 1 : 0), where d is bottom store - top store,
 * after the end-of-game sweep when the game is over and `sweep` is true, else as they stand.
 * The move is made into `to` when that is simpler (see leafValueSource) and whenever the same
 * player moves again in a game that is not over and `keepTurn` is true; else `to` is untouched.
 */
export type LeafValueFunction = (
  fromCells: Int32Array,
  from: Float64Array,
  to: Float64Array,
  c: Int32Array,
  move: number,
  sweep: boolean,
  keepTurn: boolean,
) => number;

/**
 * The source of the LeafValueFunction for these rules. Most leaves of a search are valued and
 * dropped, so instead of copying and sowing, it reads the few cells the outcome depends on. In
 * the mover's frame (own pits 0..N-1, own store N, the opponent's pits N+1..2N; a lap is 2N+1
 * cells), sowing s < 2N+1 stones from pit i puts one stone in each of cells i+1 .. i+s (mod the
 * lap) and none twice, so: the own store gains one when i+s ≥ N; the last cell is (i+s) mod lap;
 * a capture is a last cell among the own pits that was empty; its opposite pit gained a stone
 * exactly when the sowing wrapped round; a row can only be left empty when few of its cells were
 * sown, which is when the rest of the row is summed. Whole laps (s ≥ 2N+1) and a finished game
 * to be swept (both rare) are left to the move function (`made`), which is handed in. The tests
 * compare this with the move function on random positions of every rule set.
 */
export function leafValueSource(rules: MancalaRules): string {
  const n = rules.pits;
  assertInt('pits', n, 1, 20);
  const W = 2 * n + 2;
  const lap = W - 1;
  const half = (p: 0 | 1): string => {
    const base = p === 0 ? 0 : n + 1; // the mover's pits
    const own = base + n; // its store
    const oppBase = p === 0 ? n + 1 : 0;
    const oppStore = p === 0 ? 2 * n + 1 : n;
    const freeTurn = rules.freeTurn ? `end === ${n}` : 'false';
    const capture =
      rules.capture === 'none'
        ? ''
        : `
      if (last < ${n} && f[${base} + last] === 0) {
        o = ${oppBase + n - 1} - last;
        const taken = wrapped ? (f[o] + 1) | 0 : f[o];
        ${rules.captureEmptyOpposite ? '{' : 'if (taken > 0) {'}
          captured = true;
          ${rules.capture === 'last-and-opposite' ? 'gain = (gain + taken + 1) | 0; lastGone = 1;' : 'gain = (gain + taken) | 0;'}
        }
      }`;
    // A row is left empty only when no more of its cells were sown than the move takes away
    // again; then the rest of the row decides. Sowing wrapped round feeds every opponent pit.
    const ownEmpty = `hitsOwn === lastGone && rowSum(f, ${base}) === s`;
    const oppEmpty = `(hitsOpp === 0 ? rowSum(f, ${oppBase}) === (captured ? f[o] : 0) : ${n === 1 ? 'captured' : 'false'})`;
    const over =
      rules.gameEnd === 'either-row-empty'
        ? `(${ownEmpty}) || (captured && ${oppEmpty})`
        : `same ? ${ownEmpty} : ${oppEmpty}`;
    return `
    const s = f[${base} + move];
    if (s >= ${lap}) return made(from, to, c, move, sweep, ${p});
    const end = (move + s) | 0;
    const wrapped = end >= ${lap};
    const last = wrapped ? (end - ${lap}) | 0 : end;
    let gain = end >= ${n} ? 1 : 0;
    const hitsOwn = wrapped ? (${n} - move + last) | 0 : end < ${n} ? s : (${n - 1} - move) | 0;
    const hitsOpp = end <= ${n} ? 0 : wrapped ? ${n} : (end - ${n}) | 0;
    let captured = false;
    let lastGone = 0;
    let o = -1;
    const same = ${freeTurn};
    if (!same) {${capture}
    }
    const over = ${over};
    if (over ? sweep : same && keepTurn) return made(from, to, c, move, sweep, ${p});
    const d = (f[${own}] + gain - f[${oppStore}]) | 0;
    return (${p === 0 ? 'd' : '((0 - d) | 0)'} << 2) | (same ? 2 : 0) | (over ? 1 : 0);`;
  };
  return `
  function rowSum(f, from) {
    let sum = 0;
    for (let k = 0; k < ${n}; k++) sum = (sum + f[from + k]) | 0;
    return sum;
  }
  function made(from, to, c, move, sweep, mover) {
    sow(from, to, c, move);
    const over = c[${W + 1}];
    let d = (c[${n}] - c[${2 * n + 1}]) | 0;
    if (over === 1 && sweep) d = (d + rowSum(c, 0) - rowSum(c, ${n + 1})) | 0;
    return (d << 2) | (c[${W}] === mover ? 2 : 0) | over;
  }
  return function leafValue(f, from, to, c, move, sweep, keepTurn) {
    if (f[${W}] === 0) {${half(0)}
    } else {${half(1)}
    }
  };`;
}

const compiledLeafValues = new Map<string, LeafValueFunction>();

/**
 * The functions already found for a frozen rules object (a game's own, which its forks pass:
 * one fork per agent call). Building the source to look the functions up took about a fifth of
 * a match's time between reference agents.
 */
const byFrozenRules = new WeakMap<MancalaRules, { sow: SowFunction; leafValue: LeafValueFunction }>();

/** A game's two compiled functions (below), found without building their source when `rules` is frozen. */
export function compileRules(rules: MancalaRules): { sow: SowFunction; leafValue: LeafValueFunction } {
  let found = byFrozenRules.get(rules);
  if (found === undefined) {
    found = { sow: compileSowing(rules), leafValue: compileLeafValue(rules) };
    // Only a frozen object cannot change after it has been looked up.
    if (Object.isFrozen(rules)) byFrozenRules.set(rules, found);
  }
  return found;
}

export function compileLeafValue(rules: MancalaRules): LeafValueFunction {
  const source = leafValueSource(rules);
  let f = compiledLeafValues.get(source);
  if (f === undefined) {
    const sow = compileSowing(rules);
    f = new Function('sow', source)(sow) as LeafValueFunction;
    primeLeafValue(f, sow, rules);
    compiledLeafValues.set(source, f);
  }
  return f;
}

/** One function per rule set, shared by every game with those rules (games fork per agent call). */
const compiled = new Map<string, SowFunction>();

export function compileSowing(rules: MancalaRules): SowFunction {
  const source = sowingSource(rules);
  let sow = compiled.get(source);
  if (sow === undefined) {
    sow = new Function(source)() as SowFunction;
    prime(sow, rules);
    compiled.set(source, sow);
  }
  return sow;
}

/**
 * Runs every branch of a fresh move function once (laps, captures, free turns, game ends, for both
 * players) before a search does. V8 optimises the search after a few thousand nodes; a branch it
 * has never seen run (a pit with a whole lap of stones may first turn up millions of nodes later)
 * would then throw the optimised code away mid-search; benchmark runs with such late
 * deoptimisations took up to twice as long. Results do not depend on this.
 */
function prime(sow: SowFunction, rules: MancalaRules): void {
  playPrimingGames(sow, rules, 1, () => {});
}

/** As `prime`, for a leaf-value function: every legal move in the positions of a few random games. */
function primeLeafValue(leafValue: LeafValueFunction, sow: SowFunction, rules: MancalaRules): void {
  const n = rules.pits;
  const scratch = new ArrayBuffer(8 * (n + 2));
  const words = new Float64Array(scratch);
  const cells = new Int32Array(scratch);
  playPrimingGames(sow, rules, 7, (from, fromWords, legal, ply) => {
    for (const m of legal) leafValue(from, fromWords, words, cells, m, (ply & 1) === 0, (ply & 2) === 0);
  });
}

/**
 * Twelve short seeded games (the first four start with one big pit a side, so whole laps get
 * sown), calling `visit` on each position before a random legal move is played from it.
 */
function playPrimingGames(
  sow: SowFunction,
  rules: MancalaRules,
  seed: number,
  visit: (from: Int32Array, fromWords: Float64Array, legal: readonly number[], ply: number) => void,
): void {
  const n = rules.pits;
  const W = 2 * n + 2;
  const [a, b] = [0, 1].map(() => {
    const buffer = new ArrayBuffer(8 * (n + 2));
    return { cells: new Int32Array(buffer), words: new Float64Array(buffer) };
  });
  const random = (k: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed % k;
  };
  for (let game = 0; game < 12; game++) {
    const from = a!.cells;
    from.fill(0);
    for (let i = 0; i < n; i++) {
      from[i] = game < 4 && i === game % n ? W + 1 : Math.max(1, rules.seeds);
      from[n + 1 + i] = game < 4 && i === (game + 1) % n ? W + 1 : Math.max(1, rules.seeds);
    }
    from[W] = game & 1;
    for (let ply = 0; ply < 200 && from[W + 1] === 0; ply++) {
      const base = from[W] === 0 ? 0 : n + 1;
      const legal: number[] = [];
      for (let i = 0; i < n; i++) if (from[base + i]! > 0) legal.push(i);
      if (legal.length === 0) break;
      visit(from, a!.words, legal, ply);
      sow(a!.words, b!.words, b!.cells, legal[random(legal.length)]!);
      a!.words.set(b!.words);
    }
  }
}
