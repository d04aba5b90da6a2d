/**
 * `mancala csci561 [INPUT] [--out DIR]`: seed 000's program, file in, files out. Reads input.txt
 * (task, player, cut-off depth, board), writes next_state.txt and, for MiniMax and Alpha-Beta,
 * traverse_log.txt, exactly as the course's official graded cases have them. Task 4 (the
 * competition) plays a turn under --ms. A malformed input is one line naming the file and the
 * line (exit 2); the files are written only once everything is computed, each atomically.
 */
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { DEFAULT_COMPETITION_MS } from '../../packs/csci561/competition.ts';
import { INPUT_FILE, readInputFile, TRAVERSE_LOG_FILE, writeOutputs } from '../../packs/csci561/files.ts';
import { runCsci561, TASK_NAMES, type Csci561Run } from '../../packs/csci561/task.ts';
import { wholeNumber, type CliIo } from '../options.ts';

interface Csci561Options {
  out: string;
  ms: number;
  optionalLines: 'print' | 'omit' | 'mark';
  quiet?: boolean;
}

/** "task 2 (MiniMax), player 1, cut-off depth 3, 5 pits a side: wrote out/next_state.txt, out/traverse_log.txt (120 lines)" */
export function describeRun(run: Csci561Run, written: readonly string[]): string {
  const what = [`task ${run.task} (${TASK_NAMES[run.task]})`, `player ${run.player}`];
  if (run.task === 2 || run.task === 3) what.push(`cut-off depth ${run.depth}`);
  what.push(`${run.pits} pits a side`);
  const files = written.map((path) => {
    const name = basename(path);
    const text = run.files[name];
    return name === TRAVERSE_LOG_FILE && text !== undefined ? `${path} (${text.split('\n').length - 1} lines)` : path;
  });
  const moves = run.moves === undefined ? '' : `; played ${run.moves.join(' ')}`;
  return `${what.join(', ')}${moves}: wrote ${files.join(', ')}\n`;
}

/** Adds `csci561` (csci561-grade.ts adds `csci561-grade`). */
export function addCsci561Command(program: Command, io: CliIo): void {
  program
    .command('csci561')
    .summary("CSCI-561's program: input.txt in, next_state.txt and traverse_log.txt out")
    .description(
      "Run CSCI-561's homework as its reference solution: read INPUT (default ./input.txt: task, player, cut-off depth, " +
        'the two rows, the two stores) and write next_state.txt (the board after the whole turn, free-turn chain included) ' +
        'and, for task 2 (MiniMax) and 3 (Alpha-Beta), traverse_log.txt, by the conventions of the course\'s official graded ' +
        'cases. Task 1 (Greedy) writes no log. Task 4 (the competition) plays alpha-beta under --ms and writes next_state.txt.',
    )
    .argument('[input]', 'the input file', INPUT_FILE)
    .option('--out <dir>', 'the folder to write into (created if missing)', '.')
    .addOption(
      new Option('--ms <n>', 'task 4: the time budget of the whole turn in ms (the seed announces none)')
        .argParser(wholeNumber(10, 3_600_000, 'a time budget in ms'))
        .default(DEFAULT_COMPETITION_MS),
    )
    .addOption(
      new Option(
        '--optional-lines <how>',
        "a game-over node's first-visit line, which the official logs mark OPTIONAL: print it, omit it, or mark it as the official expected files do",
      )
        .choices(['print', 'omit', 'mark'])
        .default('print'),
    )
    .option('--quiet', 'print nothing on success')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala csci561                        # ./input.txt -> ./next_state.txt, ./traverse_log.txt',
        '  $ mancala csci561 cases/input3.txt --out results/3',
        '  $ mancala csci561 input.txt --ms 2000    # task 4: two seconds for the turn',
      ].join('\n'),
    )
    .action(async (input: string, opts: Csci561Options) => {
      const text = readInputFile(input);
      const run = await runCsci561(text, input, { optionalLines: opts.optionalLines, ms: opts.ms });
      const written = writeOutputs(opts.out, run.files);
      if (!opts.quiet) io.out(describeRun(run, written));
    });
}
