/**
 * `mancala play`: a game in the terminal. Each side is a human typing pits at a prompt, a
 * reference agent by name (`alphabeta:depth=6`) or a submission by path (run sandboxed, as in a
 * match: see framework/matches/player.ts). The board is drawn before every move; free turns,
 * captures and the end of the game are announced; an agent that crashes, runs out of time or
 * plays an illegal move forfeits the game.
 *
 * Input is read line by line from any stream (stdin, or a scripted stream in tests); `quit` or the
 * end of the input stops the game cleanly, with exit code 0.
 *
 * It also takes the flags of seed 001's mancala_cmdline.py (CSC384), so the handout's commands
 * work as written: --dimension, --initialBoard, --agentTop/--agentBottom, --heuristicTop/
 * --heuristicBottom (0 basic, 1 advanced), --limit (-1: none), --caching, and the short -d -i -t
 * -b -l -ht -hb. Using any of them plays as that program does: rules csc384 unless --rules says
 * otherwise, and a side without an agent is a human (see `resolvePlay`).
 */
import { randomInt } from 'node:crypto';
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { AgentOptions } from '../../contracts/agent.ts';
import type { Player } from '../../contracts/game.ts';
import type { Heuristic } from '../../contracts/heuristic.ts';
import { UserError } from '../../errors.ts';
import { boardToState, readBoardFile, stateToBoard, type BoardSpec } from '../../games/mancala/board-io/index.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import { findProfile, PROFILE_NAMES, type MancalaProfile } from '../../games/mancala/profiles.ts';
import { LIMITS } from '../../games/mancala/rules.ts';
import { AGENT_ROLE, checkAgentSpec, isPathSpec, openPlayer } from '../../matches/player.ts';
import type { MatchPlayer, MoveAttempt } from '../../matches/types.ts';
import { createRandom } from '../../random.ts';
import { runAgent } from '../../search/run-agent.ts';
import { DEFAULT_LIMITS } from '../../suites/schema.ts';
import { gameSpec } from '../../suites/game.ts';
import type { CaseOptions, GameSpec, RoleSpec } from '../../suites/types.ts';
import { AGENTS, findHeuristic, optionsUnder, parseAgentSpec } from '../../../agents/index.ts';
import { mancalaGame } from '../game-setup.ts';
import { moveEvents } from '../move-events.ts';
import { depthParser, grouped, wholeNumber, type CliIo } from '../options.ts';
import { legalNames, pitRange, readPitInput, SIDE_NAMES } from '../pit-input.ts';
import { cleanUpOnInterrupt } from '../interrupt.ts';
import { announceSandbox, sandboxMode, weakSandboxOption, type SandboxFlags } from '../sandbox-options.ts';
import type { SandboxMode } from '../../sandbox/mechanisms.ts';

export const HUMAN = 'human';

/** Seed 001's flags (its mancala_cmdline.py); using any of them plays as that program does. */
export interface HandoutFlags {
  /** pockets a side (--pits) */
  dimension?: number;
  /** a board file to start from (csc384, JSON or csci561 format) */
  initialBoard?: string;
  /** `human`, a reference agent, the handout's agent_*.py name, or a submission's agent file or folder */
  agentTop?: string;
  agentBottom?: string;
  /** 0: heuristic_basic, 1: heuristic_advanced */
  heuristicTop?: number;
  heuristicBottom?: number;
  /** the agents' depth limit; -1: none */
  limit?: number;
  caching?: boolean;
}

