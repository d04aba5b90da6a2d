/**
 * `mancala play`: a game in the terminal. Each side is a human typing pits at a prompt, a
 * reference agent by name (`alphabeta:depth=6`) or a submission by path (run sandboxed, as in a
 * match: see framework/matches/player.ts). The board is drawn before every move; free turns,
 * captures and the end of the game are announced; an agent that crashes, runs out of time or
 * plays an illegal move forfeits the game.
 *
 * Input is read line by line from any stream (stdin, or a scripted stream in tests); `quit` or the
 * end of the input stops the game cleanly, with exit code 0.
 */
import { randomInt } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Option, type Command } from 'commander';
import type { Player } from '../../contracts/game.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import { findProfile, PROFILE_NAMES } from '../../games/mancala/profiles.ts';
import { LIMITS } from '../../games/mancala/rules.ts';
import { openPlayer } from '../../matches/player.ts';
import type { MatchPlayer, MoveAttempt } from '../../matches/types.ts';
import { createRandom } from '../../random.ts';
import { DEFAULT_LIMITS } from '../../suites/schema.ts';
import { gameSpec } from '../../suites/game.ts';
import { mancalaGame } from '../game-setup.ts';
import { moveEvents } from '../move-events.ts';
import { grouped, wholeNumber, type CliIo } from '../options.ts';
import { legalNames, pitRange, readPitInput, SIDE_NAMES } from '../pit-input.ts';
import { cleanUpOnInterrupt } from '../interrupt.ts';

export const HUMAN = 'human';

export interface PlayOptions {
  /** `human`, a reference agent spec or a submission path, for each side */
  bottom: string;
  top: string;
  rules: string;
  pits?: number;
  seeds?: number;
  /** an agent's time for one move */
  timePerMove: number;
  /** seed of the agents' random sources; drawn at random (and printed) when left out */
  seed?: number;
  /** memory cap of a sandboxed submission, MB */
  memoryMb?: number;
}

/** How the game ended: played out, or stopped early by a human or by a forfeit. */
export type PlayEnding = 'finished' | 'forfeit' | 'quit' | 'end-of-input';

export interface PlayResult {
  ending: PlayEnding;
  /** the winner; null for a draw or a game stopped early */
  winner: Player | null;
  /** final stores (after the sweep) of bottom and top, or the stores as they stood when stopped */
  score: [number, number];
  /** every move played, as sowing indices of its mover */
  moves: number[];
}

type Seat = { kind: 'human' } | { kind: 'agent'; player: MatchPlayer };

/** Lines from a stream, one at a time; null at its end. */
interface LineReader {
  next(): Promise<string | null>;
  close(): void;
}

function lineReader(input: NodeJS.ReadableStream): LineReader {
  const rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
  // Made at once so that no line is lost: the iterator buffers lines that arrive while an agent thinks.
  const lines = rl[Symbol.asyncIterator]();
  return {
    async next() {
      const r = await lines.next();
      return r.done ? null : r.value;
    },
    close: () => rl.close(),
  };
}

