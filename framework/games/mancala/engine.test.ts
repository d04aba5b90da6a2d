/**
 * Property tests of the Mancala engine over random rules and random positions.
 *
 * The strongest check is the comparison with `refPlay` below: a deliberately plain model of the
 * sowing rules, written from the rules text (DESIGN §4 and the seeds), that walks the board hole
 * by hole and drops one stone at a time on ordinary arrays. It shares nothing with engine.ts (no
 * flat cell layout, no lap shortcut, no "cell holds 1" capture test, no 2N - i opposite formula).
 *
 * Every random choice comes from fast-check under a fixed seed, so a run is reproducible.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Player } from '../../contracts/game.ts';
import { MancalaGame, type MancalaState } from './engine.ts';
import type { CaptureRule, GameEndRule, MancalaRules, MoveOrder, PitNaming } from './rules.ts';

const FC_SEED = 561_384;
const other = (p: Player): Player => (p === 0 ? 1 : 0);

// ---- the reference model ------------------------------------------------------------------------

/** A board in plain arrays: each row in its owner's sowing order (pit 0 furthest from the store). */
interface RefBoard {
  pits: [number[], number[]];
  stores: [number, number];
  toMove: Player;
  over: boolean;
}

type Hole = { kind: 'pit'; side: Player; index: number } | { kind: 'store'; side: Player };

/** What happened to the last stone of a move, for the rule-flag properties. */
interface Landing {
  hole: Hole;
  /** the hole held no stone just before the last stone dropped in */
  wasEmpty: boolean;
  /** for a landing in the mover's own pit: stones in the pit across the board once sowing ended */
  oppositeAfterSowing: number;
  /** stones the sowing itself dropped into the mover's store (captures not included) */
  sownIntoStore: number;
}

/** Counter-clockwise neighbour: along a row to its owner's store, then onto the other row. */
function nextHole(h: Hole, n: number): Hole {
  if (h.kind === 'store') return { kind: 'pit', side: other(h.side), index: 0 };
  if (h.index === n - 1) return { kind: 'store', side: h.side };
  return { kind: 'pit', side: h.side, index: h.index + 1 };
}

/**
 * The pit across the board. Both rows are numbered from the pit furthest from their owner's store,
 * and the rows run in opposite directions, so pit i faces the other row's pit N-1-i.
 */
function oppositeIndex(index: number, n: number): number {
  return n - 1 - index;
}

const rowIsEmpty = (row: readonly number[]) => row.every((x) => x === 0);

function refIsOver(rules: MancalaRules, pits: [number[], number[]], toMove: Player): boolean {
  if (rules.gameEnd === 'either-row-empty') return rowIsEmpty(pits[0]) || rowIsEmpty(pits[1]);
  return rowIsEmpty(pits[toMove]);
}

function refLegalMoves(rules: MancalaRules, b: RefBoard): number[] {
  if (b.over) return [];
  const n = rules.pits;
  const moves: number[] = [];
  for (let i = 0; i < n; i++) if (b.pits[b.toMove][i]! > 0) moves.push(i);
  // Seeds 000/001 list both rows left to right as the bottom player sees them; the top row's
  // sowing order runs right to left, so its positional order is the reverse.
  if (rules.moveOrder === 'left-to-right' && b.toMove === 1) moves.reverse();
  return moves;
}

