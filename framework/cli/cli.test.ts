/**
 * The `mancala` command line. A few checks spawn the real entry point (bin/mancala.js: tsx, exit
 * codes, stderr); the many others call main() in this process, the same code without the ~0.5 s
 * start of a process each. Agreement with ../shared/bench/kalah.c is checked by building it with
 * gcc into a temporary folder (skipped, with a message, when gcc or the file is missing).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PROFILE_NAMES } from '../games/mancala/profiles.ts';
import { KALAH_C } from '../../testcases/shared-data.ts';
import { runMain } from '../../testcases/fixtures/run-main.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/mancala.js');
const work = mkdtempSync(join(tmpdir(), 'mancala-cli-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The real process: node bin/mancala.js … */
function spawnCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** main() in this process, its output captured. */
const cli = runMain;

async function json(args: string[]): Promise<any> {
  const r = await cli([...args, '--json']);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
}

// ---- the C baseline ----------------------------------------------------------------------------

const kalahC = KALAH_C;
const baseline = ((): string | undefined => {
  if (!existsSync(kalahC)) return undefined;
  const exe = join(work, 'kalah_c');
  try {
    execFileSync('gcc', ['-O2', '-o', exe, kalahC], { stdio: 'pipe' });
    return exe;
  } catch {
    return undefined;
  }
})();
if (baseline === undefined) console.warn(`skipping the C baseline checks: gcc or ${kalahC} is missing`);

/** kalah.c's key=value lines as records. */
function runC(args: string[]): Record<string, string>[] {
  const text = execFileSync(baseline!, args, { encoding: 'utf8' });
  return text
    .trim()
    .split('\n')
    .map((line) => Object.fromEntries(line.split(' ').map((kv) => kv.split('=') as [string, string])));
}

/** Our profile → kalah.c's flag for the same rules. */
const C_RULES: Record<string, string[]> = { 'kalah-empty-capture': [], kalah: ['--capture-needs-opposite'] };
const C_MODE = { move: 'ply', turn: 'turn' } as const;

// ---- the real entry point ----------------------------------------------------------------------

