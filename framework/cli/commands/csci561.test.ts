/**
 * `mancala csci561`: the command run in this process (commander, the action, the files it
 * writes) on the course's 30 official graded cases, read in place and compared byte for byte,
 * and on inputs the project generates itself, checked against the reference searches and the
 * traverse log's invariants.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import { boardToState, parseCsci561Input, parseCsci561NextState, stateToBoard } from '../../games/mancala/board-io/index.ts';
import type { MancalaState } from '../../games/mancala/engine.ts';
import { randomCsci561Input } from '../../packs/csci561/positions.ts';
import { addCsci561Command } from './csci561.ts';
import { alphaBeta } from '../../../agents/reference/alphabeta.ts';
import { solveCsci561 } from '../../../agents/reference/csci561-task.ts';
import { csci561Game } from '../../packs/csci561/game.ts';
import { minimax } from '../../../agents/reference/minimax.ts';
import basic from '../../../agents/heuristics/basic.ts';

const work = mkdtempSync(join(tmpdir(), 'mancala-csci561-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let folders = 0;
const freshDir = (): string => join(work, `run-${++folders}`);

/** The command as main.ts runs it: a user's mistake is one line on stderr and exit code 2. */
async function csci561(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t) };
  const program = new Command('mancala').exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err, outputError: () => {} });
  addCsci561Command(program, io);
  try {
    await program.parseAsync(['csci561', ...args], { from: 'user' });
    return { code: 0, out, err };
  } catch (e) {
    if (e instanceof UserError) return { code: e.exitCode, out, err: err + `mancala: ${e.message}\n` };
    if (e instanceof CommanderError) return { code: e.exitCode === 0 ? 0 : 2, out, err: err + `mancala: ${e.message}\n` };
    throw e;
  }
}