function refPlay(rules: MancalaRules, b: RefBoard, move: number): { board: RefBoard; landing: Landing } {
  const n = rules.pits;
  const me = b.toMove;
  const you = other(me);
  const pits: [number[], number[]] = [b.pits[0].slice(), b.pits[1].slice()];
  const stores: [number, number] = [b.stores[0], b.stores[1]];

  let hand = pits[me][move]!;
  if (b.over || hand === 0) throw new Error(`reference: illegal move ${move}`);
  pits[me][move] = 0;

  let hole: Hole = { kind: 'pit', side: me, index: move };
  let wasEmpty = false;
  let sownIntoStore = 0;
  while (hand > 0) {
    hole = nextHole(hole, n);
    if (hole.kind === 'store' && hole.side === you) continue; // the opponent's store is skipped
    if (hole.kind === 'store') {
      wasEmpty = stores[me] === 0;
      stores[me]++;
      sownIntoStore++;
    } else {
      wasEmpty = pits[hole.side][hole.index] === 0;
      pits[hole.side][hole.index]!++;
    }
    hand--;
  }

  let oppositeAfterSowing = 0;
  let freeTurn = false;
  if (hole.kind === 'store') {
    freeTurn = rules.freeTurn;
  } else if (hole.side === me) {
    const across = oppositeIndex(hole.index, n);
    oppositeAfterSowing = pits[you][across]!;
    const captures = rules.capture !== 'none' && wasEmpty && (oppositeAfterSowing > 0 || rules.captureEmptyOpposite);
    if (captures) {
      stores[me] += pits[you][across]!;
      pits[you][across] = 0;
      if (rules.capture === 'last-and-opposite') {
        stores[me] += pits[me][hole.index]!;
        pits[me][hole.index] = 0;
      }
    }
  }

  const toMove = freeTurn ? me : you;
  const board: RefBoard = { pits, stores, toMove, over: refIsOver(rules, pits, toMove) };
  return { board, landing: { hole, wasEmpty, oppositeAfterSowing, sownIntoStore } };
}

/** p's stones minus the opponent's, the rows swept to their owners when the game is over. */
function refScore(b: RefBoard, p: Player): number {
  const total = (q: Player) => b.stores[q] + (b.over ? b.pits[q].reduce((a, x) => a + x, 0) : 0);
  return total(p) - total(other(p));
}

// ---- random rules, positions and games ----------------------------------------------------------

const captureRules: CaptureRule[] = ['last-and-opposite', 'opposite-only', 'none'];
const gameEndRules: GameEndRule[] = ['either-row-empty', 'mover-cannot-move'];
const moveOrders: MoveOrder[] = ['sowing', 'left-to-right'];
const namings: PitNaming[] = ['bt', 'csci561', 'cups'];

/**
 * Every flag, 1..20 pits and 0..1000 stones a pit, but the total stays moderate: many stones
 * only on narrow boards (they still make multi-lap moves), wide boards with few stones.
 */
function rulesArb(maxPits = 20): fc.Arbitrary<MancalaRules> {
  const size = fc.oneof(
    { weight: 5, arbitrary: fc.record({ pits: fc.integer({ min: 1, max: maxPits }), seeds: fc.integer({ min: 0, max: 6 }) }) },
    { weight: 2, arbitrary: fc.record({ pits: fc.integer({ min: 1, max: maxPits }), seeds: fc.integer({ min: 0, max: 30 }) }) },
    { weight: 1, arbitrary: fc.record({ pits: fc.integer({ min: 1, max: Math.min(3, maxPits) }), seeds: fc.integer({ min: 0, max: 1000 }) }) },
  );
  return fc.record({
    size,
    freeTurn: fc.boolean(),
    capture: fc.constantFrom(...captureRules),
    captureEmptyOpposite: fc.boolean(),
    gameEnd: fc.constantFrom(...gameEndRules),
    moveOrder: fc.constantFrom(...moveOrders),
    pitNaming: fc.constantFrom(...namings),
  }).map(({ size, ...flags }) => ({ ...size, ...flags }));
}

/** Where a game starts: the initial position, or arbitrary rows (empty pits likely) and stores. */
interface Start {
  bottom: number[];
  top: number[];
  stores: [number, number];
  toMove: Player;
}

interface Scenario {
  rules: MancalaRules;
  start: Start | null;
  /** each entry picks a legal move: choices[k] mod (number of legal moves) */
  choices: number[];
}

function rowArb(n: number): fc.Arbitrary<number[]> {
  const count = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2 * n + 3 }), fc.integer({ min: 0, max: 60 }));
  return fc.array(count, { minLength: n, maxLength: n });
}

function scenarioArb(maxPits = 20, maxMoves = 80): fc.Arbitrary<Scenario> {
  return rulesArb(maxPits).chain((rules) => {
    const start: fc.Arbitrary<Start | null> = fc.oneof(
      fc.constant(null),
      fc.record({
        bottom: rowArb(rules.pits),
        top: rowArb(rules.pits),
        stores: fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 })),
        toMove: fc.constantFrom<Player>(0, 1),
      }),
    );
    return fc.record({
      rules: fc.constant(rules),
      start,
      choices: fc.array(fc.nat({ max: 1000 }), { maxLength: maxMoves }),
    });
  });
}