function msText(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${grouped(Math.round(ms))} ms`;
}

function stones(k: number): string {
  return `${k} stone${k === 1 ? '' : 's'}`;
}

function signed(v: number): string {
  return v > 0 ? `+${v}` : String(v);
}

function forfeitText(a: Exclude<MoveAttempt, { status: 'ok' }>, timeLimitMs: number): string {
  switch (a.status) {
    case 'timeout':
      return `it ran out of time (${msText(timeLimitMs)} a move): ${a.message}`;
    case 'memory':
      return `it ran out of memory: ${a.message}`;
    default:
      return `it crashed: ${a.message}`;
  }
}

export async function runPlay(opts: PlayOptions, io: CliIo, input: NodeJS.ReadableStream): Promise<PlayResult> {
  const profile = findProfile(opts.rules)!; // the option's parser accepted only known names
  const pits = opts.pits ?? profile.rules.pits;
  const seedsPerPit = opts.seeds ?? profile.rules.seeds;
  const game = mancalaGame(profile, pits, seedsPerPit);
  const spec = gameSpec({ profile: profile.name, pits, seeds: seedsPerPit });
  const seed = opts.seed ?? randomInt(2 ** 31);
  const specs: [string, string] = [opts.bottom, opts.top];
  const humans = specs.filter((s) => s === HUMAN).length;

  const seats: Seat[] = [];
  let reader: LineReader | undefined;
  try {
    for (const s of specs) {
      seats.push(
        s === HUMAN
          ? { kind: 'human' }
          : { kind: 'agent', player: await openPlayer(s, { game: spec, conventions: profile.search, memoryMb: opts.memoryMb ?? DEFAULT_LIMITS.memoryMb }) },
      );
    }
    // Only a game with a human reads the input, so agent against agent never waits on stdin.
    if (humans > 0) reader = lineReader(input);
    const echo = !(input as { isTTY?: boolean }).isTTY;
    return await playGame({ game, seats: seats as [Seat, Seat], specs, humans, seed, opts, io, reader, echo, summary: profile.summary });
  } finally {
    reader?.close();
    await Promise.all(seats.map((s) => (s.kind === 'agent' ? s.player.close() : undefined)));
  }
}

interface GameContext {
  game: MancalaGame;
  seats: [Seat, Seat];
  specs: [string, string];
  humans: number;
  seed: number;
  opts: PlayOptions;
  io: CliIo;
  reader: LineReader | undefined;
  /** repeat what was typed after the prompt (the input is not a terminal, which would show it) */
  echo: boolean;
  summary: string;
}

async function playGame(c: GameContext): Promise<PlayResult> {
  const { game, seats, io } = c;
  /** "bottom (you)", "top (alphabeta:depth=6)", or plain "bottom" when two humans play */
  const who = (p: Player): string => {
    const s = seats[p];
    if (s.kind === 'agent') return `${SIDE_NAMES[p]} (${s.player.label})`;
    return c.humans === 1 ? `${SIDE_NAMES[p]} (you)` : SIDE_NAMES[p];
  };
  const storeOf = (p: Player): string => (seats[p].kind === 'human' && c.humans === 1 ? 'your store' : `${SIDE_NAMES[p]}'s store`);

  io.out(`Mancala: ${game.name}, ${c.summary}.\n`);
  io.out(`bottom = ${c.specs[0]}, top = ${c.specs[1]}; bottom moves first.`);
  if (c.humans < 2) io.out(` Agents: ${msText(c.opts.timePerMove)} a move, seed ${c.seed}.`);
  io.out('\n');
  for (const p of [0, 1] as const) {
    if (seats[p].kind === 'human') io.out(`${SIDE_NAMES[p]} plays the pits ${pitRange(game, p)}: type a pit's name or its number; "help" explains, "quit" stops.\n`);
  }

  const seeds = createRandom(c.seed);
  const moves: number[] = [];
  let state = game.initial();
  const stopped = (ending: PlayEnding, why: string): PlayResult => {
    io.out(`\n${why}: the game stops after ${moves.length} move${moves.length === 1 ? '' : 's'} with the stores at bottom ${game.store(state, 0)}, top ${game.store(state, 1)}.\n`);
    io.out('no winner: the game was not finished\n');
    return { ending, winner: null, score: [game.store(state, 0), game.store(state, 1)], moves };
  };

  while (!game.isOver(state)) {
    io.out('\n' + game.render(state) + '\n');
    const mover = game.toMove(state);
    const seat = seats[mover];
    let move: number;
    if (seat.kind === 'human') {
      const chosen = await askHuman(c, state, who(mover));
      if (chosen === 'quit') return stopped('quit', `${who(mover)} quit`);
      if (chosen === 'end-of-input') return stopped('end-of-input', 'the input ended');
      move = chosen;
      io.out(`> ${who(mover)} plays ${game.moveName(state, move)}\n`);
    } else {
      const moveSeed = Math.floor(seeds() * 2 ** 31);
      const a = await seat.player.chooseMove(game, state, c.opts.timePerMove, moveSeed);
      if (a.status !== 'ok') return forfeit(c, state, moves, mover, who, forfeitText(a, c.opts.timePerMove));
      if (!game.isLegal(state, a.move)) {
        const name = Number.isInteger(a.move) && a.move >= 0 && a.move < game.n ? `${game.moveName(state, a.move)} (empty)` : `pit index ${a.move}`;
        return forfeit(c, state, moves, mover, who, `it played ${name}, an illegal move (legal: ${legalNames(game, state).join(' ')})`);
      }
      move = a.move;
      const details = [
        ...(a.value !== undefined ? [`value ${signed(a.value)} for ${SIDE_NAMES[mover]}`] : []),
        ...(a.depth !== undefined ? [`depth ${a.depth}`] : []),
        ...(a.nodes !== undefined ? [`${grouped(a.nodes)} position${a.nodes === 1 ? '' : 's'}`] : []),
        msText(a.ms),
      ];
      io.out(`> ${who(mover)} plays ${game.moveName(state, move)}: ${details.join(', ')}\n`);
    }
    const before = state;
    state = game.play(state, move);
    moves.push(move);
    announce(c, before, move, state, storeOf, who);
  }

  io.out('\n' + game.render(state) + '\n');
  const score: [number, number] = [game.finalStore(state, 0), game.finalStore(state, 1)];
  io.out(`final score: bottom ${score[0]}, top ${score[1]} after ${moves.length} moves\n`);
  const winner: Player | null = score[0] > score[1] ? 0 : score[1] > score[0] ? 1 : null;
  io.out(winner === null ? `a draw: ${score[0]} to ${score[1]}\n` : `winner: ${who(winner)} by ${Math.abs(score[0] - score[1])}\n`);
  return { ending: 'finished', winner, score, moves };
}