/** Runs the command on `input` (text) in a fresh folder; returns the folder's files. */
async function runOn(input: string, extra: string[] = []): Promise<Record<string, string>> {
  const dir = freshDir();
  const inputFile = join(work, `input-${folders}.txt`);
  writeFileSync(inputFile, input);
  const r = await csci561([inputFile, '--out', dir, '--quiet', ...extra]);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

// ---- the official graded cases ----------------------------------------------------------------

const officialDir = process.env.CSCI561_OFFICIAL_DIR ?? fileURLToPath(new URL('../../../../shared/conformance/csci561-official/', import.meta.url));
const haveOfficial = existsSync(officialDir);
const OPTIONAL_MARK = '\tOPTIONAL';

describe(`mancala csci561 on the 30 official graded cases (${officialDir})`, () => {
  if (!haveOfficial) it.skip(`official cases not found at ${officialDir} (set CSCI561_OFFICIAL_DIR): skipped`, () => {});
  const read = (name: string) => readFileSync(join(officialDir, name), 'utf8');

  it.runIf(haveOfficial).each(Array.from({ length: 30 }, (_, i) => i + 1))('case %i: the files are the official ones, byte for byte', async (k) => {
    const input = read(`testInput_${k}.txt`);
    const task = Number(input.split('\n')[0]);
    const printed = await runOn(input);
    const omitted = await runOn(input, ['--optional-lines', 'omit']);
    const marked = await runOn(input, ['--optional-lines', 'mark']);
    for (const files of [printed, omitted, marked]) {
      expect(files['next_state.txt']).toBe(read(`next_state_${k}.txt`));
      expect(Object.keys(files).sort()).toEqual(task === 1 ? ['next_state.txt'] : ['next_state.txt', 'traverse_log.txt']);
    }
    if (task === 1) return;
    const official = read(`traverse_log_${k}.txt`);
    // Marked: the official file itself.
    expect(marked['traverse_log.txt']).toBe(official);
    // Omitted: the official file without its OPTIONAL lines, byte for byte.
    expect(omitted['traverse_log.txt']).toBe(
      official
        .split('\n')
        .filter((l) => !l.endsWith(OPTIONAL_MARK))
        .join('\n'),
    );
    // Printed: every other line byte for byte; an OPTIONAL line as the same fields with an infinity.
    const ours = printed['traverse_log.txt']!.split('\n');
    const theirs = official.split('\n');
    expect(ours).toHaveLength(theirs.length);
    theirs.forEach((line, i) => {
      if (!line.endsWith(OPTIONAL_MARK)) {
        if (ours[i] !== line) expect(`line ${i + 1}: ${ours[i]}`).toBe(`line ${i + 1}: ${line}`);
        return;
      }
      const [name, depth, value, ...window] = line.slice(0, -OPTIONAL_MARK.length).split(',');
      expect(value).toBe('+/-Infinity');
      expect(ours[i]).toMatch(new RegExp(`^${name},${depth},-?Infinity${window.map((w) => `,${w}`).join('')}$`));
    });
  });
});

// ---- generated inputs -------------------------------------------------------------------------

type Params = Parameters<typeof minimax<MancalaState>>[0];

/** The reference search's (move, value) from `state`, its mover maximising, as the task asks. */
function referenceSearch(task: number, depth: number, pits: number, state: MancalaState) {
  const game = csci561Game(pits);
  const params: Params = { game, heuristic: basic, depth: task === 1 ? 1 : depth, unit: 'turn', terminal: 'score' };
  return (task === 3 ? alphaBeta : minimax)(params, state);
}

/**
 * The value of playing `move` in `state` for its mover, searched afresh below it: a free turn
 * keeps the depth (the mover maximises again), the opponent's turn uses one level and is worth
 * the negation of the opponent's own value (the store difference is zero-sum).
 */
function valueOfMove(depth: number, pits: number, state: MancalaState, move: number): number {
  const game = csci561Game(pits);
  const mover = game.toMove(state);
  const child = game.play(state, move);
  if (game.isOver(child)) return game.score(child, mover);
  const params = (d: number): Params => ({ game, heuristic: basic, depth: d, unit: 'turn', terminal: 'score' });
  if (game.toMove(child) === mover) return minimax(params(depth), child).value;
  if (depth - 1 <= 0) return basic.evaluate(child, mover, game);
  return -minimax(params(depth - 1), child).value;
}

/** The agent's whole turn from `state`: `first`, then the reference's choice at each free turn. */
function playTurn(task: number, depth: number, pits: number, state: MancalaState, first: number): MancalaState {
  const game = csci561Game(pits);
  const agent = game.toMove(state);
  let s = game.play(state, first);
  while (!game.isOver(s) && game.toMove(s) === agent) s = game.play(s, referenceSearch(task, depth, pits, s).move);
  return game.swept(s);
}

const fields = (line: string) => line.split(',');

describe('mancala csci561 on generated inputs (tasks 1–3, cut-off depths 1–3)', () => {
  const SEEDS = Array.from({ length: 60 }, (_, i) => 1000 + i);

  it.each(SEEDS)('seed %i: the files agree with the reference solver and searches, and the log keeps its invariants', async (seed) => {
    const { text, task, depth, pits } = randomCsci561Input(seed);
    const files = await runOn(text);
    const solved = solveCsci561(text, 'input.txt');
    expect(files['next_state.txt']).toBe(solved.nextState);

    const game = csci561Game(pits);
    const board = parseCsci561Input(text, 'input.txt');
    const start = boardToState(game, board);
    const reference = referenceSearch(task, depth, pits, start);
    // next_state: the reference's move, then the agent's free-turn chain, the board swept if the game ended.
    const next = parseCsci561NextState(files['next_state.txt']!, 'next_state.txt');
    const expected = stateToBoard(game, playTurn(task, depth, pits, start, reference.move));
    expect([next.top, next.bottom, next.topStore, next.bottomStore]).toEqual([expected.top, expected.bottom, expected.topStore, expected.bottomStore]);
    if (task === 1) {
      expect(files['traverse_log.txt']).toBeUndefined();
      return;
    }

    const log = files['traverse_log.txt']!;
    expect(log.endsWith('\n')).toBe(true);
    const lines = log.slice(0, -1).split('\n');
    expect(lines.join('\n')).toBe(solved.traverseLog!.join('\n'));
    const ab = task === 3;
    expect(lines[0]).toBe(ab ? 'Node,Depth,Value,Alpha,Beta' : 'Node,Depth,Value');
    expect(lines[1]).toBe(ab ? 'root,0,-Infinity,-Infinity,Infinity' : 'root,0,-Infinity');
    const rows = lines.slice(1).map(fields);
    for (const row of rows) {
      expect(row).toHaveLength(ab ? 5 : 3);
      expect(Number(row[1])).toBeGreaterThanOrEqual(0);
      expect(Number(row[1])).toBeLessThanOrEqual(depth);
      expect(row[2]).toMatch(/^(-?Infinity|-?\d+)$/);
      if (ab) {
        const [alpha, beta] = [row[3]!, row[4]!].map((v) => (v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : Number(v)));
        expect(alpha, row.join(',')).toBeLessThanOrEqual(beta!);
      }
    }
    // The root comes last with the search's value; that value is the move written's.
    const last = rows[rows.length - 1]!;
    expect(last.slice(0, 2)).toEqual(['root', '0']);
    const rootValue = Number(last[2]);
    expect(rootValue).toBe(reference.value);
    // The move written: the first root child whose return set the root to its final value.
    let chosen: string | undefined;
    let rootSoFar = -Infinity;
    for (let i = 1; i < rows.length; i++) {
      const row = rows[i]!;
      if (row[0] !== 'root') continue;
      const v = Number(row[2]);
      if (v > rootSoFar) {
        rootSoFar = v;
        // The child's line just before the root's update is its final value.
        chosen = rows[i - 1]![0];
        expect(Number(rows[i - 1]![2])).toBe(v);
      }
    }
    expect(chosen).toBe(game.moveName(start, reference.move));
    expect(valueOfMove(depth, pits, start, reference.move)).toBe(rootValue);
  });
});

// ---- task 4, defaults and mistakes ----------------------------------------------------------------

/** Every board the agent's whole turn can end on (all free-turn chains), as next_state text. */
function turnOutcomes(pits: number, start: MancalaState): Set<string> {
  const game = csci561Game(pits);
  const agent = game.toMove(start);
  const out = new Set<string>();
  const walk = (s: MancalaState) => {
    for (const m of game.legalMoves(s)) {
      const child = game.play(s, m);
      if (!game.isOver(child) && game.toMove(child) === agent) walk(child);
      else {
        const b = stateToBoard(game, game.swept(child));
        out.add([b.top.join(' '), b.bottom.join(' '), b.topStore, b.bottomStore].join('\n') + '\n');
      }
    }
  };
  walk(start);
  return out;
}

describe('mancala csci561: the competition, defaults, and mistakes', () => {
  it('task 4 plays a whole legal turn within its time budget and writes next_state.txt only', async () => {
    for (const [player, rows] of [
      [1, ['4 4 4 4 4 4', '4 4 4 4 4 4']],
      [2, ['0 3 1 0 7', '2 0 0 5 1']],
    ] as const) {
      const text = ['4', String(player), '0', ...rows, '3', '1'].join('\n') + '\n';
      const begin = performance.now();
      const files = await runOn(text, ['--ms', '200']);
      // The budget is 200 ms; the margin is for a busy machine.
      expect(performance.now() - begin).toBeLessThan(3000);
      expect(Object.keys(files)).toEqual(['next_state.txt']);
      const board = parseCsci561Input(text, 'input.txt');
      const pits = board.top.length;
      expect(turnOutcomes(pits, boardToState(csci561Game(pits), board)).has(files['next_state.txt']!)).toBe(true);
    }
  });

  it('reads ./input.txt and writes into the current folder by default, with a summary line', async () => {
    const dir = freshDir();
    const cwd = process.cwd();
    mkdirSync(dir);
    writeFileSync(join(dir, 'input.txt'), '2\n1\n2\n1 1 1\n3 0 1\n0\n0\n');
    process.chdir(dir);
    try {
      const r = await csci561([]);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^task 2 \(MiniMax\), player 1, cut-off depth 2, 3 pits a side: wrote next_state\.txt, traverse_log\.txt \(\d+ lines\)\n$/);
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(dir).sort()).toEqual(['input.txt', 'next_state.txt', 'traverse_log.txt']);
    expect(readFileSync(join(dir, 'next_state.txt'), 'utf8')).toBe(solveCsci561('2\n1\n2\n1 1 1\n3 0 1\n0\n0\n', 'input.txt').nextState);
  });

  it('a mistake is one line naming the file (and line), exit code 2, and nothing written', async () => {
    const dir = freshDir();
    const missing = join(work, 'no-such-input.txt');
    const truncated = join(work, 'truncated.txt');
    writeFileSync(truncated, '2\n1\n2\n1 1 1\n');
    const task5 = join(work, 'task5.txt');
    writeFileSync(task5, '5\n1\n2\n1 1 1\n3 0 1\n0\n0\n');
    const over = join(work, 'over.txt');
    writeFileSync(over, '3\n2\n2\n0 0 0\n3 0 1\n0\n0\n');
    const cases: [string[], RegExp][] = [
      [[missing], /^mancala: .*no-such-input\.txt: cannot read the input file: no such file\n$/],
      [[truncated], /^mancala: .*truncated\.txt:5: expected the bottom row \(player 1's pits\) on line 5, but the file ends after line 4\n$/],
      [[task5], /^mancala: .*task5\.txt:1: expected the task: 1 \(Greedy\), 2 \(MiniMax\), 3 \(Alpha-Beta\) or 4 \(Competition\), got "5"\n$/],
      [[over], /^mancala: .*over\.txt: player 2 has no legal move \(the game is over on this board\)\n$/],
      [[truncated, '--ms', '3'], /^mancala: .*--ms.*\n$/],
    ];
    for (const [args, message] of cases) {
      const r = await csci561([...args, '--out', dir]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(existsSync(dir)).toBe(false);
    }
    const file = join(work, 'a-file');
    writeFileSync(file, '');
    const r = await csci561([join(officialDir, 'testInput_2.txt'), '--out', file]);
    if (haveOfficial) expect([r.code, r.err]).toEqual([2, `mancala: ${file}: expected an output folder, but it is a file\n`]);
  });
});

// ---- csci561-grade, and the real process -------------------------------------------------------

describe('mancala csci561-grade', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));

  it('grades a program folder on a suite and writes the JSON report; a program that writes nothing gets 0', async () => {
    const sub = join(work, 'silent');
    mkdirSync(sub);
    writeFileSync(join(sub, 'command'), 'true\n');
    const json = join(work, 'silent.json');
    const r = await csci561Grade([sub, '--suite', join(root, 'testcases/csci561-public'), '--json', json, '--no-color']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Suite CSCI-561 Mancala \(public\): 1 submission\n/);
    expect(r.out).toContain('silent  0 / 30  0 of 30 cases passed');
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.submissions[0].cases[0].message).toMatch(/^next_state\.txt: your program did not write it\ntraverse_log\.txt: your program did not write it\ninput\.txt \(csci561-public\/inputs\/alphabeta-d1-1\.txt\):\n  3\n/);
  });

  it('when every program of one interpreter fails every case the same way, says loudly that the machine is at fault', async () => {
    // Each "student" runs a program the machine cannot run: the same failure, whoever wrote it.
    const subs = ['ann', 'ben'].map((name) => {
      const sub = join(work, 'broken-machine', name);
      mkdirSync(sub, { recursive: true });
      writeFileSync(join(sub, 'command'), 'sh -c "exit 3"\n');
      return sub;
    });
    const json = join(work, 'broken-machine', 'report.json');
    const r = await csci561Grade([...subs, '--suite', join(root, 'testcases/csci561-public'), '--json', json, '--no-color']);
    expect(r.code, r.err).toBe(0);
    const warning = /WARNING: all 2 sh submissions failed every case the same way: "[^"\n]+" — this is most likely the grading machine, not the students/;
    // Last on stderr, after the report files, where it is seen.
    expect(r.err.trimEnd().split('\n').at(-1)).toMatch(warning);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.notes).toHaveLength(1);
    expect(report.notes[0]).toMatch(warning);
    expect(r.out).toMatch(/note: WARNING: all 2 sh submissions/);
  });

  it('a missing suite or submission folder is one line, exit code 2', async () => {
    expect(await csci561Grade([work, '--suite', join(work, 'nope')])).toMatchObject({ code: 2, err: `mancala: --suite ${join(work, 'nope')}: expected a suite folder\n` });
    const file = join(work, 'not-a-folder');
    writeFileSync(file, '');
    expect(await csci561Grade([file, '--suite', join(root, 'testcases/csci561-public')])).toMatchObject({
      code: 2,
      err: `mancala: submission ${file}: expected a folder with a \`command\` file\n`,
    });
  });
});

