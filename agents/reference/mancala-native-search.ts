/**
 * The reference alpha-beta for Mancala as one WebAssembly module generated per rule set and
 * search convention: the search of alphabeta.ts in the one case that is most of every benchmark
 * and every match (the basic heuristic, no trace, no transposition table), with the same values,
 * best move, nodes, leaves, heuristic evaluations and cut-off flag, which a property test holds on
 * random positions of every rule set (native-search.test.ts). Everything else takes the
 * TypeScript search.
 *
 * Why: the TypeScript search had reached what V8 makes of it (about 32 M nodes/s on Kalah(6,4),
 * against 50 M for the C baseline, compare.sh 1.55-1.7x); this module, the same algorithm with the
 * leaf shortcut of sowing.ts, runs it at the C baseline's speed or better. The board is the
 * engine's (engine.ts: 2N+2 cells, the player to move, the game-over flag), one level of the
 * search after another in the module's memory; the move and leaf functions mirror sowingSource and
 * leafValueSource with the rules folded in as constants.
 */
import type { MancalaRules } from '../../framework/games/mancala/rules.ts';
import {
  add, and, andThen, block, blockValue, br, brIf, call, encodeModule, eq, eqz, ge, get, gget, gset, gt, I32, I64, ifValue, k, k64, add64, le, load, load64, loop, lt,
  mul, ne, or, orElse, ret, set, shl, shrS, store, store64, sub, divU, tee, when, xor, type Code, type FunctionDef,
} from './wasm-module.ts';

export interface NativeConventions {
  /** unit `turn`: a move that keeps the turn keeps the depth */
  turnUnit: boolean;
  /** a finished game is valued by its score after the sweep (else by the heuristic, as it stands) */
  terminalByScore: boolean;
}

/** The same ±INF as search-stack.ts. */
const INF = 1_000_000_000;
/** As search-stack.ts's DEADLINE_MASK: the deadline is asked once every 256 expanded nodes. */
const DEADLINE_MASK = 255;

// globals
const G_NODES = 0;
const G_LEAVES = 1;
const G_EVALUATIONS = 2;
const G_EXPANDED = 3;
const G_CUTOFF = 4;
const G_ABORTED = 5;
const G_BEST = 6;
const G_ROOT = 7;
const G_FLIP = 8;
const GLOBALS = [
  { name: 'nodes', type: I64 },
  { name: 'leaves', type: I64 },
  { name: 'evaluations', type: I64 },
  { name: 'expanded', type: I32 },
  { name: 'cutoff', type: I32 },
  { name: 'aborted', type: I32 },
  { name: 'bestMove', type: I32 },
  { name: 'root', type: I32 },
  { name: 'flip', type: I32 },
] as const;

// functions: the import first
const F_PAST_DEADLINE = 0;
const F_SOW = 1;
const F_FRONTIER = 2;
const F_AB = 3;

const inc64 = (g: number): Code => gset(g, add64(gget(g), k64(1)));

/** Bytes of one level: the 2N+2 board cells and two flags, 4 bytes each. */
export function levelBytes(pits: number): number {
  return 8 * (pits + 2);
}

