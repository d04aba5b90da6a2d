/**
 * The one game loop: two seats (sides A and B), each with its own clock, an opening, the forfeit
 * policy and the cs540 anytime rule, and observers that watch the game as it goes (replays, the
 * terminal of `mancala play`, progress, a web UI). Matches, tournaments, the cs540 gauntlet, the
 * playoff grader and `mancala play` all play their games through `playGame`.
 *
 * - `first` is the side in the bottom seat (player 0), which moves first from the start position
 *   (a start position from a file may have top to move).
 * - Each side has its own clock: every decision may take `timePerMoveMs` (the agent's deadline)
 *   plus the side's grace (`graceMs`; default timeGraceMs, or anytimeGraceMs under the anytime
 *   rule); the time each side used is recorded. A grace of Infinity never times a side out by the
 *   clock: a human, or a trusted opponent whose time is not what is graded.
 * - A crash, a timeout, running out of memory or an illegal move is a failure of that side. Under
 *   the forfeit policy `loss` the side loses the game at once (the stores are recorded as they
 *   stood); under `random-move` a seeded random legal move is played for it and the game goes on.
 *   Either way the first failure is recorded with its reason and a message.
 * - The anytime rule (`anytime`, on by default under the profiles of ANYTIME_PROFILES: seed 003's
 *   cs540; seed 003's framework interrupts the player and plays its best move so far). The agent
 *   is stopped at the sandbox's hard limit: the time per move plus anytimeGraceMs (a quarter,
 *   250 ms to 2 s), the moment the sandbox kills a submission that has not answered. An answer
 *   before then is played as usual. Without one, the last legal move the agent published with
 *   ctx.report during THIS decision is played (counted in `deadlineMoves`); an agent that reported
 *   nothing, or only illegal moves, forfeits with reason timeout. Only a timeout is rescued: a
 *   crash, a memory overrun or an illegal answer is still a failure. An in-process reference
 *   agent cannot be stopped: an answer after the hard limit counts as a timeout, rescued by its
 *   report when its player passes the report on. The report is always this decision's: the
 *   sandbox keeps one per request and runAgent one per call, never an older turn's.
 * - `carryMove` (cs540's course match rules: the course's Java player keeps its field `move`
 *   between turns): a timed-out decision with no legal report this turn plays the side's previous
 *   move — the last move played from its own answer or report — when it is legal now; otherwise
 *   the side forfeits (timeout) as without it.
 * - The time bank (`timeBankMs`; Kaggle's remainingOverageTime): each side also has a bank of
 *   ms. Time a move leaves unspent is not banked; a move over the clock draws the excess on the
 *   bank until it is empty. A decision may then take the clock plus the side's bank left plus its
 *   grace before it is a timeout (and the sandbox stops it there); the agent is told its bank
 *   (`bankMs`). Both are measured as the clock is: the submission's process-tree CPU time, from
 *   outside. The record says how much of its bank each side used (`bankUsed`).
 * - Everything random derives from the game's seed (deriveSeed): the opening (openingPlies), the
 *   seed an agent gets for each move (unless `decisionSeed` says otherwise), the moves played for a
 *   failing side. A game's result does not depend on the thread that played it.
 * - `signal` stops the game between decisions (a human typed quit, an interrupted tournament): the
 *   record says `stopped` and the game is scored as it stood.
 */
import type { Player } from '../contracts/game.ts';
import { stateToBoard } from '../games/mancala/board-io/board.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { createRandom, deriveSeed, randomInt } from '../random.ts';
import { hardLimitGraceMs } from '../sandbox/hard-limit.ts';
import { randomOpening } from './openings.ts';
import { sideToMove, type ForfeitPolicy, type ForfeitReason, type GameRecord, type MatchPlayer, type MoveAttempt, type ReplayLine, type Side } from './types.ts';
import { studentText } from '../student-text.ts';

/**
 * Profiles whose matches follow the anytime rule unless told otherwise: seed 003 (cs540) grades
 * iterative deepening whose best move so far is kept when time runs out.
 */
export const ANYTIME_PROFILES: ReadonlySet<string> = new Set(['cs540']);

/** Whether a match under `rules` (a profile name) follows the anytime rule by default. */
export function anytimeByDefault(rules: string): boolean {
  return ANYTIME_PROFILES.has(rules);
}

