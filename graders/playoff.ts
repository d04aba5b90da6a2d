/**
 * `playoff`: the submission plays `games` games against a reference agent (an agent spec such as
 * "alphabeta:depth=4") and must win at least `winRate` of them.
 *
 * Who plays the submission's side depends on the case's role:
 * - an agent role: the submission's agent, with the case's options;
 * - a heuristic role: the reference alpha-beta with the submission's heuristic, searching as the
 *   case's options say (depth, unit, terminal, caching; the loader fills them in). That is seed
 *   001's test of an advanced heuristic: our alpha-beta with yours against our alpha-beta with
 *   `basic`. The runner hands such a case a GraderSearchPlayer
 *   (framework/grading/grader-search-player.ts): the search runs in the grader, asking the
 *   submission's process (a TypeScript module's sandbox, or a program over stdio) for heuristic
 *   values only. Its forfeits are all the heuristic's, mostly the same failure again, so a
 *   heuristic playoff's message shows the reason of its first forfeit only.
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
import type { SearchConventions } from '../framework/contracts/search-conventions.ts';
import { NOT_WRITTEN_PREFIX, unfinishedPart } from '../framework/contracts/not-implemented.ts';
import { UserError } from '../framework/errors.ts';
import { stateToBoard } from '../framework/games/mancala/board-io/index.ts';
import { MancalaGame, type MancalaState } from '../framework/games/mancala/engine.ts';
import type { CaseStatus, CheckResult, Grader, GradeInput } from '../framework/grading/types.ts';
import { randomOpening } from '../framework/matches/openings.ts';
import { playGame } from '../framework/matches/play-game.ts';
import type { MatchPlayer, MoveAttempt } from '../framework/matches/types.ts';
import { createRandom, mix32 } from '../framework/random.ts';
import type { MoveAsker } from '../framework/sandbox/exchange.ts';
import { runAgent } from '../framework/search/run-agent.ts';
import { DEFAULT_HEURISTIC_PLAYOFF_DEPTH } from '../framework/suites/schema.ts';
import type { CaseOptions, Checks } from '../framework/suites/types.ts';
import { optionsUnder, parseAgentSpec, requireHeuristic, type AgentSpec } from '../framework/plugins/agents.ts';
import { casePosition, conventionsOf, describeLegalMoves, describeMove } from './case-context.ts';

/** Random moves that open each pair of games. */
export const OPENING_PLIES = 2;
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
 * Each game is played by the framework's game loop (playGame) with the submission as side A.
 */