function announce(
  c: GameContext,
  before: MancalaState,
  move: number,
  after: MancalaState,
  storeOf: (p: Player) => string,
  who: (p: Player) => string,
): void {
  const { game, io } = c;
  const mover = game.toMove(before);
  const name = game.moveName(before, move);
  const e = moveEvents(game, before, move, after);
  if (e.capture) {
    const k = e.capture;
    const what =
      k.fromStones === 0
        ? `${k.from} was empty, so only the last stone`
        : k.lastStoneTaken
          ? `${k.fromStones} from ${k.from} and the last stone`
          : `from ${k.from}; the last stone stays in ${k.landed}`;
    io.out(`  ${name} ends in the empty ${k.landed} and captures ${stones(k.stones)} (${what})\n`);
  }
  if (e.freeTurn) {
    io.out(`  ${name} ends in ${storeOf(mover)}: ${c.seats[mover].kind === 'human' && c.humans === 1 ? 'move again' : `${who(mover)} moves again`}\n`);
  }
  if (e.gameOver) {
    const empty = ([0, 1] as const).filter((p) => game.rowSum(after, p) === 0);
    const left = ([0, 1] as const).filter((p) => game.rowSum(after, p) > 0);
    const why = empty.length === 2 ? 'both rows are empty' : `${SIDE_NAMES[empty[0] ?? game.toMove(after)]}'s row is empty`;
    const sweep = left.map((p) => `${SIDE_NAMES[p]}'s ${stones(game.rowSum(after, p))} go to ${SIDE_NAMES[p]}'s store`).join(', ');
    io.out(`  the game is over: ${why}${sweep ? `; ${sweep}` : ''}\n`);
  }
}

function forfeit(c: GameContext, state: MancalaState, moves: number[], loser: Player, who: (p: Player) => string, why: string): PlayResult {
  const winner = (1 - loser) as Player;
  c.io.out(`\n${who(loser)} forfeits: ${why}\n`);
  c.io.out(`winner: ${who(winner)}, by forfeit after ${moves.length} move${moves.length === 1 ? '' : 's'}\n`);
  return { ending: 'forfeit', winner, score: [c.game.store(state, 0), c.game.store(state, 1)], moves };
}

/** Asks until the human types a legal pit, `quit`, or the input ends. */
async function askHuman(c: GameContext, state: MancalaState, name: string): Promise<number | 'quit' | 'end-of-input'> {
  const { game, io } = c;
  for (;;) {
    io.out(`${name} to move [${legalNames(game, state).join(' ')}]: `);
    const line = await c.reader!.next();
    if (line === null) {
      io.out('\n');
      return 'end-of-input';
    }
    if (c.echo) io.out(line + '\n');
    const r = readPitInput(game, state, line);
    switch (r.kind) {
      case 'move':
        return r.move;
      case 'quit':
        return 'quit';
      case 'help':
        io.out(helpText(c, game.toMove(state)));
        break;
      case 'invalid':
        io.out(`  ${r.message}\n`);
        break;
    }
  }
}

