/**
 * The `mancala` command line. `main(argv, io)` returns the exit code: 0 on success, 2 for a
 * user's mistake (a bad flag or value, a malformed file), reported as ONE line on stderr that
 * starts "mancala: " and names the flag or file; anything else is a bug and propagates (the entry
 * point prints its stack and exits 1).
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { closest } from 'fastest-levenshtein';
import { UserError } from '../errors.ts';
import { namedForUser } from './user-names.ts';
import { studentKitCourse } from '../plugins/student-kit.ts';
import type { CliIo } from './options.ts';
import { studentText } from '../student-text.ts';

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

/**
 * A message as one line: commander puts its "Did you mean …?" on a line of its own. Terminal-safe
 * (student-text.ts): an error may quote a folder name or what a submission printed.
 */
export function oneLine(message: string): string {
  const line = message
    .replace(/^error:\s*/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join(' ');
  return studentText(line, { multiline: false, maxChars: Infinity, maxLineChars: Infinity });
}

type AddCommands = (program: Command, io: CliIo) => void;

/**
 * Each command's module, by the commands it adds, loaded only when needed: `mancala search` then
 * compiles and runs the search's code alone, not the sandbox, the graders' reports and every
 * library the other commands use (a cold start of about 0.1 s instead of 0.3 s).
 */
const COMMAND_MODULES: { names: readonly string[]; load: () => Promise<AddCommands> }[] = [
  { names: ['perft'], load: async () => (await import('./commands/perft.ts')).addPerftCommand },
  { names: ['search'], load: async () => (await import('./commands/search.ts')).addSearchCommand },
  { names: ['solve'], load: async () => (await import('./commands/solve.ts')).addSolveCommand },
  { names: ['grade', 'check'], load: async () => (await import('./commands/grade.ts')).addGradeCommands },
  { names: ['submissions'], load: async () => (await import('./commands/submissions.ts')).addSubmissionsCommand },
  { names: ['examples'], load: async () => (await import('./commands/examples.ts')).addExamplesCommand },
  { names: ['suite'], load: async () => (await import('./commands/suite.ts')).registerSuiteCommand },
  { names: ['match'], load: async () => (await import('./commands/match.ts')).addMatchCommand },
  { names: ['tournament'], load: async () => (await import('./commands/tournament.ts')).addTournamentCommand },
  { names: ['csci561'], load: async () => (await import('./commands/csci561.ts')).addCsci561Command },
  { names: ['csci561-grade'], load: async () => (await import('./commands/csci561-grade.ts')).addCsci561GradeCommand },
  { names: ['gauntlet'], load: async () => (await import('./commands/gauntlet.ts')).addGauntletCommand },
  { names: ['play'], load: async () => (await import('./commands/play.ts')).addPlayCommand },
  { names: ['bench'], load: async () => (await import('./commands/bench.ts')).addBenchCommand },
  { names: ['demo'], load: async () => (await import('./commands/demo.ts')).addDemoCommand },
  { names: ['kit'], load: async () => (await import('./commands/kit.ts')).addKitCommand },
  { names: ['doctor'], load: async () => (await import('./commands/doctor.ts')).addDoctorCommand },
  { names: ['merge'], load: async () => (await import('./commands/merge.ts')).addMergeCommand },
  { names: ['similarity'], load: async () => (await import('./commands/similarity.ts')).addSimilarityCommand },
  { names: ['worker'], load: async () => (await import('./commands/worker.ts')).addWorkerCommand },
  { names: ['serve'], load: async () => (await import('./commands/serve.ts')).addServeCommand },
  { names: ['arena'], load: async () => (await import('./commands/arena.ts')).addArenaCommand },
  { names: ['submit'], load: async () => (await import('./commands/arena.ts')).addSubmitCommand },
  { names: ['export', 'gradescope-run'], load: async () => (await import('./commands/export.ts')).addExportCommands },
];

/** The program with every command, or with only `command`'s when it is one (help, a typo, … need them all). */
export async function buildProgram(io: CliIo, command?: string): Promise<Command> {
  const wanted = COMMAND_MODULES.filter((m) => command === undefined || m.names.includes(command));
  const adders = await Promise.all((wanted.length > 0 ? wanted : COMMAND_MODULES).map((m) => m.load()));
  const program = programWith(io, adders);
  // Every command that runs submitted code (it has --weak-sandbox) takes --python too; loaded only then.
  const running = program.commands.filter((c) => c.options.some((o) => o.long === '--weak-sandbox'));
  if (running.length > 0) {
    const { addPythonOption } = await import('./sandbox-options.ts');
    for (const command of running) addPythonOption(command);
    // A student kit checks first that the machine has the course's language (kit.json's requires).
    if (studentKitCourse() !== undefined) {
      const { requireKitTools } = await import('./commands/doctor.ts');
      for (const command of running) command.hook('preAction', (_command, action) => requireKitTools(action.args));
    }
  }
  return program;
}

function programWith(io: CliIo, adders: readonly AddCommands[]): Command {
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
        '  $ mancala solve --rules kalah-empty-capture --pits 4 --seeds 3',
        '  $ mancala bench',
        '  $ mancala kit csci561 --out kits/csci561',
        '',
        'Run "mancala <command> --help" for a command\'s options.',
      ].join('\n'),
    );
  // Subcommands copy the output and exit settings above when they are created.
  for (const add of adders) add(program, io);
  return program;
}

/**
 * The line for a first word that names no command, asked before anything else is read, so that
 * `mancala nosuch --help` is the mistake it is (commander would print the general help and exit 0):
 * the nearest command, whatever the distance, and the list.
 */
function unknownCommandLine(word: string, program: Command): string {
  const names = program.commands.map((c) => c.name());
  return `mancala: unknown command '${word}' (did you mean ${closest(word, names)}?): the commands are ${names.join(', ')} (mancala --help describes them)\n`;
}

/** The command `argv` names that the program does not have (`help <command>` included), if any. */
function unknownCommand(argv: readonly string[], program: Command): string | undefined {
  const word = argv[0] === 'help' ? argv[1] : argv[0];
  if (word === undefined || word.startsWith('-') || (argv[0] !== 'help' && word === 'help')) return undefined;
  const known = program.commands.some((c) => c.name() === word || c.aliases().includes(word));
  return known ? undefined : word;
}

export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const program = await buildProgram(io, argv[0]);
  if (argv.length === 0) {
    const names = program.commands.map((c) => c.name()).join(', ');
    io.err(`mancala: missing command: expected one of ${names} (mancala --help describes them)\n`);
    return USAGE_ERROR;
  }
  const unknown = unknownCommand(argv, program);
  if (unknown !== undefined) {
    io.err(unknownCommandLine(unknown, program));
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
      io.err(`mancala: ${oneLine(namedForUser(e.message))}\n`);
      return e.exitCode;
    }
    throw e;
  }
}
