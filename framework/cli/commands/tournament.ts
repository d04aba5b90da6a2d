/**
 * `mancala tournament`: a round robin of the given agents, or a gauntlet of them against --vs
 * references, on a schedule derived from --seed; standings with openskill ratings and their
 * intervals, a crosstable, and who forfeited and why. Resumable: games are appended to
 * <out>/results.jsonl as they finish, and rerunning the same command plays only the missing ones.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { UserError } from '../../errors.ts';
import { PROFILE_NAMES, findProfile } from '../../games/mancala/profiles.ts';
import { LIMITS } from '../../games/mancala/rules.ts';
import { renderCrosstable, renderForfeits, renderStandings, standingsJson, standingsJsonText } from '../../tournaments/crosstable.ts';
import { FORMATS, openingsParams, participants, type TournamentFormat, type TournamentParams } from '../../tournaments/params.ts';
import { runTournament, validateParams, type TournamentOutcome, type TournamentProgress } from '../../tournaments/runner.ts';
import { isPathSpec } from '../../matches/player.ts';
import { DEFAULT_LIMITS } from '../../suites/schema.ts';
import { MATCH_DEFAULTS } from '../../matches/match-options.ts';
import { describeOpenings } from '../../matches/openings.ts';
import { writeFileAtomically } from '../../write-file.ts';
import { wholeNumber, type CliIo } from '../options.ts';
import { queueNotices, queueOption } from '../queue-option.ts';
import { noProgressOption, withProgressBar } from '../progress.ts';
import { checkOutputFile, checkOutputFolder } from '../output-paths.ts';
import { refuseRunWithoutSubmission } from '../no-submission.ts';
import { rosterOption, rosterTakeIn, takeInAgentSpecs } from '../intake.ts';
import { isPlainSubmission } from '../../intake/take-in.ts';
import { announceSandbox, sandboxMode, weakSandboxOption, type SandboxFlags } from '../sandbox-options.ts';
import { tournamentShardGames, tournamentShardRecord } from '../../shards/read.ts';
import { describeShard } from '../../shards/record.ts';
import { announceShard, shardHelp, shardOption, type ShardFlag } from '../shard-option.ts';
import { studentPath } from '../../student-text.ts';
import { jobsOption } from '../jobs-option.ts';

interface TournamentCliOptions extends SandboxFlags, ShardFlag {
  roster?: string;
  format: TournamentFormat;
  vs?: string[];
  gamesPerPair: number;
  seed: number;
  jobs: number;
  out: string;
  json?: string;
  rules: string;
  pits?: number;
  seeds?: number;
  timePerMove: number;
  timeBank?: number;
  openings: string;
  forfeit: 'loss' | 'random-move';
  maxGames?: number;
  progress: boolean;
  queue?: string;
}


export function addTournamentCommand(program: Command, io: CliIo): void {
  program
    .command('tournament')
    .summary('a round robin or gauntlet of agents: standings with ratings, a crosstable, forfeits; resumable')
    .description(
      'Plays a round robin of the given agents (every pair meets --games-per-pair times, colours alternating), or a gauntlet ' +
        '(each agent plays each --vs reference). Agents are reference agents by name (alphabeta:depth=4) or submissions by path, run ' +
        'sandboxed: one that crashes, runs out of time or plays an illegal move forfeits the game. Each finished game is appended to ' +
        '<out>/results.jsonl; rerunning the same command resumes, playing only the missing games (different parameters are refused). ' +
        'Ratings are openskill (Weng-Lin, Plackett-Luce; a new agent starts at 25): the rating is mu and the interval mu ± 2 sigma, about ' +
        "95% of the model's belief about the agent's skill; games are rated in schedule order, so the same results give the same standings.",
    )
    .argument('<agents...>', 'agents: reference names (random, greedy, alphabeta:depth=4, strong:ms=200), submission paths, or an LMS\'s download as a zip or folder (its students kept in --out/submissions/<id>)')
    .addOption(new Option('--format <format>', 'round-robin: every pair of agents; gauntlet: each agent against each --vs reference').choices(FORMATS).default('round-robin'))
    .option('--vs <ref...>', 'gauntlet: the references each agent plays (put this option last, or end its list with --)')
    .option('--games-per-pair <n>', 'games each pair plays', wholeNumber(1, 100_000, 'games a pair'), 2)
    .option('--seed <n>', "the schedule's seed: the order of games, each game's seed and its opening", wholeNumber(0, 2 ** 31 - 1, 'a seed'), 1)
    .addOption(jobsOption('games played at once, each job with its own players (a thread, and a process per sandboxed submission)'))
    .addOption(rosterOption())
    .option('--out <dir>', 'the folder of results.jsonl (created; an existing one with the same parameters is resumed)', 'tournament')
    .option('--json <file>', 'write the standings as JSON: {"games":N,"standings":[{"agent","rating","ci":[lo,hi],"wins","draws","losses",…}]}')
    .addOption(new Option('--rules <profile>', 'rules profile').choices(PROFILE_NAMES).default('kalah'))
    .addOption(new Option('--pits <n>', "pits a side (default: the profile's)").argParser(wholeNumber(LIMITS.minPits, LIMITS.maxPits, 'pits a side')))
    .addOption(new Option('--seeds <n>', "stones a pit at the start (default: the profile's)").argParser(wholeNumber(LIMITS.minSeeds, LIMITS.maxSeeds, 'stones a pit')))
    .addOption(
      new Option('--time-per-move <ms>', "an agent's time for one move (a submission over it forfeits)").argParser(wholeNumber(1, 3_600_000, 'milliseconds')).default(DEFAULT_LIMITS.ms),
    )
    .addOption(
      new Option('--time-bank <ms>', "each side's time bank a game: a move over its time per move draws the excess on it until it is empty; unspent time is not banked").argParser(
        wholeNumber(0, 3_600_000, 'ms of time bank'),
      ),
    )
    .option(
      '--openings <spec>',
      "random:K: every pair's games 2m and 2m+1 start after the same K seeded random plies, colours swapped (random:0: the start position); " +
        'or a file of start positions (JSON boards, one a line), position p for games 2p and 2p+1',
      describeOpenings(MATCH_DEFAULTS.openings),
    )
    .addOption(new Option('--forfeit <policy>', 'a failing agent loses the game (loss), or a random move is played for it and the failure recorded (random-move)').choices(['loss', 'random-move']).default('loss'))
    .option('--max-games <n>', 'play at most this many new games, then stop (rerun to continue)', wholeNumber(1, Number.MAX_SAFE_INTEGER, 'games'))
    .addOption(queueOption('play the games'))
    .addOption(shardOption('scheduled games'))
    .addOption(noProgressOption())
    .addOption(weakSandboxOption())
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala tournament random greedy alphabeta:depth=4 strong:ms=200 --games-per-pair 4 --jobs 2',
        '  $ mancala tournament submissions/* --format gauntlet --games-per-pair 10 --vs random greedy strong:ms=300',
        '  $ mancala tournament a.ts b.ts --pits 4 --seeds 3 --time-per-move 300 --openings random:4 --json standings.json',
        '  $ mancala tournament submissions/* --games-per-pair 4 --queue redis://10.0.0.5:6379   # played by `mancala worker --queue redis://10.0.0.5:6379` anywhere',
        ...shardHelp(
          [
            '  $ mancala tournament submissions/* --games-per-pair 4 --shard 1/3 --out t-1   # machine 1; --shard 2/3 --out t-2 and 3/3 --out t-3 on the others',
            '  $ mancala merge t-1 t-2 t-3 --out tournament --json standings.json',
          ].join('\n'),
        ),
      ].join('\n'),
    )
    .action(async (given: string[], opts: TournamentCliOptions) => {
      const profile = findProfile(opts.rules)!;

      const params: TournamentParams = {
        format: opts.format,
        agents: given,
        vs: opts.vs ?? [],
        gamesPerPair: opts.gamesPerPair,
        seed: opts.seed,
        rules: profile.name,
        pits: opts.pits ?? profile.rules.pits,
        seeds: opts.seeds ?? profile.rules.seeds,
        timePerMoveMs: opts.timePerMove,
        ...(opts.timeBank !== undefined && opts.timeBank > 0 ? { timeBankMs: opts.timeBank } : {}),
        ...openingsParams(opts.openings),
        forfeit: opts.forfeit,
      };
      // Refused before any game: bad agents and parameters, an --out or --json that cannot be written, no sandbox.
      // A class's zip or export is many agents: with one, the agents are checked once its students are taken in.
      const exports = given.some((a) => existsSync(a) && !isPlainSubmission(a));
      if (!exports) validateParams(params);
      checkOutputFolder('--out', opts.out);
      // An LMS's zip or export: its students' snapshots in the --out folder, under names a resumed run finds again.
      params.agents = (await takeInAgentSpecs(io, given, { exportsOnly: true, root: join(opts.out, 'submissions'), ...rosterTakeIn(opts) })).specs;
      if (exports) validateParams(params);
      if (opts.json !== undefined) checkOutputFile('--json', opts.json);
      const sandbox = sandboxMode(opts);
      await refuseRunWithoutSubmission(participants(params), profile.name);
      // With --queue the submissions run in the workers' sandboxes, each worker says which.
      if (participants(params).some(isPathSpec) && opts.queue === undefined) await announceSandbox(io, sandbox);
      const shard = opts.shard === undefined ? undefined : tournamentShardRecord(params, opts.shard);
      if (shard !== undefined) announceShard(io, shard, `${tournamentShardGames(params, opts.shard!).length} of the tournament's scheduled games`);
      const outcome = await withInterrupt((signal) =>
        withProgressBar(opts.progress, 'tournament [{bar}] {value}/{total} games | {last}', (bar) =>
          runTournament({
            params,
            outDir: opts.out,
            jobs: opts.jobs,
            sandbox,
            ...(opts.queue !== undefined ? { queue: opts.queue, onNotice: queueNotices(io) } : {}),
            ...(opts.maxGames !== undefined ? { maxGames: opts.maxGames } : {}),
            ...(opts.shard !== undefined ? { shard: opts.shard } : {}),
            onProgress: (p) => bar?.update(p.done, p.total, { last: lastGame(p) }),
            signal,
          }),
        ),
      );
      if (shard !== undefined) outcome.notes.push(`${describeShard(shard)}: its games only, and standings over them; mancala merge puts the shards' --out folders together`);
      io.out(renderOutcome(params, outcome));
      if (opts.json && !outcome.interrupted) {
        const text = standingsJsonText(standingsJson(outcome.games.length, outcome.standings));
        // A shard's standings say so: {"games":N,"shard":{…},"standings":[…]}.
        writeFileAtomically(opts.json, shard === undefined ? text : text.replace(/^\{"games":\d+,/, (head) => `${head}"shard":${JSON.stringify(shard)},`));
        io.err(`wrote ${opts.json}\n`);
      }
      if (outcome.interrupted) {
        throw new UserError(`interrupted: ${outcome.games.length} of ${outcome.schedule.length} games are recorded in ${outcome.file}; rerun the same command to finish`, 130);
      }
    });
}

function renderOutcome(p: TournamentParams, o: TournamentOutcome & { interrupted: boolean }): string {
  const size = `${p.rules}(${p.pits},${p.seeds})`;
  const who = p.format === 'gauntlet' ? `${p.agents.length} agent${p.agents.length === 1 ? '' : 's'} against ${p.vs.length} reference${p.vs.length === 1 ? '' : 's'}` : `${p.agents.length} agents`;
  const lines = [
    `${p.format} of ${who}, ${p.gamesPerPair} game${p.gamesPerPair === 1 ? '' : 's'} a pair, ${size}, ${p.timePerMoveMs} ms a move, seed ${p.seed}`,
    `${o.games.length} of ${o.schedule.length} games recorded in ${o.file} (${o.playedNow} played now, ${o.resumed} by an earlier run)`,
    ...o.notes,
  ];
  if (o.interrupted) return lines.join('\n') + '\n';
  if (!o.complete) lines.push(`stopped before the end: rerun the same command to play the remaining ${o.schedule.length - o.games.length} games`);
  return [lines.join('\n') + '\n', renderStandings(o.standings), renderCrosstable(o.standings.map((s) => s.agent), o.games), renderForfeits(o.games)]
    .filter((s) => s !== '')
    .join('\n');
}

/** Ctrl-C or SIGTERM stops the tournament: games in play are abandoned, every finished one is already on disk. */
async function withInterrupt(run: (signal: AbortSignal) => Promise<TournamentOutcome>): Promise<TournamentOutcome & { interrupted: boolean }> {
  const controller = new AbortController();
  const stop = () => {
    controller.abort();
    // A second signal gets the default behaviour: stop at once.
    remove();
  };
  const remove = () => {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const outcome = await run(controller.signal);
    return { ...outcome, interrupted: controller.signal.aborted };
  } finally {
    remove();
  }
}

/** The progress bar's note on the game just finished. */
function lastGame(p: TournamentProgress): string {
  const g = p.game;
  if (g === undefined) return '';
  // The agents as given: submission folders, whose names a student chose.
  const [a, b] = [studentPath(g.A), studentPath(g.B)];
  return `${a} vs ${b}: ${g.winner === 'draw' ? 'draw' : `${g.winner === 'A' ? a : b} won`}`;
}
