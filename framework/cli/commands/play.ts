/**
 * `mancala play`: a game in the terminal. Each side is a human typing pits at a prompt, a
 * reference agent by name (`alphabeta:depth=6`) or a submission by path (run sandboxed, as in a
 * match: see framework/matches/player.ts). The game is played by the game loop every match plays
 * (framework/matches/play-game.ts), watched by the terminal (play-terminal.ts): an agent that
 * crashes or plays an illegal move forfeits; the clock is the agent's own (a sandboxed submission
 * is stopped by its sandbox), never the loop's, so a human may think as long as they like.
 *
 * Input is read line by line from any stream (stdin, or a scripted stream in tests); `quit` or the
 * end of the input stops the game cleanly, with exit code 0. The handout's flags (seed 001's
 * mancala_cmdline.py) are read by play-setup.ts.
 */
import { randomInt } from 'node:crypto';
import { Command, InvalidArgumentError, Option, type ParseOptionsResult } from 'commander';
import type { Player } from '../../contracts/game.ts';
import { PROFILE_NAMES } from '../../games/mancala/profiles.ts';
import { LIMITS } from '../../games/mancala/rules.ts';
import { playGame } from '../../matches/play-game.ts';
import { isPathSpec } from '../../matches/player.ts';
import type { MatchPlayer } from '../../matches/types.ts';
import { createRandom } from '../../random.ts';
import { gameSpec } from '../../suites/game.ts';
import { DEFAULT_LIMITS } from '../../suites/schema.ts';
import { cleanUpOnInterrupt } from '../interrupt.ts';
import { depthParser, wholeNumber, type CliIo } from '../options.ts';
import { humanSeat, lineReader, type HumanStop, type LineReader } from '../play-human.ts';
import { openSeat, seededBy } from '../play-seats.ts';
import { HUMAN, resolvePlay, type PlayOptions } from '../play-setup.ts';
import { terminalView, type PlayResult } from '../play-terminal.ts';
import { announceSandbox, sandboxMode, weakSandboxOption } from '../sandbox-options.ts';
import { refuseRunWithoutSubmission } from '../no-submission.ts';

export async function runPlay(opts: PlayOptions, io: CliIo, input: NodeJS.ReadableStream): Promise<PlayResult> {
  const plan = resolvePlay(opts);
  const { profile, game } = plan;
  const spec = gameSpec({ profile: profile.name, pits: game.n, seeds: game.rules.seeds });
  const seed = opts.seed ?? randomInt(2 ** 31);
  const sandbox = sandboxMode(opts);
  // Every seat must play: one holding nothing stops the game before anything starts.
  for (const s of plan.seats) if (s.spec !== HUMAN) await refuseRunWithoutSubmission([s.spec], profile.name);
  // Said (or refused, without bubblewrap) before a submission's process starts.
  if (plan.seats.some((s) => s.spec !== HUMAN && isPathSpec(s.spec))) await announceSandbox(io, sandbox);

  const agents: (MatchPlayer | undefined)[] = [];
  let reader: LineReader | undefined;
  try {
    for (const s of plan.seats) agents.push(s.spec === HUMAN ? undefined : await openSeat(s, plan, spec, opts.memoryMb ?? DEFAULT_LIMITS.memoryMb, sandbox));
    // Only a game with a human reads the input, so agent against agent never waits on stdin.
    if (agents.includes(undefined)) reader = lineReader(input);
    const echo = !(input as { isTTY?: boolean }).isTTY;
    const stop = new AbortController();
    const view = terminalView({
      io,
      plan,
      agentLabels: [agents[0]?.label, agents[1]?.label],
      timePerMoveMs: opts.timePerMove,
      seed,
      stopReason: () => (stop.signal.aborted ? (stop.signal.reason as HumanStop) : undefined),
    });
    // The agents' seeds come from one generator seeded by --seed, drawn in turn order.
    const seeds = createRandom(seed);
    const seat = (p: Player): MatchPlayer => {
      const agent = agents[p];
      return agent !== undefined ? seededBy(agent, seeds) : humanSeat({ reader: reader!, io, echo, name: () => view.who(p), stop });
    };
    view.intro();
    await playGame({
      game,
      start: plan.start,
      players: { A: seat(0), B: seat(1) },
      first: 'A',
      index: 1,
      timePerMoveMs: opts.timePerMove,
      graceMs: { A: Infinity, B: Infinity },
      forfeit: 'loss',
      seed,
      observers: [view.observer],
      signal: stop.signal,
    });
    return view.result();
  } finally {
    reader?.close();
    await Promise.all(agents.map((a) => a?.close()));
  }
}

function sideOption(flag: string, fallback: string): Option {
  return new Option(`--${flag} <player>`, `who plays the ${flag} row: "${HUMAN}", a reference agent (alphabeta:depth=6) or a submission's path (default: ${fallback})`);
}

/** "0" or "1": the handout's heuristic numbers. */
function heuristicNumber(value: string): number {
  const t = value.trim();
  if (t === '0' || t === '1') return Number(t);
  throw new InvalidArgumentError('Expected 0 (heuristic_basic) or 1 (heuristic_advanced).');
}

