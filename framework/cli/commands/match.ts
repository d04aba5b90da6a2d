/**
 * `mancala match A B`: a match between two agents — reference agents by name, submissions by
 * path — with alternating colours, seeded openings, forfeits under a stated policy, a results
 * table (or `--json`, the same bytes for the same seed) and optional replays. The runner is
 * framework/matches/match.ts.
 */
import { Option, type Command } from 'commander';
import { PROFILE_NAMES } from '../../games/mancala/profiles.ts';
import { LIMITS } from '../../games/mancala/rules.ts';
import { playMatch } from '../../matches/match.ts';
import { MATCH_DEFAULTS, type MatchOptions } from '../../matches/match-options.ts';
import { FORFEIT_REASONS, matchJson, type MatchResult, type SideStats } from '../../matches/match-results.ts';
import { anytimeGraceMs, timeGraceMs } from '../../matches/play-game.ts';
import { hardLimitFor } from '../../sandbox/hard-limit.ts';
import { describeOpenings, parseOpeningsOption } from '../../matches/openings.ts';
import { checkAgentSpec, isPathSpec } from '../../matches/player.ts';
import type { ForfeitPolicy, GameRecord, Side } from '../../matches/types.ts';
import { agentNames } from '../../plugins/agents.ts';
import { wholeNumber, type CliIo } from '../options.ts';
import { cleanUpOnInterrupt } from '../interrupt.ts';
import { noProgressOption, withProgressBar } from '../progress.ts';
import { checkOutputFolder } from '../output-paths.ts';
import { refuseRunWithoutSubmission } from '../no-submission.ts';
import { announceSandbox, sandboxMode, weakSandboxOption, type SandboxFlags } from '../sandbox-options.ts';
import { jobsOption } from '../jobs-option.ts';

interface MatchFlags extends SandboxFlags {
  games: number;
  rules: string;
  pits?: number;
  seeds?: number;
  timePerMove: number;
  timeBank?: number;
  seed: number;
  openings: string;
  forfeit: ForfeitPolicy;
  jobs: number;
  replays?: string;
  memory: number;
  json?: boolean;
  progress: boolean;
}

/** Games listed one by one in the human output; longer matches show the table only (--json has every game). */
const LISTED_GAMES = 20;