export function nativeSearchModule(rules: MancalaRules, conv: NativeConventions): Uint8Array<ArrayBuffer> {
  const n = rules.pits;
  if (!Number.isInteger(n) || n < 1 || n > 20) throw new RangeError(`pits must be a whole number in 1..20, got ${n}`);
  const W = 2 * n + 2;
  const lap = W - 1;
  const stride = levelBytes(n);
  const TO_MOVE = W;
  const OVER = W + 1;

  /** cell j of the level at local `at` */
  const cell = (at: number, j: number): Code => load(get(at), 4 * j);
  const setCell = (at: number, j: number, v: Code): Code => store(get(at), 4 * j, v);
  /** the address of cell (i + j) of the level at local `at`, i computed */
  const addrAt = (at: number, i: Code): Code => add(get(at), shl(i, k(2)));
  const cellAt = (at: number, i: Code, j = 0): Code => load(addrAt(at, i), 4 * j);
  const rowOr = (at: number, from: number): Code => Array.from({ length: n }, (_, q) => cell(at, from + q)).reduce((a, b) => or(a, b));
  const rowSum = (at: number, from: number): Code => Array.from({ length: n }, (_, q) => cell(at, from + q)).reduce((a, b) => add(a, b));
  const rowEmpty = (at: number, from: number): Code => eqz(rowOr(at, from));

  // ---- sow(p, c, move): the position after `move` from level p into level c (sowingSource) --
  /** The locals the move's code uses: the two levels and the move, then six of its own. */
  interface SowLocals {
    P: number;
    C: number;
    MOVE: number;
    /** the first of six free locals */
    FREE: number;
  }
  /** The code of the move (sow) on the given locals: a function of its own, and inlined into ab where it runs most. */
  const sowCode = ({ P, C, MOVE, FREE }: SowLocals): Code => {
    const [IDX, SEEDS, CAPTURED, LAPS, O, TAKEN] = Array.from({ length: 6 }, (_, i) => FREE + i);
    const copy = Array.from({ length: n + 2 }, (_, q) => store64(get(C), 8 * q, load64(get(P), 8 * q)));
    const half = (p: 0 | 1): Code => {
      const own = p === 0 ? n : 2 * n + 1;
      const opp = p === 0 ? 2 * n + 1 : n;
      const ownRow = p === 0 ? lt(get(IDX), k(n)) : gt(get(IDX), k(n));
      const lapCells = Array.from({ length: W }, (_, q) => q).filter((q) => q !== opp);
      const next =
        p === 0
          ? when(eq(get(IDX), k(opp)), set(IDX, k(0)))
          : when(eq(get(IDX), k(W)), set(IDX, k(0)), when(eq(get(IDX), k(opp)), set(IDX, k(opp + 1))));
      const take =
        rules.capture === 'last-and-opposite'
          ? [setCell(C, own, add(cell(C, own), add(get(TAKEN), k(1)))), store(addrAt(C, get(IDX)), 0, k(0))]
          : [setCell(C, own, add(cell(C, own), get(TAKEN)))];
      const capture =
        rules.capture === 'none'
          ? []
          : when(andThen(andThen(ne(get(IDX), k(own)), eq(cellAt(C, get(IDX)), k(1))), ownRow), [
              set(O, sub(k(2 * n), get(IDX))),
              set(TAKEN, cellAt(C, get(O))),
              rules.captureEmptyOpposite
                ? [store(addrAt(C, get(O)), 0, k(0)), set(CAPTURED, k(1)), take]
                : when(gt(get(TAKEN), k(0)), [store(addrAt(C, get(O)), 0, k(0)), set(CAPTURED, k(1)), take]),
            ]);
      const [mine, theirs] = p === 0 ? [rowEmpty(C, 0), rowEmpty(C, n + 1)] : [rowEmpty(C, n + 1), rowEmpty(C, 0)];
      const over =
        rules.gameEnd === 'either-row-empty'
          ? orElse(mine, andThen(get(CAPTURED), theirs))
          : ifValue(eqz(cell(C, TO_MOVE)), rowEmpty(C, 0), rowEmpty(C, n + 1));
      return [
        set(IDX, p === 0 ? get(MOVE) : add(get(MOVE), k(n + 1))),
        set(SEEDS, cellAt(C, get(IDX))),
        set(CAPTURED, k(0)),
        store(addrAt(C, get(IDX)), 0, k(0)),
        when(ge(get(SEEDS), k(lap)), [
          set(LAPS, divU(get(SEEDS), k(lap))),
          lapCells.map((q) => setCell(C, q, add(cell(C, q), get(LAPS)))),
          set(SEEDS, sub(get(SEEDS), mul(get(LAPS), k(lap)))),
        ]),
        when(gt(get(SEEDS), k(0)),
          loop(
            set(IDX, add(get(IDX), k(1))),
            next,
            store(addrAt(C, get(IDX)), 0, add(cellAt(C, get(IDX)), k(1))),
            brIf(0, gt(tee(SEEDS, sub(get(SEEDS), k(1))), k(0))),
          ),
        ),
        when(rules.freeTurn ? ne(get(IDX), k(own)) : k(1), [capture, setCell(C, TO_MOVE, k(1 - p))]),
        setCell(C, OVER, over),
      ];
    };
    return [copy, when(eqz(cell(C, TO_MOVE)), half(0), half(1))];
  };
  const sow = (): FunctionDef => ({ params: [I32, I32, I32], results: [], locals: Array.from({ length: 6 }, () => I32), body: sowCode({ P: 0, C: 1, MOVE: 2, FREE: 3 }) });

  // ---- leafValue(p, c, move): d << 2 | same << 1 | over, mostly without the move (leafValueSource) --
  // d is the bottom store minus the top store, after the sweep when the game is over and finished
  // games are valued by score; `same`: the mover moves again. With the sweep, or a free turn in
  // unit `turn` (searched further), the move is made into c.
  // Inlined into frontier (a call a leaf cost about a tenth of the search): a block whose value is
  // the result, each `return` of leafValueSource a branch out of it with the value.
  const leafValueCode = ({ P, C, MOVE, FREE }: SowLocals): Code => {
    const [S, END, WRAPPED, LAST, GAIN, HITS_OWN, HITS_OPP, CAPTURED, LAST_GONE, O, SAME, OVER_L, TAKEN, D] = Array.from({ length: 14 }, (_, i) => FREE + i);
    /** the move made into c, and its outcome read there (`made` of leafValueSource) */
    const made = (mover: 0 | 1): Code => {
      let d: Code = sub(cell(C, n), cell(C, 2 * n + 1));
      if (conv.terminalByScore) d = add(d, ifValue(eq(cell(C, OVER), k(1)), sub(rowSum(C, 0), rowSum(C, n + 1)), k(0)));
      // always inside a `when` of a half: out of it, the half and the block
      return [call(F_SOW, get(P), get(C), get(MOVE)), or(or(shl(d, k(2)), ifValue(eq(cell(C, TO_MOVE), k(mover)), k(2), k(0))), cell(C, OVER)), br(2)];
    };
    const half = (p: 0 | 1): Code => {
      const base = p === 0 ? 0 : n + 1;
      const own = base + n;
      const oppBase = p === 0 ? n + 1 : 0;
      const oppStore = p === 0 ? 2 * n + 1 : n;
      const taken = [
        set(TAKEN, ifValue(get(WRAPPED), add(cellAt(P, get(O)), k(1)), cellAt(P, get(O)))),
        when(rules.captureEmptyOpposite ? k(1) : gt(get(TAKEN), k(0)), [
          set(CAPTURED, k(1)),
          rules.capture === 'last-and-opposite' ? [set(GAIN, add(get(GAIN), add(get(TAKEN), k(1)))), set(LAST_GONE, k(1))] : set(GAIN, add(get(GAIN), get(TAKEN))),
        ]),
      ];
      const capture =
        rules.capture === 'none'
          ? []
          : when(andThen(lt(get(LAST), k(n)), eqz(cellAt(P, get(LAST), base))), [set(O, sub(k(oppBase + n - 1), get(LAST))), taken]);
      const ownEmpty = andThen(eq(get(HITS_OWN), get(LAST_GONE)), eq(rowSum(P, base), get(S)));
      const oppEmpty = ifValue(eqz(get(HITS_OPP)), eq(rowSum(P, oppBase), ifValue(get(CAPTURED), cellAt(P, get(O)), k(0))), n === 1 ? get(CAPTURED) : k(0));
      const over = rules.gameEnd === 'either-row-empty' ? orElse(ownEmpty, andThen(get(CAPTURED), oppEmpty)) : ifValue(get(SAME), ownEmpty, oppEmpty);
      const needsMove: Code = conv.terminalByScore
        ? conv.turnUnit
          ? ifValue(get(OVER_L), k(1), get(SAME))
          : get(OVER_L)
        : conv.turnUnit
          ? andThen(eqz(get(OVER_L)), get(SAME))
          : k(0);
      const d = sub(add(cell(P, own), get(GAIN)), cell(P, oppStore));
      return [
        set(S, cellAt(P, get(MOVE), base)),
        when(ge(get(S), k(lap)), made(p)),
        set(END, add(get(MOVE), get(S))),
        set(WRAPPED, ge(get(END), k(lap))),
        set(LAST, ifValue(get(WRAPPED), sub(get(END), k(lap)), get(END))),
        set(GAIN, ge(get(END), k(n))),
        set(HITS_OWN, ifValue(get(WRAPPED), add(sub(k(n), get(MOVE)), get(LAST)), ifValue(lt(get(END), k(n)), get(S), sub(k(n - 1), get(MOVE))))),
        set(HITS_OPP, ifValue(le(get(END), k(n)), k(0), ifValue(get(WRAPPED), k(n), sub(get(END), k(n))))),
        set(CAPTURED, k(0)),
        set(LAST_GONE, k(0)),
        set(O, k(-1)),
        set(SAME, rules.freeTurn ? eq(get(END), k(n)) : k(0)),
        when(eqz(get(SAME)), capture),
        set(OVER_L, over),
        when(needsMove, made(p)),
        set(D, p === 0 ? d : sub(k(0), d)),
        or(or(shl(get(D), k(2)), ifValue(get(SAME), k(2), k(0))), get(OVER_L)),
        br(1),
      ];
    };
    // k(0) is never reached: both halves branch out with the value.
    return blockValue(when(eqz(cell(P, TO_MOVE)), half(0), half(1)), k(0));
  };

  /**
   * The loop over the moves of the level at local P in the engine's move order (moveAt), with
   * `body` run for each legal one (its sowing index in local M); `body` may `br(depth)` out with
   * the depth given to it (the loop's enclosing block).
   */
  const forEachMove = (P: number, M: number, body: (exit: number) => Code): Code => {
    const rowLoop = (top: boolean): Code => {
      const descending = top && rules.moveOrder !== 'sowing';
      const base = top ? n + 1 : 0;
      // block { m = first; loop { if (cell) { body }; m±1; br_if more } }
      return block(
        set(M, k(descending ? n - 1 : 0)),
        loop(
          when(ne(cellAt(P, get(M), base), k(0)), body(2)),
          descending ? brIf(0, ge(tee(M, sub(get(M), k(1))), k(0))) : brIf(0, lt(tee(M, add(get(M), k(1))), k(n))),
        ),
      );
    };
    return when(eqz(cell(P, TO_MOVE)), rowLoop(false), rowLoop(true));
  };

  /** The max/min update of alphabeta.ts after child value CV; `exit` leaves the move loop on a cut. */
  const update = (L: { MAX: number; V: number; BEST: number; M: number; CV: number; ALPHA: number; BETA: number }, exit: number): Code =>
    when(
      get(L.MAX),
      [
        when(gt(get(L.CV), get(L.V)), [set(L.V, get(L.CV)), set(L.BEST, get(L.M))]),
        brIf(exit + 1, ge(get(L.V), get(L.BETA))),
        when(gt(get(L.V), get(L.ALPHA)), set(L.ALPHA, get(L.V))),
      ],
      [
        when(lt(get(L.CV), get(L.V)), set(L.V, get(L.CV))),
        brIf(exit + 1, le(get(L.V), get(L.ALPHA))),
        when(lt(get(L.V), get(L.BETA)), set(L.BETA, get(L.V))),
      ],
    );
  const rootView = (d: Code): Code => sub(xor(d, gget(G_FLIP)), gget(G_FLIP));
  /** When the search is aborted below the root's level: keep the root's best so far, return 0. */
  const onAbort = (P: number, BEST: number): Code =>
    when(gget(G_ABORTED), [when(andThen(eqz(get(P)), ge(get(BEST), k(0))), gset(G_BEST, get(BEST))), ret(k(0))]);
  const finish = (P: number, BEST: number, V: number): Code => [when(andThen(eqz(get(P)), ge(get(BEST), k(0))), gset(G_BEST, get(BEST))), get(V)];

  // ---- frontier(p, alpha, beta): a node with depth 1 left, its leaves valued by leafValue --
  const frontier = (): FunctionDef => {
    const L = { P: 0, ALPHA: 1, BETA: 2, MAX: 3, V: 4, BEST: 5, M: 6, CV: 7, R: 8, C: 9 };
    const leaf: Code = [
      inc64(G_NODES),
      inc64(G_LEAVES),
      when(eqz(and(get(L.R), k(1))), gset(G_CUTOFF, k(1))),
      conv.terminalByScore ? when(eqz(and(get(L.R), k(1))), inc64(G_EVALUATIONS)) : inc64(G_EVALUATIONS),
      set(L.CV, rootView(shrS(get(L.R), k(2)))),
    ];
    const body = (exit: number): Code => [
      set(L.R, leafValueCode({ P: L.P, C: L.C, MOVE: L.M, FREE: 10 })),
      conv.turnUnit
        ? when(
            eq(and(get(L.R), k(3)), k(2)),
            [set(L.CV, call(F_AB, get(L.C), k(1), get(L.ALPHA), get(L.BETA))), onAbort(L.P, L.BEST)],
            leaf,
          )
        : leaf,
      update(L, exit),
    ];
    return {
      params: [I32, I32, I32],
      results: [I32],
      locals: Array.from({ length: 7 + 14 }, () => I32),
      body: [
        set(L.MAX, eq(cell(L.P, TO_MOVE), gget(G_ROOT))),
        set(L.V, ifValue(get(L.MAX), k(-INF), k(INF))),
        set(L.BEST, k(-1)),
        set(L.C, add(get(L.P), k(stride))),
        block(forEachMove(L.P, L.M, body)),
        finish(L.P, L.BEST, L.V),
      ],
    };
  };

  // ---- ab(p, depth, alpha, beta): an expanded node (alphabeta.ts's ab, without the trace and table) --
  const ab = (): FunctionDef => {
    const L = { P: 0, DEPTH: 1, ALPHA: 2, BETA: 3, MAX: 4, V: 5, BEST: 6, M: 7, CV: 8, C: 9, MOVER: 10, CHILD_OVER: 11, CHILD_DEPTH: 12 };
    const storeDiff = sub(cell(L.C, n), cell(L.C, 2 * n + 1));
    const score = rootView(add(storeDiff, sub(rowSum(L.C, 0), rowSum(L.C, n + 1))));
    const heuristic = rootView(storeDiff);
    const leaf: Code = [
      inc64(G_NODES),
      inc64(G_LEAVES),
      when(
        get(L.CHILD_OVER),
        conv.terminalByScore ? set(L.CV, score) : [inc64(G_EVALUATIONS), set(L.CV, heuristic)],
        [gset(G_CUTOFF, k(1)), inc64(G_EVALUATIONS), set(L.CV, heuristic)],
      ),
    ];
    const body = (exit: number): Code => [
      sowCode({ P: L.P, C: L.C, MOVE: L.M, FREE: 13 }),
      set(L.CHILD_OVER, cell(L.C, OVER)),
      set(
        L.CHILD_DEPTH,
        conv.turnUnit ? ifValue(andThen(eqz(get(L.CHILD_OVER)), eq(cell(L.C, TO_MOVE), get(L.MOVER))), get(L.DEPTH), sub(get(L.DEPTH), k(1))) : sub(get(L.DEPTH), k(1)),
      ),
      when(
        orElse(get(L.CHILD_OVER), le(get(L.CHILD_DEPTH), k(0))),
        leaf,
        [set(L.CV, call(F_AB, get(L.C), get(L.CHILD_DEPTH), get(L.ALPHA), get(L.BETA))), onAbort(L.P, L.BEST)],
      ),
      update(L, exit),
    ];
    return {
      params: [I32, I32, I32, I32],
      results: [I32],
      locals: Array.from({ length: 9 + 6 }, () => I32),
      export: 'ab',
      body: [
        inc64(G_NODES),
        gset(G_EXPANDED, add(gget(G_EXPANDED), k(1))),
        when(andThen(eqz(and(gget(G_EXPANDED), k(DEADLINE_MASK))), call(F_PAST_DEADLINE)), [gset(G_ABORTED, k(1)), ret(k(0))]),
        when(eq(get(L.DEPTH), k(1)), ret(call(F_FRONTIER, get(L.P), get(L.ALPHA), get(L.BETA)))),
        set(L.MOVER, cell(L.P, TO_MOVE)),
        set(L.MAX, eq(get(L.MOVER), gget(G_ROOT))),
        set(L.V, ifValue(get(L.MAX), k(-INF), k(INF))),
        set(L.BEST, k(-1)),
        set(L.C, add(get(L.P), k(stride))),
        block(forEachMove(L.P, L.M, body)),
        finish(L.P, L.BEST, L.V),
      ],
    };
  };

  return encodeModule({
    imports: [{ name: 'pastDeadline', params: [], results: [I32] }],
    functions: [sow(), frontier(), ab()],
    globals: [...GLOBALS],
    memoryPages: 1,
  });
}