/** A game still running after this many moves is stopped and scored as it stands (no real game gets near it). */
export const MAX_PLIES = 10_000;

/** Salts of a game's random sources other than the agents' per-move seeds (plies ≥ 0). */
const OPENING_SOURCE = -1;
const FORFEIT_SOURCE = -2;

/**
 * The extra time a decision may take beyond the time per move before it counts as a timeout:
 * a tenth of it, at least 20 ms and at most 250 ms. An anytime agent that stops at its deadline
 * returns a little after it, and a loaded machine delays any answer by a few ms.
 */
export function timeGraceMs(timePerMoveMs: number): number {
  return Math.min(250, Math.max(20, timePerMoveMs * 0.1));
}

/**
 * The grace under the anytime rule: up to the sandbox's hard limit (framework/sandbox/hard-limit.ts,
 * the very function; that module imports nothing, so a match between reference agents still does
 * not load the sandbox), a quarter of the time per move, at least 250 ms and at most 2 s. A
 * sandboxed agent's answer then never arrives late: it is in before the kill, or the kill's report counts.
 */
export function anytimeGraceMs(timePerMoveMs: number): number {
  return hardLimitGraceMs(timePerMoveMs);
}

/** Why a decision failed: the reason recorded and a message naming the move. */
export interface Failure {
  reason: ForfeitReason;
  message: string;
}

/** A move as it is played: the position before and after, who played it and how it was chosen. */
export interface MoveEvent {
  /** 0-based, the opening's moves included */
  ply: number;
  side: Side;
  before: MancalaState;
  move: number;
  after: MancalaState;
  /** ms the side thought; 0 for opening moves */
  ms: number;
  /** an opening move (seeded random), or a move played for a failing side */
  by?: 'opening' | 'forfeit';
  /** the value the agent gave its move (its answer, or its report under the anytime rule) */
  value?: number;
  /** the decision the move came from (absent for opening moves) */
  attempt?: MoveAttempt;
  /** with a time bank: the side's bank left after this move, ms */
  bankLeftMs?: number;
}

/** Watches a game; every hook is optional and runs before the game goes on. A hook that throws stops the game with its error. */
export interface GameObserver {
  /** a side is about to be asked for a move in `state` */
  onTurn?(e: { ply: number; side: Side; state: MancalaState }): void;
  onMove?(e: MoveEvent): void;
  /** a side's decision failed (the forfeit policy applies next); `state` is the position it failed in */
  onFailure?(e: { ply: number; side: Side; state: MancalaState; failure: Failure; attempt: MoveAttempt }): void;
  /** the game is over (finished, forfeited, truncated or stopped) */
  onEnd?(e: { record: GameRecord; state: MancalaState }): void;
}

export interface PlayGameOptions {
  game: MancalaGame;
  /** the position before the opening */
  start: MancalaState;
  /** moves played from `start` before the agents take over (the opening) */
  opening?: readonly number[];
  /** without `opening`: this many seeded random moves (drawn from `seed`) open the game; default 0 */
  openingPlies?: number;
  players: { A: MatchPlayer; B: MatchPlayer };
  /** the side in the bottom seat (player 0, who moves first from the start position); the other side plays top */
  first: Side;
  /** the game's number in its match, 1-based (recorded, and named in replay lines) */
  index: number;
  timePerMoveMs: number;
  /** each side's grace beyond the time per move (see the module comment); default the same for both */
  graceMs?: Record<Side, number>;
  /**
   * Each side is also stopped at its grace (MatchPlayer.chooseMove's graceMs), not at the
   * sandbox's own hard limit: a fixed grace (cs540's course match rules) is then both. An
   * infinite grace is never passed on.
   */
  stopAtGrace?: boolean;
  forfeit: ForfeitPolicy;
  /** the game's seed: the agents' per-move seeds, the opening (openingPlies) and forfeit moves derive from it */
  seed: number;
  /** the seed an agent gets for the decision at `ply`; default deriveSeed(seed, ply) */
  decisionSeed?: (ply: number) => number;
  /** each move as it is played, with the position before it (a replay line) */
  onReplay?: (line: ReplayLine) => void;
  observers?: readonly GameObserver[];
  /** recorded in the GameRecord: the openings file's start position the game started from */
  startPosition?: number;
  /**
   * The anytime rule (see the module comment): the grace is anytimeGraceMs, and a decision that
   * ran out of time plays the last legal move the agent reported during it instead of failing.
   * Default false; playMatch turns it on for ANYTIME_PROFILES.
   */
  anytime?: boolean;
  /** under the anytime rule, fall back on the side's previous move (see the module comment); default false */
  carryMove?: boolean;
  /** each side's time bank in ms (see the module comment); default 0, none */
  timeBankMs?: number;
  /** stops the game between decisions; the record says `stopped` */
  signal?: AbortSignal;
}

