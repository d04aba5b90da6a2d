/**
 * `mancala perft`: positions at exactly depth D from the start position, the definitions of
 * ../shared/bench/kalah.c (a game that ends earlier adds 0; in unit `turn` each distinct move
 * sequence of a turn is one move). --table gives depths 1..D, --divide splits by root move.
 */
import { Option, type Command } from 'commander';
import { perft, perftDivide, type PerftDivideEntry } from '../../search/perft.ts';
import type { DepthUnit } from '../../contracts/search-conventions.ts';
import { setupGame, type GameSetup } from '../game-setup.ts';
import {
  addGameOptions,
  depthParser,
  grouped,
  millions,
  perSecond,
  roundMs,
  unitOption,
  type CliIo,
  type GameOptions,
} from '../options.ts';

interface PerftOptions extends GameOptions {
  depth: number;
  unit: DepthUnit;
  json?: boolean;
  table?: boolean;
  divide?: boolean;
}

export interface PerftRecord {
  depth: number;
  leaves: number;
  unit: DepthUnit;
  rules: string | null;
  ms: number;
  game: string;
  pits?: number;
  seeds?: number;
  /** moves played to count the leaves: the work behind moves/s */
  moves: number;
  earlyTerminals: number;
  divide?: PerftDivideEntry[];
}

/** Runs one perft and times it. */
export function measurePerft(setup: GameSetup, depth: number, unit: DepthUnit): PerftRecord {
  const start = performance.now();
  const count = perft(setup.game, setup.state, depth, unit);
  const ms = performance.now() - start;
  return {
    depth,
    leaves: count.leaves,
    unit,
    rules: setup.rules,
    ms: roundMs(ms),
    game: setup.kind,
    ...(setup.kind === 'mancala' ? { pits: setup.pits, seeds: setup.seeds } : {}),
    moves: count.moves,
    earlyTerminals: count.earlyTerminals,
  };
}

function tableText(setup: GameSetup, records: PerftRecord[]): string {
  const header = ['depth', 'leaves', 'moves', 'ended earlier', 'ms', 'moves/s'];
  const rows = records.map((r) => [
    String(r.depth),
    grouped(r.leaves),
    grouped(r.moves),
    grouped(r.earlyTerminals),
    r.ms.toFixed(1),
    millions(perSecond(r.moves, r.ms)),
  ]);
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((row) => row[k]!.length)));
  const line = (cells: string[]) => cells.map((c, k) => c.padStart(widths[k]!)).join('  ');
  const unit = records[0]?.unit ?? 'move';
  return [`perft ${setup.label}, unit ${unit}`, line(header), ...rows.map(line)].join('\n') + '\n';
}

function recordText(setup: GameSetup, r: PerftRecord): string {
  const lines: string[] = [];
  if (r.divide) {
    const width = Math.max(...r.divide.map((d) => d.name.length), 4);
    for (const d of r.divide) lines.push(`${d.name.padEnd(width)}  ${grouped(d.leaves)}`);
  }
  lines.push(
    `perft ${setup.label}, unit ${r.unit}, depth ${r.depth}: ${grouped(r.leaves)} leaves ` +
      `(${grouped(r.moves)} moves played, ${grouped(r.earlyTerminals)} games ended earlier) in ${r.ms.toFixed(1)} ms, ` +
      `${millions(perSecond(r.moves, r.ms))} moves/s`,
  );
  return lines.join('\n') + '\n';
}

export function addPerftCommand(program: Command, io: CliIo): void {
  const cmd = program
    .command('perft')
    .summary('count the positions at exactly depth D from the start position')
    .description(
      'Count the positions at exactly depth D from the start position. A game that ends earlier adds 0. ' +
        "In unit 'move' every move is one level; in unit 'turn' a free turn continues the level, and each " +
        'distinct sequence of moves within a turn counts as one move (the definitions of the C baseline kalah.c).',
    );
  addGameOptions(cmd)
    .requiredOption('--depth <d>', 'depth (whole number ≥ 0)', depthParser(0, false))
    .addOption(unitOption('depth unit').default('move'))
    .option('--table', 'every depth from 1 to D')
    .addOption(new Option('--divide', 'leaves below each root move (unit turn: each first move of the root turn)').conflicts('table'))
    .option('--json', 'JSON output: {"depth","leaves","unit","rules","ms",…} (an array with --table)')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala perft --rules kalah --depth 8 --unit move',
        '  $ mancala perft --rules kalah-empty-capture --pits 6 --seeds 4 --depth 6 --unit turn --json',
        '  $ mancala perft --rules kalah --depth 8 --table',
        '  $ mancala perft --game tictactoe --depth 9',
      ].join('\n'),
    )
    .action((opts: PerftOptions) => runPerft(opts, io));
}

function runPerft(opts: PerftOptions, io: CliIo): void {
  const setup = setupGame(opts);
  if (opts.table) {
    const records: PerftRecord[] = [];
    for (let d = 1; d <= opts.depth; d++) records.push(measurePerft(setup, d, opts.unit));
    io.out(opts.json ? JSON.stringify(records) + '\n' : tableText(setup, records));
    return;
  }
  const record = measurePerft(setup, opts.depth, opts.unit);
  if (opts.divide) record.divide = perftDivide(setup.game, setup.state, opts.depth, opts.unit);
  io.out(opts.json ? JSON.stringify(record) + '\n' : recordText(setup, record));
}
