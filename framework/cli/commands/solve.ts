/**
 * `mancala solve`: the perfect-play value of a position (the start, or a board file) and every
 * best move, by the solver registered in plugins/perfect-solver.ts (agents/perfect/), with
 * nodes, time and peak memory; `--build-endgame S --out FILE` writes an endgame database that
 * later solves reuse with `--endgame FILE`. docs/perfect-play.md explains the methods.
 */
import { availableParallelism } from 'node:os';
import { Option, type Command } from 'commander';
import { UserError } from '../../errors.ts';
import { BOARD_FORMATS, type BoardFormat } from '../../games/mancala/board-io/index.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import { buildEndgameFile, solvePerfect, type SolveResult } from '../../plugins/perfect-solver.ts';
import { setupPosition } from '../game-setup.ts';
import { checkOutputFile } from '../output-paths.ts';
import { noProgressOption, withProgressBar } from '../progress.ts';
import { addGameOptions, grouped, PLAYERS, roundMs, wholeNumber, type CliIo, type GameOptions, type PlayerSide } from '../options.ts';

interface SolveCliOptions extends GameOptions {
  board?: string;
  boardFormat?: BoardFormat;
  player?: PlayerSide;
  json?: boolean;
  ttMb?: number;
  endgame?: string;
  endgameStones?: number;
  bestOnly?: boolean;
  timeLimit?: number;
  buildEndgame?: number;
  out?: string;
  jobs?: number;
  progress: boolean;
}

const signed = (v: number) => (v > 0 ? `+${v}` : String(v));

