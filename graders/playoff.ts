/**
 * `playoff`: the submission plays `games` games against a reference agent (an agent spec such as
 * "alphabeta:depth=4") and must win at least `winRate` of them.
 *
 * Who plays the submission's side depends on the case's role:
 * - an agent role: the submission's agent, with the case's options;
 * - a heuristic role: the reference alpha-beta with the submission's heuristic, searching as the
 *   case's options say (depth, unit, terminal, caching; the loader fills them in). That is seed
 *   001's test of an advanced heuristic: our alpha-beta with yours against our alpha-beta with
 *   `basic`. The runner hands such a case a player session (framework/sandbox/session.ts: the
 *   reference search runs in a sandboxed process of its own that loads only the heuristic). As
 *   student code in that process can read the reference search, a heuristic playoff's message
 *   shows the reason of its first forfeit only: see session.ts for what bounds that channel.
 *
 * - Colours alternate: the submission takes the side that moves first in the case's position
 *   (bottom, in a start position) in games 1, 3, 5, … and the other side in the others. Games come in pairs that share an opening — `OPENING_PLIES` random moves from a
 *   source seeded by the check's seed — so games differ and each side gets each opening once.
 * - The submission is asked through the session (its sandboxed process), `msPerMove` a move
 *   (its own deadline); the opponent runs in this process through runAgent with the reference
 *   heuristic `basic` and the same time a move.
 * - An error, a timeout (no answer, or an answer after more than msPerMove) or an illegal move by
 *   the submission forfeits that game: it counts as a loss, and the reason is kept.
 * - Draws are not wins: the check passes when wins / games ≥ winRate.
 */
import type { AgentOptions } from '../framework/contracts/agent.ts';
import { other, type Player } from '../framework/contracts/game.ts';
import { UserError } from '../framework/errors.ts';
import { stateToBoard } from '../framework/games/mancala/board-io/index.ts';
import { MancalaGame, type MancalaState } from '../framework/games/mancala/engine.ts';
import type { CaseStatus, CheckResult, Grader, GradeInput, MoveAsker } from '../framework/grading/types.ts';
import { createRandom, mix32, randomInt } from '../framework/random.ts';
import type { SearchConventions } from '../framework/search/conventions.ts';
import { runAgent } from '../framework/search/run-agent.ts';
import { DEFAULT_HEURISTIC_PLAYOFF_DEPTH } from '../framework/suites/schema.ts';
import type { CaseOptions, Checks } from '../framework/suites/types.ts';
import { AGENTS, optionsUnder, parseAgentSpec, requireHeuristic, type AgentSpec } from '../agents/index.ts';
import { casePosition, conventionsOf, describeLegalMoves, describeMove } from './case-context.ts';

/** Random moves that open each pair of games. */
export const OPENING_PLIES = 2;
/** A game still running after this many moves is stopped and scored as it stands (no course's game gets near it). */
const MAX_PLIES = 10_000;
/** The pseudo-plies that name a game's opening and opponent random sources (moveSeed). */
const OPENING_SOURCE = -1;
const OPPONENT_SOURCE = -2;
/** The games a message lists one by one. */
const LISTED_GAMES = 20;

export type PlayoffSpec = NonNullable<Checks['playoff']>;

export interface Forfeit {
  /** failed: an illegal or missing move; the others: what the submission's attempt ended in */
  status: Exclude<CaseStatus, 'passed'>;
  reason: string;
}

export interface PlayedGame {
  /** 1-based */
  index: number;
  /** the submission's side: 0 bottom (moves first), 1 top */
  side: Player;
  opening: string[];
  outcome: 'win' | 'draw' | 'loss';
  /** final stores after the sweep: the submission's, the opponent's (absent when forfeited) */
  stores?: [number, number];
  forfeit?: Forfeit;
  /** moves played, the opening included */
  plies: number;
}

export interface PlayoffResult {
  games: PlayedGame[];
  wins: number;
  draws: number;
  losses: number;
  forfeits: number;
  passed: boolean;
}

/** The opponent's options: its spec's, with the profile's unit, terminal and (for fixed-depth searches) depth where the spec says nothing. */
/** The opponent's options under the suite's conventions (agents/index.ts optionsUnder). */
export const opponentOptions = optionsUnder;

/** True when the case grades a heuristic role: the reference alpha-beta plays with it. */
export function isHeuristicPlayoff(input: GradeInput): boolean {
  return input.manifest.roles[input.case.role]?.kind === 'heuristic';
}

/**
 * The options the submission's side is asked with (a seed is added for each move). A heuristic
 * role's: the reference alpha-beta's search with the heuristic `role:NAME`, as the loader resolves
 * them (filled in again for cases built by hand).
 */