function helpText(c: GameContext, p: Player): string {
  const { game } = c;
  const r = game.rules;
  const lines = [
    `You play ${SIDE_NAMES[p]}: the pits ${pitRange(game, p)}${p === 0 ? ' (the bottom row; your store is on the right)' : ' (the top row; your store is on the left)'}.`,
    `Type a pit's name or just its number; only a pit with stones in it can be played. "quit" stops the game.`,
    'Sowing: the stones of the pit go one by one into the next pits counter-clockwise, your store included, the opponent\'s store skipped.',
    r.freeTurn ? 'A last stone in your own store gives you another move.' : 'There are no free turns in these rules.',
    r.capture === 'none'
      ? 'There are no captures in these rules.'
      : `A last stone in an empty pit of yours captures the opposite pit${r.capture === 'last-and-opposite' ? ' and the last stone' : ' (the last stone stays)'}${r.captureEmptyOpposite ? ', even when the opposite pit is empty' : ' when the opposite pit has stones'}.`,
    r.gameEnd === 'either-row-empty'
      ? 'The game ends when either row is empty; the stones left go to their row\'s owner.'
      : 'The game ends when the player to move has no stones; the stones left go to their row\'s owner.',
  ];
  return lines.map((l) => `  ${l}\n`).join('');
}

function sideOption(flag: string, fallback: string): Option {
  return new Option(`--${flag} <player>`, `who plays the ${flag} row: "${HUMAN}", a reference agent (alphabeta:depth=6) or a submission's path`).default(fallback);
}

/**
 * `mancala play`. `input` is where the humans' lines come from (stdin unless a test hands in a
 * stream); everything is written through `io`.
 */
export function addPlayCommand(program: Command, io: CliIo, input?: NodeJS.ReadableStream): void {
  program
    .command('play')
    .summary('play a game in the terminal: you against an agent, two humans, or two agents')
    .description(
      'A game of Mancala in the terminal. Each side is "human" (type a pit at the prompt), a reference agent by name, or a submission by path ' +
        '(run sandboxed, as grading runs it). Bottom moves first. An agent that crashes, runs out of time or plays an illegal move forfeits. ' +
        '"quit" or the end of the input stops the game.',
    )
    .addOption(sideOption('bottom', HUMAN))
    .addOption(sideOption('top', 'alphabeta'))
    .addOption(new Option('--rules <profile>', 'rules profile').choices(PROFILE_NAMES).default('kalah'))
    .addOption(new Option('--pits <n>', `pits a side (default: the profile's)`).argParser(wholeNumber(LIMITS.minPits, LIMITS.maxPits, 'pits a side')))
    .addOption(new Option('--seeds <n>', `stones a pit at the start (default: the profile's)`).argParser(wholeNumber(LIMITS.minSeeds, LIMITS.maxSeeds, 'stones a pit')))
    .addOption(
      new Option('--time-per-move <ms>', "an agent's time for one move (a submission over it forfeits)")
        .argParser(wholeNumber(1, 3_600_000, 'milliseconds'))
        .default(DEFAULT_LIMITS.ms),
    )
    .addOption(new Option('--seed <n>', "seed of the agents' random sources (default: drawn at random and printed)").argParser(wholeNumber(0, 2 ** 31 - 1, 'a seed')))
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala play                                   # you (bottom) against alphabeta',
        '  $ mancala play --top strong --rules kalah-empty-capture',
        '  $ mancala play --bottom human --top human --pits 4 --seeds 3',
        '  $ mancala play --bottom agents/examples/alice --top greedy --seed 7',
      ].join('\n'),
    )
    .action(async (opts: PlayOptions) => {
      cleanUpOnInterrupt(io);
      await runPlay(opts, io, input ?? process.stdin);
    });
}