async function csci561Grade(args: string[]) {
  let out = '';
  let err = '';
  const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t) };
  const program = new Command('mancala').exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err, outputError: () => {} });
  addCsci561Command(program, io);
  try {
    await program.parseAsync(['csci561-grade', ...args], { from: 'user' });
    return { code: 0, out, err };
  } catch (e) {
    if (e instanceof UserError) return { code: e.exitCode, out, err: err + `mancala: ${e.message}\n` };
    throw e;
  }
}

describe('node bin/mancala.js csci561 (the real process, once main.ts wires the command)', async () => {
  const { buildProgram } = await import('../main.ts');
  const wired = buildProgram({ out: () => {}, err: () => {} }).commands.some((c) => c.name() === 'csci561');
  if (!wired) it.skip('the csci561 command is not wired into framework/cli/main.ts yet: skipped', () => {});

  it.runIf(wired && haveOfficial)('writes the official files of case 3 and exits 0; a bad input exits 2 with one line', () => {
    const bin = fileURLToPath(new URL('../../../bin/mancala.js', import.meta.url));
    const dir = freshDir();
    const ok = spawnSync(process.execPath, [bin, 'csci561', join(officialDir, 'testInput_3.txt'), '--out', dir, '--optional-lines', 'mark'], { encoding: 'utf8' });
    expect([ok.status, ok.stderr]).toEqual([0, '']);
    expect(readFileSync(join(dir, 'next_state.txt'), 'utf8')).toBe(readFileSync(join(officialDir, 'next_state_3.txt'), 'utf8'));
    expect(readFileSync(join(dir, 'traverse_log.txt'), 'utf8')).toBe(readFileSync(join(officialDir, 'traverse_log_3.txt'), 'utf8'));
    const bad = spawnSync(process.execPath, [bin, 'csci561', join(work, 'missing.txt')], { encoding: 'utf8' });
    expect([bad.status, bad.stderr]).toEqual([2, `mancala: ${join(work, 'missing.txt')}: cannot read the input file: no such file\n`]);
  });
});