export function submissionOptions(input: GradeInput): CaseOptions {
  const o = input.case.options;
  if (!isHeuristicPlayoff(input)) return o;
  const conventions = conventionsOf(input.manifest.game);
  return {
    depth: o.depth ?? DEFAULT_HEURISTIC_PLAYOFF_DEPTH,
    unit: o.unit ?? conventions.depthUnit,
    terminal: o.terminal ?? conventions.terminal,
    caching: o.caching ?? false,
    heuristic: `role:${input.case.role}`,
  };
}

/**
 * Plays the playoff of `input.case` through `session` (the submission's side: its agent, or for a
 * heuristic role the reference alpha-beta with its heuristic); every game's record and the tally.
 */
export async function playPlayoff(input: GradeInput, session: MoveAsker): Promise<PlayoffResult> {
  const spec = input.case.checks.playoff!;
  const { game, state: start } = casePosition(input.manifest, input.case);
  if (!(game instanceof MancalaGame)) {
    throw new UserError(`${input.manifest.file}: case ${input.case.id}: a playoff needs a Mancala game (a submission is asked for moves on Mancala boards)`);
  }
  const opponent = parseAgentSpec(spec.opponent);
  const options = opponentOptions(opponent, conventionsOf(input.manifest.game));
  const heuristic = requireHeuristic('basic');
  const asked = submissionOptions(input);
  let opening: number[] = [];

  const games: PlayedGame[] = [];
  for (let g = 0; g < spec.games; g++) {
    if (g % 2 === 0) opening = randomOpening(game, start, createRandom(moveSeed(spec.seed, g, OPENING_SOURCE)));
    const side: Player = g % 2 === 0 ? game.toMove(start) : other(game.toMove(start));
    const opponentRandom = createRandom(moveSeed(spec.seed, g, OPPONENT_SOURCE));
    let s = start;
    const openingNames: string[] = [];
    for (const m of opening) {
      openingNames.push(game.moveName(s, m));
      s = game.play(s, m);
    }
    let plies = opening.length;
    let forfeit: Forfeit | undefined;
    while (!game.isOver(s) && plies < MAX_PLIES) {
      const mover = game.toMove(s);
      let move: number;
      if (mover === side) {
        // A seed for each move, so that an agent drawing from ctx.random() does not draw the same number every move.
        const seed = moveSeed(spec.seed, g, plies);
        const answer = await askSubmission(session, game, s, { ...asked, seed }, spec.msPerMove, plies, input.case.role);
        if ('forfeit' in answer) {
          forfeit = answer.forfeit;
          break;
        }
        move = answer.move;
      } else {
        const outcome = await runAgent(opponent.agent, { game, state: s, heuristic, options, timeLimitMs: spec.msPerMove, random: opponentRandom });
        move = outcome.choice.move;
        if (!game.isLegal(s, move)) throw new Error(`playoff opponent ${spec.opponent} chose the illegal move ${move} in ${game.describe(s)}`);
      }
      s = game.play(s, move);
      plies++;
    }
    if (forfeit !== undefined) {
      games.push({ index: g + 1, side, opening: openingNames, outcome: 'loss', forfeit, plies });
      continue;
    }
    const mine = game.finalStore(s, side);
    const theirs = game.finalStore(s, other(side));
    const outcome = mine > theirs ? 'win' : mine === theirs ? 'draw' : 'loss';
    games.push({ index: g + 1, side, opening: openingNames, outcome, stores: [mine, theirs], plies });
  }
  const count = (o: PlayedGame['outcome']) => games.filter((x) => x.outcome === o).length;
  const wins = count('win');
  return {
    games,
    wins,
    draws: count('draw'),
    losses: count('loss'),
    forfeits: games.filter((x) => x.forfeit !== undefined).length,
    passed: spec.games > 0 && wins / spec.games >= spec.winRate,
  };
}


/**
 * A seed in 0 .. 2^31-1 for ply `ply` of game `g` (negative plies name the game's other sources).
 * Hashed, not just added: createRandom's first draw follows its seed closely, so nearby seeds
 * would start every source alike.
 */
export function moveSeed(seed: number, g: number, ply: number): number {
  return mix32(mix32(mix32(seed) ^ Math.floor(seed / 2 ** 32)) + g * 0x9e3779b9 + ply) & 0x7fffffff;
}

/** `OPENING_PLIES` uniformly random legal moves from `start` (fewer if the game ends). */
function randomOpening(game: MancalaGame, start: MancalaState, random: () => number): number[] {
  const moves: number[] = [];
  let s = start;
  for (let k = 0; k < OPENING_PLIES && !game.isOver(s); k++) {
    const legal = game.legalMoves(s);
    const m = legal[randomInt(random, legal.length)]!;
    moves.push(m);
    s = game.play(s, m);
  }
  return moves;
}

