/**
 * `mancala search`: one decision of a reference agent, run the way the framework always runs an
 * agent (plugins/reference-search.ts: instrumented game, counted heuristic, seeded random), from
 * the start position or a board file. The JSON's first six fields are a contract (the speed
 * comparison script and graders read them): {"move","moveName","value","nodes","evaluations","ms"}.
 */
import { Option, type Command } from 'commander';
import type { DepthUnit, FreeTurns, TerminalEvaluation } from '../../contracts/search-conventions.ts';
import type { TraceEvent } from '../../contracts/search-trace.ts';
import { BOARD_FORMATS, type BoardFormat } from '../../games/mancala/board-io/index.ts';
import { heuristicNames } from '../../plugins/agents.ts';
import { planSearch, runSearch, SEARCH_ALGOS, type GameSetup, type SearchAlgo, type SearchReport } from '../../plugins/reference-search.ts';
import { setupPosition } from '../game-setup.ts';
import {
  addGameOptions,
  depthParser,
  grouped,
  millions,
  perSecond,
  PLAYERS,
  TERMINALS,
  unitOption,
  wholeNumber,
  type CliIo,
  type GameOptions,
  type PlayerSide,
} from '../options.ts';

// The search itself lives below the CLI (plugins/reference-search.ts) so the web app's Search
// explorer runs the very same code; these names stay importable from here.
export { planSearch, runSearch, SEARCH_ALGOS, type SearchAlgo, type SearchPlan, type SearchReport } from '../../plugins/reference-search.ts';

interface SearchOptions extends GameOptions {
  board?: string;
  boardFormat?: BoardFormat;
  player?: PlayerSide;
  algo?: SearchAlgo;
  depth?: number;
  unit?: DepthUnit;
  caching?: boolean;
  freeTurns?: FreeTurns;
  heuristic: string;
  terminal?: TerminalEvaluation;
  seed: number;
  json?: boolean;
  trace?: boolean;
}

/** ±1e9 and ±Infinity are the searches' initial values: print them as ±inf. */
function num(v: number | undefined): string {
  if (v === undefined) return '';
  if (v >= 1e9) return '+inf';
  if (v <= -1e9) return '-inf';
  return String(v);
}

/** One trace event a line, indented by its level. */
export function traceLine(e: TraceEvent): string {
  const indent = '  '.repeat('level' in e ? e.level : 0);
  const window = (a?: number, b?: number) => (a === undefined ? '' : ` α=${num(a)} β=${num(b)}`);
  switch (e.type) {
    case 'enter':
      return `${indent}${e.name} enter ${e.maximizing ? 'max' : 'min'} v=${num(e.value)}${window(e.alpha, e.beta)}`;
    case 'leaf':
      return `${indent}${e.name} leaf v=${num(e.value)} (${e.reason})${window(e.alpha, e.beta)}`;
    case 'cached':
      return `${indent}${e.name} cached v=${num(e.value)}`;
    case 'update':
      return `${indent}${e.name} update v=${num(e.value)}${window(e.alpha, e.beta)}`;
    case 'prune':
      return `${indent}${e.name} prune v=${num(e.value)}${window(e.alpha, e.beta)} skips ${e.skipped}`;
  }
}

function reportText(setup: GameSetup, r: SearchReport): string {
  const depth = r.depth === null ? 'no depth limit' : `depth ${r.depth}`;
  return [
    `${setup.label}; ${r.player} to move`,
    setup.game.render(setup.state),
    `${r.algo}: ${depth} (unit ${r.unit}), terminal ${r.terminal}, heuristic ${r.heuristic}${r.caching ? ', caching' : ''}`,
    `move ${r.moveName} (index ${r.move}), value ${r.value ?? 'not given'}`,
    `${grouped(r.nodes)} nodes, ${grouped(r.evaluations)} evaluations, ${r.ms.toFixed(1)} ms (${millions(perSecond(r.nodes, r.ms))} nodes/s)`,
  ].join('\n') + '\n';
}

export function addSearchCommand(program: Command, io: CliIo): void {
  const cmd = program
    .command('search')
    .summary("choose a move with a reference agent and report move, value, nodes, evaluations, time")
    .description(
      'Run a reference agent once from the start position or a board file. Without --depth/--unit/--terminal ' +
        "the profile's conventions apply (csc384: no depth limit). A csci561 input file carries the player, " +
        'the depth and the algorithm (its task); flags override them.',
    );
  addGameOptions(cmd)
    .addOption(new Option('--board <file>', 'start from this board file instead of the start position').conflicts(['pits', 'seeds']))
    .addOption(new Option('--board-format <format>', 'the board file\'s format (default: from its name and content)').choices(BOARD_FORMATS))
    .addOption(new Option('--player <side>', 'the player to move (default: the board file\'s, else bottom)').choices(PLAYERS))
    .addOption(new Option('--algo <name>', 'the reference agent').choices(SEARCH_ALGOS))
    .addOption(new Option('--depth <d>', 'depth limit (whole number ≥ 1; -1: none)').argParser(depthParser(1, true)))
    .addOption(unitOption("depth unit (default: the profile's)"))
    .option('--caching', 'transposition table keyed on (position, player to move, depth left)')
    .addOption(new Option('--free-turns <how>', "honour (the rules) or ignore: players alternate every move, as CPSC 4610's provided minimax searches").choices(['honour', 'ignore']))
    .addOption(new Option('--heuristic <name>', 'heuristic at the depth limit').choices(heuristicNames()).default('basic'))
    .addOption(new Option('--terminal <how>', "a finished game's value: score (after the sweep) or heuristic (default: the profile's)").choices(TERMINALS))
    .addOption(new Option('--seed <n>', 'seed of the agent\'s random source').argParser(wholeNumber(0, 2 ** 31 - 1, 'a seed')).default(1))
    .option('--trace', 'print the search events (enter, leaf, update, prune), one a line')
    .option('--json', 'JSON output: {"move","moveName","value","nodes","evaluations","ms",…}')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala search --rules kalah-empty-capture --pits 6 --seeds 4 --algo alphabeta --depth 14 --unit move --json',
        '  $ mancala search --rules csc384 --board board.txt --board-format csc384 --player top --algo minimax --depth 4 --caching',
        '  $ mancala search --rules csci561 --board input.txt --board-format csci561',
        '  $ mancala search --game tictactoe --algo alphabeta',
      ].join('\n'),
    )
    .action(async (opts: SearchOptions) => {
      const setup = setupPosition(opts);
      const plan = planSearch(opts, setup);
      const report = await runSearch(setup, plan, opts.trace === true);
      if (opts.json) {
        io.out(JSON.stringify(report) + '\n');
        return;
      }
      if (report.trace) io.out(report.trace.map(traceLine).join('\n') + '\n');
      io.out(reportText(setup, report));
    });
}
