import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { findProfile } from '../games/mancala/profiles.ts';
import { playGame } from './play-game.ts';
import { openPlayer } from './player.ts';
import { parseReplay, readReplay, replayEnd, replayFileName, replayText, writeReplay, type Replay, type ReplayHeader } from './replay.ts';
import type { GameRecord, ReplayLine } from './types.ts';

const kalah = findProfile('kalah')!;
const game = new MancalaGame(kalah.rules, 'kalah(6,4)');
const dir = mkdtempSync(join(tmpdir(), 'replay-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const header: ReplayHeader = {
  type: 'game', version: 1, game: 3, rules: 'kalah', pits: 6, seeds: 4, A: 'alphabeta:depth=2', B: 'random',
  first: 'B', seed: 9, timePerMoveMs: 1000, forfeitPolicy: 'loss',
};
let record: GameRecord;
let lines: ReplayLine[];
let text: string;

beforeAll(async () => {
  const o = { game: { kind: 'mancala' as const, profile: 'kalah', rules: kalah.rules, name: 'kalah(6,4)' }, conventions: kalah.search, memoryMb: 256 };
  const players = { A: await openPlayer('alphabeta:depth=2', o), B: await openPlayer('random', o) };
  lines = [];
  record = await playGame({ game, start: game.initial(), openingPlies: 2, players, first: 'B', index: 3, timePerMoveMs: 1000, forfeit: 'loss', seed: 9, onReplay: (l) => lines.push(l) });
  text = replayText({ header, moves: lines, end: replayEnd(record) });
});

/** The replay text with line `k` (1-based) passed through `edit`. */
function edited(k: number, edit: (line: Record<string, any>) => void): string {
  const all = text.trimEnd().split('\n');
  const data = JSON.parse(all[k - 1]!);
  edit(data);
  all[k - 1] = JSON.stringify(data);
  return all.join('\n') + '\n';
}

function failure(t: string): string {
  try {
    parseReplay(t, 'R.jsonl');
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).not.toContain('\n');
    return (e as Error).message;
  }
  throw new Error('expected a UserError');
}

describe('replays', () => {
  it('names files so they sort', () => {
    expect(replayFileName(7, 20)).toBe('game-007.jsonl');
    expect(replayFileName(12, 5000)).toBe('game-0012.jsonl');
  });

  it('record every move with the board before it, and read back to the same game', () => {
    const file = join(dir, 'g.jsonl');
    writeReplay(file, { header, moves: lines, end: replayEnd(record) });
    expect(readFileSync(file, 'utf8')).toBe(text);
    const r: Replay = readReplay(file);
    expect(r.header).toEqual(header);
    expect(r.moves.map((l) => l.move)).toEqual(record.moves);
    expect(r.moves.slice(0, 2).every((l) => l.by === 'opening')).toBe(true);
    expect(r.moves[0]!.before).toEqual({ top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], topStore: 0, bottomStore: 0, toMove: 0 });
    // B moved first: B played the bottom seat.
    expect(r.moves[0]!.side).toBe('B');
    expect(r.end).toMatchObject({ winner: record.winner, score: record.score, plies: record.moves.length, forfeit: null });
    expect(record.score[0] + record.score[1]).toBe(48);
  });

  it.each([
    ['a line that is not JSON', (t: string) => t.replace(/\n/, '\n{oops\n'), /^R\.jsonl:2: expected one JSON object a line/],
    ['a cut file', (t: string) => t.split('\n').slice(0, 10).join('\n'), /^R\.jsonl:10: expected the "end" line last, but the replay stops after line 10/],
    ['no header', (t: string) => t.split('\n').slice(1).join('\n'), /^R\.jsonl:1: expected the "game" line first$/],
    ['an unknown rules profile', () => edited(1, (h) => (h.rules = 'oware')), /^R\.jsonl:1: field "rules": expected a rules profile: .*, got "oware"$/],
    ['an unknown line type', () => edited(5, (l) => (l.type = 'mvoe')), /^R\.jsonl:5: field "type": expected "game", "move" or "end", got "mvoe"$/],
    ['a missing field', () => edited(4, (l) => delete l.moveName), /^R\.jsonl:4: field "moveName": .*, but it is missing$/],
    ['a bad board', () => edited(4, (l) => (l.before.top[2] = -1)), /^R\.jsonl:4: field "before.top\[2\]": expected a whole number ≥ 0, got -1$/],
    ['an unknown field', () => edited(6, (l) => (l.remark = 'hi')), /^R\.jsonl:6: field "remark": unknown field$/],
    ['plies out of order', () => edited(6, (l) => (l.ply = 9)), /^R\.jsonl:6: field "ply": expected 4 .*, got 9$/],
    ['a board that does not follow', () => edited(7, (l) => (l.before.bottom[0] += 1)), /^R\.jsonl:7: field "before": expected the board after the previous move/],
    ['the wrong side', () => edited(2, (l) => (l.side = 'A')), /^R\.jsonl:2: field "side": expected B \(the side to move, B moving first\), got A$/],
    ['a move name that disagrees', () => edited(3, (l) => (l.moveName = 'X9')), /^R\.jsonl:3: field "moveName": expected "T\d" \(move \d\), got "X9"$/],
    ['a wrong score', () => edited(text.trimEnd().split('\n').length, (e) => (e.score = [30, 18])), /^R\.jsonl:\d+: field "score": expected \[\d+,\d+\] \(the last board's stores\), got \[30,18\]$/],
    ['a wrong move count', () => edited(text.trimEnd().split('\n').length, (e) => (e.plies += 1)), /^R\.jsonl:\d+: field "plies": expected \d+ \(the move lines\)/],
  ])('refuses %s in one line naming the file and line', (_what, corrupt, message) => {
    expect(failure(corrupt(text))).toMatch(message);
  });

  it('refuses an illegal move', () => {
    // Replace a move by one whose pit is empty (or off the board) and keep the rest.
    const all = text.trimEnd().split('\n');
    const k = all.findIndex((l, i) => i > 0 && l.includes('"type":"move"') && JSON.parse(l).before.bottom.includes(0) && JSON.parse(l).before.toMove === 'bottom');
    const line = JSON.parse(all[k]!);
    line.move = (line.before.bottom as number[]).indexOf(0);
    all[k] = JSON.stringify(line);
    expect(failure(all.join('\n'))).toMatch(new RegExp(`^R\\.jsonl:${k + 1}: field "move": ${line.move} is not a legal move in `));
  });

  it('refuses an empty or missing file', () => {
    expect(failure('')).toMatch(/^R\.jsonl: expected a replay .* but the file is empty$/);
    expect(() => readReplay(join(dir, 'missing.jsonl'))).toThrow(/missing\.jsonl: cannot read the replay: no such file$/);
  });
});
