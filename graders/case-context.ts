/**
 * What every grader needs to know about a case besides the answers: the game and the position
 * (as the runner hands it to the submission: the board's side to move, else bottom), how to name
 * a move in it, and what the reference was asked to do (the role's agent spec and the options).
 *
 * The reference's options are resolved as the suite loader resolves a case's (load.ts), and as
 * `suite bless` then runs them: the profile's conventions, overridden by the role's reference spec
 * ("alphabeta:depth=4"), overridden by the case's options. A loaded case already holds them all;
 * resolving again keeps the graders right for cases built by hand.
 */
import type { Game, Player } from '../framework/contracts/game.ts';
import type { DepthUnit, FreeTurns, TerminalEvaluation } from '../framework/contracts/search-conventions.ts';
import { MancalaGame } from '../framework/games/mancala/engine.ts';
import { boardToState, type BoardSpec } from '../framework/games/mancala/board-io/index.ts';
import type { TicTacToeGame } from '../framework/games/tictactoe/game.ts';
import { caseGame, conventionsOf, createGame } from '../framework/suites/game.ts';
import type { GameSpec, Manifest, SuiteCase } from '../framework/suites/types.ts';
import { agentTable, parseAgentSpec } from '../framework/plugins/agents.ts';

/** A fresh game for the suite's game spec (the one builder the loader, bless and the runner share). */
export const gameOf: (spec: GameSpec) => Game<any> = createGame;
export { conventionsOf };

export interface CasePosition {
  game: Game<any>;
  state: any;
  /** the side to move: the agent's side (and the heuristic's point of view) */
  player: Player;
  /** one line, e.g. "kalah(6,4): top [4 4 4 4 4 4] store 0, bottom [4 4 4 4 4 4] store 0, bottom to move" */
  description: string;
}

/** The side to move in a case, as the runner hands it to the submission. */
export function casePlayer(c: SuiteCase): Player {
  return c.board.toMove ?? 0;
}

export function casePosition(manifest: Manifest, c: SuiteCase): CasePosition {
  return positionOf(caseGame(manifest, c), c.board, casePlayer(c), c.tictactoe);
}

/** A position of the suite's game: a Mancala board with the side to move, or a Tic-Tac-Toe board string. */
export function positionOf(spec: GameSpec, board: BoardSpec, player: Player, tictactoe?: string): CasePosition {
  const game = gameOf(spec);
  if (game instanceof MancalaGame) {
    const state = boardToState(game, board, player);
    return { game, state, player, description: `${game.name}: ${game.describe(state)}` };
  }
  const ttt = game as TicTacToeGame;
  const state = tictactoe === undefined ? ttt.initial() : ttt.fromString(tictactoe);
  const mover = ttt.toMove(state);
  return { game, state, player: mover, description: describeTicTacToe(ttt, state) };
}

export function describeTicTacToe(game: TicTacToeGame, state: ReturnType<TicTacToeGame['initial']>): string {
  const status = game.isOver(state) ? 'game over' : `${game.toMove(state) === 0 ? 'X' : 'O'} to move`;
  return `tictactoe: ${game.toBoardString(state)}, ${status}`;
}

/** A one-line description of any state of the position's game. */
export function describeState(game: Game<any>, state: any): string {
  if (game instanceof MancalaGame) return `${game.name}: ${game.describe(state)}`;
  return describeTicTacToe(game as TicTacToeGame, state);
}

/**
 * A move as a student reads it: "B3 (index 3)" for Mancala ("cup 4 (index 3)" under the cpsc4610
 * profile's cups), "cell 4" for Tic-Tac-Toe, the bare number when it names no pit or cell at all.
 */
export function describeMove(game: Game<any>, state: any, move: number | undefined): string {
  if (move === undefined) return 'no move';
  if (!Number.isInteger(move) || move < 0 || move >= game.maxMoves) return `${move} (not a ${game.kind === 'mancala' ? 'pit index' : 'cell'})`;
  if (game instanceof MancalaGame) return `${game.rules.pitNaming === 'cups' ? 'cup ' : ''}${game.moveName(state, move)} (index ${move})`;
  if (game.kind === 'mancala') return `${game.moveName(state, move)} (index ${move})`;
  return `cell ${move}`;
}

