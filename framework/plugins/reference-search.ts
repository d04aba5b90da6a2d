/**
 * One decision of a reference search on a position, run the way the framework always runs an agent
 * (runAgent: instrumented game, counted heuristic, seeded random): what `mancala search` prints,
 * `mancala bench` times and the web app's Search explorer draws as a tree. It sits here, below
 * cli/ and web/, because both run it: the explorer's values are `mancala search`'s by construction.
 * The JSON's first six fields are a contract (the speed comparison script and graders read them):
 * {"move","moveName","value","nodes","evaluations","ms"}.
 */
import type { AgentOptions } from '../contracts/agent.ts';
import type { Game } from '../contracts/game.ts';
import type { DepthUnit, FreeTurns, SearchConventions, TerminalEvaluation } from '../contracts/search-conventions.ts';
import type { TraceEvent, TraceSink } from '../contracts/search-trace.ts';
import { UserError } from '../errors.ts';
import type { BoardSpec } from '../games/mancala/board-io/index.ts';
import type { MancalaProfile } from '../games/mancala/profiles.ts';
import { createRandom } from '../random.ts';
import { runAgent } from '../search/run-agent.ts';
import { agentTable, requireAgent, requireHeuristic } from './agents.ts';

/** The agents `mancala search --algo` offers: the reference searches whose node counts are gradable. */
export const SEARCH_ALGOS = ['greedy', 'minimax', 'alphabeta'] as const;
export type SearchAlgo = (typeof SEARCH_ALGOS)[number];

/** Seed 000's input.txt names its algorithm by task number (4, the competition, plays alpha-beta). */
const CSCI561_TASK_ALGO: Record<number, SearchAlgo> = { 1: 'greedy', 2: 'minimax', 3: 'alphabeta', 4: 'alphabeta' };

/** A game and the position a search starts from (the CLI builds it from its flags: cli/game-setup.ts). */
export interface GameSetup {
  kind: 'mancala' | 'tictactoe';
  game: Game<any>;
  /** the position to start from */
  state: any;
  /** the profile name for Mancala; null for Tic-Tac-Toe */
  rules: string | null;
  profile?: MancalaProfile;
  pits?: number;
  seeds?: number;
  /** the search conventions of the profile (Tic-Tac-Toe: depth in moves, no limit, score at the end) */
  conventions: SearchConventions;
  /** e.g. "kalah-empty-capture, 6 pits, 4 stones" or "tictactoe" */
  label: string;
  /** the board file the position came from, and what it said beyond the board (seed 000's input.txt: task and depth) */
  boardFile?: string;
  board?: BoardSpec;
}

/** What a caller asks of the search (the CLI's flags); whatever is left out comes from the profile and the board file. */
export interface SearchRequest {
  algo?: SearchAlgo;
  /** a depth limit; negative: none */
  depth?: number;
  unit?: DepthUnit;
  terminal?: TerminalEvaluation;
  caching?: boolean;
  freeTurns?: FreeTurns;
  heuristic?: string;
  seed?: number;
}

/** What the search will do, from the request, the board file and the profile's conventions. */
export interface SearchPlan {
  algo: SearchAlgo;
  /** null: no depth limit */
  depth: number | null;
  unit: DepthUnit;
  terminal: TerminalEvaluation;
  caching: boolean;
  /** `ignore`: players alternate every move (seed 002's provided minimax); only when asked */
  freeTurns?: 'ignore';
  heuristic: string;
  seed: number;
}

/** What `search --json` prints: the six fields first, then the plan it followed. */
export interface SearchReport extends Omit<SearchPlan, 'seed'> {
  move: number;
  moveName: string;
  value: number | null;
  nodes: number;
  evaluations: number;
  ms: number;
  game: string;
  rules: string | null;
  player: string;
  trace?: TraceEvent[];
}

export function planSearch(opts: SearchRequest, setup: GameSetup): SearchPlan {
  const task = setup.board?.csci561?.task;
  const algo = opts.algo ?? (task === undefined ? undefined : CSCI561_TASK_ALGO[task]);
  if (algo === undefined) throw new UserError(`missing option '--algo <name>': expected one of ${SEARCH_ALGOS.join(', ')}`);
  const conventions = setup.conventions;
  // -1 on the command line and null in a profile both mean "search to the end of the game".
  const given = opts.depth ?? setup.board?.csci561?.depth ?? conventions.defaultDepth;
  const depth = algo === 'greedy' ? 1 : given === null || given < 0 ? null : given;
  return {
    algo,
    depth,
    unit: opts.unit ?? conventions.depthUnit,
    terminal: opts.terminal ?? conventions.terminal,
    caching: opts.caching === true,
    ...(opts.freeTurns === 'ignore' ? { freeTurns: 'ignore' as const } : {}),
    heuristic: opts.heuristic ?? 'basic',
    seed: opts.seed ?? 1,
  };
}

/**
 * Runs the plan's agent on the setup's position. `trace`: true collects the search's events into
 * the report; a sink receives them as they come instead (and may throw to stop a search that grows
 * too large: the error is this call's).
 */
export async function runSearch(setup: GameSetup, plan: SearchPlan, trace: boolean | TraceSink = false): Promise<SearchReport> {
  const { game, state } = setup;
  if (game.isOver(state)) {
    throw new UserError(`${setup.boardFile ?? 'the start position'}: the game is over in this position: there is no move to search for`);
  }
  const agent = requireAgent(plan.algo);
  const heuristic = requireHeuristic(plan.heuristic);
  const options: AgentOptions = { depth: plan.depth, unit: plan.unit, terminal: plan.terminal, caching: plan.caching, ...(plan.freeTurns !== undefined ? { freeTurns: plan.freeTurns } : {}) };
  if (plan.freeTurns !== undefined && !agentTable()[plan.algo]!.options.includes('freeTurns')) {
    throw new UserError(`option '--free-turns ${plan.freeTurns}' applies to minimax and alphabeta, not ${plan.algo}`);
  }
  const events: TraceEvent[] = [];
  const sink: TraceSink | undefined = typeof trace === 'function' ? trace : trace ? (e) => void events.push(e) : undefined;
  const outcome = await runAgent(agent, {
    game,
    state,
    heuristic,
    options,
    random: createRandom(plan.seed),
    ...(sink !== undefined ? { trace: sink } : {}),
  });
  const move = outcome.choice.move;
  const mover = game.toMove(state);
  return {
    move,
    moveName: game.isLegal(state, move) ? game.moveName(state, move) : String(move),
    value: outcome.choice.value ?? null,
    nodes: outcome.nodes,
    evaluations: outcome.evaluations,
    ms: Math.round(outcome.ms * 1000) / 1000,
    algo: plan.algo,
    depth: plan.depth,
    unit: plan.unit,
    terminal: plan.terminal,
    caching: plan.caching,
    ...(plan.freeTurns !== undefined ? { freeTurns: plan.freeTurns } : {}),
    heuristic: plan.heuristic,
    game: game.name,
    rules: setup.rules,
    player: setup.kind === 'mancala' ? (mover === 0 ? 'bottom' : 'top') : mover === 0 ? 'X' : 'O',
    ...(trace === true ? { trace: events } : {}),
  };
}