export function addMatchCommand(program: Command, io: CliIo): void {
  const d = MATCH_DEFAULTS;
  program
    .command('match')
    .summary('a match between two agents (reference names or submission paths)')
    .description(
      'Play a match between two agents, A and B: colours alternate game by game (A moves first in odd-numbered games), ' +
        'each pair of games starts from the same seeded opening, and a crash, a timeout, running out of memory or an illegal move ' +
        'is a forfeit under --forfeit, its reason recorded. The same options and seed give the same games (and the same --json bytes) ' +
        'when both agents are deterministic.',
    )
    .argument('<A>', `side A: a reference agent (${agentNames().join(', ')}), with options as in alphabeta:depth=6 or strong:ms=500; or an agent file or submission folder (run sandboxed)`)
    .argument('<B>', 'side B, likewise')
    .addOption(new Option('--games <n>', 'games to play').argParser(wholeNumber(1, 100_000, 'a number of games')).default(d.games))
    .addOption(new Option('--rules <profile>', 'rules profile').choices(PROFILE_NAMES).default(d.rules))
    .addOption(new Option('--pits <n>', "pits a side (default: the profile's, or the openings file's boards')").argParser(wholeNumber(LIMITS.minPits, LIMITS.maxPits, 'pits a side')))
    .addOption(new Option('--seeds <n>', "stones a pit at the start (default: the profile's)").argParser(wholeNumber(LIMITS.minSeeds, LIMITS.maxSeeds, 'stones a pit')))
    .addOption(
      new Option('--time-per-move <ms>', `each decision's time: the agent's deadline; later than that plus a grace (a tenth, 20..250 ms) is a timeout, and a submission still thinking a quarter later (250 ms..2 s) is stopped`)
        .argParser(wholeNumber(1, 3_600_000, 'ms a move'))
        .default(d.timePerMoveMs),
    )
    .addOption(
      new Option('--time-bank <ms>', 'each side\'s time bank a game (Kaggle\'s overage time): a move over its time per move draws the excess on it until it is empty; unspent time is not banked')
        .argParser(wholeNumber(0, 3_600_000, 'ms of time bank')),
    )
    .addOption(new Option('--seed <n>', 'seed of the openings and of the agents\' random sources').argParser(wholeNumber(0, 2 ** 31 - 1, 'a seed')).default(d.seed))
    .addOption(
      new Option('--openings <spec>', 'random:K (K seeded random moves open each pair of games) or FILE (start positions: JSON boards, one a line, or a JSON array)').default(
        describeOpenings(d.openings),
      ),
    )
    .addOption(new Option('--forfeit <policy>', 'loss: a failing side loses the game; random-move: a random legal move is played for it').choices(['loss', 'random-move']).default(d.forfeit))
    .addOption(jobsOption('games played at once (worker threads, each with its own pair of players)'))
    .option('--replays <dir>', 'write each game as JSON lines (every move with the board before it) to DIR/game-NNN.jsonl')
    .addOption(new Option('--memory <mb>', "memory cap of a submission's process, MB").argParser(wholeNumber(16, 65_536, 'MB')).default(d.memoryMb))
    .addOption(weakSandboxOption())
    .option('--json', 'print the games and the tally as JSON (no timings: the same seed gives the same bytes)')
    .addOption(noProgressOption())
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala match alphabeta:depth=4 random --games 20',
        '  $ mancala match agents/examples/alice strong:ms=200 --time-per-move 500 --replays replays/',
        '  $ mancala match alphabeta:depth=6 alphabeta:depth=6 --games 40 --openings random:4 --json',
        '  $ mancala match my-agent.ts greedy --rules csc384 --openings positions.jsonl',
      ].join('\n'),
    )
    .action(async (a: string, b: string, flags: MatchFlags) => {
      // Everything the user could have got wrong is refused before a submission runs.
      checkAgentSpec(a);
      checkAgentSpec(b);
      if (flags.replays !== undefined) checkOutputFolder('--replays', flags.replays);
      const sandbox = sandboxMode(flags);
      // Both sides must play: either one holding nothing stops the match.
      for (const side of [a, b]) await refuseRunWithoutSubmission([side], flags.rules);
      if (isPathSpec(a) || isPathSpec(b)) await announceSandbox(io, sandbox);
      cleanUpOnInterrupt(io);
      const options: MatchOptions = {
        A: a,
        B: b,
        rules: flags.rules,
        games: flags.games,
        timePerMoveMs: flags.timePerMove,
        ...(flags.timeBank !== undefined && flags.timeBank > 0 ? { timeBankMs: flags.timeBank } : {}),
        seed: flags.seed,
        openings: parseOpeningsOption(flags.openings),
        forfeit: flags.forfeit,
        jobs: flags.jobs,
        memoryMb: flags.memory,
        sandbox,
        ...(flags.pits !== undefined ? { pits: flags.pits } : {}),
        ...(flags.seeds !== undefined ? { seeds: flags.seeds } : {}),
        ...(flags.replays !== undefined ? { replays: flags.replays } : {}),
      };
      const tally = { a: 0, b: 0, draws: 0 };
      const result = await withProgressBar(flags.progress, 'match [{bar}] {value}/{total} games | A {a} B {b} draws {draws}', (bar) =>
        playMatch({
          ...options,
          onGame: (record, done) => {
            if (record.winner === 'A') tally.a++;
            else if (record.winner === 'B') tally.b++;
            else tally.draws++;
            bar?.update(done, flags.games, tally);
          },
        }),
      );
      io.out(flags.json === true ? matchJson(result) : renderMatch(result));
      if (flags.replays !== undefined) io.err(`wrote ${result.games.length} replay${result.games.length === 1 ? '' : 's'} to ${flags.replays}\n`);
    });
}


// ---- the human output ----------------------------------------------------------------------------

function table(rows: string[][], rightAligned: ReadonlySet<number>): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => (rightAligned.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd()).join('\n') + '\n';
}

const signed = (x: number, digits: number) => `${x > 0 ? '+' : ''}${x.toFixed(digits)}`;