export interface PlayOptions extends HandoutFlags, SandboxFlags {
  /** `human`, a reference agent spec or a submission path, for each side (default: bottom human; top alphabeta, or human under the handout's flags) */
  bottom?: string;
  top?: string;
  /** default: kalah, or csc384 under the handout's flags */
  rules?: string;
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

/** The handout's agent programs: with these names a side is played by the reference agent. */
export const HANDOUT_AGENTS: Readonly<Record<string, string>> = {
  'agent_random.py': 'random',
  'agent_minimax.py': 'minimax',
  'agent_alphabeta.py': 'alphabeta',
};

/** The heuristic numbers of --heuristicTop/--heuristicBottom. */
const HANDOUT_HEURISTICS = ['basic', 'advanced'] as const;
type HeuristicChoice = (typeof HANDOUT_HEURISTICS)[number];

/** A submission's advanced heuristic, found next to its agent as the csc384 suites find it. */
export const ADVANCED_HEURISTIC_ROLE: RoleSpec = {
  kind: 'heuristic',
  files: ['heuristic_advanced.ts', 'heuristic_advanced.js', 'src/heuristic_advanced.ts', 'src/heuristic_advanced.js'],
  reference: 'advanced',
};

/** One side as the options ask for it. */
export interface SeatPlan {
  /** `human`, a reference agent spec, or a path */
  spec: string;
  /** as the side is called on screen: what was typed */
  label: string;
  heuristic: HeuristicChoice;
}

/** What `mancala play` will do, every default and flag applied. */
export interface ResolvedPlay {
  /** the handout's flags were used: its conventions apply */
  handout: boolean;
  profile: MancalaProfile;
  game: MancalaGame;
  start: MancalaState;
  /** bottom, top */
  seats: [SeatPlan, SeatPlan];
  /** --limit (null: no limit) and --caching, for every agent that reads them, unless its own spec sets them */
  depth?: number | null;
  caching?: boolean;
}

function handoutUsed(o: HandoutFlags): boolean {
  return [o.dimension, o.initialBoard, o.agentTop, o.agentBottom, o.heuristicTop, o.heuristicBottom, o.limit, o.caching].some((v) => v !== undefined);
}

/** One of two flags that mean the same thing (--top and --agentTop); both given is a mistake unless they agree. */
function either<T>(a: T | undefined, aFlag: string, b: T | undefined, bFlag: string): T | undefined {
  if (a !== undefined && b !== undefined && a !== b) throw new UserError(`options '${aFlag}' and '${bFlag}' name the same thing: give one of them`);
  return a ?? b;
}

/** `agent_minimax.py` → `minimax`; any other .py is refused (Python does not run here). */
function seatSpec(spec: string, flag: string): string {
  if (!spec.endsWith('.py')) return spec;
  const reference = HANDOUT_AGENTS[basename(spec)];
  if (reference !== undefined) return reference;
  throw new UserError(
    `option '${flag}': ${spec} is a Python program, which does not run here: expected human, a reference agent (${Object.keys(AGENTS).join(', ')}), ` +
      `the handout's ${Object.keys(HANDOUT_AGENTS).join(', ')}, or an agent written in TypeScript or JavaScript`,
  );
}

/** Every flag and default of `mancala play` applied: the game, the start position and the two sides. */
export function resolvePlay(opts: PlayOptions): ResolvedPlay {
  const handout = handoutUsed(opts);
  const rules = opts.rules ?? (handout ? 'csc384' : 'kalah');
  const profile = findProfile(rules);
  if (profile === undefined) throw new UserError(`option '--rules': unknown profile "${rules}": expected one of ${PROFILE_NAMES.join(', ')}`);
  const seedsPerPit = opts.seeds ?? profile.rules.seeds;
  let pits = either(opts.pits, '--pits', opts.dimension, '--dimension');
  let board: BoardSpec | undefined;
  if (opts.initialBoard !== undefined) {
    board = readBoardFile(opts.initialBoard);
    if (pits !== undefined && pits !== board.bottom.length) {
      throw new UserError(`${opts.initialBoard}: the board has ${board.bottom.length} pockets a side, but --dimension/--pits asks for ${pits}`);
    }
    pits = board.bottom.length;
  }
  pits ??= profile.rules.pits;
  const game = mancalaGame(profile, pits, seedsPerPit);
  const start = board === undefined ? game.initial() : boardToState(game, board, undefined, opts.initialBoard);

  const side = (typed: string, flag: string, heuristic: number | undefined): SeatPlan => {
    const spec = seatSpec(typed, flag);
    if (spec !== HUMAN) checkAgentSpec(spec);
    return { spec, label: typed, heuristic: HANDOUT_HEURISTICS[heuristic ?? 0]! };
  };
  const bottom = either(opts.bottom, '--bottom', opts.agentBottom, '--agentBottom') ?? HUMAN;
  const top = either(opts.top, '--top', opts.agentTop, '--agentTop') ?? (handout ? HUMAN : 'alphabeta');
  const plan: ResolvedPlay = {
    handout,
    profile,
    game,
    start,
    seats: [side(bottom, opts.agentBottom !== undefined ? '--agentBottom' : '--bottom', opts.heuristicBottom), side(top, opts.agentTop !== undefined ? '--agentTop' : '--top', opts.heuristicTop)],
  };
  if (opts.limit !== undefined) plan.depth = opts.limit < 0 ? null : opts.limit;
  if (opts.caching !== undefined) plan.caching = opts.caching;
  return plan;
}

export async function runPlay(opts: PlayOptions, io: CliIo, input: NodeJS.ReadableStream): Promise<PlayResult> {
  const plan = resolvePlay(opts);
  const { profile, game } = plan;
  const spec = gameSpec({ profile: profile.name, pits: game.n, seeds: game.rules.seeds });
  const seed = opts.seed ?? randomInt(2 ** 31);
  const humans = plan.seats.filter((s) => s.spec === HUMAN).length;
  const sandbox = sandboxMode(opts);
  // Said (or refused, without bubblewrap) before a submission's process starts.
  if (plan.seats.some((s) => s.spec !== HUMAN && isPathSpec(s.spec))) await announceSandbox(io, sandbox);

  const seats: Seat[] = [];
  let reader: LineReader | undefined;
  try {
    for (const s of plan.seats) {
      seats.push(s.spec === HUMAN ? { kind: 'human' } : { kind: 'agent', player: await openSeat(s, plan, spec, opts.memoryMb ?? DEFAULT_LIMITS.memoryMb, sandbox) });
    }
    // Only a game with a human reads the input, so agent against agent never waits on stdin.
    if (humans > 0) reader = lineReader(input);
    const echo = !(input as { isTTY?: boolean }).isTTY;
    return await playGame({ game, start: plan.start, seats: seats as [Seat, Seat], plan, humans, seed, opts, io, reader, echo, summary: profile.summary });
  } finally {
    reader?.close();
    await Promise.all(seats.map((s) => (s.kind === 'agent' ? s.player.close() : undefined)));
  }
}

/**
 * A side played by an agent. Without the handout's flags, as `mancala match` opens it. With them,
 * the flags' depth limit, caching and heuristic are handed to the agent too: a reference agent
 * runs here with the heuristic asked for; a submission runs sandboxed, with its own
 * heuristic_advanced for 1 (a file is graded with the files beside it, as in its folder).
 */
async function openSeat(seat: SeatPlan, plan: ResolvedPlay, spec: GameSpec, memoryMb: number, sandbox: SandboxMode): Promise<MatchPlayer> {
  if (!plan.handout) return openPlayer(seat.spec, { game: spec, conventions: plan.profile.search, memoryMb, sandbox });
  return isPathSpec(seat.spec) ? openSubmissionSeat(seat, plan, spec, memoryMb, sandbox) : referenceSeat(seat, plan);
}

/** The flags' depth and caching, for an agent that reads them and whose own options leave them out. */
function flagOptions(plan: ResolvedPlay, reads: readonly string[], own: AgentOptions): AgentOptions {
  const out: AgentOptions = {};
  if (plan.depth !== undefined && reads.includes('depth') && own.depth === undefined) out.depth = plan.depth;
  if (plan.caching !== undefined && reads.includes('caching') && own.caching === undefined) out.caching = plan.caching;
  return out;
}

function referenceSeat(seat: SeatPlan, plan: ResolvedPlay): MatchPlayer {
  const parsed = parseAgentSpec(seat.spec);
  const options = { ...optionsUnder(parsed, plan.profile.search), ...flagOptions(plan, AGENTS[parsed.name]!.options, parsed.options) };
  const heuristic: Heuristic = findHeuristic(seat.heuristic)!;
  return {
    label: seat.label,
    async chooseMove(game, state, timeLimitMs, seed): Promise<MoveAttempt> {
      const start = performance.now();
      try {
        const run = await runAgent(parsed.agent, { game, state, heuristic, options: { ms: timeLimitMs, ...options }, timeLimitMs, random: createRandom(seed) });
        const c = run.choice;
        return { status: 'ok', move: c.move, ms: run.ms, nodes: run.nodes, ...(c.value !== undefined ? { value: c.value } : {}), ...(c.depth !== undefined ? { depth: c.depth } : {}) };
      } catch (e) {
        return { status: 'error', message: e instanceof Error ? e.message : String(e), ms: performance.now() - start };
      }
    },
    close: async () => {},
  };
}

/** A file name as a globby pattern that matches just that file. */
function literalPattern(name: string): string {
  return name.replace(/[\\*?[\]{}()!+@]/g, (c) => `\\${c}`);
}

async function openSubmissionSeat(seat: SeatPlan, plan: ResolvedPlay, spec: GameSpec, memoryMb: number, sandbox: SandboxMode): Promise<MatchPlayer> {
  const path = seat.spec;
  const isFile = statSync(path).isFile();
  const roles: Record<string, RoleSpec> = { agent: isFile ? { ...AGENT_ROLE, files: [literalPattern(basename(path))] } : AGENT_ROLE };
  if (seat.heuristic === 'advanced') roles['heuristic_advanced'] = ADVANCED_HEURISTIC_ROLE;
  const { prepareSubmission } = await import('../../sandbox/prepare.ts');
  const { SandboxSession } = await import('../../sandbox/session.ts');
  const prepared = await prepareSubmission(isFile ? dirname(path) : path, roles);
  for (const [name, role] of Object.entries(prepared.roles)) {
    if ('missing' in role) {
      await prepared.dispose();
      throw new UserError(`${name === 'agent' ? 'agent' : `--heuristic${seat === plan.seats[0] ? 'Bottom' : 'Top'} 1: the heuristic of`} ${path}: ${role.missing}`);
    }
  }
  const conventions = plan.profile.search;
  const options: CaseOptions = {
    depth: conventions.defaultDepth,
    unit: conventions.depthUnit,
    terminal: conventions.terminal,
    ...flagOptions(plan, ['depth', 'caching'], {}),
    heuristic: seat.heuristic === 'advanced' ? 'role:heuristic_advanced' : 'basic',
  };
  const session = await SandboxSession.open(prepared, { memoryMb }, { game: spec, sandbox });
  return {
    label: seat.label,
    async chooseMove(game, state, timeLimitMs, seed): Promise<MoveAttempt> {
      const a = await session.chooseMove(stateToBoard(game, state), game.toMove(state), { ...options, seed, ms: timeLimitMs }, timeLimitMs);
      if (a.status !== 'ok') return a;
      const ob = a.observation;
      if (ob.move === undefined) return { status: 'error', message: 'the agent returned no move', ms: a.ms };
      return { status: 'ok', move: ob.move, ms: ob.ms, ...(ob.value !== undefined ? { value: ob.value } : {}), ...(ob.nodes !== undefined ? { nodes: ob.nodes } : {}) };
    },
    async close() {
      await session.close();
      await prepared.dispose();
    },
  };
}

/** What the handout's flags make of an agent's depth and caching (depth undefined: it reads no depth). */
function seatSearch(seat: SeatPlan, plan: ResolvedPlay): { depth?: number | null; caching: boolean; path: boolean } {
  const path = isPathSpec(seat.spec);
  const reads = path ? ['depth', 'caching'] : AGENTS[parseAgentSpec(seat.spec).name]!.options;
  const own: AgentOptions = path ? {} : parseAgentSpec(seat.spec).options;
  const o = flagOptions(plan, reads, own);
  const caching = o.caching === true || own.caching === true;
  if (!reads.includes('depth')) return { caching, path };
  const depth = o.depth !== undefined ? o.depth : own.depth !== undefined ? own.depth : plan.profile.search.defaultDepth;
  return { depth, caching, path };
}

/** "the reference minimax, depth limit 8, caching, the basic heuristic": how the handout's flags set up an agent. */
function seatSettings(seat: SeatPlan, plan: ResolvedPlay): string {
  const { depth, caching, path } = seatSearch(seat, plan);
  const parts = [path ? `${seat.spec}, sandboxed` : seat.spec === seat.label ? `the reference ${seat.spec}` : `the reference ${seat.spec} (for the handout's ${seat.label})`];
  if (depth !== undefined) parts.push(depth === null ? 'no depth limit' : `depth limit ${depth}`);
  if (caching) parts.push('caching');
  if (depth !== undefined) parts.push(seat.heuristic === 'advanced' ? (path ? 'its heuristic_advanced' : 'the advanced heuristic') : 'the basic heuristic');
  return parts.join(', ');
}

interface GameContext {
  game: MancalaGame;
  start: MancalaState;
  seats: [Seat, Seat];
  plan: ResolvedPlay;
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
  const [bottomSeat, topSeat] = c.plan.seats;
  io.out(`bottom = ${bottomSeat.label}, top = ${topSeat.label}; ${game.toMove(c.start) === 0 ? 'bottom' : 'top'} moves first.`);
  if (c.humans < 2) io.out(` Agents: ${msText(c.opts.timePerMove)} a move, seed ${c.seed}.`);
  io.out('\n');
  if (c.plan.handout) {
    for (const p of [0, 1] as const) {
      const seat = c.plan.seats[p];
      if (seat.spec !== HUMAN) io.out(`  ${SIDE_NAMES[p]}: ${seatSettings(seat, c.plan)}\n`);
    }
    // The handout's default is no depth limit, which on a full board no search finishes in time.
    if (c.plan.seats.some((seat) => seat.spec !== HUMAN && seatSearch(seat, c.plan).depth === null)) {
      io.out(
        `  note: without a depth limit a search must finish within ${msText(c.opts.timePerMove)} a move (--time-per-move): a reference agent then plays ` +
          'the best move it found so far, a submission forfeits; --limit N searches N moves deep.\n',
      );
    }
  }
  for (const p of [0, 1] as const) {
    if (seats[p].kind === 'human') io.out(`${SIDE_NAMES[p]} plays the pits ${pitRange(game, p)}: type a pit's name or its number; "help" explains, "quit" stops.\n`);
  }