async function askSubmission(
  session: MoveAsker,
  game: MancalaGame,
  s: MancalaState,
  options: GradeInput['case']['options'],
  msPerMove: number,
  plies: number,
  role: string,
): Promise<{ move: number } | { forfeit: Forfeit }> {
  const where = `at move ${plies + 1}, in ${game.describe(s)}`;
  const attempt = await session.chooseMove(stateToBoard(game, s), game.toMove(s), options, msPerMove, role);
  if (attempt.status !== 'ok') return { forfeit: { status: attempt.status, reason: `${attempt.status} ${where}: ${attempt.message}` } };
  const o = attempt.observation;
  if (o.ms > msPerMove) {
    return { forfeit: { status: 'timeout', reason: `timeout ${where}: took ${Math.round(o.ms)} ms, the limit is ${msPerMove} ms a move` } };
  }
  const move = o.move ?? o.reported?.move;
  if (move === undefined) return { forfeit: { status: 'failed', reason: `no move ${where}` } };
  if (!game.isLegal(s, move)) {
    return { forfeit: { status: 'failed', reason: `illegal move ${describeMove(game, s, move)} ${where}; legal moves: ${describeLegalMoves(game, s)}` } };
  }
  return { move };
}

const percent = (x: number): string => `${Math.round(x * 1000) / 10}%`;

function gameLine(g: PlayedGame): string {
  const you = g.side === 0 ? 'bottom, first' : 'top, second';
  const opening = g.opening.length > 0 ? `opening ${g.opening.join(' ')}` : 'no opening';
  const result = g.forfeit !== undefined ? 'lost by forfeit' : `${g.outcome === 'win' ? 'won' : g.outcome === 'draw' ? 'drew' : 'lost'} ${g.stores![0]}–${g.stores![1]}`;
  return `  game ${g.index} (you ${you}; ${opening}): ${result} after ${g.plies} moves`;
}

/** "the reference alpha-beta (depth 4) with your heuristic" */
function heuristicSide(options: CaseOptions): string {
  return `the reference alpha-beta (${options.depth === null || options.depth === undefined ? 'no depth limit' : `depth ${options.depth}`}) with your heuristic`;
}

/** The check's message: the tally, each forfeit's reason, each game, the position and the options. */
export function playoffMessage(input: GradeInput, r: PlayoffResult): string {
  const spec = input.case.checks.playoff!;
  const n = r.games.length;
  const heuristicRole = isHeuristicPlayoff(input);
  const options = submissionOptions(input);
  const who = heuristicRole ? `playoff of ${heuristicSide(options)} against ${spec.opponent}` : `playoff against ${spec.opponent}`;
  const lines = [
    `${who}: won ${r.wins}, drew ${r.draws}, lost ${r.losses} of ${n} games` +
      `${r.forfeits > 0 ? ` (${r.forfeits} by forfeit)` : ''}: win rate ${percent(n > 0 ? r.wins / n : 0)}, needed ${percent(spec.winRate)}`,
  ];
  const forfeited = r.games.filter((g) => g.forfeit !== undefined);
  // A heuristic's process can read the reference search: one reason of its own words a playoff, not one a game.
  const shown = heuristicRole ? forfeited.slice(0, 1) : forfeited;
  for (const g of shown) lines.push(`forfeit in game ${g.index}: ${g.forfeit!.reason}`);
  if (forfeited.length > shown.length) {
    const others = forfeited.slice(shown.length);
    const statuses = [...new Set(others.map((g) => g.forfeit!.status))].join(', ');
    lines.push(`forfeits in games ${others.map((g) => g.index).join(', ')} too (${statuses}); only the first reason is shown for a heuristic's playoff`);
  }
  if (r.passed) return lines.join('\n');
  lines.push(`games (your stones first; ${OPENING_PLIES} random opening moves, seed ${spec.seed}; ${spec.msPerMove} ms a move):`);
  lines.push(...r.games.slice(0, LISTED_GAMES).map(gameLine));
  if (n > LISTED_GAMES) lines.push(`  … and ${n - LISTED_GAMES} more`);
  const { description } = casePosition(input.manifest, input.case);
  lines.push(`position: ${description}`);
  if (heuristicRole) lines.push(`your side: ${heuristicSide(options)} (role ${input.case.role}), options ${JSON.stringify(options)}`);
  else lines.push(`options handed to your agent: ${JSON.stringify(input.case.options)}`);
  lines.push(`opponent: ${spec.opponent} with the basic heuristic (options ${JSON.stringify(opponentOptions(parseAgentSpec(spec.opponent), conventionsOf(input.manifest.game)))})`);
  return lines.join('\n');
}

const playoff: Grader = {
  check: 'playoff',
  async grade(input): Promise<CheckResult> {
    if (input.session === undefined) throw new Error(`case ${input.case.id}: the playoff check needs a session to ask the submission for moves`);
    const result = await playPlayoff(input, input.session);
    const message = playoffMessage(input, result);
    if (result.passed) return { check: 'playoff', passed: true, message };
    const status = result.games.map((g) => g.forfeit?.status).find((s) => s !== undefined && s !== 'failed');
    return { check: 'playoff', passed: false, message, ...(status !== undefined ? { status } : {}) };
  },
};

export default playoff;