function seconds(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`;
}

/** Short times keep two significant decimals: a reference agent thinks for fractions of a ms. */
function milliseconds(ms: number): string {
  return `${ms < 1 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)} ms`;
}

function forfeitCell(s: SideStats): string {
  const parts = FORFEIT_REASONS.filter((r) => s.forfeits[r] > 0).map((r) => `${s.forfeits[r]} ${r}`);
  return parts.length === 0 ? '0' : parts.join(', ');
}

function sideRow(side: Side, label: string, s: SideStats, games: number): string[] {
  return [
    side,
    label,
    String(s.wins),
    String(s.draws),
    String(s.losses),
    signed(s.storeMargin / games, 1),
    forfeitCell(s),
    seconds(s.timeMs),
    s.decisions > 0 ? milliseconds(s.timeMs / s.decisions) : '-',
    milliseconds(s.maxMoveMs),
  ];
}

function gameRow(g: GameRecord): string[] {
  const winner = g.winner === 'draw' ? 'draw' : g.winner;
  const how = g.forfeit === null ? '' : `${g.forfeit.side} ${g.forfeit.reason}${g.randomMoves !== undefined ? ' (played on)' : ''}`;
  return [String(g.index), g.first, winner, `${g.score[0]}-${g.score[1]}`, String(g.moves.length), how + (g.truncated === true ? 'stopped' : '')];
}

/**
 * The clock as the games apply it. A decision later than the time per move plus timeGraceMs is a
 * timeout; a sandboxed submission still thinking is stopped at the sandbox's hard limit
 * (hardLimitFor, the number its timeout message names), later than that. Under the anytime rule
 * both are the hard limit.
 */
function timeRule(i: MatchResult['match']): string {
  const bank = i.timeBankMs !== undefined ? `; a time bank of ${i.timeBankMs} ms a side a game, which a move over its time draws on` : '';
  return clockRule(i) + bank;
}

function clockRule(i: MatchResult['match']): string {
  const t = i.timePerMoveMs;
  if (i.anytime) return `${t} ms a move, anytime rule: stopped after ${anytimeGraceMs(t).toFixed(0)} ms more, the last move reported that turn is played`;
  const grace = `+${timeGraceMs(t).toFixed(0)} ms grace`;
  const sandboxed = isPathSpec(i.A) || isPathSpec(i.B);
  return sandboxed ? `${t} ms a move (${grace}; a submission still thinking at ${hardLimitFor(t).toFixed(0)} ms of CPU time is stopped)` : `${t} ms a move (${grace})`;
}

/** The results table, the games (short matches), and each forfeit's reason. */
export function renderMatch(r: MatchResult): string {
  const i = r.match;
  const lines: string[] = [];
  lines.push(`match: A = ${i.A}, B = ${i.B}`);
  lines.push(
    `${i.rules}(${i.pits},${i.seeds}), ${i.games} game${i.games === 1 ? '' : 's'}, colours alternating; openings ${i.openings}, seed ${i.seed}; ` +
      `${timeRule(i)}; forfeit: ${i.forfeit}`,
  );
  lines.push('');
  const header = ['side', 'agent', 'wins', 'draws', 'losses', 'store margin', 'forfeits', 'thinking', 'per move', 'longest'];
  let out = lines.join('\n') + '\n';
  out += table([header, sideRow('A', i.A, r.stats.A, i.games), sideRow('B', i.B, r.stats.B, i.games)], new Set([2, 3, 4, 5, 7, 8, 9]));
  out += '(store margin: the side\'s final store minus the other\'s, a game on average)\n';
  if (r.games.length <= LISTED_GAMES) {
    out += '\n' + table([['game', 'first', 'winner', 'score A-B', 'moves', 'forfeit'], ...r.games.map(gameRow)], new Set([0, 3, 4]));
  }
  const forfeits = r.games.filter((g) => g.forfeit !== null);
  if (forfeits.length > 0) {
    out += i.forfeit === 'loss' ? '\nforfeits:\n' : '\nfailures (a random legal move was played for the failing side; the first failure of each game):\n';
    for (const g of forfeits) {
      const f = g.forfeit!;
      const agent = f.side === 'A' ? i.A : i.B;
      const what = i.forfeit === 'loss' ? 'lost by ' : '';
      out += `  game ${g.index}: ${f.side} (${agent}) ${what}${f.reason} ${f.message}\n`;
    }
  }
  return out;
}