function startState(game: MancalaGame, sc: Scenario): MancalaState {
  if (sc.start === null) return game.initial();
  const { bottom, top, stores, toMove } = sc.start;
  return game.fromRows(bottom, top, stores[0], stores[1], toMove);
}

function startBoard(sc: Scenario): RefBoard {
  const n = sc.rules.pits;
  const pits: [number[], number[]] =
    sc.start === null ? [Array(n).fill(sc.rules.seeds), Array(n).fill(sc.rules.seeds)] : [sc.start.bottom.slice(), sc.start.top.slice()];
  const stores: [number, number] = sc.start === null ? [0, 0] : [sc.start.stores[0], sc.start.stores[1]];
  const toMove: Player = sc.start === null ? 0 : sc.start.toMove;
  return { pits, stores, toMove, over: refIsOver(sc.rules, pits, toMove) };
}

interface Step {
  game: MancalaGame;
  before: MancalaState;
  move: number;
  after: MancalaState;
}

/** Plays the scenario's game on the engine, calling `visit` for each move, and returns every state. */
function playScenario(sc: Scenario, visit?: (step: Step) => void): MancalaState[] {
  const game = new MancalaGame(sc.rules);
  let s = startState(game, sc);
  const seen = [s];
  for (const choice of sc.choices) {
    const legal = game.legalMoves(s);
    if (legal.length === 0) break;
    const move = legal[choice % legal.length]!;
    const after = game.play(s, move);
    visit?.({ game, before: s, move, after });
    s = after;
    seen.push(s);
  }
  return seen;
}

function boardView(game: MancalaGame, s: MancalaState) {
  return {
    pits: [game.row(s, 0), game.row(s, 1)],
    stores: [game.store(s, 0), game.store(s, 1)],
    over: game.isOver(s),
    // Who "moves" after a game-ending move is not a rule; compare it only while the game goes on.
    toMove: game.isOver(s) ? null : game.toMove(s),
  };
}

function refView(b: RefBoard) {
  return { pits: b.pits, stores: b.stores, over: b.over, toMove: b.over ? null : b.toMove };
}

const boardTotal = (game: MancalaGame, s: MancalaState) =>
  game.rowSum(s, 0) + game.rowSum(s, 1) + game.store(s, 0) + game.store(s, 1);

const fcRuns = (numRuns: number) => ({ seed: FC_SEED, numRuns });

// ---- the properties -----------------------------------------------------------------------------

describe('mancala engine against the reference model', () => {
  it('plays every move of random games exactly as the reference does, for every rule combination', () => {
    fc.assert(
      fc.property(scenarioArb(), (sc) => {
        const game = new MancalaGame(sc.rules);
        let s = startState(game, sc);
        let b = startBoard(sc);
        expect(boardView(game, s)).toEqual(refView(b));
        for (const choice of sc.choices) {
          const legal = game.legalMoves(s);
          expect(legal).toEqual(refLegalMoves(sc.rules, b));
          if (legal.length === 0) break;
          const move = legal[choice % legal.length]!;
          s = game.play(s, move);
          b = refPlay(sc.rules, b, move).board;
          expect(boardView(game, s)).toEqual(refView(b));
          // `+ 0` folds -0 into 0: the sign of a zero score has its own test below.
          expect(game.score(s, 0) + 0).toBe(refScore(b, 0) + 0);
          expect(game.score(s, 1) + 0).toBe(refScore(b, 1) + 0);
        }
      }),
      fcRuns(400),
    );
  });

  it('agrees with the reference on single moves from arbitrary boards, including multi-lap sowings', () => {
    // Every legal move of a random board (many stones in few pits, so laps are common).
    const boardArb = rulesArb(6).chain((rules) =>
      fc.record({
        rules: fc.constant(rules),
        bottom: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: rules.pits, maxLength: rules.pits }),
        top: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: rules.pits, maxLength: rules.pits }),
        toMove: fc.constantFrom<Player>(0, 1),
      }),
    );
    fc.assert(
      fc.property(boardArb, ({ rules, bottom, top, toMove }) => {
        const game = new MancalaGame(rules);
        const s = game.fromRows(bottom, top, 0, 0, toMove);
        const b: RefBoard = { pits: [bottom, top], stores: [0, 0], toMove, over: refIsOver(rules, [bottom, top], toMove) };
        for (const move of refLegalMoves(rules, b)) {
          expect(boardView(game, game.play(s, move))).toEqual(refView(refPlay(rules, b, move).board));
        }
      }),
      fcRuns(400),
    );
  });
});

