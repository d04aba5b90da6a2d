/**
 * The leaf-value function (sowing.ts leafValueSource, reached through MancalaGame.playLeaf) must
 * say exactly what making the move says: the store difference (swept when asked), whether the
 * same player moves again and whether the game is over, for every rule set, board size and
 * position, whole laps and emptied rows included. It is compared here with `play`.
 *
 * Every random choice comes from fast-check under a fixed seed.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Player } from '../../contracts/game.ts';
import { MancalaGame, type MancalaState } from './engine.ts';
import type { CaptureRule, GameEndRule, MancalaRules } from './rules.ts';
import { leafValueSource, sowingSource } from './sowing.ts';

const FC_SEED = 615_438;

const rulesArb: fc.Arbitrary<MancalaRules> = fc.record({
  pits: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 7 }) }, { weight: 1, arbitrary: fc.integer({ min: 8, max: 20 }) }),
  seeds: fc.constant(4),
  freeTurn: fc.boolean(),
  capture: fc.constantFrom<CaptureRule>('last-and-opposite', 'opposite-only', 'none'),
  captureEmptyOpposite: fc.boolean(),
  gameEnd: fc.constantFrom<GameEndRule>('either-row-empty', 'mover-cannot-move'),
  moveOrder: fc.constant('sowing' as const),
  pitNaming: fc.constant('bt' as const),
});

/** A pit: often empty, often small, sometimes a whole lap or more. */
const pitArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 7, max: 90 }) },
);

const caseArb = rulesArb.chain((rules) =>
  fc.record({
    rules: fc.constant(rules),
    bottom: fc.array(pitArb, { minLength: rules.pits, maxLength: rules.pits }),
    top: fc.array(pitArb, { minLength: rules.pits, maxLength: rules.pits }),
    stores: fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 })),
    toMove: fc.constantFrom<Player>(0, 1),
  }),
);

/** What playLeaf should return, read off the position `play` makes. */
function expected(game: MancalaGame, s: MancalaState, move: number, sweep: boolean): { after: MancalaState; packed: number } {
  const after = game.play(s, move);
  const over = game.isOver(after);
  const d = over && sweep ? game.score(after, 0) : game.store(after, 0) - game.store(after, 1);
  return { after, packed: (d << 2) | (game.toMove(after) === game.toMove(s) ? 2 : 0) | (over ? 1 : 0) };
}

describe('playLeaf (the leaf-value function)', () => {
  it('agrees with play on random positions of every rule set, and builds the child when a free turn must go on', () => {
    let compared = 0;
    fc.assert(
      fc.property(caseArb, fc.boolean(), fc.boolean(), ({ rules, bottom, top, stores, toMove }, sweep, keepTurn) => {
        const game = new MancalaGame(rules);
        const s = game.fromRows(bottom, top, stores[0], stores[1], toMove);
        for (const move of game.legalMoves(s)) {
          const { after, packed } = expected(game, s, move, sweep);
          const out = game.newState();
          const plays = game.counters.plays;
          const got = game.playLeaf(s, move, out, sweep, keepTurn);
          expect({ value: got >> 2, flags: got & 3 }, `${game.describe(s)}, move ${move}`).toEqual({ value: packed >> 2, flags: packed & 3 });
          expect(game.counters.plays).toBe(plays + 1);
          if (keepTurn && (packed & 3) === 2) expect(game.key(out)).toBe(game.key(after));
          compared++;
        }
      }),
      { seed: FC_SEED, numRuns: 1200 },
    );
    expect(compared).toBeGreaterThan(2000);
  });

  it('agrees with play along whole random games (the positions a search meets)', () => {
    fc.assert(
      fc.property(rulesArb, fc.integer({ min: 1, max: 6 }), fc.array(fc.nat(), { minLength: 1, maxLength: 80 }), (rules, seeds, choices) => {
        const game = new MancalaGame({ ...rules, seeds });
        let s = game.initial();
        for (const c of choices) {
          const legal = game.legalMoves(s);
          if (legal.length === 0) break;
          for (const move of legal) {
            for (const sweep of [false, true]) {
              const { packed } = expected(game, s, move, sweep);
              expect(game.playLeaf(s, move, game.newState(), sweep, false)).toBe(packed);
            }
          }
          s = game.play(s, legal[c % legal.length]!);
        }
      }),
      { seed: FC_SEED, numRuns: 300 },
    );
  });

  it('is generated from validated integers only', () => {
    const rules: MancalaRules = {
      pits: 6,
      seeds: 4,
      freeTurn: true,
      capture: 'last-and-opposite',
      captureEmptyOpposite: true,
      gameEnd: 'either-row-empty',
      moveOrder: 'sowing',
      pitNaming: 'bt',
    };
    expect(() => leafValueSource({ ...rules, pits: 0 })).toThrow(RangeError);
    expect(() => leafValueSource({ ...rules, pits: 2.5 })).toThrow(RangeError);
    expect(() => sowingSource({ ...rules, pits: 21 })).toThrow(RangeError);
  });
});