/** A played game (GameRecord carries the anytime rule's deadlineMoves too). */
export type PlayedGameRecord = GameRecord;

type Reported = { move: number; value?: number };

/**
 * The move the agent published with ctx.report during this decision, if the attempt carries one.
 * A failed attempt of a sandboxed agent does (framework/sandbox/session.ts); an answer that came
 * back late carries one when its player passes it on (read from any attempt for that reason).
 */
function reportedOf(a: MoveAttempt): Reported | undefined {
  const r = (a as { reported?: unknown }).reported;
  if (typeof r !== 'object' || r === null) return undefined;
  const { move, value } = r as { move?: unknown; value?: unknown };
  if (typeof move !== 'number' || !Number.isInteger(move)) return undefined;
  return typeof value === 'number' ? { move, value } : { move };
}

/**
 * The anytime rule for a decision that timed out: the reported move to play, or why there is none
 * (added to the timeout's message).
 */
function deadlineMove(a: MoveAttempt, game: MancalaGame, s: MancalaState): Reported | { missing: string } {
  const r = reportedOf(a);
  if (r === undefined) return { missing: 'it reported no move this turn (ctx.report), so there was no move to play' };
  if (!game.isLegal(s, r.move)) return { missing: `its last reported move ${moveText(game, s, r.move)} is not legal here` };
  return r;
}

const REASON_OF: Record<'error' | 'timeout' | 'memory' | 'output-limit', ForfeitReason> = { error: 'crash', timeout: 'timeout', memory: 'memory', 'output-limit': 'output-limit' };

function moveText(game: MancalaGame, s: MancalaState, move: number): string {
  return Number.isInteger(move) && move >= 0 && move < game.n ? `${game.moveName(s, move)} (index ${move})` : String(move);
}

/** What went wrong with a decision, or undefined when it is a legal move in time. */
function failureOf(a: MoveAttempt, game: MancalaGame, s: MancalaState, limitMs: number, graceMs: number, ply: number): Failure | undefined {
  const at = `at move ${ply + 1}`;
  // An answer that is no move (an index off the board, a None) is an illegal move, whoever checked it.
  if (a.status === 'error' && a.illegalMove !== undefined) return illegalMove(game, s, at, a.illegalMove, typeof a.illegalMove === 'string' ? studentText(a.message.replace(/^illegal move: /, '')) : undefined);
  // A failure's words are the player's (a submission's crash, its stderr): terminal-safe in every record of the game.
  if (a.status !== 'ok') return { reason: REASON_OF[a.status], message: `${at}: ${studentText(a.message)}` };
  if (a.ms > limitMs + graceMs) {
    return { reason: 'timeout', message: `${at}: took ${Math.round(a.ms)} ms, the limit is ${limitMs} ms a move` };
  }
  if (!game.isLegal(s, a.move)) return illegalMove(game, s, at, a.move);
  return undefined;
}

/** "at move 3: played None, not a legal move (YourPlayer.chooseMove returned None: …); legal: B1 B2" */
function illegalMove(game: MancalaGame, s: MancalaState, at: string, played: number | string, why?: string): Failure {
  const legal = game.legalMoves(s).map((m) => game.moveName(s, m));
  const what = typeof played === 'number' ? moveText(game, s, played) : played;
  return { reason: 'illegal-move', message: `${at}: played ${what}, not a legal move${why !== undefined ? ` (${why})` : ''}; legal: ${legal.join(' ')}` };
}

const sideIndex = (side: Side): 0 | 1 => (side === 'A' ? 0 : 1);

/** Why the previous move cannot stand in for a missing one (carryMove), or undefined when it can. */
function carryMissing(previous: number | undefined, game: MancalaGame, s: MancalaState): string | undefined {
  if (previous === undefined) return 'it has played no earlier move to fall back on';
  return game.isLegal(s, previous) ? undefined : `its previous move ${moveText(game, s, previous)} is not legal here either`;
}