describe('mancala engine invariants', () => {
  it('conserves stones on every move, and score/finalStore/swept apply the sweep consistently', () => {
    fc.assert(
      fc.property(scenarioArb(), (sc) => {
        const states = playScenario(sc, ({ game, before, after }) => {
          expect(boardTotal(game, after)).toBe(boardTotal(game, before));
        });
        const game = new MancalaGame(sc.rules);
        for (const s of states) {
          const total = boardTotal(game, s);
          const final0 = game.finalStore(s, 0);
          const final1 = game.finalStore(s, 1);
          expect(game.score(s, 0)).toBe(final0 - final1);
          expect(game.score(s, 1) + 0).toBe(final1 - final0);
          const swept = game.swept(s);
          if (game.isOver(s)) {
            expect(final0 + final1).toBe(total);
            expect(final0).toBe(game.store(s, 0) + game.rowSum(s, 0));
            expect([game.rowSum(swept, 0), game.rowSum(swept, 1)]).toEqual([0, 0]);
            expect([game.store(swept, 0), game.store(swept, 1)]).toEqual([final0, final1]);
          } else {
            expect([final0, final1]).toEqual([game.store(s, 0), game.store(s, 1)]);
            expect(swept.cells).toEqual(s.cells);
          }
        }
      }),
      fcRuns(300),
    );
  });

  it('scores a tie as 0 for both players, never -0 (console.log prints -0 as "-0", and Object.is checks tell it apart)', () => {
    const game = new MancalaGame({ pits: 2, seeds: 1, freeTurn: true, capture: 'none', captureEmptyOpposite: false, gameEnd: 'either-row-empty', moveOrder: 'sowing', pitNaming: 'bt' });
    const level = game.fromRows([1, 0], [0, 1], 3, 3, 0);
    expect(Object.is(game.score(level, 0), 0)).toBe(true);
    expect(Object.is(game.score(level, 1), 0)).toBe(true);
  });

  it("lists exactly the mover's non-empty pits in the profile's order, none when over", () => {
    fc.assert(
      fc.property(scenarioArb(), (sc) => {
        const game = new MancalaGame(sc.rules);
        const n = sc.rules.pits;
        const buffer = new Int32Array(n);
        for (const s of playScenario(sc)) {
          const p = game.toMove(s);
          const nonEmpty = game.row(s, p).flatMap((stones, i) => (stones > 0 ? [i] : []));
          const descending = sc.rules.moveOrder === 'left-to-right' && p === 1;
          const expected = game.isOver(s) ? [] : descending ? nonEmpty.reverse() : nonEmpty;
          const legal = game.legalMoves(s);
          expect(legal).toEqual(expected);
          const count = game.legalMovesInto(s, buffer);
          expect(Array.from(buffer.subarray(0, count))).toEqual(expected);
          if (game.isOver(s)) expect(nonEmpty.length === 0 || sc.rules.gameEnd === 'either-row-empty').toBe(true);
          for (let m = -1; m <= n; m++) expect(game.isLegal(s, m)).toBe(legal.includes(m));
        }
      }),
      fcRuns(300),
    );
  });

  it('play throws on an illegal move and leaves the state as it was', () => {
    fc.assert(
      fc.property(scenarioArb(8, 40), (sc) => {
        const game = new MancalaGame(sc.rules);
        const n = sc.rules.pits;
        for (const s of playScenario(sc)) {
          const snapshot = Int32Array.from(s.cells);
          const legal = game.legalMoves(s);
          for (const m of [-1, 0, 1, n - 1, n, 0.5, Number.NaN]) {
            if (legal.includes(m)) continue;
            expect(() => game.play(s, m)).toThrow(RangeError);
          }
          expect(s.cells).toEqual(snapshot);
        }
      }),
      fcRuns(200),
    );
  });

  it('play never mutates its input; playInto equals play; clone and copyInto give equal, independent states', () => {
    fc.assert(
      fc.property(scenarioArb(), (sc) => {
        playScenario(sc, ({ game, before, move, after }) => {
          const snapshot = Int32Array.from(before.cells);
          const again = game.play(before, move);
          expect(before.cells).toEqual(snapshot);
          expect(again.cells).toEqual(after.cells);

          // playInto over a dirty buffer: every cell must be rewritten.
          const out = game.newState();
          out.cells.fill(7);
          game.playInto(before, move, out);
          expect(out.cells).toEqual(after.cells);

          const copy = game.clone(before);
          expect(copy.cells).toEqual(before.cells);
          const target = game.newState();
          target.cells.fill(9);
          game.copyInto(before, target);
          expect(target.cells).toEqual(before.cells);
          expect(game.key(copy)).toBe(game.key(before));

          // Writing into the copy leaves the original alone.
          game.playInto(before, move, copy);
          expect(before.cells).toEqual(snapshot);
        });
      }),
      fcRuns(200),
    );
  });

  it('key is equal exactly when the cells are equal', () => {
    // Small boards and short games, many of them, so that equal positions actually recur.
    const gamesArb = rulesArb(3).chain((rules) =>
      fc.record({
        rules: fc.constant({ ...rules, seeds: Math.min(rules.seeds, 3) }),
        games: fc.array(fc.array(fc.nat({ max: 5 }), { maxLength: 12 }), { minLength: 2, maxLength: 8 }),
      }),
    );
    let collisions = 0;
    fc.assert(
      fc.property(gamesArb, ({ rules, games }) => {
        const game = new MancalaGame(rules);
        const states = games.flatMap((choices) => playScenario({ rules, start: null, choices }));
        for (let a = 0; a < states.length; a++) {
          for (let b = a + 1; b < states.length; b++) {
            const sameCells = states[a]!.cells.every((x, k) => x === states[b]!.cells[k]);
            if (sameCells) collisions++;
            expect(game.key(states[a]!) === game.key(states[b]!)).toBe(sameCells);
          }
        }
      }),
      fcRuns(150),
    );
    // The property is only meaningful if equal positions occurred.
    expect(collisions).toBeGreaterThan(0);
  });
});