/** The legal moves of the position, described, or "none (the game is over)". */
export function describeLegalMoves(game: Game<any>, state: any): string {
  const moves = game.legalMoves(state);
  if (moves.length === 0) return 'none (the game is over)';
  return moves.map((m) => describeMove(game, state, m)).join(', ');
}

// ---- the reference's plan --------------------------------------------------------------------

/** What the reference agent of the case's role was asked: the resolved options. */
export interface ReferencePlan {
  /** the role's reference spec as the manifest writes it, e.g. "alphabeta:caching=true" */
  spec: string;
  /** the reference agent's name: random, greedy, minimax, alphabeta, ids, strong */
  agent: string;
  /** null: no depth limit */
  depth: number | null;
  unit: DepthUnit;
  terminal: TerminalEvaluation;
  caching: boolean;
  /** `ignore`: the reference's players alternate every move (spec `freeTurns=ignore`, seed 002's provided minimax) */
  freeTurns: FreeTurns;
  /** the reference heuristic's name (basic, advanced) */
  heuristic: string;
  /** set when the case hands the agent another role's heuristic (`role:NAME`): that role's name */
  heuristicRole?: string;
  /** anytime agents' budget, when the case gives one */
  ms?: number;
}

/** The reference plan of an agent case; undefined for a heuristic role. */
export function referencePlan(manifest: Manifest, c: SuiteCase): ReferencePlan | undefined {
  const role = manifest.roles[c.role];
  if (role === undefined || role.kind !== 'agent') return undefined;
  const spec = parseAgentSpec(role.reference);
  const reads = new Set<string>(agentTable()[spec.name]!.options);
  const conventions = conventionsOf(manifest.game);
  const o = c.options;
  const pick = <K extends 'depth' | 'unit' | 'terminal' | 'caching'>(key: K): unknown => (o[key] !== undefined ? o[key] : spec.options[key]);
  const depthGiven = pick('depth');
  let depth: number | null = depthGiven === undefined ? conventions.defaultDepth : (depthGiven as number | null);
  if (typeof depth === 'number' && depth < 0) depth = null;
  if (spec.name === 'greedy') depth = 1;
  const heuristicOption = o.heuristic ?? 'basic';
  const fromRole = heuristicOption.startsWith('role:') ? heuristicOption.slice('role:'.length) : undefined;
  const heuristic = fromRole === undefined ? heuristicOption : (manifest.roles[fromRole]?.reference ?? 'basic');
  return {
    spec: role.reference,
    agent: spec.name,
    depth,
    unit: (pick('unit') as DepthUnit | undefined) ?? conventions.depthUnit,
    terminal: (pick('terminal') as TerminalEvaluation | undefined) ?? conventions.terminal,
    caching: reads.has('caching') && pick('caching') === true,
    freeTurns: reads.has('freeTurns') && (spec.options.freeTurns ?? conventions.freeTurns) === 'ignore' ? 'ignore' : 'honour',
    heuristic,
    ...(fromRole !== undefined ? { heuristicRole: fromRole } : {}),
    ...(o.ms !== undefined ? { ms: o.ms } : {}),
  };
}

/** "alphabeta, depth 4 (unit move), terminal score, heuristic basic, no caching" */
export function describePlan(plan: ReferencePlan): string {
  const depth = plan.depth === null ? 'no depth limit' : `depth ${plan.depth}`;
  const heuristic = plan.heuristicRole === undefined ? `heuristic ${plan.heuristic}` : `heuristic of role ${plan.heuristicRole} (reference: ${plan.heuristic})`;
  const parts = [plan.agent, `${depth} (unit ${plan.unit})`, `terminal ${plan.terminal}`, heuristic, plan.caching ? 'caching' : 'no caching'];
  if (plan.freeTurns === 'ignore') parts.push('free turns ignored (players alternate every move)');
  if (plan.ms !== undefined) parts.push(`${plan.ms} ms`);
  return parts.join(', ');
}

/** The options line of a failure message: the reference plan, or what a heuristic case asks. */
export function describeCaseOptions(manifest: Manifest, c: SuiteCase): string {
  const plan = referencePlan(manifest, c);
  if (plan !== undefined) return describePlan(plan);
  const side = manifest.game.kind === 'mancala' ? (casePlayer(c) === 0 ? 'bottom' : 'top') : casePlayer(c) === 0 ? 'X' : 'O';
  return `evaluate the board from ${side}'s point of view (role ${c.role}, reference heuristic ${manifest.roles[c.role]?.reference ?? '?'})`;
}