/** A player's decision; a player that throws (it should not: failures are attempts) counts as a crash. */
async function ask(player: MatchPlayer, game: MancalaGame, s: MancalaState, limitMs: number, seed: number, graceMs: number | undefined, bankMs: number): Promise<MoveAttempt> {
  const start = performance.now();
  try {
    if (bankMs > 0) return await player.chooseMove(game, s, limitMs, seed, graceMs, bankMs);
    return await (graceMs === undefined ? player.chooseMove(game, s, limitMs, seed) : player.chooseMove(game, s, limitMs, seed, graceMs));
  } catch (e) {
    return { status: 'error', message: e instanceof Error ? e.message : String(e), ms: performance.now() - start };
  }
}

/** The observer that turns moves into replay lines. */
function replayRecorder(game: MancalaGame, index: number, onReplay: (line: ReplayLine) => void): GameObserver {
  return {
    onMove: (e) =>
      onReplay({
        game: index,
        ply: e.ply,
        side: e.side,
        before: stateToBoard(game, e.before),
        move: e.move,
        moveName: game.moveName(e.before, e.move),
        ms: e.ms,
        ...(e.by !== undefined ? { by: e.by } : {}),
        ...(e.value !== undefined ? { value: e.value } : {}),
        ...(e.attempt?.status === 'ok' && e.attempt.note !== undefined && e.attempt.move === e.move ? { note: e.attempt.note } : {}),
        ...(e.bankLeftMs !== undefined ? { bankLeftMs: e.bankLeftMs } : {}),
      }),
  };
}

