/**
 * What `mancala play` will do, from its flags: the rules, the start position and the two seats.
 *
 * It also takes the flags of seed 001's mancala_cmdline.py (CSC384), so the handout's commands
 * work as written: --dimension, --initialBoard, --agentTop/--agentBottom, --heuristicTop/
 * --heuristicBottom (0 basic, 1 advanced), --limit (-1: none), --caching, and the short -d -i -t
 * -b -l -ht -hb. Using any of them plays as that program does: rules csc384 unless --rules says
 * otherwise, and a side without an agent is a human (see `resolvePlay`).
 */
import { basename } from 'node:path';
import type { AgentOptions } from '../contracts/agent.ts';
import { UserError } from '../errors.ts';
import { boardToState, readBoardFile, type BoardSpec } from '../games/mancala/board-io/index.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { mancalaGame } from '../games/mancala/profile-game.ts';
import { findProfile, PROFILE_NAMES, type MancalaProfile } from '../games/mancala/profiles.ts';
import { checkAgentSpec, isPathSpec } from '../matches/player.ts';
import type { RoleSpec } from '../suites/types.ts';
import { agentTable, parseAgentSpec } from '../plugins/agents.ts';
import type { SandboxFlags } from './sandbox-options.ts';

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
    `option '${flag}': ${spec} is a Python program, which does not run here: expected human, a reference agent (${Object.keys(agentTable()).join(', ')}), ` +
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

/** The flags' depth and caching, for an agent that reads them and whose own options leave them out. */
export function flagOptions(plan: ResolvedPlay, reads: readonly string[], own: AgentOptions): AgentOptions {
  const out: AgentOptions = {};
  if (plan.depth !== undefined && reads.includes('depth') && own.depth === undefined) out.depth = plan.depth;
  if (plan.caching !== undefined && reads.includes('caching') && own.caching === undefined) out.caching = plan.caching;
  return out;
}

/** What the handout's flags make of an agent's depth and caching (depth undefined: it reads no depth). */
export function seatSearch(seat: SeatPlan, plan: ResolvedPlay): { depth?: number | null; caching: boolean; path: boolean } {
  const path = isPathSpec(seat.spec);
  const reads = path ? ['depth', 'caching'] : agentTable()[parseAgentSpec(seat.spec).name]!.options;
  const own: AgentOptions = path ? {} : parseAgentSpec(seat.spec).options;
  const o = flagOptions(plan, reads, own);
  const caching = o.caching === true || own.caching === true;
  if (!reads.includes('depth')) return { caching, path };
  const depth = o.depth !== undefined ? o.depth : own.depth !== undefined ? own.depth : plan.profile.search.defaultDepth;
  return { depth, caching, path };
}

/** "the reference minimax, depth limit 8, caching, the basic heuristic": how the handout's flags set up an agent. */
export function seatSettings(seat: SeatPlan, plan: ResolvedPlay): string {
  const { depth, caching, path } = seatSearch(seat, plan);
  const parts = [path ? `${seat.spec}, sandboxed` : seat.spec === seat.label ? `the reference ${seat.spec}` : `the reference ${seat.spec} (for the handout's ${seat.label})`];
  if (depth !== undefined) parts.push(depth === null ? 'no depth limit' : `depth limit ${depth}`);
  if (caching) parts.push('caching');
  if (depth !== undefined) parts.push(seat.heuristic === 'advanced' ? (path ? 'its heuristic_advanced' : 'the advanced heuristic') : 'the basic heuristic');
  return parts.join(', ');
}