describe('each rule flag does what it says', () => {
  /** Where sowing `stones` from pit `index` drops the last stone, counted along the mover's lap of 2N+1 holes. */
  const lastLapPosition = (n: number, index: number, stones: number) => (index + stones) % (2 * n + 1);

  it('a free turn happens iff the last stone lands in the mover\'s store, free turns are on and the game is not over', () => {
    let freeTurns = 0;
    let voided = 0;
    fc.assert(
      fc.property(scenarioArb(), (sc) => {
        playScenario(sc, ({ game, before, move, after }) => {
          const n = sc.rules.pits;
          const mover = game.toMove(before);
          const inStore = lastLapPosition(n, move, game.pit(before, mover, move)) === n;
          const freeTurn = game.toMove(after) === mover && !game.isOver(after);
          expect(freeTurn).toBe(sc.rules.freeTurn && inStore && !game.isOver(after));
          if (freeTurn) freeTurns++;
          if (sc.rules.freeTurn && inStore && game.isOver(after)) {
            voided++;
            expect(game.legalMoves(after)).toEqual([]); // isOver wins over the free turn
          }
        });
      }),
      fcRuns(300),
    );
    expect(freeTurns).toBeGreaterThan(0);
    expect(voided).toBeGreaterThan(0);
  });

  it('the game is over exactly as gameEnd says', () => {
    fc.assert(
      fc.property(scenarioArb(), (sc) => {
        const game = new MancalaGame(sc.rules);
        for (const s of playScenario(sc)) {
          const empty0 = game.rowSum(s, 0) === 0;
          const empty1 = game.rowSum(s, 1) === 0;
          const expected = sc.rules.gameEnd === 'either-row-empty' ? empty0 || empty1 : game.toMove(s) === 0 ? empty0 : empty1;
          expect(game.isOver(s)).toBe(expected);
        }
      }),
      fcRuns(300),
    );
  });

  it("capture 'none' never takes stones: the opponent's pits only grow and the store gets only sown stones", () => {
    fc.assert(
      fc.property(scenarioArb(), (sc) => {
        const rules = { ...sc.rules, capture: 'none' as const };
        playScenario({ ...sc, rules }, ({ game, before, move, after }) => {
          const mover = game.toMove(before);
          const landing = refPlay(rules, toRef(game, before), move).landing;
          for (let i = 0; i < rules.pits; i++) expect(game.pit(after, other(mover), i)).toBeGreaterThanOrEqual(game.pit(before, other(mover), i));
          expect(game.store(after, mover) - game.store(before, mover)).toBe(landing.sownIntoStore);
        });
      }),
      fcRuns(300),
    );
  });

  it('a capture empties the opposite pit; the last stone stays with opposite-only and goes to the store with last-and-opposite', () => {
    const seen = { 'last-and-opposite': 0, 'opposite-only': 0 };
    fc.assert(
      fc.property(scenarioArb(), fc.constantFrom<'last-and-opposite' | 'opposite-only'>('last-and-opposite', 'opposite-only'), (sc, capture) => {
        const rules = { ...sc.rules, capture };
        playScenario({ ...sc, rules }, ({ game, before, move, after }) => {
          const mover = game.toMove(before);
          const { hole, wasEmpty, oppositeAfterSowing, sownIntoStore } = refPlay(rules, toRef(game, before), move).landing;
          if (hole.kind !== 'pit' || hole.side !== mover || !wasEmpty) return;
          if (oppositeAfterSowing === 0 && !rules.captureEmptyOpposite) return;
          seen[capture]++;
          const across = rules.pits - 1 - hole.index;
          expect(game.pit(after, other(mover), across)).toBe(0);
          const gained = game.store(after, mover) - game.store(before, mover);
          if (capture === 'opposite-only') {
            expect(game.pit(after, mover, hole.index)).toBe(1);
            expect(gained).toBe(sownIntoStore + oppositeAfterSowing);
          } else {
            expect(game.pit(after, mover, hole.index)).toBe(0);
            expect(gained).toBe(sownIntoStore + oppositeAfterSowing + 1);
          }
        });
      }),
      fcRuns(300),
    );
    expect(seen['last-and-opposite']).toBeGreaterThan(0);
    expect(seen['opposite-only']).toBeGreaterThan(0);
  });

  it('with captureEmptyOpposite off, landing in an empty own pit opposite an empty pit captures nothing', () => {
    let cases = 0;
    fc.assert(
      fc.property(scenarioArb(), (sc) => {
        const rules = { ...sc.rules, captureEmptyOpposite: false };
        playScenario({ ...sc, rules }, ({ game, before, move, after }) => {
          const mover = game.toMove(before);
          const { hole, wasEmpty, oppositeAfterSowing, sownIntoStore } = refPlay(rules, toRef(game, before), move).landing;
          if (hole.kind !== 'pit' || hole.side !== mover || !wasEmpty || oppositeAfterSowing !== 0) return;
          cases++;
          expect(game.pit(after, mover, hole.index)).toBe(1);
          expect(game.store(after, mover) - game.store(before, mover)).toBe(sownIntoStore);
        });
      }),
      fcRuns(300),
    );
    expect(cases).toBeGreaterThan(0);
  });

  it('with captureEmptyOpposite on and last-and-opposite, such a landing sends the last stone alone to the store', () => {
    let cases = 0;
    fc.assert(
      fc.property(scenarioArb(), (sc) => {
        const rules = { ...sc.rules, captureEmptyOpposite: true, capture: 'last-and-opposite' as const };
        playScenario({ ...sc, rules }, ({ game, before, move, after }) => {
          const mover = game.toMove(before);
          const { hole, wasEmpty, oppositeAfterSowing, sownIntoStore } = refPlay(rules, toRef(game, before), move).landing;
          if (hole.kind !== 'pit' || hole.side !== mover || !wasEmpty || oppositeAfterSowing !== 0) return;
          cases++;
          expect(game.pit(after, mover, hole.index)).toBe(0);
          expect(game.store(after, mover) - game.store(before, mover)).toBe(sownIntoStore + 1);
        });
      }),
      fcRuns(300),
    );
    expect(cases).toBeGreaterThan(0);
  });
});

/** The engine's position as a reference board. */
function toRef(game: MancalaGame, s: MancalaState): RefBoard {
  return {
    pits: [game.row(s, 0), game.row(s, 1)],
    stores: [game.store(s, 0), game.store(s, 1)],
    toMove: game.toMove(s),
    over: game.isOver(s),
  };
}