/** Plays one game to its end (or to a forfeit) and records it. Never throws for anything a player does. */
export async function playGame(o: PlayGameOptions): Promise<PlayedGameRecord> {
  const { game } = o;
  const observers = [...(o.onReplay !== undefined ? [replayRecorder(game, o.index, o.onReplay)] : []), ...(o.observers ?? [])];
  const opening = o.opening ?? randomOpening(game, o.start, o.openingPlies ?? 0, createRandom(deriveSeed(o.seed, OPENING_SOURCE)));
  const forfeitRandom = createRandom(deriveSeed(o.seed, FORFEIT_SOURCE));
  const sharedGrace = o.anytime === true ? anytimeGraceMs(o.timePerMoveMs) : timeGraceMs(o.timePerMoveMs);
  const grace = o.graceMs ?? { A: sharedGrace, B: sharedGrace };
  const seedFor = o.decisionSeed ?? ((ply: number) => deriveSeed(o.seed, ply));
  const time: [number, number] = [0, 0];
  const maxMoveMs: [number, number] = [0, 0];
  const decisions: [number, number] = [0, 0];
  const randomMoves: [number, number] = [0, 0];
  const deadlineMoves: [number, number] = [0, 0];
  const carriedMoves: [number, number] = [0, 0];
  const timeBankMs = Math.max(0, o.timeBankMs ?? 0);
  const banked = timeBankMs > 0;
  /** each side's bank left, and how much of it each used */
  const bank: [number, number] = [timeBankMs, timeBankMs];
  const bankUsed: [number, number] = [0, 0];
  /** each side's last move from its own answer or report (carryMove) */
  const previous: [number | undefined, number | undefined] = [undefined, undefined];
  const moves: number[] = [];
  let forfeit: GameRecord['forfeit'] = null;
  let lostBy: Side | undefined;
  let s = o.start;
  // A function, not a property read: TypeScript would assume it cannot change across an await.
  const stopRequested = (): boolean => o.signal?.aborted === true;

  const play = (side: Side, move: number, ms: number, extra: Pick<MoveEvent, 'by' | 'value' | 'attempt'>) => {
    const before = s;
    s = game.play(s, move);
    const bankLeft = banked && extra.by !== 'opening' ? { bankLeftMs: Math.round(bank[sideIndex(side)]) } : {};
    const event: MoveEvent = { ply: moves.length, side, before, move, after: s, ms, ...extra, ...bankLeft };
    moves.push(move);
    for (const ob of observers) ob.onMove?.(event);
  };

  for (const m of opening) {
    if (game.isOver(s)) break;
    play(sideToMove(game.toMove(s), o.first), m, 0, { by: 'opening' });
  }
  const openingPlies = moves.length;

  while (!game.isOver(s) && moves.length < MAX_PLIES && !stopRequested()) {
    const side = sideToMove(game.toMove(s), o.first);
    const k = sideIndex(side);
    const ply = moves.length;
    for (const ob of observers) ob.onTurn?.({ ply, side, state: s });
    const stopGrace = o.stopAtGrace === true && Number.isFinite(grace[side]) ? grace[side] : undefined;
    const bankLeft = bank[k];
    const attempt = await ask(o.players[side], game, s, o.timePerMoveMs, seedFor(ply), stopGrace, bankLeft);
    // Stopped while the side thought (a human typing quit): the decision is dropped, not judged.
    if (stopRequested()) break;
    decisions[k]++;
    time[k] += attempt.ms;
    maxMoveMs[k] = Math.max(maxMoveMs[k], attempt.ms);
    // The bank widens this decision's limit by what is left of it, and loses what the move took over the clock.
    let failure = failureOf(attempt, game, s, o.timePerMoveMs, grace[side] + bankLeft, ply);
    if (banked) {
      const drawn = Math.min(bankLeft, Math.max(0, attempt.ms - o.timePerMoveMs));
      bank[k] -= drawn;
      bankUsed[k] += drawn;
      if (failure?.reason === 'timeout' && attempt.status === 'ok') failure = { ...failure, message: `${failure.message} and its time bank had ${Math.round(bankLeft)} ms left` };
    }
    if (failure === undefined && attempt.status === 'ok') {
      previous[k] = attempt.move;
      play(side, attempt.move, attempt.ms, { attempt, ...(attempt.value !== undefined ? { value: attempt.value } : {}) });
      continue;
    }
    if (o.anytime === true && failure?.reason === 'timeout') {
      const rescue = deadlineMove(attempt, game, s);
      if (!('missing' in rescue)) {
        deadlineMoves[k]++;
        previous[k] = rescue.move;
        play(side, rescue.move, attempt.ms, { attempt, ...(rescue.value !== undefined ? { value: rescue.value } : {}) });
        continue;
      }
      let missing = rescue.missing;
      if (o.carryMove === true) {
        const why = carryMissing(previous[k], game, s);
        if (why === undefined) {
          deadlineMoves[k]++;
          carriedMoves[k]++;
          play(side, previous[k]!, attempt.ms, { attempt });
          continue;
        }
        missing += `; ${why}`;
      }
      failure = { ...failure, message: `${failure.message}; ${missing}` };
    }
    for (const ob of observers) ob.onFailure?.({ ply, side, state: s, failure: failure!, attempt });
    forfeit ??= { side, ...failure! };
    if (o.forfeit === 'loss') {
      lostBy = side;
      break;
    }
    const legal = game.legalMoves(s);
    randomMoves[k]++;
    play(side, legal[randomInt(forfeitRandom, legal.length)]!, attempt.ms, { by: 'forfeit', attempt });
  }

  const a: Player = o.first === 'A' ? 0 : 1;
  const score: [number, number] = [game.finalStore(s, a), game.finalStore(s, a === 0 ? 1 : 0)];
  const winner: Side | 'draw' = lostBy !== undefined ? (lostBy === 'A' ? 'B' : 'A') : score[0] > score[1] ? 'A' : score[1] > score[0] ? 'B' : 'draw';
  const stopped = !game.isOver(s) && lostBy === undefined && stopRequested();
  const record: PlayedGameRecord = {
    index: o.index,
    first: o.first,
    winner,
    score,
    moves,
    openingPlies,
    forfeit,
    time,
    decisions,
    maxMoveMs,
    ...(o.forfeit === 'random-move' ? { randomMoves } : {}),
    ...(o.anytime === true ? { deadlineMoves } : {}),
    ...(o.anytime === true && o.carryMove === true ? { carriedMoves } : {}),
    ...(o.startPosition !== undefined ? { startPosition: o.startPosition } : {}),
    ...(banked ? { timeBankMs, bankUsed: [Math.round(bankUsed[0]), Math.round(bankUsed[1])] as [number, number] } : {}),
    ...(stopped ? { stopped: true } : !game.isOver(s) && lostBy === undefined ? { truncated: true } : {}),
  };
  for (const ob of observers) ob.onEnd?.({ record, state: s });
  return record;
}
