import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import type { TournamentParams } from './params.ts';
import { gameLine, openResults, readResultsHeader, RESULTS_FILE, type PlayedGame } from './results.ts';
import { buildSchedule, type ScheduledGame } from './schedule.ts';

const work = mkdtempSync(join(tmpdir(), 'tournament-results-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(work, `out-${++dirs}`);

const params: TournamentParams = {
  format: 'round-robin',
  agents: ['random', 'greedy', 'alphabeta:depth=2'],
  vs: [],
  gamesPerPair: 2,
  seed: 5,
  rules: 'kalah',
  pits: 4,
  seeds: 3,
  timePerMoveMs: 300,
  openings: 'random:2',
  openingsSha256: null,
  forfeit: 'loss',
};
const schedule = buildSchedule(params);

function played(g: ScheduledGame): PlayedGame {
  return { index: g.index, A: g.A, B: g.B, first: g.first, winner: 'A', score: [10, 8], moves: [0, 1, 2], openingPlies: 2, forfeit: null, time: [1.25, 2] };
}

/** A results file holding the header and the first `k` games. */
function fileWith(k: number): { dir: string; file: string } {
  const dir = freshDir();
  const store = openResults(dir, params, schedule);
  for (const g of schedule.slice(0, k)) store.append(played(g));
  store.close();
  return { dir, file: join(dir, RESULTS_FILE) };
}

function thrown(f: () => unknown): UserError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }
  throw new Error('expected a UserError');
}

describe('the results file', () => {
  it('starts with a header recording the parameters, then a line per game; reopening returns the games', () => {
    const { dir, file } = fileWith(3);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[0]!)).toEqual({ type: 'tournament', version: 1, params });
    expect(JSON.parse(lines[1]!)).toMatchObject({ type: 'game', index: 1, A: schedule[0]!.A, winner: 'A', time: [1.3, 2] });
    const again = openResults(dir, params, schedule);
    again.close();
    expect([...again.recorded.keys()]).toEqual([1, 2, 3]);
    expect(again.recorded.get(2)).toMatchObject({ A: schedule[1]!.A, B: schedule[1]!.B, moves: [0, 1, 2] });
    expect(again.notes).toEqual([]);
  });

  it('refuses to resume a tournament with other parameters, naming the flags that differ', () => {
    const { dir, file } = fileWith(1);
    const e = thrown(() => openResults(dir, { ...params, seed: 6, gamesPerPair: 4 }, schedule));
    expect(e.message).toContain(file);
    expect(e.message).toContain('--games-per-pair 2 there, 4 now');
    expect(e.message).toContain('--seed 5 there, 6 now');
  });

  it('records a time bank only when there is one, resumes with it and names it when it differs', () => {
    const dir = freshDir();
    const banked = { ...params, timeBankMs: 500 };
    openResults(dir, banked, schedule).close();
    expect(JSON.parse(readFileSync(join(dir, RESULTS_FILE), 'utf8').split('\n')[0]!)).toEqual({ type: 'tournament', version: 1, params: banked });
    openResults(dir, banked, schedule).close();
    expect(thrown(() => openResults(dir, params, schedule)).message).toContain('--time-bank 500 there, 0 now');
  });

  it('drops a last line cut short by a kill (its game is played again) and keeps appending a well-formed file', () => {
    const { dir, file } = fileWith(2);
    const torn = gameLine(played(schedule[2]!)).slice(0, 40);
    appendFileSync(file, torn);
    const store = openResults(dir, params, schedule);
    expect([...store.recorded.keys()]).toEqual([1, 2]);
    expect(store.notes.join()).toMatch(/:4: dropped a last line cut short/);
    store.append(played(schedule[2]!));
    store.close();
    const reread = openResults(dir, params, schedule);
    reread.close();
    expect([...reread.recorded.keys()]).toEqual([1, 2, 3]);
    expect(readFileSync(file, 'utf8')).not.toContain(torn + '{');
  });

  it('keeps a complete last line that lacks only its newline', () => {
    const { dir, file } = fileWith(1);
    appendFileSync(file, gameLine(played(schedule[1]!)).trimEnd());
    const store = openResults(dir, params, schedule);
    store.append(played(schedule[2]!));
    store.close();
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(4);
    const reread = openResults(dir, params, schedule);
    reread.close();
    expect([...reread.recorded.keys()]).toEqual([1, 2, 3]);
  });

  it('a header cut short (killed right after starting) is started again', () => {
    const { dir, file } = fileWith(0);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, 30));
    const store = openResults(dir, params, schedule);
    store.close();
    expect(store.recorded.size).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('garbage in the middle is an error naming the file and the line', () => {
    const { dir, file } = fileWith(3);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = 'this is not json';
    writeFileSync(file, lines.join('\n'));
    expect(thrown(() => openResults(dir, params, schedule)).message).toMatch(new RegExp(`^${file}:3: not a JSON line`));
  });

  it('a line of the wrong shape names its field; a game that does not match the schedule or is recorded twice is refused', () => {
    const bad = (edit: (lines: string[]) => void): string => {
      const { dir, file } = fileWith(3);
      const lines = readFileSync(file, 'utf8').split('\n');
      edit(lines);
      writeFileSync(file, lines.join('\n'));
      return thrown(() => openResults(dir, params, schedule)).message;
    };
    expect(bad((l) => (l[2] = l[2]!.replace('"winner":"A"', '"winner":"C"')))).toMatch(/:3: field "winner"/);
    expect(bad((l) => (l[3] = l[3]!.replace(`"A":${JSON.stringify(schedule[2]!.A)}`, '"A":"someone"')))).toMatch(/:4: game 3 is recorded as someone vs/);
    expect(bad((l) => (l[3] = l[1]!))).toMatch(/:4: game 1 is recorded twice \(also on line 2\)/);
    expect(bad((l) => (l[1] = l[1]!.replace('"index":1', '"index":99')))).toMatch(/:2: game 99 is not in the schedule \(it has games 1 to 6\)/);
    expect(bad((l) => (l[0] = '{"type":"tournament","version":7}'))).toMatch(/:1: field "version"/);
  });

  it('--out naming a file is refused', () => {
    const file = join(work, 'a-file');
    writeFileSync(file, 'x');
    expect(thrown(() => openResults(file, params, schedule)).message).toContain('not a folder');
  });
});

describe('the header alone', () => {
  it('is read up to its newline: a header before 3 GB of games is read (the whole file is never read), a header past 4 MB is refused naming the file and line', () => {
    const { file } = fileWith(2);
    // Sparse: 3 GB of length and no disk, past the 2 GB a single read of a whole file may hold.
    truncateSync(file, 3 * 1024 ** 3);
    expect(readResultsHeader(file).params).toEqual(params);
    const long = join(freshDir() + '-long.jsonl');
    writeFileSync(long, '');
    truncateSync(long, 5 * 1024 * 1024);
    expect(() => readResultsHeader(long)).toThrow(UserError);
    expect(() => readResultsHeader(long)).toThrow(new RegExp(`${long.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1: the header line is longer than 4 MB`));
  });
});