describe('bin/mancala.js', () => {
  it('--help lists every command', () => {
    const r = spawnCli(['--help']);
    expect(r.status).toBe(0);
    for (const command of ['perft', 'search', 'solve', 'grade', 'check', 'examples', 'suite', 'match', 'tournament', 'csci561', 'csci561-grade', 'gauntlet', 'play', 'bench', 'demo', 'similarity']) expect(r.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });

  it('reports a user mistake as one line on stderr with exit code 2, no stack trace', () => {
    const r = spawnCli(['perft', '--rules', 'nonesuch', '--depth', '3']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^mancala: option '--rules <profile>' argument 'nonesuch' is invalid/);
    expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('an unknown command exits 2 with the nearest command, --help and help included', () => {
    const cases: [string[], string][] = [
      [['nosuch'], 'search'],
      [['nosuch', '--help'], 'search'],
      [['help', 'nosuch'], 'search'],
      [['grdae'], 'grade'],
    ];
    for (const [args, nearest] of cases) {
      const r = spawnCli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      const word = args[0] === 'help' ? args[1] : args[0];
      expect(r.stderr).toMatch(new RegExp(`^mancala: unknown command '${word}' \\(did you mean ${nearest}\\?\\): the commands are perft, search, solve, grade, `));
    }
    // A command's own help still answers.
    expect(spawnCli(['help', 'grade']).status).toBe(0);
  });

  it.skipIf(baseline === undefined)('runs the speed comparison\'s search (depth 8 here) and agrees with kalah.c', () => {
    // ../shared/bench/compare.sh runs exactly this command with --depth 14.
    const r = spawnCli(['search', '--rules', 'kalah-empty-capture', '--pits', '6', '--seeds', '4', '--algo', 'alphabeta', '--depth', '8', '--unit', 'move', '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const ours = JSON.parse(r.stdout);
    expect(Object.keys(ours).slice(0, 6)).toEqual(['move', 'moveName', 'value', 'nodes', 'evaluations', 'ms']);
    const [c] = runC(['ab', '8', '--mode', 'ply']);
    expect([ours.move, ours.value, ours.nodes]).toEqual([Number(c!.best), Number(c!.value), Number(c!.nodes)]);
  });
});

// ---- perft -------------------------------------------------------------------------------------

describe('mancala perft', () => {
  for (const rules of ['kalah-empty-capture', 'kalah']) {
    for (const unit of ['move', 'turn'] as const) {
      it.skipIf(baseline === undefined)(`agrees with kalah.c at depths 1..5 (${rules}, unit ${unit})`, async () => {
        const c = runC(['perft-table', '5', '--mode', C_MODE[unit], ...C_RULES[rules]!]);
        const ours: any[] = await json(['perft', '--rules', rules, '--pits', '6', '--seeds', '4', '--depth', '5', '--unit', unit, '--table']);
        expect(ours.map((r) => [r.depth, r.leaves, r.moves, r.earlyTerminals])).toEqual(
          c.map((r) => [Number(r.depth), Number(r.leaves), Number(r.moves), Number(r.early_terminals)]),
        );
      });
    }
  }

  it('prints one JSON object for one depth, with the documented fields first', async () => {
    const r = await json(['perft', '--rules', 'kalah', '--depth', '3', '--unit', 'turn']);
    expect(Object.keys(r).slice(0, 5)).toEqual(['depth', 'leaves', 'unit', 'rules', 'ms']);
    // kalah.c perft 3 --mode turn --capture-needs-opposite: leaves=1022.
    expect(r).toMatchObject({ depth: 3, leaves: 1022, unit: 'turn', rules: 'kalah', pits: 6, seeds: 4 });
  });

  it('--divide splits the leaves by root move', async () => {
    const r = await json(['perft', '--rules', 'kalah', '--depth', '4', '--divide']);
    expect(r.divide.map((d: any) => d.name)).toEqual(['B0', 'B1', 'B2', 'B3', 'B4', 'B5']);
    expect(r.divide.reduce((a: number, d: any) => a + d.leaves, 0)).toBe(r.leaves);
  });

  it('counts Tic-Tac-Toe with --game tictactoe', async () => {
    const r = await json(['perft', '--game', 'tictactoe', '--depth', '9']);
    expect(r).toMatchObject({ depth: 9, leaves: 127872, rules: null, game: 'tictactoe' });
  });

  it('prints a readable line and a readable table', async () => {
    const one = await cli(['perft', '--rules', 'kalah', '--depth', '2']);
    expect(one.out).toMatch(/^perft kalah, 6 pits, 4 stones, unit move, depth 2: 35 leaves/m);
    const table = await cli(['perft', '--rules', 'kalah', '--depth', '3', '--table']);
    expect(table.out.trimEnd().split('\n')).toHaveLength(5); // title, header, depths 1..3
    expect(table.out).toMatch(/^\s*3\s+185\s/m);
  });
});

// ---- search ------------------------------------------------------------------------------------

describe('mancala search', () => {
  for (const rules of ['kalah-empty-capture', 'kalah']) {
    for (const unit of ['move', 'turn'] as const) {
      it.skipIf(baseline === undefined)(`agrees with kalah.c's ab 8 on move, value and nodes (${rules}, unit ${unit})`, async () => {
        const [c] = runC(['ab', '8', '--mode', C_MODE[unit], ...C_RULES[rules]!]);
        const r = await json(['search', '--rules', rules, '--pits', '6', '--seeds', '4', '--algo', 'alphabeta', '--depth', '8', '--unit', unit]);
        expect([r.move, r.value, r.nodes]).toEqual([Number(c!.best), Number(c!.value), Number(c!.nodes)]);
      });
    }
  }

  it('reports exactly the documented fields first, then what was searched', async () => {
    const r = await json(['search', '--rules', 'kalah', '--algo', 'minimax', '--depth', '3']);
    expect(Object.keys(r).slice(0, 6)).toEqual(['move', 'moveName', 'value', 'nodes', 'evaluations', 'ms']);
    expect(r.moveName).toBe(`B${r.move}`);
    expect(r).toMatchObject({ algo: 'minimax', depth: 3, unit: 'move', rules: 'kalah', player: 'bottom' });
    expect(r.evaluations).toBeGreaterThan(0);
  });

  it("takes the profile's conventions when --depth and --unit are absent", async () => {
    const r = await json(['search', '--rules', 'csci561', '--pits', '3', '--seeds', '1', '--algo', 'minimax']);
    expect(r).toMatchObject({ depth: 2, unit: 'turn', terminal: 'score' });
    // csc384 has no depth limit: on a tiny board the search runs to the end of the game.
    const full = await json(['search', '--rules', 'csc384', '--pits', '2', '--seeds', '2', '--algo', 'alphabeta']);
    expect(full).toMatchObject({ depth: null, unit: 'move', terminal: 'heuristic' });
    const minusOne = await json(['search', '--rules', 'csc384', '--pits', '2', '--seeds', '2', '--algo', 'alphabeta', '--depth', '-1']);
    expect([minusOne.move, minusOne.value, minusOne.nodes]).toEqual([full.move, full.value, full.nodes]);
  });

  it('caching changes node counts, never the move or the value', async () => {
    const base = ['search', '--rules', 'cs540', '--pits', '4', '--seeds', '3', '--algo', 'minimax', '--depth', '6'];
    const plain = await json(base);
    const cached = await json([...base, '--caching']);
    expect([cached.move, cached.value]).toEqual([plain.move, plain.value]);
    expect(cached.nodes).toBeLessThan(plain.nodes);
  });

  it('Tic-Tac-Toe from the empty board is worth 0', async () => {
    for (const algo of ['minimax', 'alphabeta']) {
      const r = await json(['search', '--game', 'tictactoe', '--algo', algo]);
      expect(r).toMatchObject({ value: 0, depth: null, game: 'tictactoe', rules: null });
    }
  });

  it('searches a csc384 board file for the player given', async () => {
    const file = join(work, 'board.txt');
    // seed 001's example board
    writeFileSync(file, '4,5,4,4,6,4\n4,4,3,4,4,4\n2\n0\n');
    const r = await json(['search', '--rules', 'csc384', '--board', file, '--player', 'top', '--algo', 'alphabeta', '--depth', '4']);
    expect(r.player).toBe('top');
    expect(r.moveName).toMatch(/^T[0-5]$/);
  });

  it("names cpsc4610's moves by the mover's cup, 1 to 6, as the course's board does, and labels both rows 1 to 6", async () => {
    // The course's provided player: 5 plies, free turns ignored, the provided score (100 won, 0 lost, 50 otherwise).
    const provided = await json(['search', '--rules', 'cpsc4610', '--algo', 'alphabeta', '--free-turns', 'ignore', '--heuristic', 'cpsc4610-provided', '--terminal', 'heuristic']);
    expect(provided).toMatchObject({ move: 0, moveName: '1', value: 50, heuristic: 'cpsc4610-provided', depth: 5 });
    const top = await json(['search', '--rules', 'cpsc4610', '--algo', 'alphabeta', '--player', 'top', '--depth', '4']);
    expect(top.player).toBe('top');
    expect(top.moveName).toBe(String(top.move + 1));
    // The real command, as text: the board's labels and the move line.
    const r = spawnCli(['search', '--rules', 'cpsc4610', '--algo', 'alphabeta', '--depth', '3']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^move [1-6] \(index [0-5]\), value -?\d+$/m);
    expect(r.stdout).toMatch(/^ +6 +5 +4 +3 +2 +1$/m); // top's cups, right to left as the bottom player sees them
    expect(r.stdout).toMatch(/^ +1 +2 +3 +4 +5 +6$/m);
    expect(r.stdout).not.toMatch(/\b[BT][0-5]\b/);
  });

  it("takes a csci561 input file's player, depth and task unless flags say otherwise", async () => {
    const file = join(work, 'input.txt');
    // task 2 (MiniMax), player 2 (top), depth 2; the rows and stores of a seed-000-style example
    writeFileSync(file, '2\n2\n2\n3 3 3\n3 3 3\n0\n0\n');
    const r = await json(['search', '--rules', 'csci561', '--board', file]);
    expect(r).toMatchObject({ algo: 'minimax', depth: 2, player: 'top', unit: 'turn' });
    expect(r.moveName).toMatch(/^A[2-4]$/);
    const overridden = await json(['search', '--rules', 'csci561', '--board', file, '--algo', 'alphabeta', '--depth', '1', '--player', 'bottom']);
    expect(overridden).toMatchObject({ algo: 'alphabeta', depth: 1, player: 'bottom' });
  });

  it('prints the board, the move, value, nodes, evaluations and time as text, and the trace', async () => {
    const r = await cli(['search', '--rules', 'kalah', '--pits', '3', '--seeds', '2', '--algo', 'alphabeta', '--depth', '2', '--trace']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^root enter max/m);
    expect(r.out).toMatch(/prune|update/);
    expect(r.out).toMatch(/\| +2 +\| +2 +\| +2 +\|/);
    expect(r.out).toMatch(/^move B\d \(index \d\), value -?\d+$/m);
    expect(r.out).toMatch(/^\d+ nodes, \d+ evaluations, [\d.]+ ms/m);
    const traced = await json(['search', '--game', 'tictactoe', '--algo', 'alphabeta', '--trace']);
    expect(traced.trace[0]).toMatchObject({ type: 'enter', name: 'root', level: 0, maximizing: true });
    expect(traced.trace.filter((e: any) => e.type === 'enter').length + traced.trace.filter((e: any) => e.type === 'leaf').length).toBe(traced.nodes);
  });
});

// ---- user mistakes -----------------------------------------------------------------------------

describe('user mistakes: one line naming the flag or file, exit code 2', () => {
  const malformed = join(work, 'malformed.txt');
  writeFileSync(malformed, '4,4,4\n4,x,4\n0\n0\n');
  const cases: [string, string[], RegExp][] = [
    ['no command', [], /^mancala: missing command: expected one of perft, search, solve, grade, check, submissions, examples, suite, match, tournament, csci561, csci561-grade, gauntlet, play, bench, demo/],
    ['an unknown command', ['frobnicate'], /^mancala: unknown command 'frobnicate' \(did you mean [a-z0-9-]+\?\)/],
    ['an unknown command asked for its help', ['frobnicate', '--help'], /^mancala: unknown command 'frobnicate' \(did you mean [a-z0-9-]+\?\)/],
    ['a typo of a command', ['serach', '--rules', 'kalah'], /^mancala: unknown command 'serach' \(did you mean search\?\)/],
    ['an unknown flag', ['perft', '--rules', 'kalah', '--depth', '2', '--bogus'], /^mancala: unknown option '--bogus'/],
    ['a missing value', ['perft', '--rules', 'kalah', '--depth'], /^mancala: option '--depth <d>' argument missing/],
    ['a missing depth', ['perft', '--rules', 'kalah'], /^mancala: required option '--depth <d>' not specified/],
    ['a missing profile', ['perft', '--depth', '2'], new RegExp(`^mancala: missing option '--rules <profile>': expected one of ${PROFILE_NAMES.join(', ')}`)],
    ['an unknown profile', ['search', '--rules', 'kalha', '--algo', 'greedy'], new RegExp(`^mancala: option '--rules <profile>' argument 'kalha' is invalid\\. Expected a rules profile: ${PROFILE_NAMES.join(', ')}`)],
    ['too many pits', ['perft', '--rules', 'kalah', '--pits', '21', '--depth', '1'], /^mancala: option '--pits <n>' argument '21' is invalid\. Expected pits a side: a whole number from 1 to 20/],
    ['no pits', ['perft', '--rules', 'kalah', '--pits', '0', '--depth', '1'], /^mancala: option '--pits <n>' argument '0' is invalid/],
    ['a fractional pit count', ['perft', '--rules', 'kalah', '--pits', '2.5', '--depth', '1'], /^mancala: option '--pits <n>' argument '2\.5' is invalid/],
    ['a negative stone count', ['perft', '--rules', 'kalah', '--seeds', '-3', '--depth', '1'], /^mancala: option '--seeds <n>' argument '-3' is invalid\. Expected stones a pit: a whole number from 0 to 1000/],
    ['too many stones', ['search', '--rules', 'kalah', '--seeds', '1001', '--algo', 'greedy'], /^mancala: option '--seeds <n>' argument '1001' is invalid/],
    ['a negative perft depth', ['perft', '--rules', 'kalah', '--depth', '-1'], /^mancala: option '--depth <d>' argument '-1' is invalid\. Expected a whole number ≥ 0/],
    ['a negative search depth other than -1', ['search', '--rules', 'kalah', '--algo', 'alphabeta', '--depth', '-2'], /^mancala: option '--depth <d>' argument '-2' is invalid\. Expected a whole number ≥ 1, or -1 for no depth limit/],
    ['an unknown algorithm', ['search', '--rules', 'kalah', '--algo', 'magic'], /^mancala: option '--algo <name>' argument 'magic' is invalid\. Allowed choices are greedy, minimax, alphabeta/],
    ['a missing algorithm', ['search', '--rules', 'kalah'], /^mancala: missing option '--algo <name>': expected one of greedy, minimax, alphabeta/],
    ['an unknown unit', ['perft', '--rules', 'kalah', '--depth', '2', '--unit', 'ply'], /^mancala: option '--unit <unit>' argument 'ply' is invalid\. Allowed choices are move, turn/],
    ['an unknown board format', ['search', '--rules', 'kalah', '--board', malformed, '--board-format', 'xml', '--algo', 'greedy'], /^mancala: option '--board-format <format>' argument 'xml' is invalid\. Allowed choices are json, csc384, csci561/],
    ['an unknown game', ['perft', '--game', 'chess', '--depth', '1'], /^mancala: option '--game <game>' argument 'chess' is invalid/],
    ['an unknown heuristic', ['search', '--rules', 'kalah', '--algo', 'greedy', '--heuristic', 'clever'], /^mancala: option '--heuristic <name>' argument 'clever' is invalid\. Allowed choices are basic, advanced/],
    ['an unreadable board file', ['search', '--rules', 'kalah', '--board', join(work, 'missing.txt'), '--algo', 'greedy'], /^mancala: .*missing\.txt: cannot read the board file: no such file/],
    ['a malformed board file', ['search', '--rules', 'csc384', '--board', malformed, '--algo', 'greedy'], /^mancala: .*malformed\.txt:2: expected the bottom pockets as whole numbers separated by commas/],
    ['a board file and --pits', ['search', '--rules', 'kalah', '--board', malformed, '--pits', '3', '--algo', 'greedy'], /^mancala: option '--board <file>' cannot be used with option '--pits <n>'/],
    ['--board-format without --board', ['search', '--rules', 'kalah', '--board-format', 'json', '--algo', 'greedy'], /^mancala: option '--board-format' needs '--board <file>'/],
    ['Mancala flags for Tic-Tac-Toe', ['perft', '--game', 'tictactoe', '--rules', 'kalah', '--depth', '1'], /^mancala: option '--rules' applies to --game mancala only/],
    ['a stray argument', ['perft', 'kalah', '--depth', '1'], /^mancala: too many arguments for 'perft'/],
  ];
  for (const [what, args, message] of cases) {
    it(what, async () => {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.endsWith('\n')).toBe(true);
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(message);
    });
  }

  it('a finished position: there is nothing to search', async () => {
    const file = join(work, 'over.json');
    writeFileSync(file, JSON.stringify({ top: [0, 0], bottom: [1, 0], stores: { top: 3, bottom: 4 } }));
    const r = await cli(['search', '--rules', 'kalah', '--board', file, '--algo', 'greedy']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^mancala: .*over\.json: the game is over in this position/);
  });

  it('accepts -1, the documented "no limit", as a search depth', async () => {
    const r = await cli(['search', '--game', 'tictactoe', '--algo', 'alphabeta', '--depth', '-1']);
    expect(r.code).toBe(0);
  });
});