  const seeds = createRandom(c.seed);
  const moves: number[] = [];
  let state = c.start;
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
  return new Option(`--${flag} <player>`, `who plays the ${flag} row: "${HUMAN}", a reference agent (alphabeta:depth=6) or a submission's path (default: ${fallback})`);
}

/** "0" or "1": the handout's heuristic numbers. */
function heuristicNumber(value: string): number {
  const t = value.trim();
  if (t === '0' || t === '1') return Number(t);
  throw new InvalidArgumentError('Expected 0 (heuristic_basic) or 1 (heuristic_advanced).');
}

/**
 * The handout's two-letter short flags. Commander's short flags are one letter, so these are
 * rewritten to their long forms before the play command reads its arguments.
 */
const TWO_LETTER_FLAGS: Readonly<Record<string, string>> = { '-ht': '--heuristicTop', '-hb': '--heuristicBottom' };

/**
 * `mancala play`. `input` is where the humans' lines come from (stdin unless a test hands in a
 * stream); everything is written through `io`.
 */
export function addPlayCommand(program: Command, io: CliIo, input?: NodeJS.ReadableStream): void {
  const play = program
    .command('play')
    .summary('play a game in the terminal: you against an agent, two humans, or two agents')
    .description(
      'A game of Mancala in the terminal. Each side is "human" (type a pit at the prompt), a reference agent by name, or a submission by path ' +
        '(run sandboxed, as grading runs it). Bottom moves first. An agent that crashes, runs out of time or plays an illegal move forfeits. ' +
        '"quit" or the end of the input stops the game. The flags of seed 001\'s mancala_cmdline.py (CSC384) work too; with any of them the ' +
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
        "Seed 001's (CSC384) commands, as its handout writes them:",
        '  $ mancala play --dimension 6                     # two humans, csc384 rules',
        '  $ mancala play -i board.txt -t agent_minimax.py -b agent_minimax.py -l 8 --caching',
        '  $ mancala play -d 7 -t agent_random.py -b agents/examples/csc384-reference/agent_alphabeta.ts -hb 1 -l 6',
      ].join('\n'),
    )
    .action(async (opts: PlayOptions) => {
      cleanUpOnInterrupt(io);
      await runPlay(opts, io, input ?? process.stdin);
    });
  const parseOptions = play.parseOptions.bind(play);
  play.parseOptions = (argv: string[]) => parseOptions(argv.map((a) => TWO_LETTER_FLAGS[a] ?? a));
}
