import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { MancalaGame, type MancalaState } from '../games/mancala/engine.ts';
import type { GameEndRule } from '../games/mancala/rules.ts';
import { findProfile, PROFILE_NAMES, PROFILES } from '../games/mancala/profiles.ts';
import { createRandom } from '../random.ts';
import { OpeningDrawer } from './opening-draws.ts';
import { distinctRandomOpenings, parseOpeningsOption, parseStartPositions, planStarts, randomOpening, readStartPositions, startStates } from './openings.ts';

const kalah = findProfile('kalah')!;
const game = new MancalaGame(kalah.rules, 'kalah(6,4)');
const dir = mkdtempSync(join(tmpdir(), 'openings-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = '{"top":[4,4,4,4,4,4],"bottom":[4,4,4,4,4,4],"stores":{"top":0,"bottom":0}}';
const TOP_TO_MOVE = '{"top":[1,0,2,0,3,0],"bottom":[0,5,0,1,0,2],"stores":{"top":20,"bottom":14},"toMove":"top"}';

function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error('expected a UserError');
}

describe('--openings', () => {
  it('reads random:K and file names', () => {
    expect(parseOpeningsOption('random:2')).toEqual({ kind: 'random', plies: 2 });
    expect(parseOpeningsOption('random:0')).toEqual({ kind: 'random', plies: 0 });
    expect(parseOpeningsOption('positions.jsonl')).toEqual({ kind: 'file', file: 'positions.jsonl' });
  });

  it.each(['random', 'random:', 'random:-1', 'random:x', 'random:101', 'random:2.5'])('refuses %s in one line', (text) => {
    expect(messageOf(() => parseOpeningsOption(text))).toMatch(/^--openings .*: expected random:K with K a whole number from 0 to 100/);
  });
});

describe('random openings', () => {
  it('are seeded, legal, of the asked length, and distinct while the board allows', () => {
    const a = distinctRandomOpenings(game, game.initial(), 2, 7, 10);
    expect(distinctRandomOpenings(game, game.initial(), 2, 7, 10)).toEqual(a);
    expect(distinctRandomOpenings(game, game.initial(), 2, 8, 10)).not.toEqual(a);
    const reached = new Set<string>();
    for (const opening of a) {
      expect(opening).toHaveLength(2);
      let s = game.initial();
      for (const m of opening) s = game.play(s, m); // throws on an illegal move
      reached.add(game.key(s));
    }
    expect(reached.size).toBe(10);
  });

  it('repeat when the board has fewer openings than asked, rather than loop', () => {
    // One random move from the start: six openings only.
    const openings = distinctRandomOpenings(game, game.initial(), 1, 1, 9);
    expect(new Set(openings.map((o) => o[0])).size).toBe(6);
  });

  it('pair the games: games 2p and 2p+1 share an opening', () => {
    const starts = planStarts(game, { kind: 'random', plies: 3 }, { profile: 'kalah', seed: 1, games: 7 });
    expect(starts).toHaveLength(7);
    for (let g = 0; g + 1 < 7; g += 2) expect(starts[g + 1]!.opening).toEqual(starts[g]!.opening);
    expect(starts[2]!.opening).not.toEqual(starts[0]!.opening);
  });
});

/**
 * The specification of distinctRandomOpenings, kept plain: draw each opening with randomOpening,
 * replay it to find the position it reaches, and draw again (up to 64 draws) while that position
 * was reached before. The real one (opening-draws.ts) must return the same openings, drawing the
 * same random numbers: reports compare them byte for byte.
 */
function plainDistinctRandomOpenings(game: MancalaGame, start: MancalaState, plies: number, seed: number, count: number): number[][] {
  const reached = (moves: readonly number[]): string => {
    let s = start;
    for (const m of moves) s = game.play(s, m);
    return game.key(s);
  };
  const random = createRandom(seed);
  const seen = new Set<string>();
  const openings: number[][] = [];
  for (let p = 0; p < count; p++) {
    let opening = randomOpening(game, start, plies, random);
    for (let draw = 1; draw < 64 && seen.has(reached(opening)); draw++) opening = randomOpening(game, start, plies, random);
    seen.add(reached(opening));
    openings.push(opening);
  }
  return openings;
}

describe('random openings, fast equals readable', () => {
  const gameArb = fc
    .record({
      profile: fc.constantFrom(...PROFILE_NAMES),
      pits: fc.integer({ min: 1, max: 6 }),
      seeds: fc.integer({ min: 1, max: 5 }),
      gameEnd: fc.constantFrom<GameEndRule>('either-row-empty', 'mover-cannot-move'),
    })
    .map(({ profile, pits, seeds, gameEnd }) => new MancalaGame({ ...PROFILES[profile]!.rules, pits, seeds, gameEnd }, profile));
  const seedArb = fc.integer({ min: 0, max: 2 ** 31 - 1 });

  it('distinctRandomOpenings returns what the plain algorithm returns', () => {
    fc.assert(
      fc.property(gameArb, fc.integer({ min: 0, max: 12 }), seedArb, fc.integer({ min: 1, max: 300 }), (g, plies, seed, count) => {
        expect(distinctRandomOpenings(g, g.initial(), plies, seed, count)).toEqual(plainDistinctRandomOpenings(g, g.initial(), plies, seed, count));
      }),
      { seed: 20_240_607, numRuns: 60 },
    );
  });

  it('draws as randomOpening does and names the position reached, also once the tree is full', () => {
    fc.assert(
      fc.property(gameArb, fc.integer({ min: 0, max: 30 }), seedArb, fc.integer({ min: 1, max: 40 }), (g, plies, seed, maxNodes) => {
        const drawer = new OpeningDrawer(g, g.initial(), plies, createRandom(seed), maxNodes);
        const random = createRandom(seed);
        for (let k = 0; k < 200; k++) {
          const expected = randomOpening(g, g.initial(), plies, random);
          const drawn = drawer.draw();
          expect(drawn.moves).toEqual(expected);
          expect(drawn.reached).toBe(g.key(expected.reduce((s, m) => g.play(s, m), g.initial())));
        }
      }),
      { seed: 20_240_607, numRuns: 60 },
    );
  });
});

describe('start-positions files', () => {
  it('reads JSON lines (skipping blank and comment lines) and JSON arrays alike', () => {
    const lines = join(dir, 'positions.jsonl');
    writeFileSync(lines, `# two positions\n${START}\n\n${TOP_TO_MOVE}\n`);
    const array = join(dir, 'positions.json');
    writeFileSync(array, `[\n  ${START},\n  ${TOP_TO_MOVE}\n]\n`);
    const a = readStartPositions(lines);
    expect(a).toHaveLength(2);
    expect(a[1]).toMatchObject({ top: [1, 0, 2, 0, 3, 0], topStore: 20, toMove: 1 });
    expect(readStartPositions(array)).toEqual(a);
  });

  it('plays position p in games 2p and 2p+1, and starts over when the games outnumber them', () => {
    const file = join(dir, 'two.jsonl');
    writeFileSync(file, `${START}\n${TOP_TO_MOVE}\n`);
    const starts = planStarts(game, { kind: 'file', file }, { profile: 'kalah', seed: 1, games: 6 });
    expect(starts.map((s) => s.position)).toEqual([1, 1, 2, 2, 1, 1]);
    expect(starts.every((s) => s.opening.length === 0)).toBe(true);
    expect(game.toMove(starts[2]!.start)).toBe(1);
  });

  it.each([
    ['a line that is not JSON', `${START}\n{"top": [4,4,4,4,4,4], bottom\n`, /^F:2: expected valid JSON/],
    ['a line that is not an object', `${START}\n[4,4]\n`, /^F:2: expected a JSON board .* on each line, got "\[4,4\]"/],
    ['a bad field', `${START}\n${START.replace('"top":0', '"top":-2')}\n`, /^F:2: field "stores.top": expected a whole number ≥ 0, got -2$/],
    ['an unknown field', `${START.replace('{', '{"tpo":1,')}\n`, /^F:1: field "tpo": unknown field/],
    ['rows of different lengths', '{"top":[4,4,4],"bottom":[4,4,4,4],"stores":{"top":0,"bottom":0}}\n', /^F:1: field "bottom": expected 3 pits \(as many as "top"\), got 4$/],
    ['an array element', `[${START}, {"top":[4,4,4,4,4,4]}]`, /^F: board \[1\]: field "bottom": .* but it is missing$/],
    ['a broken array', `[${START},\n ${START}`, /^F(:\d+)?: expected a JSON array of boards .* not valid JSON$/],
    ['no board at all', '# nothing here\n\n', /^F: expected at least one start position/],
  ])('refuses %s in one line naming the file and line', (_what, text, message) => {
    const m = messageOf(() => parseStartPositions(text, 'F'));
    expect(m).toMatch(message);
    expect(m).not.toContain('\n');
  });

  it('refuses a missing file, a board of the wrong size, a finished position, a board for other rules', () => {
    expect(messageOf(() => readStartPositions(join(dir, 'none.jsonl')))).toMatch(/none\.jsonl: cannot read the openings file: no such file$/);
    const small = parseStartPositions('{"top":[1,1,1],"bottom":[1,1,1],"stores":{"top":0,"bottom":0}}', 'F');
    expect(messageOf(() => startStates(game, 'kalah', small, 'F'))).toBe('F: start position 1: expected 6 pits a side (the game\'s size), got 3');
    const over = parseStartPositions('{"top":[0,0,0,0,0,0],"bottom":[1,0,0,0,0,0],"stores":{"top":20,"bottom":27}}', 'F');
    expect(messageOf(() => startStates(game, 'kalah', over, 'F'))).toMatch(/^F: start position 1: the game is already over/);
    const other = parseStartPositions(START.replace('}}', '},"profile":"csc384"}'), 'F');
    expect(messageOf(() => startStates(game, 'kalah', other, 'F'))).toMatch(/^F: start position 1: the board is for the csc384 rules, but the match plays kalah/);
  });
});