/**
 * The handout's two-letter short flags. Commander's short flags are one letter (it would read -ht
 * as -h -t), so the play command rewrites these to their long forms before it parses its options:
 * a subclass overriding commander's documented parseOptions.
 */
const TWO_LETTER_FLAGS: Readonly<Record<string, string>> = { '-ht': '--heuristicTop', '-hb': '--heuristicBottom' };

class PlayCommand extends Command {
  override parseOptions(argv: string[]): ParseOptionsResult {
    return super.parseOptions(argv.map((a) => TWO_LETTER_FLAGS[a] ?? a));
  }
}

/**
 * `mancala play`. `input` is where the humans' lines come from (stdin unless a test hands in a
 * stream); everything is written through `io`.
 */
export function addPlayCommand(program: Command, io: CliIo, input?: NodeJS.ReadableStream): void {
  const play = new PlayCommand('play');
  // What program.command() would do: the program's settings (output, exit handling) carry over.
  play.copyInheritedSettings(program);
  program.addCommand(play);
  play
    .summary('play a game in the terminal: you against an agent, two humans, or two agents')
    .description(
      'A game of Mancala in the terminal. Each side is "human" (type a pit at the prompt), a reference agent by name, or a submission by path ' +
        '(run sandboxed, as grading runs it). Bottom moves first. An agent that crashes, runs out of time or plays an illegal move forfeits. ' +
        '"quit" or the end of the input stops the game. The flags of CSC384\'s mancala_cmdline.py work too; with any of them the ' +
        'rules are csc384 (unless --rules) and a side without an agent is a human.',
    )
    .addOption(sideOption('bottom', HUMAN))
    .addOption(sideOption('top', 'alphabeta'))
    .addOption(new Option('--rules <profile>', 'rules profile (default: kalah; csc384 with the handout\'s flags)').choices(PROFILE_NAMES))
    .addOption(new Option('--pits <n>', `pits a side (default: the profile's)`).argParser(wholeNumber(LIMITS.minPits, LIMITS.maxPits, 'pits a side')))
    .addOption(new Option('--seeds <n>', `stones a pit at the start (default: the profile's)`).argParser(wholeNumber(LIMITS.minSeeds, LIMITS.maxSeeds, 'stones a pit')))
    .addOption(
      new Option('--time-per-move <ms>', "an agent's time for one move (a submission over it forfeits)")
        .argParser(wholeNumber(1, 3_600_000, 'milliseconds'))
        .default(DEFAULT_LIMITS.ms),
    )
    .addOption(new Option('--seed <n>', "seed of the agents' random sources (default: drawn at random and printed)").argParser(wholeNumber(0, 2 ** 31 - 1, 'a seed')))
    .addOption(new Option('-d, --dimension <n>', 'handout: pockets a side (= --pits)').argParser(wholeNumber(LIMITS.minPits, LIMITS.maxPits, 'pockets a side')))
    .addOption(new Option('-i, --initialBoard <file>', 'handout: start from this board file (csc384: top row, bottom row, top store, bottom store; or JSON, csci561)'))
    .addOption(new Option('-t, --agentTop <agent>', 'handout: the top player (= --top): human, random, minimax, alphabeta, agent_minimax.py (the reference), or an agent file; default human'))
    .addOption(new Option('-b, --agentBottom <agent>', 'handout: the bottom player (= --bottom); default human'))
    .addOption(new Option('--heuristicTop <0|1>', 'handout (-ht): the top agent\'s heuristic, 0 = heuristic_basic, 1 = heuristic_advanced (a submission\'s own)').argParser(heuristicNumber))
    .addOption(new Option('--heuristicBottom <0|1>', 'handout (-hb): the bottom agent\'s heuristic, 0 or 1').argParser(heuristicNumber))
    .addOption(new Option('-l, --limit <n>', 'handout: the agents\' depth limit in moves; -1 = no limit').argParser(depthParser(0, true)))
    .addOption(new Option('--caching', 'handout: the agents cache the positions they searched'))
    .addOption(weakSandboxOption())
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala play                                   # you (bottom) against alphabeta',
        '  $ mancala play --top strong --rules kalah-empty-capture',
        '  $ mancala play --bottom human --top human --pits 4 --seeds 3',
        '  $ mancala play --bottom agents/examples/alice --top greedy --seed 7',
        '',
        "CSC384's commands, as its handout writes them:",
        '  $ mancala play --dimension 6                     # two humans, csc384 rules',
        '  $ mancala play -i board.txt -t agent_minimax.py -b agent_minimax.py -l 8 --caching',
        '  $ mancala play -d 7 -t agent_random.py -b agents/examples/csc384-reference/agent_alphabeta.ts -hb 1 -l 6',
      ].join('\n'),
    )
    .action(async (opts: PlayOptions) => {
      cleanUpOnInterrupt(io);
      await runPlay(opts, io, input ?? process.stdin);
    });
}