function seconds(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The JSON record of a solve: the contract's fields first. */
function record(game: MancalaGame, s: MancalaState, r: SolveResult, label: { rules: string | null; pits: number; seeds?: number }) {
  const name = (m: number) => game.moveName(s, m);
  return {
    value: r.value ?? null,
    bestMoves: r.bestMoves.map(name),
    nodes: r.nodes,
    ms: roundMs(r.ms),
    peakMb: r.peakMb ?? null,
    proven: r.proven,
    cpuMs: r.cpuMs ?? null,
    bestMoveIndices: r.bestMoves,
    moveValues: Object.fromEntries([...(r.moveValues ?? new Map<number, number>())].map(([m, v]) => [name(m), v])),
    toMove: game.toMove(s) === 0 ? 'bottom' : 'top',
    rules: label.rules,
    pits: label.pits,
    ...(label.seeds === undefined ? {} : { seeds: label.seeds }),
    tableMb: r.tableMb ?? null,
    endgameStones: r.endgameStones ?? null,
    endgameLoadMs: r.endgameLoadMs === undefined ? null : roundMs(r.endgameLoadMs),
    ...(r.bounds === undefined ? {} : { bounds: r.bounds }),
    ...(r.bestKnownMove === undefined ? {} : { bestKnownMove: name(r.bestKnownMove) }),
  };
}

function reportText(game: MancalaGame, s: MancalaState, r: SolveResult, label: string): string {
  const side = game.toMove(s) === 0 ? 'bottom' : 'top';
  const lines = [`${label}; ${side} to move`, game.render(s)];
  if (r.proven) {
    lines.push(`value ${signed(r.value!)} for ${side}: its final store margin under perfect play by both sides`);
    if (r.bestMoves.length > 0) lines.push(`best move${r.bestMoves.length === 1 ? '' : 's'}: ${r.bestMoves.map((m) => game.moveName(s, m)).join(', ')}`);
  } else {
    const [lo, hi] = r.bounds ?? [-Infinity, Infinity];
    lines.push(`not proven within the time limit: the value lies in ${signed(lo)} .. ${signed(hi)}`);
    if (r.bestKnownMove !== undefined) lines.push(`best move among those proven so far: ${game.moveName(s, r.bestKnownMove)}`);
  }
  const values = [...(r.moveValues ?? new Map<number, number>())];
  if (values.length > 0) lines.push(`move values: ${values.map(([m, v]) => `${game.moveName(s, m)} ${signed(v)}`).join(', ')}`);
  const db = r.endgameStones ? `, endgame database of ≤ ${r.endgameStones} stones` : '';
  // A big database takes seconds to read: said apart, so the search's own time shows.
  const load = r.endgameLoadMs !== undefined && r.endgameLoadMs >= 1000 ? `, of which ${seconds(r.endgameLoadMs)} reading the endgame database` : '';
  lines.push(`${grouped(r.nodes)} nodes in ${seconds(r.ms)}${r.cpuMs === undefined ? '' : ` (${seconds(r.cpuMs)} of CPU)`}${load}; peak memory ${r.peakMb ?? '?'} MB (table ${r.tableMb ?? '?'} MB${db})`);
  return lines.join('\n') + '\n';
}

/** A one-line progress display on stderr, only on a terminal (pipes and --json stay clean). */
function progressLine(wanted: boolean): { update(p: { nodes: number; ms: number; bound?: [number, number] }): void; done(): void } {
  const on = wanted && process.stderr.isTTY === true;
  let shown = false;
  return {
    update(p) {
      if (!on) return;
      const bound = p.bound === undefined ? '' : `, value in ${Number.isFinite(p.bound[0]) ? signed(p.bound[0]) : '-inf'} .. ${signed(p.bound[1])}`;
      process.stderr.write(`\r\x1b[Ksolving: ${grouped(p.nodes)} nodes, ${seconds(p.ms)}${bound}`);
      shown = true;
    },
    done() {
      if (shown) process.stderr.write('\r\x1b[K');
    },
  };
}

async function buildEndgame(opts: SolveCliOptions, io: CliIo): Promise<void> {
  if (opts.out === undefined) throw new UserError("option '--build-endgame <stones>' needs '--out <file>' (where to write the database)");
  if (opts.board !== undefined) throw new UserError("option '--build-endgame' builds for a rule set and board size, not a board file: drop '--board'");
  const setup = setupPosition({ ...opts, board: undefined });
  if (setup.kind !== 'mancala') throw new UserError("option '--build-endgame' applies to --game mancala only");
  const game = setup.game as MancalaGame;
  const started = performance.now();
  const stones = opts.buildEndgame!;
  checkOutputFile('--out', opts.out); // before minutes of building, not after
  const jobs = opts.jobs ?? availableParallelism();
  const wrote = await withProgressBar(opts.progress, 'endgame database [{bar}] {percentage}% of {total} positions', async (bar) =>
    buildEndgameFile(game, stones, opts.out!, { jobs, onProgress: (done, total) => bar?.update(done, total) }),
  );
  const ms = performance.now() - started;
  const text = `wrote ${opts.out}: the endgame database of ${setup.rules} on ${game.n} pits a side, every position with at most ${stones} stones on the board: ${grouped(wrote.positions)} positions, ${grouped(wrote.bytes)} bytes, in ${seconds(ms)}\n`;
  io.out(opts.json ? JSON.stringify({ file: opts.out, rules: setup.rules, pits: game.n, stones, positions: wrote.positions, bytes: wrote.bytes, ms: roundMs(ms) }) + '\n' : text);
}

export function addSolveCommand(program: Command, io: CliIo): void {
  const cmd = program
    .command('solve')
    .summary('the perfect-play value of a position and every best move (MTD(f), transposition table, endgame databases)')
    .description(
      'Solve a Mancala position exactly: its value (the final store margin of the player to move under perfect play by ' +
        'both sides), every best move and each move\'s value, with nodes, time and peak memory. From the start position, ' +
        'or a board file. With --build-endgame S --out FILE it writes the endgame database of every position with at ' +
        'most S stones on the board instead, for later solves (--endgame FILE). docs/perfect-play.md explains the methods.',
    );
  addGameOptions(cmd)
    .addOption(new Option('--board <file>', 'solve this board file instead of the start position').conflicts(['pits', 'seeds']))
    .addOption(new Option('--board-format <format>', "the board file's format (default: from its name and content)").choices(BOARD_FORMATS))
    .addOption(new Option('--player <side>', "the player to move (default: the board file's, else bottom)").choices(PLAYERS))
    .addOption(new Option('--tt-mb <n>', 'transposition table size in MB (default: 8 to 256, by the stones on the board)').argParser(wholeNumber(1, 65536, 'megabytes')))
    .addOption(new Option('--endgame <file>', 'an endgame database file written by --build-endgame for these rules and pits'))
    .addOption(
      new Option('--endgame-stones <n>', 'without --endgame: the endgame database built in memory, positions of at most n stones (0: none; default: a small one on big boards)')
        .argParser(wholeNumber(0, 100, 'stones'))
        .conflicts('endgame'),
    )
    .option('--best-only', 'prove the value and every best move, not the exact value of every other move (faster)')
    .addOption(new Option('--time-limit <s>', 'give up after this many seconds: the answer is then not proven (bounds and the best move proven so far)').argParser(wholeNumber(1, 10_000_000, 'seconds')))
    .addOption(new Option('--build-endgame <stones>', 'write the endgame database of every position with at most this many stones on the board (needs --out)').argParser(wholeNumber(0, 100, 'stones')))
    .option('--out <file>', 'where --build-endgame writes the database')
    .addOption(new Option('--jobs <n>', 'threads building the database with --build-endgame (default: the cores this machine has)').argParser(wholeNumber(1, 64, 'a number of jobs')))
    .addOption(noProgressOption())
    .option('--json', 'JSON output: {"value","bestMoves","nodes","ms","peakMb","proven","bestMoveIndices","moveValues",…}')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala solve --rules kalah-empty-capture --pits 4 --seeds 3',
        '  $ mancala solve --rules kalah --pits 6 --seeds 4 --best-only --json',
        '  $ mancala solve --rules kalah-empty-capture --pits 6 --build-endgame 14 --out kalah-ec-6.egdb',
        '  $ mancala solve --rules kalah-empty-capture --pits 6 --seeds 4 --endgame kalah-ec-6.egdb',
        '  $ mancala solve --rules csc384 --board board.txt --player top',
      ].join('\n'),
    )
    .action(async (opts: SolveCliOptions) => {
      if (opts.game !== 'mancala') throw new UserError("'mancala solve' solves Mancala only (--game mancala)");
      if (opts.buildEndgame !== undefined) return buildEndgame(opts, io);
      if (opts.out !== undefined) throw new UserError("option '--out <file>' goes with '--build-endgame <stones>' (solve results go to stdout)");
      if (opts.jobs !== undefined) throw new UserError("option '--jobs <n>' goes with '--build-endgame <stones>' (a solve runs on one thread)");
      const setup = setupPosition(opts);
      const game = setup.game as MancalaGame;
      const state = setup.state as MancalaState;
      const progress = progressLine(opts.progress && !opts.json);
      let result: SolveResult;
      try {
        result = solvePerfect(game, state, {
          ...(opts.ttMb === undefined ? {} : { ttMb: opts.ttMb }),
          ...(opts.endgame === undefined ? {} : { endgameFile: opts.endgame }),
          ...(opts.endgameStones === undefined ? {} : { endgameStones: opts.endgameStones }),
          ...(opts.timeLimit === undefined ? {} : { deadlineMs: opts.timeLimit * 1000 }),
          moveValues: opts.bestOnly ? 'best' : 'all',
          onProgress: (p) => progress.update(p),
        });
      } finally {
        progress.done();
      }
      const label = { rules: setup.rules, pits: game.n, ...(setup.seeds === undefined ? {} : { seeds: setup.seeds }) };
      io.out(opts.json ? JSON.stringify(record(game, state, result, label)) + '\n' : reportText(game, state, result, setup.label));
    });
}
