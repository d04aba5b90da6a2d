/**
 * How long a fresh `mancala` process takes, start to exit, for `mancala bench`: what a student's
 * `mancala csci561 input.txt` or a grading script calling the command in a loop pays each time.
 * Each command runs the built command (bin/mancala.js → dist/) as a user would; `node -e 0`
 * alone is measured beside it, since no command can start faster than Node itself.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCsci561InputBoard } from '../games/mancala/board-io/csci561.ts';
import { PROJECT_ROOT } from '../sandbox/paths.ts';

export interface ColdStart {
  /** what was run, as a user types it */
  command: string;
  /** median wall-clock ms from spawning the process to its exit */
  medianMs: number;
}

export interface ColdStarts {
  runs: number;
  nodeAloneMs: number;
  commands: ColdStart[];
}

export function measureColdStarts(runs: number): ColdStarts {
  const dir = mkdtempSync(join(tmpdir(), 'mancala-cold-start-'));
  try {
    // One small official-style case: MiniMax, cut-off depth 2, from the start of a 6-pit board.
    const start = { top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], topStore: 0, bottomStore: 0, toMove: 0 as const };
    writeFileSync(join(dir, 'input.txt'), writeCsci561InputBoard(start, 2, 2));
    const bin = join(PROJECT_ROOT, 'bin/mancala.js');
    const commands: [string, string[]][] = [
      ['mancala --version', ['--version']],
      ['mancala search --rules kalah --algo alphabeta --depth 6', ['search', '--rules', 'kalah', '--algo', 'alphabeta', '--depth', '6']],
      ['mancala csci561 input.txt (MiniMax, depth 2)', ['csci561', 'input.txt', '--quiet']],
    ];
    return {
      runs,
      nodeAloneMs: medianWallMs(['-e', '0'], dir, runs),
      commands: commands.map(([command, args]) => ({ command, medianMs: medianWallMs([bin, ...args], dir, runs) })),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function medianWallMs(args: string[], cwd: string, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const r = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    times.push(performance.now() - started);
    if (r.status !== 0) throw new Error(`cold start: node ${args.join(' ')} exited with ${r.status}: ${r.stderr.toString().trim()}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** The bench's lines for the cold starts. */
export function coldStartLines(c: ColdStarts): string[] {
  return [
    `startup   node -e 0 alone: ${c.nodeAloneMs.toFixed(0)} ms (median of ${c.runs} fresh processes, start to exit)`,
    ...c.commands.map((k) => `startup   ${k.command}: ${k.medianMs.toFixed(0)} ms`),
  ];
}
