/**
 * The `mancala` command line. `main(argv, io)` returns the exit code: 0 on success, 2 for a
 * user's mistake (a bad flag or value, a malformed file), reported as ONE line on stderr that
 * starts "mancala: " and names the flag or file; anything else is a bug and propagates (the entry
 * point prints its stack and exits 1).
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { UserError } from '../errors.ts';
import { addBenchCommand } from './commands/bench.ts';
import { addCsci561Command } from './commands/csci561.ts';
import { addDemoCommand } from './commands/demo.ts';
import { addExamplesCommand } from './commands/examples.ts';
import { addGauntletCommand } from './commands/gauntlet.ts';
import { addGradeCommands } from './commands/grade.ts';
import { addMatchCommand } from './commands/match.ts';
import { addPerftCommand } from './commands/perft.ts';
import { addPlayCommand } from './commands/play.ts';
import { addSearchCommand } from './commands/search.ts';
import { addTournamentCommand } from './commands/tournament.ts';
import { registerSuiteCommand } from './commands/suite.ts';
import type { CliIo } from './options.ts';

export type { CliIo } from './options.ts';

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

/** Exit code of a user's mistake. */
export const USAGE_ERROR = 2;

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/** A message as one line: commander puts its "Did you mean …?" on a line of its own. */
export function oneLine(message: string): string {
  return message
    .replace(/^error:\s*/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join(' ');
}

export function buildProgram(io: CliIo): Command {
  const program = new Command('mancala');
  program
    .description('Teach and grade game-playing AI on Mancala (Kalah): grade submissions on suites, reference searches, perft, benchmarks.')
    .version(version(), '-V, --version')
    // Errors are printed by main() as one line; commander only throws them.
    .configureOutput({ writeOut: io.out, writeErr: io.err, outputError: () => {} })
    .exitOverride()
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala grade agents/examples/alice --suite testcases/kalah-basics',
        '  $ mancala check my-agent.ts',
        '  $ mancala suite bless testcases/kalah-basics',
        '  $ mancala match alphabeta:depth=4 random --games 20 --seed 7',
        '  $ mancala tournament random greedy alphabeta:depth=4 --games-per-pair 4 --jobs 2',
        '  $ mancala play --bottom human --top alphabeta:depth=6',
        '  $ mancala demo',
        '  $ mancala perft --rules kalah --depth 8 --unit turn',
        '  $ mancala search --rules kalah-empty-capture --pits 6 --seeds 4 --algo alphabeta --depth 14 --unit move --json',
        '  $ mancala bench',
        '',
        'Run "mancala <command> --help" for a command\'s options.',
      ].join('\n'),
    );
  // Subcommands copy the output and exit settings above when they are created.
  addPerftCommand(program, io);
  addSearchCommand(program, io);
  addGradeCommands(program, io);
  addExamplesCommand(program, io);
  registerSuiteCommand(program, io);
  addMatchCommand(program, io);
  addTournamentCommand(program, io);
  addCsci561Command(program, io);
  addGauntletCommand(program, io);
  addPlayCommand(program, io);
  addBenchCommand(program, io);
  addDemoCommand(program, io);
  return program;
}

export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const program = buildProgram(io);
  if (argv.length === 0) {
    const names = program.commands.map((c) => c.name()).join(', ');
    io.err(`mancala: missing command: expected one of ${names} (mancala --help describes them)\n`);
    return USAGE_ERROR;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help, --version and `help` end through here too, with exit code 0.
      if (e.exitCode === 0) return 0;
      io.err(`mancala: ${oneLine(e.message)}\n`);
      return USAGE_ERROR;
    }
    if (e instanceof UserError) {
      io.err(`mancala: ${oneLine(e.message)}\n`);
      return e.exitCode;
    }
    throw e;
  }
}
