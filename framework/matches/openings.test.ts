import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { findProfile } from '../games/mancala/profiles.ts';
import { distinctRandomOpenings, parseOpeningsOption, parseStartPositions, planStarts, readStartPositions, startStates } from './openings.ts';

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