export async function playPlayoff(input: GradeInput, session: MoveAsker): Promise<PlayoffResult> {
  const spec = input.case.checks.playoff!;
  const { game, state: start } = casePosition(input.manifest, input.case);
  if (!(game instanceof MancalaGame)) {
    throw new UserError(`${input.manifest.file}: case ${input.case.id}: a playoff needs a Mancala game (a submission is asked for moves on Mancala boards)`);
  }
  const opponent = parseAgentSpec(spec.opponent);
  const options = opponentOptions(opponent, conventionsOf(input.manifest.game));
  const asked = submissionOptions(input);
  let opening: number[] = [];

  const games: PlayedGame[] = [];
  for (let g = 0; g < spec.games; g++) {
    if (g % 2 === 0) opening = randomOpening(game, start, OPENING_PLIES, createRandom(moveSeed(spec.seed, g, OPENING_SOURCE)));
    const side: Player = g % 2 === 0 ? game.toMove(start) : other(game.toMove(start));
    const submission = submissionPlayer(session, asked, input.case.role);
    let forfeit: Forfeit | undefined;
    const record = await playGame({
      game,
      start,
      opening,
      players: { A: submission.player, B: opponentPlayer(spec.opponent, opponent.agent, options, createRandom(moveSeed(spec.seed, g, OPPONENT_SOURCE))) },
      // The submission's seat: bottom (player 0) is side `first`.
      first: side === 0 ? 'A' : 'B',
      index: g + 1,
      timePerMoveMs: spec.msPerMove,
      // The submission's answer must come within msPerMove; the reference opponent is not on trial.
      graceMs: { A: 0, B: Infinity },
      forfeit: 'loss',
      seed: spec.seed,
      // A seed for each move, so that an agent drawing from ctx.random() does not draw the same number every move.
      decisionSeed: (ply) => moveSeed(spec.seed, g, ply),
      observers: [
        {
          onFailure: (e) => {
            if (e.side === 'B') throw new Error(opponentFailure(spec.opponent, game, e.state, e.attempt));
            forfeit = submissionForfeit(game, e.state, e.ply, e.attempt, spec.msPerMove, submission.answeredMove());
          },
        },
      ],
    });
    const openingNames = openingMoveNames(game, start, opening);
    const plies = record.moves.length;
    if (forfeit !== undefined) {
      games.push({ index: g + 1, side, opening: openingNames, outcome: 'loss', forfeit, plies });
      continue;
    }
    const [mine, theirs] = record.score;
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

function openingMoveNames(game: MancalaGame, start: MancalaState, opening: readonly number[]): string[] {
  const names: string[] = [];
  let s = start;
  for (const m of opening) {
    names.push(game.moveName(s, m));
    s = game.play(s, m);
  }
  return names;
}

/** Stands for "no move" in an answer without one: never legal, so the game loop calls it a failure. */
const NO_MOVE = -1;

/**
 * The submission's side: asked through its session with the case's options and the move's seed.
 * An answer without a move plays its last reported move (an anytime agent cut short).
 */
function submissionPlayer(session: MoveAsker, options: CaseOptions, role: string): { player: MatchPlayer; answeredMove(): number | undefined } {
  let answered: number | undefined;
  const player: MatchPlayer = {
    label: 'submission',
    async chooseMove(game, state, timeLimitMs, seed): Promise<MoveAttempt> {
      answered = undefined;
      const a = await session.chooseMove(stateToBoard(game, state), game.toMove(state), { ...options, seed }, timeLimitMs, role);
      if (a.status !== 'ok') return a;
      const o = a.observation;
      answered = o.move ?? o.reported?.move;
      return { status: 'ok', move: answered ?? NO_MOVE, ms: o.ms };
    },
    close: async () => {},
  };
  return { player, answeredMove: () => answered };
}

/** The reference opponent: runs here with the basic heuristic, drawing from one random source for the whole game. */
function opponentPlayer(label: string, agent: AgentSpec['agent'], options: AgentOptions, random: () => number): MatchPlayer {
  const heuristic = requireHeuristic('basic');
  return {
    label,
    async chooseMove(game, state, timeLimitMs): Promise<MoveAttempt> {
      const outcome = await runAgent(agent, { game, state, heuristic, options, timeLimitMs, random });
      return { status: 'ok', move: outcome.choice.move, ms: outcome.ms };
    },
    close: async () => {},
  };
}

/** A failing reference opponent is a bug of ours, not a forfeit: the playoff stops with an error. */
function opponentFailure(label: string, game: MancalaGame, s: MancalaState, a: MoveAttempt): string {
  if (a.status !== 'ok') return `playoff opponent ${label} failed in ${game.describe(s)}: ${a.message}`;
  return `playoff opponent ${label} chose the illegal move ${a.move} in ${game.describe(s)}`;
}

/** Why the submission forfeits a game, in the playoff's words (the case status it counts as, and the reason). */
function submissionForfeit(game: MancalaGame, s: MancalaState, ply: number, a: MoveAttempt, msPerMove: number, move: number | undefined): Forfeit {
  const where = `at move ${ply + 1}, in ${game.describe(s)}`;
  if (a.status !== 'ok') return { status: a.status, reason: `${a.status} ${where}: ${a.message}` };
  if (a.ms > msPerMove) return { status: 'timeout', reason: `timeout ${where}: took ${Math.round(a.ms)} ms, the limit is ${msPerMove} ms a move` };
  if (move === undefined) return { status: 'failed', reason: `no move ${where}` };
  return { status: 'failed', reason: `illegal move ${describeMove(game, s, move)} ${where}; legal moves: ${describeLegalMoves(game, s)}` };
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
  const forfeited = r.games.filter((g) => g.forfeit !== undefined);
  // A function not written yet is an unfinished part, read first in every course's words ("not
  // written yet: heuristic_advanced"); when every game stopped on it, the games teach nothing more.
  const parts = [...new Set(forfeited.map((g) => unfinishedPart(g.forfeit!.reason)))];
  const unfinished = parts.filter((p): p is string => p !== undefined && p !== '').map((p) => `${NOT_WRITTEN_PREFIX}${p}`);
  if (unfinished.length > 0 && forfeited.length === n && !parts.includes(undefined)) {
    return [...unfinished, `${who}: lost all ${n} games by forfeit, each stopped on a function not written yet; needed a win rate of ${percent(spec.winRate)}`].join('\n');
  }
  const lines = [
    ...unfinished,
    `${who}: won ${r.wins}, drew ${r.draws}, lost ${r.losses} of ${n} games` +
      `${r.forfeits > 0 ? ` (${r.forfeits} by forfeit)` : ''}: win rate ${percent(n > 0 ? r.wins / n : 0)}, needed ${percent(spec.winRate)}`,
  ];
  // A heuristic's forfeits repeat one failure of its own: one reason a playoff, not one a game.
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
